#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# fuzz.py's negative control: with an opt that fails in each way it checks
# for (fake-opt.py), it must report each kind of failure, keep each with a
# run.sh that shows it, and exit 1.
#
#   tests/fuzz/selftest/selftest.sh MAJOR PLUGIN OUT
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
major=$1 plugin=$2 out=$3
rm -rf "$out"
st=0
python3 "$here/../fuzz.py" --llvm "$major" --plugin "$plugin" --opt "$here/fake-opt.py" \
  --seeds 1-12 --no-audit --out "$out" --jobs 2 >"$out.log" 2>&1 || st=$?
cat "$out.log"
[[ $st == 1 ]] || { echo "selftest: fuzz.py exited $st, not 1" >&2; exit 1; }
for kind in verify crash idempotent o2 clang; do
  n=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['failures'].get(sys.argv[2], 0))" \
    "$out/summary.json" "$kind")
  [[ $n -gt 0 ]] || { echo "selftest: no '$kind' failure found" >&2; exit 1; }
  d=$(ls -d "$out"/failures/"$kind"-* | head -1)
  "$d/run.sh" "$d/input.ll" || { echo "selftest: $d/run.sh does not show the failure" >&2; exit 1; }
done
echo "selftest: fuzz.py found and kept every kind of failure"
