#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# examples/eigen against an installed AlignGuard: an Eigen
# Map<VectorXf, Aligned32> kernel, -mavx2, its target linked with the plain
# target_link_libraries signature, then alignguard_instrument(). Without
# ACCESSES the build warns, naming the switch; with it, a view one float
# past a 32-byte boundary is reported (not a segfault).
#
#   eigen-test.sh BUILD WORK CLANG
set -euo pipefail
build=$1 work=$2 clang=$3
src=$(cd "$(dirname "$0")/../../examples/eigen" && pwd)
[[ -f /usr/include/eigen3/Eigen/Core ]] || {
  echo "eigen-test.sh: SKIP: Eigen is not installed (libeigen3-dev)"
  exit 77
}
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src" -B "$work/b" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="${clang}++" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
fail() {
  echo "eigen-test.sh: $*" >&2
  exit 1
}
cmake --build "$work/b" --target axpy_default >"$work/default.log" 2>&1 ||
  fail "axpy_default does not build: $(tail -5 "$work/default.log")"
grep -q "in function '_Z4axpyfPKfPfl': over-aligned accesses to argument #[12].* are not checked; add the 'accesses' option" "$work/default.log" ||
  fail "no warning naming the accesses switch: $(cat "$work/default.log")"
cmake --build "$work/b" --target axpy_checked >"$work/checked.log" 2>&1 ||
  fail "axpy_checked does not build: $(tail -5 "$work/checked.log")"
! grep -q "warning:" "$work/checked.log" || fail "axpy_checked warns: $(cat "$work/checked.log")"
[[ $("$work/b/axpy_checked" 0) == "y[3] = 7" ]] || fail "axpy_checked 0: wrong result"
status=0
"$work/b/axpy_checked" 1 >"$work/run.out" 2>"$work/run.err" || status=$?
((status == 134)) || fail "axpy_checked 1 exited $status, not 134: $(cat "$work/run.err")"
grep -Eq "^alignguard: axpy\(float, float const\*, float\*, long\): argument #[12] = 0x[0-9a-f]+ is 4-byte aligned, not 32-byte aligned" "$work/run.err" ||
  fail "no report: $(cat "$work/run.err")"
echo "eigen-test.sh: the default build warns about the accesses, ACCESSES reports the misaligned view"
