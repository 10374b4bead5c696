#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Fails when a source file of plugin/ or runtime/ is not formatted as
# .clang-format (LLVM style) says, with the clang-format given (pinned to one
# version: formatting differs between clang-format releases).
#
#   tests/tools/check-format.sh CLANG_FORMAT SOURCE_DIR
set -euo pipefail
clang_format=$1
cd "$2"
files=(plugin/*.cpp plugin/*.h plugin/*/*.cpp plugin/*/*.h runtime/*.c runtime/*.h runtime/include/alignguard/*.h)
if ! "$clang_format" --dry-run --Werror "${files[@]}"; then
  echo "check-format: run '$clang_format -i' on the files above" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
