#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Checks that PREFIX holds AlignGuard's install layout for each MAJOR given.
#
#   tests/install/check-layout.sh PREFIX MAJOR...
set -euo pipefail
prefix=$1
shift
files=(lib/libalignguard_rt.a lib/libalignguard_rt.so include/alignguard/alignguard.h
  lib/cmake/AlignGuard/AlignGuardConfig.cmake
  lib/cmake/AlignGuard/AlignGuardConfigVersion.cmake
  lib/cmake/AlignGuard/AlignGuardInstrument.cmake
  lib/pkgconfig/alignguard.pc bin/alignguard-clang bin/alignguard-clang++
  bin/alignguard share/man/man1/alignguard.1
  share/doc/alignguard/README.md share/doc/alignguard/LICENSE
  share/doc/alignguard/docs/audit.md)
for n in "$@"; do
  files+=("lib/alignguard/llvm-$n/AlignGuard.so"
    "lib/alignguard/llvm-$n/AlignGuard.llvm-bin"
    "lib/pkgconfig/alignguard-llvm$n.pc")
done
missing=0
# The installed plugin's SARIF sends its readers to the installed docs.
for n in "$@"; do
  plugin=$prefix/lib/alignguard/llvm-$n/AlignGuard.so
  bindir=$(cat "$prefix/lib/alignguard/llvm-$n/AlignGuard.llvm-bin" 2>/dev/null) || continue
  want="file://$prefix/share/doc/alignguard/docs/audit.md#statuses"
  got=$(echo 'define void @k(ptr align 64 %p) { ret void }' | sed "s/ptr/i8*/" |
    "$bindir/opt" -load-pass-plugin="$plugin" -passes='align-guard-audit<json>' -disable-output 2>&1 |
    grep -o '"helpUri": "[^"]*"' | head -n 1)
  [[ $got == "\"helpUri\": \"$want\"" ]] || {
    echo "check-layout: LLVM $n: the audit's helpUri is $got, not $want" >&2
    missing=1
  }
done
for f in "${files[@]}"; do
  [[ -f "$prefix/$f" ]] || {
    echo "check-layout: $prefix/$f is missing" >&2
    missing=1
  }
done
for f in bin/alignguard bin/alignguard-clang; do
  [[ -x "$prefix/$f" ]] || {
    echo "check-layout: $prefix/$f is not executable" >&2
    missing=1
  }
done
# The runtime: the archive itself, and beside it the linker script that
# -lalignguard_rt finds, naming that archive; nothing of the runtime
# anywhere else.
if [[ -f "$prefix/lib/libalignguard_rt.a" ]] &&
  [[ "$(head -c 7 "$prefix/lib/libalignguard_rt.a")" != '!<arch>' ]]; then
  echo "check-layout: $prefix/lib/libalignguard_rt.a is not an ar archive" >&2
  missing=1
fi
if [[ -f "$prefix/lib/libalignguard_rt.so" ]] &&
  ! grep -qx 'INPUT(libalignguard_rt.a)' "$prefix/lib/libalignguard_rt.so"; then
  echo "check-layout: $prefix/lib/libalignguard_rt.so is not the linker script" \
    "naming libalignguard_rt.a" >&2
  missing=1
fi
stray=$(cd "$prefix" && find . -name 'libalignguard_rt*' \
  ! -path ./lib/libalignguard_rt.a ! -path ./lib/libalignguard_rt.so)
if [[ -n "$stray" ]]; then
  echo "check-layout: $prefix holds another runtime file:" $stray >&2
  missing=1
fi
((missing == 0)) || exit 1
echo "check-layout: $prefix has the layout of LLVM $*"
