#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs the builds of several LLVM majors into one prefix (cmake --install
# of each build-N in turn) and checks that the tree works for every one of
# them: the layout of all, then run-sample.sh with each major's clang.
# scripts/test.sh runs it after the per-major ctest runs when it tests more
# than one major.
#
#   tests/install/multi-major-test.sh WORKDIR BUILD_DIR...   (build-N: major N)
set -euo pipefail
work=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
majors=() clangs=()
for build in "$@"; do
  pc=$(ls "$build"/alignguard-llvm*.pc 2>/dev/null | head -n 1)
  [[ "$pc" =~ alignguard-llvm([0-9]+)\.pc$ ]] ||
    { echo "multi-major-test: no alignguard-llvmN.pc in $build" >&2; exit 1; }
  majors+=("${BASH_REMATCH[1]}")
  clangs+=("$(sed -n 's/^llvm_bindir=//p' "$pc")/clang")
  cmake --install "$build" --prefix "$prefix" >"$work/install-${BASH_REMATCH[1]}.log"
done
"$here/check-layout.sh" "$prefix" "${majors[@]}"
for i in "${!majors[@]}"; do
  "$here/run-sample.sh" "$prefix" "$work/llvm-${majors[i]}" "${clangs[i]}" "${majors[i]}"
done
echo "multi-major-test: one prefix works for LLVM ${majors[*]}"
