#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# check-architecture.py must reject each kind of break it names, in a small
# plugin tree made here, and accept the same tree once it is fixed.
#
#   check-architecture-selftest.sh WORKDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$1
rm -rf "$work" && mkdir -p "$work"/plugin/{analysis,plan,transform,passes}
p=$work/plugin
printf '#include "Compat.h"\n' > "$p/Options.h"
printf '#define V LLVM_VERSION_MAJOR\n' > "$p/Compat.h"
printf '#include "CheckPlan.h"\nvoid plan();\n' > "$p/plan/CheckPlanner.h"
printf '#include "Facts.h"\nstruct CheckPlan {};\n' > "$p/plan/CheckPlan.h"
printf '#include "Emitter.h"\nint facts();\n' > "$p/analysis/Facts.h"
printf '#include "Facts.h"\nint facts() { return 0; }\n' > "$p/analysis/Facts.cpp"
printf '#include "CheckPlanner.h"\nvoid emit();\n' > "$p/transform/Emitter.h"
printf '#include "Emitter.h"\n#include "Stage.h"\nvoid emit() {}\n' \
  > "$p/transform/Emitter.cpp"
printf '#include "Emitter.h"\nvoid stage();\n' > "$p/transform/Stage.h"
{
  printf '#include "Stage.h"\n#if LLVM_VERSION_MAJOR > 14\n#endif\n'
  printf 'void reg(P &PB) { PB.registerPipelineParsingCallback(0); }\n'
  printf 'void stage() {\n'
  for i in $(seq 1 101); do printf '  int x%d = %d;\n' "$i" "$i"; done
  printf '}\nclass Big {\n'
  for i in $(seq 1 300); do printf '  int y%d;\n' "$i"; done
  printf '};\n'
} > "$p/transform/Stage.cpp"

out=$work/out.txt
if python3 "$here/check-architecture.py" "$p" 2> "$out"; then
  echo "check-architecture-selftest: a broken tree passed" >&2
  exit 1
fi
fail=0
expect() {
  if ! grep -qF -- "$1" "$out"; then
    echo "check-architecture-selftest: no '$1' in:" >&2
    cat "$out" >&2
    fail=1
  fi
}
expect "analysis/Facts.h: includes transform/Emitter.h, which is in a layer above"
expect "modules include each other: analysis/Facts, plan/CheckPlan, plan/CheckPlanner, transform/Emitter, transform/Stage"
expect "transform/Stage.cpp: registers passes"
expect "transform/Stage.cpp: tests the LLVM version"
expect "function stage is 103 lines (at most 100)"
expect "class Big is 302 lines (at most 300)"
if grep -q "Compat.h: tests the LLVM version" "$out"; then
  echo "check-architecture-selftest: Compat.h may test the version" >&2
  fail=1
fi
((fail == 0)) || exit 1

# A folder with no source (a mistyped path) is an error, not a pass.
mkdir -p "$work/empty"
if python3 "$here/check-architecture.py" "$work/empty" 2> "$out"; then
  echo "check-architecture-selftest: a folder with no source passed" >&2
  exit 1
fi
expect "check-architecture: no .h or .cpp file under $work/empty"

# Fixed: the same tree without the breaks passes.
printf 'int facts();\n' > "$p/analysis/Facts.h"
printf 'void stage();\n' > "$p/transform/Stage.h"
printf '#include "Stage.h"\nvoid stage() {}\n' > "$p/transform/Stage.cpp"
python3 "$here/check-architecture.py" "$p"
echo "check-architecture-selftest: every break reported, the fixed tree passes"
