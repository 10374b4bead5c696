#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Real compilers' IR, made now by the compilers of one LLVM major, for the
# fuzzer's corpus (fuzz.py --corpus OUT): the sources of the corpus tests
# (tests/lit/corpus/Inputs/src) through clang's C, C++ (Eigen, Highway,
# SIMDe), OpenCL (SPIR and an x86-64 host), CUDA and HIP; rustc; MLIR
# (tests/lit/programs/Inputs/mlir); Halide (Debian's, LLVM 14 IR).
#
#   tests/fuzz/real-ir.sh MAJOR OUT
#
# A family whose compiler or headers this machine lacks is skipped, and
# says so on stderr; so is a module this LLVM cannot read (rustc's IR needs
# the LLVM rustc bundles, or a newer one). Prints how many files it wrote.
set -euo pipefail
[[ $# == 2 ]] || { echo "usage: real-ir.sh MAJOR OUT" >&2; exit 2; }
major=$1
out=$(mkdir -p "$2" && cd "$2" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
src=$root/tests/lit/corpus/Inputs/src
bin=/usr/lib/llvm-$major/bin
cc=$bin/clang
cxx=$bin/clang++
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nopasses=(-Xclang -disable-llvm-passes)
host=(-target x86_64-unknown-linux-gnu)

skip() { echo "real-ir: skipped $1: $2" >&2; }
# emit NAME CMD...: runs CMD in src/ writing $tmp/out.ll, keeps it as
# OUT/NAME.ll when this LLVM reads it.
emit() {
  local name=$1
  shift
  rm -f "$tmp/out.ll"
  if ! (cd "$src" && "$@" -o "$tmp/out.ll") >"$tmp/log" 2>&1; then
    skip "$name" "the compiler failed: $(grep -m1 -i error "$tmp/log" || tail -1 "$tmp/log")"
  elif ! "$bin/opt" -disable-output "$tmp/out.ll" 2>"$tmp/log"; then
    skip "$name" "LLVM $major cannot read it: $(head -1 "$tmp/log")"
  else
    mv "$tmp/out.ll" "$out/$name.ll"
  fi
}

for level in "-O0 -g" "-O2 ${nopasses[*]}"; do
  tag=$(echo "$level" | cut -d' ' -f1)
  # shellcheck disable=SC2086
  emit "c$tag" "$cc" "${host[@]}" -S -emit-llvm $level clang_c_assume_aligned.c
  # shellcheck disable=SC2086
  emit "simde$tag" "$cc" "${host[@]}" -S -emit-llvm $level simde_sse.c
done
if [[ -d /usr/include/eigen3 ]]; then
  emit eigen "$cxx" "${host[@]}" -S -emit-llvm -O1 "${nopasses[@]}" \
    -fno-exceptions -I/usr/include/eigen3 eigen_kernels.cpp
else skip eigen "no /usr/include/eigen3 (libeigen3-dev)"; fi
if [[ -f /usr/include/hwy/highway.h ]]; then
  emit hwy "$cxx" "${host[@]}" -march=x86-64-v2 -S -emit-llvm -O1 \
    "${nopasses[@]}" -fno-exceptions hwy_kernels.cpp
else skip hwy "no /usr/include/hwy (libhwy-dev)"; fi
for target in spir64 x86_64-unknown-linux-gnu; do
  emit "opencl-${target%%-*}" "$cc" -x cl -cl-std=CL2.0 -Xclang \
    -finclude-default-header -target "$target" -S -emit-llvm -O1 \
    "${nopasses[@]}" opencl_kernels.cl
done
emit cuda "$cc" -x cuda --cuda-device-only -nocudainc -nocudalib \
  --cuda-gpu-arch=sm_70 -Wno-unknown-cuda-version -S -emit-llvm -O1 \
  "${nopasses[@]}" -g cuda_kernels.cu
emit hip "$cc" -x hip --cuda-device-only -nogpulib -nogpuinc \
  --offload-arch=gfx906 -S -emit-llvm -O1 "${nopasses[@]}" hip_kernels.hip
if command -v rustc >/dev/null; then
  emit rustc-O0 rustc --crate-type=lib --emit=llvm-ir -C opt-level=0 \
    -C panic=abort rust_kernels.rs
  emit rustc-O2 rustc --crate-type=lib --emit=llvm-ir -C opt-level=2 \
    -C no-prepopulate-passes -C panic=abort rust_kernels.rs
else skip rustc "no rustc"; fi
if [[ -x $bin/mlir-opt && -x $bin/mlir-translate ]]; then
  for f in "$root"/tests/lit/programs/Inputs/mlir/*.mlir; do
    emit "mlir-$(basename "$f" .mlir)" python3 "$root/tests/tools/mlir-lower.py" \
      --bin "$bin" "$f"
  done
else skip mlir "no $bin/mlir-opt (mlir-$major-tools)"; fi
if [[ -f /usr/include/halide14/Halide.h ]] && command -v g++ >/dev/null; then
  if g++ -std=c++17 -O1 -I/usr/include/halide14 "$src/halide_brighten.cpp" \
      -o "$tmp/halide_gen" -lHalide14 2>"$tmp/log"; then
    # the generator takes its output file alone, not `-o FILE`
    emit halide bash -c '"$1" "$3"' - "$tmp/halide_gen"
  else skip halide "the generator did not build: $(head -1 "$tmp/log")"; fi
else skip halide "no Halide 14 (libhalide14-0-dev)"; fi
echo "real-ir: LLVM $major: $(ls "$out" | wc -l) modules in $out"
