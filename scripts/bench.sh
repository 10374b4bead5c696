#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# AlignGuard's benchmark suite (issues 5 and 13): for LLVM 14 and 22, builds
# every variant of the kernels in bench/kernels (plain -O3; align-guard<abort>,
# <fallback> on aligned and misaligned input, <recover>, <return=-1>; UBSan's
# alignment check with its runtime and trapping) for baseline x86-64 (SSE2)
# and x86-64-v3 (AVX2, fewer sizes), counts instructions with callgrind,
# times all variants in one interleaved run, measures opt -O2's compile time
# with and without the plugin (generated promise-dense and TVM-shaped
# modules) and clang -O2 on third-party TUs (Eigen, Highway, xsimd, a plain C
# program). The measurement (bench/suite.py, bench/run.py, bench/measure/)
# writes bench/results/*/measurements.json and bench/results/suite.json; the
# report (bench/report.py, bench/reporting/) renders bench/RESULTS.md and
# bench/results/*/overhead.png from them alone. Issue 13 asks for under 20
# minutes on a 2-vCPU VM (RESULTS.md says how long the run took); the
# compile-time pairs and callgrind counts run in one lane per CPU
# (bench/README.md). --quick: fewer sizes, repetitions and modules.
#
#   scripts/bench.sh [--quick] [--llvm N] [--rebuild] [--build-root DIR]
#                    [--build-only]
#
# --llvm N: one LLVM major (default: 14 and 22); uses build-N. The plugin
# and runtime are built when build-N lacks them; --rebuild runs `cmake
# --build` anyway (otherwise an existing build is measured as it is).
# --build-root DIR: use DIR/build-N instead of the checkout's (built in the
# same way; DIR relative to the current directory). --build-only: build what
# the suite measures and stop (what the build needs is installed, as
# setup.sh does; nothing is measured). Installs what is missing with apt
# (as root, or with sudo), like scripts/setup.sh.
set -euo pipefail
caller_dir=$PWD
cd "$(dirname "$0")/.."

majors=()
rebuild=0
build_only=0
root=
args=()
while (($#)); do
  case "$1" in
    --quick) args+=(--quick) ;;
    --llvm) majors+=("${2:?--llvm needs a major}"); shift ;;
    --llvm=*) majors+=("${1#--llvm=}") ;;
    --rebuild) rebuild=1 ;;
    --build-only) build_only=1 ;;
    --build-root) root=${2:?--build-root needs a directory}; shift ;;
    --build-root=*) root=${1#--build-root=} ;;
    -h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
((${#majors[@]})) || majors=(14 22)
[[ -z "$root" || "$root" == /* ]] || root="$caller_dir/$root"

# The build's dependencies (clang, opt, llvm-nm, cmake, libdlpack-dev,
# Highway, xsimd, SIMDe, ...).
scripts/setup.sh "${majors[@]}"

# What the suite measures of each major (bench/suite.py, snapshot): the
# plugin and the runtime archive, runtime/libalignguard_rt.a (target
# alignguard_rt).
suite_files=(AlignGuard.so runtime/libalignguard_rt.a)
for n in "${majors[@]}"; do
  build="${root:-.}/build-$n"
  lacks=0
  for f in "${suite_files[@]}"; do [[ -f "$build/$f" ]] || lacks=1; done
  if ((rebuild || lacks)); then
    echo "bench.sh: building the plugin and runtime in $build"
    cmake -S . -B "$build" -DLLVM_DIR="/usr/lib/llvm-$n/lib/cmake/llvm" >/dev/null
    cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" \
      --target AlignGuard alignguard_rt >/dev/null
  fi
  for f in "${suite_files[@]}"; do
    [[ -f "$build/$f" ]] || {
      echo "bench.sh: $build/$f is missing after the build" >&2
      exit 1
    }
  done
done
if ((build_only)); then
  echo "bench.sh: built what the suite measures for LLVM ${majors[*]}"
  exit 0
fi

# The benchmark's own: valgrind (callgrind), matplotlib for Debian's python3
# (the plot; /usr/bin/python3 runs the suite, whatever python3 is first on
# PATH), Eigen for the third-party TU, and the UBSan runtime for
# -fsanitize=alignment without -trap (libclang-rt-N-dev on Debian 12; an
# older layout had it in libclang-common-N-dev, which setup.sh's clang-N
# pulls in).
missing=()
command -v valgrind >/dev/null || missing+=(valgrind)
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || missing+=(python3-matplotlib)
[[ -f /usr/include/eigen3/Eigen/Dense ]] || missing+=(libeigen3-dev)
for n in "${majors[@]}"; do
  rtdir=$("/usr/lib/llvm-$n/bin/clang" -print-runtime-dir)
  compgen -G "$rtdir/libclang_rt.ubsan_standalone*.so" >/dev/null || missing+=("libclang-rt-$n-dev")
done
if ((${#missing[@]})); then
  echo "bench.sh: installing ${missing[*]}"
  sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || {
      echo "bench.sh: need root to install: ${missing[*]}" >&2
      exit 1
    }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

suite=()
for n in "${majors[@]}"; do suite+=(--llvm "$n"); done

command="scripts/bench.sh${args[*]:+ ${args[*]}}"
[[ "${majors[*]}" == "14 22" ]] || command+=" $(printf -- '--llvm %s ' "${majors[@]}")"
command=${command% }
[[ -z "$root" ]] || command+=" --build-root $root"
exec /usr/bin/python3 bench/suite.py "${args[@]}" "${suite[@]}" \
  ${root:+--build-root "$root"} --command "${command% }"
