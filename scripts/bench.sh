#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# AlignGuard's benchmark suite (issue 5): builds every variant of the kernels
# in bench/kernels (plain -O3; align-guard<abort>, <fallback> on aligned and
# misaligned input, <recover>; UBSan's alignment check with its runtime and
# trapping), counts instructions with callgrind, times all variants in one
# interleaved run, measures opt -O2's compile time with and without the
# plugin, and writes bench/RESULTS.md and bench/overhead.png. About 7
# minutes on a 2-core machine; --quick: fewer sizes and repetitions, about 1.
#
#   scripts/bench.sh [--quick] [--llvm N] [--rebuild]
#
# --llvm N: the LLVM major (default 14); uses build-N. The plugin and runtime
# are built when build-N lacks them; --rebuild runs `cmake --build` anyway
# (otherwise an existing build is measured as it is). Installs what is
# missing with apt (as root, or with sudo), like scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

n=14
rebuild=0
args=()
while (($#)); do
  case "$1" in
    --quick) args+=(--quick) ;;
    --llvm) n=${2:?--llvm needs a major}; shift ;;
    --llvm=*) n=${1#--llvm=} ;;
    --rebuild) rebuild=1 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# The build's dependencies (clang, opt, llvm-nm, cmake, libdlpack-dev, ...).
scripts/setup.sh "$n"

# The benchmark's own: valgrind (callgrind), matplotlib for Debian's python3
# (the plot; /usr/bin/python3 runs run.py, whatever python3 is first on
# PATH), and the UBSan runtime for -fsanitize=alignment without -trap
# (libclang-rt-N-dev on Debian 12; an older layout had it in
# libclang-common-N-dev, which setup.sh's clang-N pulls in).
clang="/usr/lib/llvm-$n/bin/clang"
missing=()
command -v valgrind >/dev/null || missing+=(valgrind)
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || missing+=(python3-matplotlib)
rtdir=$("$clang" -print-runtime-dir)
compgen -G "$rtdir/libclang_rt.ubsan_standalone*.so" >/dev/null || missing+=("libclang-rt-$n-dev")
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

build="build-$n"
if ((rebuild)) || [[ ! -f "$build/AlignGuard.so" || ! -f "$build/runtime/libalignguard_rt.a" ]]; then
  echo "bench.sh: building the plugin and runtime in $build"
  cmake -S . -B "$build" -DLLVM_DIR="/usr/lib/llvm-$n/lib/cmake/llvm" >/dev/null
  cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" \
    --target AlignGuard alignguard_rt >/dev/null
fi

exec /usr/bin/python3 bench/run.py --llvm "$n" "${args[@]}"
