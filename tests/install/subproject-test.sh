#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# AlignGuard used through add_subdirectory (subproject/): configuring the
# parent without a build type leaves it without one (AlignGuard's default
# RelWithDebInfo is for its own build only), and the instrumented target's
# compile command carries the launcher (the checkout's alignguard-clang in
# its --alignguard-launch mode), its action and the in-tree plugin,
# its link the runtime after the objects, while the plain target has none of
# them. Configure only (Ninja), then read the commands ninja would run: the
# plugin is not built again here.
#
#   tests/install/subproject-test.sh SOURCE_DIR WORKDIR CLANG LLVM_DIR
set -euo pipefail
src=$1 work=$2 clang=$3 llvm_dir=$4
here=$(cd "$(dirname "$0")" && pwd)
fail() {
  echo "subproject-test: FAIL: $*" >&2
  exit 1
}
command -v ninja >/dev/null || fail "ninja not found: install ninja-build"
rm -rf "$work"
cmake -S "$here/subproject" -B "$work" -G Ninja -DALIGNGUARD_SOURCE_DIR="$src" \
  -DCMAKE_C_COMPILER="$clang" -DLLVM_DIR="$llvm_dir" >"$work.log" 2>&1 ||
  { cat "$work.log"; fail "configure"; }
type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$work/CMakeCache.txt")
[[ -z "$type" ]] || fail "the parent's CMAKE_BUILD_TYPE became '$type'"

k=$(ninja -C "$work" -t commands k)
compile=$(grep -- '-c .*sample/kernel\.c' <<<"$k" | grep -v AlignGuardCore || true)
echo "$compile"
grep -q "$src/scripts/alignguard-clang --alignguard-launch " <<<"$compile" ||
  fail "k's compile has no launcher (scripts/alignguard-clang --alignguard-launch)"
grep -q -- "--alignguard=recover" <<<"$compile" || fail "k's compile has no --alignguard=recover"
grep -q -- "--alignguard-entry='k_\*'\|--alignguard-entry=k_\*\|\"--alignguard-entry=k_\*\"" <<<"$compile" ||
  fail "k's compile has no --alignguard-entry=k_*"
grep -q -- "-fpass-plugin=$work/alignguard/AlignGuard.so" <<<"$compile" ||
  fail "k's compile does not load the in-tree plugin"
grep -q "AlignGuard.so" <<<"$(grep -- '-shared\|-o AlignGuard.so\|-o alignguard/AlignGuard.so' <<<"$k")" ||
  fail "building k does not build the plugin first"
link=$(tail -n 1 <<<"$k")
echo "$link"
grep -qE 'kernel\.c\.o .*libalignguard_rt\.a' <<<"$link" ||
  fail "k's link does not put the runtime after its objects"

plain=$(ninja -C "$work" -t commands plain | grep -- 'sample/kernel\.c')
! grep -q -- "alignguard" <<<"$plain" || fail "the plain target is instrumented: $plain"
echo "subproject-test: passed"
