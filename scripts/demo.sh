#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Demo: builds AlignGuard (LLVM 14 unless a major is given), compiles
# examples/vadd.c at -O2 without and with clang -fpass-plugin, and runs it
# on a view one float past a 64-byte boundary (plain: a crash far from the
# cause; instrumented: the report, then abort) and on an aligned buffer
# (accepted).
#
#   scripts/demo.sh [MAJOR]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-14}
echo "demo.sh: installing what is missing for LLVM $n (scripts/setup.sh)" >&2
scripts/setup.sh "$n"
build="build-$n"
echo "demo.sh: building the plugin and the runtime in $build" \
  "(the first build takes a few minutes)" >&2
cmake -S . -B "$build" -DLLVM_DIR="/usr/lib/llvm-$n/lib/cmake/llvm" >/dev/null
# Progress, one line per step, on stderr; the demo's own output stays clean.
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" \
  --target AlignGuard alignguard_rt |
  { grep --line-buffered -E '^\[ *[0-9]+%\]' || true; } | sed 's/^/demo.sh: /' >&2

out="$build/demo"
mkdir -p "$out"
clang="/usr/lib/llvm-$n/bin/clang"
set -x
"$clang" -O2 -g examples/vadd.c -o "$out/vadd-plain"
"$clang" -O2 -g -fpass-plugin="$build/AlignGuard.so" \
  examples/vadd.c "$build/runtime/libalignguard_rt.a" -o "$out/vadd"
set +x

echo
echo "--- without AlignGuard, misaligned view: ./vadd-plain 1"
status=0
"$out/vadd-plain" 1 || status=$?
echo "exit status $status (the aligned vector code met a misaligned address)"

echo
echo "--- aligned buffer: ./vadd 0"
"$out/vadd" 0
echo
echo "--- misaligned view (a + 1 float): ./vadd 1"
status=0
"$out/vadd" 1 || status=$?
echo "exit status $status (134: abort after the report)"
if ((status == 0)); then
  echo "demo.sh: the misaligned call was NOT caught" >&2
  exit 1
fi
