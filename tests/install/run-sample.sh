#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds and runs the sample projects against an installed AlignGuard, using
# the files under PREFIX only (no source or build tree of AlignGuard):
#  - sample/ (CMake: find_package(AlignGuard), alignguard_instrument) with the
#    Makefile and the Ninja generator: k recovers, k_abort aborts (134), the
#    static library kernels traps (132, through the uninstrumented k_lib),
#    k_ignored's ignorelist leaves k_scale unchecked, k_plain (linked with
#    target_link_libraries' plain signature) recovers; find_package says
#    which plugin it took; the audit of kernels (AUDIT) is named after the
#    object and says what the build does (guarded); changing k's ACTION
#    rebuilds k; a major not installed is a clear error;
#  - make-sample/ (pkg-config alignguard-llvmN): aborts (134);
#  - make-sample/Makefile.wrapper with CC=PREFIX/bin/alignguard-clang: the
#    default aborts (134), CFLAGS='--alignguard=recover' recovers, and
#    changing CFLAGS rebuilds (its flags.stamp);
#  - PREFIX/bin/alignguard instrument (the installed driver finds the
#    installed plugin).
#
#   tests/install/run-sample.sh PREFIX WORKDIR CLANG MAJOR
set -euo pipefail
prefix=$1 work=$2 clang=$3 major=$4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"

fail() {
  echo "run-sample: FAIL: $*" >&2
  exit 1
}

# expect STATUS PATTERN NOT-PATTERN COMMAND...: COMMAND exits with STATUS and
# its output (stdout and stderr) matches PATTERN and not NOT-PATTERN ('' for
# no check).
expect() {
  local status=$1 want=$2 unwanted=$3 out rc=0
  shift 3
  out=$("$@" 2>&1) || rc=$?
  printf '$ %s  -> %d\n%s\n' "$*" "$rc" "$out"
  ((rc == status)) || fail "$*: exit status $rc, expected $status"
  [[ -z "$want" ]] || grep -qE -- "$want" <<<"$out" || fail "$*: no '$want' in the output"
  [[ -z "$unwanted" ]] || ! grep -qE -- "$unwanted" <<<"$out" || fail "$*: '$unwanted' in the output"
}

report="alignguard: k_scale: argument #1 'in' = 0x[0-9a-f]+ is 4-byte aligned, not 64-byte aligned"
sum="k_scale\(in \+ [01]\): sum = 2048.0"

command -v ninja >/dev/null || fail "ninja not found: install ninja-build (scripts/setup.sh does)"
generators=("Unix Makefiles" "Ninja")
for gen in "${generators[@]}"; do
  b="$work/cmake-${gen// /-}"
  rm -rf "$b"
  echo "=== sample, $gen generator ==="
  cmake -S "$here/sample" -B "$b" -G "$gen" -DCMAKE_C_COMPILER="$clang" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
    -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF >"$b.configure.log" 2>&1 ||
    { cat "$b.configure.log"; fail "configuring the sample ($gen)"; }
  found=$(sed -n 's/^AlignGuard_DIR:PATH=//p' "$b/CMakeCache.txt")
  [[ "$(realpath "$found")" == "$(realpath "$prefix/lib/cmake/AlignGuard")" ]] ||
    fail "find_package took AlignGuard from '$found', not from $prefix"
  chosen=$(sed -n "s/^-- AlignGuard: plugin of LLVM $major: //p" "$b.configure.log")
  [[ -n "$chosen" && "$chosen" -ef "$prefix/lib/alignguard/llvm-$major/AlignGuard.so" ]] ||
    fail "find_package printed no 'AlignGuard: plugin of LLVM $major: $prefix/lib/alignguard/llvm-$major/AlignGuard.so'"
  cmake --build "$b" >"$b.build.log" 2>&1 || { cat "$b.build.log"; fail "building the sample ($gen)"; }

  expect 0 "$sum" "alignguard:" "$b/k" 0
  expect 0 "$report" "" "$b/k" 1
  expect 0 "$sum" "" "$b/k" 1 # recover: the program goes on, right result
  expect 0 "$sum" "alignguard:" "$b/k_abort" 0
  expect 134 "$report" "sum =" "$b/k_abort" 1
  expect 0 "$sum" "alignguard:" "$b/k_lib" 0
  expect 132 "" "sum =" "$b/k_lib" 1 # trap: SIGILL, no report
  expect 0 "$sum" "alignguard:" "$b/k_ignored" 0
  # Ignored: no check, no report (the misaligned vector code may then crash).
  out=$("$b/k_ignored" 1 2>&1) || true
  ! grep -q "alignguard:" <<<"$out" || fail "k_ignored reported: the ignorelist was not applied"
  expect 0 "$sum" "alignguard:" "$b/k_plain" 0
  expect 0 "$report" "" "$b/k_plain" 1
  expect 0 "$sum" "" "$b/k_plain" 1
  # The audit runs after the guard, one file per object (its -o path).
  audit="$b/audit/CMakeFiles_kernels.dir_kernel.c.o.json"
  [[ -f "$audit" ]] || { ls -R "$b/audit" || true; fail "AUDIT wrote no $audit"; }
  expect 0 "0 unchecked, 2 guarded" "" "$prefix/bin/alignguard" audit --merge "$b/audit"
  expect 0 '"function": "k_scale", "subject": "argument #1 .in.", "status": "guarded", "line": 5' "" \
    python3 -c 'import json, sys
for a in json.load(open(sys.argv[1]))["assumptions"]:
    print(json.dumps({k: a[k] for k in ("function", "subject", "status", "line")}))' "$audit"

  # The action is on the command line: changing it rebuilds k, and only k.
  cmake "$b" -DK_ACTION=abort >/dev/null
  out=$(cmake --build "$b" 2>&1)
  echo "$out"
  grep -q 'k\.dir/kernel\.c\.o' <<<"$out" || fail "K_ACTION=abort did not rebuild k's kernel.c ($gen)"
  ! grep -q 'k_abort\.dir/kernel\.c\.o' <<<"$out" || fail "K_ACTION=abort rebuilt k_abort ($gen)"
  expect 134 "$report" "sum =" "$b/k" 1
done

echo "=== a major that is not installed ==="
rc=0
out=$(cmake -S "$here/sample" -B "$work/cmake-llvm13" -DCMAKE_C_COMPILER="$clang" \
  -DCMAKE_PREFIX_PATH="$prefix" -DAlignGuard_LLVM_MAJOR=13 2>&1) || rc=$?
echo "$out"
((rc != 0)) || fail "configuring for LLVM 13 succeeded"
# CMake wraps the message: compare it as one line.
flat=$(tr -s ' \n' '  ' <<<"$out")
grep -qE "AlignGuard has no plugin for LLVM 13 \(installed: LLVM [0-9, ]*$major[0-9, ]*\)" <<<"$flat" ||
  fail "configuring for LLVM 13: no message naming the majors installed"

echo "=== make-sample, pkg-config ==="
m="$work/make"
rm -rf "$m" && mkdir -p "$m"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[[ "$(pkg-config --variable=plugin "alignguard-llvm$major")" -ef \
  "$prefix/lib/alignguard/llvm-$major/AlignGuard.so" ]] ||
  fail "alignguard-llvm$major.pc names another plugin"
make -C "$m" -f "$here/make-sample/Makefile" LLVM="$major" SRC="$here/sample" ||
  fail "make with pkg-config"
expect 0 "$sum" "alignguard:" "$m/k" 0
expect 134 "$report" "sum =" "$m/k" 1

echo "=== make with CC=alignguard-clang ==="
for action in default recover; do
  m="$work/make-wrapper-$action"
  rm -rf "$m" && mkdir -p "$m"
  flags="-O2 -g"
  [[ $action == default ]] || flags+=" --alignguard=$action"
  ALIGNGUARD_LLVM=$major make -C "$m" -f "$here/make-sample/Makefile.wrapper" SRC="$here/sample" \
    CC="$prefix/bin/alignguard-clang" CFLAGS="$flags" ||
    fail "make with CC=alignguard-clang ($action)"
  expect 0 "$sum" "alignguard:" "$m/k" 0
done
expect 134 "$report" "sum =" "$work/make-wrapper-default/k" 1
expect 0 "$report" "" "$work/make-wrapper-recover/k" 1
expect 0 "$sum" "" "$work/make-wrapper-recover/k" 1
# Another action in CFLAGS rebuilds (the objects depend on flags.stamp);
# the same flags again rebuild nothing.
m="$work/make-wrapper-default"
for round in changed same; do
  out=$(ALIGNGUARD_LLVM=$major make -C "$m" -f "$here/make-sample/Makefile.wrapper" \
    SRC="$here/sample" CC="$prefix/bin/alignguard-clang" \
    CFLAGS="-O2 -g --alignguard=recover" 2>&1) || { echo "$out"; fail "make with CFLAGS changed"; }
  echo "$out"
  if [[ $round == changed ]]; then
    grep -q -- '-c .*kernel\.c' <<<"$out" || fail "changing CFLAGS did not rebuild kernel.o"
  else
    ! grep -q -- '-c .*kernel\.c' <<<"$out" || fail "the same CFLAGS rebuilt kernel.o"
  fi
done
expect 0 "$report" "" "$m/k" 1
expect 0 "$sum" "" "$m/k" 1

echo "=== the installed driver ==="
"$clang" -O2 -Xclang -disable-llvm-passes -S -emit-llvm "$here/sample/kernel.c" \
  -o "$work/kernel.ll"
expect 0 "" "" "$prefix/bin/alignguard" --llvm "$major" instrument "$work/kernel.ll" \
  -o "$work/kernel.checked.ll" -- recover
grep -q '__alignguard_report' "$work/kernel.checked.ll" ||
  fail "alignguard instrument added no check"
expect 2 "no AlignGuard plugin for LLVM 13 found" "" "$prefix/bin/alignguard" --llvm 13 \
  instrument "$work/kernel.ll" -o "$work/x.ll"
echo "run-sample: all checks passed ($prefix, LLVM $major)"
