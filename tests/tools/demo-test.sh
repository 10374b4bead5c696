#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The README's first command on a fresh clone: copies the files of the
# checkout that git knows (tracked, and untracked but not ignored: no build
# directory) into WORK/clone, runs `scripts/demo.sh MAJOR` there, and checks
# its exit status, the plain build's crash, the aligned run and the report
# line of the misaligned one.
#
#   demo-test.sh SOURCE WORK MAJOR
set -euo pipefail
src=$1 work=$2 major=$3
rm -rf "$work"
mkdir -p "$work/clone"
git -C "$src" ls-files -z -co --exclude-standard |
  (cd "$src" && xargs -0 cp --parents -t "$work/clone")
status=0
(cd "$work/clone" && scripts/demo.sh "$major") >"$work/out.txt" 2>"$work/err.txt" ||
  status=$?
fail() {
  echo "demo-test.sh: $*" >&2
  echo "--- stdout" >&2
  cat "$work/out.txt" >&2
  echo "--- stderr (last 20 lines)" >&2
  tail -n 20 "$work/err.txt" >&2
  exit 1
}
((status == 0)) || fail "scripts/demo.sh $major exited $status"
expect() {
  grep -Eq "$1" "$work/$2" || fail "no line matching '$1' in its $2"
}
expect "^exit status (132|134|135|139) \(the aligned vector code met a misaligned address\)$" out.txt
expect "^vadd\(a \+ 0\): sum = " out.txt
expect "^alignguard: vadd: argument #1 'a' = 0x[0-9a-f]+ is 4-byte aligned, not 64-byte aligned \(4 bytes past a boundary\) at examples/vadd\.c:[0-9]+:[0-9]+$" err.txt
expect "^exit status 134 \(134: abort after the report\)$" out.txt
if grep -q "^vadd(a + 1)" "$work/out.txt"; then
  fail "the instrumented kernel ran on the misaligned view"
fi
echo "demo-test.sh: scripts/demo.sh $major on a fresh copy: report and exit statuses as the README shows"
