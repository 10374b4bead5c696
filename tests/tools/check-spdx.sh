#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Fails when a source file lacks its SPDX licence line (LICENSE: Apache-2.0
# WITH LLVM-exception). Sources are the tracked files (git ls-files; without
# git, every file under the tree) but documentation, images, data and the
# generated test inputs (tests/lit/*/Inputs/**.ll, Cargo.lock and the like).
# Third-party files kept verbatim carry their origin and licence in a sibling
# NAME.ORIGIN file instead (tests/tools/sarif-schema-2.1.0.json, the OASIS
# SARIF 2.1.0 schema, already skipped as *.json); tests/tools/*.ORIGIN files
# are skipped too, as they describe a file under someone else's licence.
#
#   tests/tools/check-spdx.sh SOURCE_DIR
set -euo pipefail
cd "$1"
tag='SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception'
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list() { git ls-files; }
else
  list() { find . -type f -not -path './.git/*' -not -path './build*' | sed 's|^\./||'; }
fi
missing=()
checked=0
while IFS= read -r f; do
  case "$f" in
    LICENSE | .clang-format | .gitignore | *.md | *.png | *.json | *.txt | \
      *.lock | *.yaml | *.sarif) [[ "$f" == *CMakeLists.txt ]] || continue ;;
    tests/lit/*/Inputs/*.ll | tests/lit/*/Inputs/*/*.ll | *.mlir) continue ;;
    tests/tools/*.ORIGIN) continue ;;
  esac
  [[ -f "$f" ]] || continue
  checked=$((checked + 1))
  grep -qF "$tag" "$f" || missing+=("$f")
done < <(list)
if ((${#missing[@]})); then
  printf 'check-spdx: no SPDX line in %s\n' "${missing[@]}" >&2
  exit 1
fi
echo "check-spdx: $checked files carry the SPDX line"
