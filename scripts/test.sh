#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds AlignGuard and runs every test (lit, gtest, runtime symbol check)
# against each LLVM major given (default: 14 22), one build directory per
# major (build-N): a plugin built for one major does not load in another.
# Installs missing dependencies first (scripts/setup.sh).
#
#   scripts/test.sh [MAJOR...]
#   scripts/test.sh 14 15 16 19 22    # every LLVM Debian 12 packages
# With 14 and 22 among the majors it then runs every command block of
# README.md and docs/ (tests/tools/run-docs.py).
# As root (CI) it also installs the Debian packages it builds into a fresh
# Debian 12 root (debootstrap, the network, minutes a major: test `clean-root`);
# ALIGNGUARD_TEST_CLEAN_ROOT=0 leaves that out, =1 asks for it (it then fails
# without root).
set -euo pipefail
cd "$(dirname "$0")/.."

majors=("$@")
((${#majors[@]})) || majors=(14 22)
scripts/setup.sh "${majors[@]}"

jobs=$(nproc 2>/dev/null || echo 2)
clean_root=${ALIGNGUARD_TEST_CLEAN_ROOT:-$((EUID == 0))}
if [[ $clean_root == 0 || $clean_root == OFF ]]; then
  echo "test.sh: NOT running clean-root (the packages on a fresh Debian 12 root):" \
    "$( ((EUID == 0)) && echo "ALIGNGUARD_TEST_CLEAN_ROOT=$clean_root" || echo "needs root")"
fi
failed=()
for n in "${majors[@]}"; do
  echo "=== LLVM $n ==="
  build="build-$n"
  if cmake -S . -B "$build" -DLLVM_DIR="/usr/lib/llvm-$n/lib/cmake/llvm" \
       -DCMAKE_BUILD_TYPE=RelWithDebInfo \
       -DALIGNGUARD_TEST_CLEAN_ROOT="$clean_root" &&
     cmake --build "$build" -j "$jobs" &&
     ctest --test-dir "$build" --output-on-failure -j "$jobs"; then
    echo "=== LLVM $n: all tests passed ==="
  else
    echo "=== LLVM $n: FAILED ===" >&2
    failed+=("$n")
  fi
done

# --- Sanitizers (issue 42, item 3) ------------------------------------------
# With 14 among the majors: the plugin's core, the runtime and their unit
# tests under ASan + UBSan, the runtime's tests under TSan, and each libFuzzer
# target for a fixed number of runs (tests/sanitize/run.sh; build-sanitize-14
# and build-sanitize-14-thread; 6 CPU-minutes from scratch, 3 to 4 on 2 cores).
# ALIGNGUARD_TEST_SANITIZE=0 leaves it out.
if [[ " ${majors[*]} " == *" 14 "* && ${ALIGNGUARD_TEST_SANITIZE:-1} != 0 ]]; then
  echo "=== LLVM 14: sanitizers and libFuzzer targets ==="
  tests/sanitize/run.sh 14 || failed+=("14 (sanitizers)")
fi
# --- end of sanitizers -------------------------------------------------------

# The builds of all majors installed into one prefix work side by side.
if ((${#majors[@]} > 1 && ${#failed[@]} == 0)); then
  echo "=== LLVM ${majors[*]} installed into one prefix ==="
  builds=()
  for n in "${majors[@]}"; do builds+=("build-$n"); done
  tests/install/multi-major-test.sh "$PWD/build-install-multi" "${builds[@]}" ||
    failed+=("${majors[*]} (installed together)")
fi

# Every command the README and docs/ show, run as they show it, against
# build-14 and build-22 (the majors the pages name).
if [[ " ${majors[*]} " == *" 14 "* && " ${majors[*]} " == *" 22 "* ]]; then
  if ((${#failed[@]} == 0)); then
    echo "=== README.md and docs/: every command block ==="
    tests/tools/run-docs.py "$PWD" "$PWD/build-docs" || failed+=("(the docs' commands)")
  fi
else
  echo "test.sh: NOT running the docs' commands (they use LLVM 14 and 22; given: ${majors[*]})"
fi

if ((${#failed[@]})); then
  echo "test.sh: failures with LLVM ${failed[*]}" >&2
  exit 1
fi
echo "test.sh: all tests passed with LLVM ${majors[*]}"
