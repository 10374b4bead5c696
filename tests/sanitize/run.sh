#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The sanitizer builds and the libFuzzer targets, with LLVM MAJOR's clang
# (default 14), in build directories of their own beside the normal ones:
#
#   build-sanitize-N         AddressSanitizer + UndefinedBehaviorSanitizer
#                            and libFuzzer coverage: the plugin's core, the
#                            runtime, alignguard_unit_tests (every gtest case:
#                            the plugin's and the runtime's) and the fuzz
#                            targets of tests/fuzz/libfuzzer/
#   build-sanitize-N-thread  ThreadSanitizer: the runtime and its tests alone
#                            (alignguard_runtime_tests)
#
# builds only those targets (not the plugin module, lit's inputs or the
# rest), runs both test binaries, then each fuzz target for a fixed number
# of runs from a fixed seed, starting from its seeds in
# tests/fuzz/libfuzzer/corpus/. Any sanitizer report, failed test or fuzzer
# finding fails it; a finding's input is kept in
# build-sanitize-N/fuzz/TARGET/ (crash-*, leak-*, ...), to be replayed with
# `build-sanitize-N/tests/fuzz/libfuzzer/TARGET FILE`.
#
#   tests/sanitize/run.sh [MAJOR]
#   ALIGNGUARD_FUZZ_SCALE=100 tests/sanitize/run.sh 14   # 100x the runs
#
# LLVM, gtest and libstdc++ are the distribution's, not instrumented: the
# sanitizers see AlignGuard's own code (and its calls into them).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

major=${1:-14}
scale=${ALIGNGUARD_FUZZ_SCALE:-1}
llvm=/usr/lib/llvm-$major
jobs=$(nproc 2>/dev/null || echo 2)
asan_build=build-sanitize-$major
tsan_build=build-sanitize-$major-thread
# TARGET RUNS [LIBFUZZER FLAGS]: each takes seconds on a 2-core machine.
# The runtime's options target hides the diagnostics it makes at every run
# (-close_fd_mask=2; libFuzzer's and the sanitizers' reports still show).
fuzzers=(
  "fuzz-pass-params 200000"
  "fuzz-ignorelist 20000"
  "fuzz-rt-options 200000 -close_fd_mask=2"
  "fuzz-rt-site-table 20000"
)

# Stop at the first report (ThreadSanitizer would go on and exit 0 from a
# death test's _exit), with whole stacks.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
# The runtime's tests set it themselves; one from outside must not leak in.
unset ALIGNGUARD_OPTIONS

failed=()
start=$SECONDS
step() { # NAME COMMAND...: runs it, says how long it took, keeps failures
  local name=$1 t=$SECONDS
  shift
  echo "--- sanitize: $name"
  if "$@"; then
    echo "--- sanitize: $name: ok ($((SECONDS - t)) s)"
  else
    echo "--- sanitize: $name: FAILED ($((SECONDS - t)) s)" >&2
    failed+=("$name")
  fi
}

# C++ at -O0: the plugin's core (LLVM's headers) compiles a third faster,
# and its tests and fuzz targets still take seconds; the runtime's C at -O1.
configure() { # BUILD SANITIZERS [CMAKE ARGS...]
  local build=$1 sanitize=$2
  shift 2
  mkdir -p "$build"
  cmake -S . -B "$build" -DLLVM_DIR="$llvm/lib/cmake/llvm" \
    -DCMAKE_C_COMPILER="$llvm/bin/clang" -DCMAKE_CXX_COMPILER="$llvm/bin/clang++" \
    -DCMAKE_BUILD_TYPE=Sanitize \
    -DCMAKE_C_FLAGS_SANITIZE="-O1 -gline-tables-only" \
    -DCMAKE_CXX_FLAGS_SANITIZE="-O0 -gline-tables-only" \
    -DALIGNGUARD_SANITIZE="$sanitize" "$@" >"$build/configure.log" ||
    { cat "$build/configure.log" >&2; return 1; }
}

asan_targets=(alignguard_unit_tests)
for f in "${fuzzers[@]}"; do asan_targets+=("${f%% *}"); done
build_asan() {
  configure "$asan_build" address,undefined -DALIGNGUARD_LIBFUZZER=ON &&
    cmake --build "$asan_build" -j "$jobs" --target "${asan_targets[@]}"
}
build_tsan() {
  configure "$tsan_build" thread &&
    cmake --build "$tsan_build" -j "$jobs" --target alignguard_runtime_tests
}

# A gtest binary, its output (and its death tests' children's) in a log.
gtest() { # BINARY
  local log="$1.log"
  "$1" --gtest_brief=1 >"$log" 2>&1 || { grep -v '^Running main()' "$log" | tail -n 80 >&2; return 1; }
  grep -E '^\[ *(PASSED|FAILED|SKIPPED) *\]' "$log"
}

# One fuzz target: new inputs go to a scratch directory (the first one
# given), the seeds are only read.
fuzz() { # TARGET RUNS [FLAGS...]
  local target=$1 runs=$(($2 * scale)) work="$root/$asan_build/fuzz/$1"
  local seeds="$root/tests/fuzz/libfuzzer/corpus/${1#fuzz-}"
  shift 2
  rm -rf "$work" && mkdir -p "$work/corpus"
  [[ -d $seeds ]] || seeds=
  (cd "$work" && exec "$root/$asan_build/tests/fuzz/libfuzzer/$target" \
    -runs="$runs" -seed=1 -print_final_stats=1 -artifact_prefix="$work/" "$@" \
    corpus ${seeds:+"$seeds"}) >"$work/log" 2>&1 ||
    { tail -n 60 "$work/log" >&2; return 1; }
  grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' "$work/log"
}

step "build ($asan_build: address,undefined + libFuzzer)" build_asan
step "build ($tsan_build: thread)" build_tsan
if [[ " ${failed[*]} " != *"$asan_build"* ]]; then
  step "alignguard_unit_tests (address,undefined)" \
    gtest "$asan_build/tests/alignguard_unit_tests"
  for f in "${fuzzers[@]}"; do
    read -r -a args <<<"$f"
    step "${args[0]} (-runs=$((args[1] * scale)) -seed=1)" fuzz "${args[@]}"
  done
fi
if [[ " ${failed[*]} " != *"$tsan_build"* ]]; then
  step "alignguard_runtime_tests (thread)" \
    gtest "$tsan_build/tests/sanitize/alignguard_runtime_tests"
fi

if ((${#failed[@]})); then
  printf 'sanitize: FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "sanitize: LLVM $major: sanitizer builds and fuzz targets clean ($((SECONDS - start)) s)"
