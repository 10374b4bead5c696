#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Fuzzes the plugin of one LLVM major (tests/fuzz/fuzz.py): modules that
# llvm-stress makes with promises of every kind injected, and real
# compilers' IR made now (tests/fuzz/real-ir.sh) plus the committed corpus,
# under every action and option combination; the verifier after the pass
# and after default<O2>, the pass run twice, the audit's JSON and SARIF.
#
#   scripts/fuzz.sh 14                # a campaign: seeds 1-1000, real IR under all
#   scripts/fuzz.sh 22 1001-5000      # more seeds
#   scripts/fuzz.sh --smoke 14        # CI's: seeds 1-40, real IR under every action
#
# Options before the major: --smoke, --reduce (llvm-reduce each failure;
# a campaign, without --smoke, always does),
# --plugin FILE (default build-N/AlignGuard.so), --out DIR (default
# build-N/fuzz; emptied first). Failures are kept in DIR/failures/, each
# with the command that shows it (run.sh); the exit status is 1 when any
# was found. Needs llvm-N-tools (llvm-stress, llvm-reduce) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

smoke=0 plugin="" out="" extra=()
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
  --smoke) smoke=1 ;;
  --reduce) extra+=(--reduce) ;;
  --plugin) plugin=$2; shift ;;
  --out) out=$2; shift ;;
  *) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[[ $# -ge 1 && $1 =~ ^[0-9]+$ ]] || {
  echo "usage: scripts/fuzz.sh [--smoke] [--reduce] [--plugin FILE] [--out DIR] MAJOR [SEEDS]" >&2
  exit 2
}
major=$1
seeds=${2:-$( ((smoke)) && echo 1-40 || echo 1-1000)}
plugin=${plugin:-build-$major/AlignGuard.so}
out=${out:-build-$major/fuzz}
[[ -f $plugin ]] || { echo "fuzz.sh: no plugin at $plugin (build build-$major first)" >&2; exit 2; }

rm -rf "$out"
mkdir -p "$out"
tests/fuzz/real-ir.sh "$major" "$out/real-ir"
configs=all
((smoke)) && configs=actions || extra+=(--reduce)
exec python3 tests/fuzz/fuzz.py --llvm "$major" --plugin "$plugin" --seeds "$seeds" \
  --corpus "$out/real-ir" --corpus tests/lit/corpus/Inputs --corpus-configs "$configs" \
  --out "$out" "${extra[@]}"
