#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs a build (cmake --install) into a prefix of its own, checks the
# layout, and builds and runs the samples against that prefix only
# (run-sample.sh).
#
#   tests/install/install-test.sh BUILD_DIR WORKDIR CLANG MAJOR
set -euo pipefail
build=$1 work=$2 clang=$3 major=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" ||
  { cat "$work/install.log"; exit 1; }
"$here/check-layout.sh" "$prefix" "$major"
"$here/run-sample.sh" "$prefix" "$work" "$clang" "$major"
