#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The Rust -sys crate of examples/rust (docs/rust.md) against an installed
# AlignGuard only: installs BUILD_DIR into a prefix of its own, builds the
# cargo workspace offline with ALIGNGUARD_PREFIX naming that prefix (the C
# kernel through PREFIX/bin/alignguard-clang, the runtime through rustc's
# `static=alignguard_rt` from PREFIX/lib), and runs it: on aligned buffers
# it prints the sums; with a view one element into a Vec<f32> it dies of
# SIGABRT after AlignGuard's one-line report. Without ALIGNGUARD_PREFIX the
# build fails with a line saying what to set. Without cargo it skips
# (exit 77, ctest's SKIP_RETURN_CODE), saying so.
#
#   tests/install/rust-sys-test.sh SOURCE_DIR BUILD_DIR WORKDIR
set -euo pipefail
src=$1 build=$2 work=$3
fail() {
  echo "rust-sys-test: FAIL: $*" >&2
  exit 1
}
if ! command -v cargo >/dev/null; then
  echo "rust-sys-test: SKIP: cargo is not on PATH (install Debian's cargo, or rustup)"
  exit 77
fi
# The rustc that comes with this cargo (rustup's beside it, or Debian's),
# not another one earlier on PATH (ctest puts CMake's directory, /usr/bin,
# first).
cargo_dir=$(dirname "$(command -v cargo)")
if [[ -z "${RUSTC:-}" && -x "$cargo_dir/rustc" ]]; then
  export RUSTC="$cargo_dir/rustc"
fi
# A developer's settings must not reach the wrapper.
unset ALIGNGUARD_PIPELINE ALIGNGUARD_OPTIONS ALIGNGUARD_PLUGIN ALIGNGUARD_LLVM \
  ALIGNGUARD_CLANG ALIGNGUARD_RUNTIME ALIGNGUARD_PREFIX
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" ||
  { cat "$work/install.log"; fail "cmake --install $build"; }
export CARGO_TARGET_DIR="$work/target"
manifest="$src/examples/rust/Cargo.toml"

echo "=== without ALIGNGUARD_PREFIX"
rc=0
out=$(cargo build --offline --locked --manifest-path "$manifest" 2>&1) || rc=$?
grep 'vadd-sys:' <<<"$out" || true
((rc != 0)) || fail "cargo build without ALIGNGUARD_PREFIX succeeded"
grep -q "vadd-sys: ALIGNGUARD_PREFIX is not set: set it to the prefix AlignGuard is installed in" \
  <<<"$out" || { echo "$out"; fail "no line saying to set ALIGNGUARD_PREFIX"; }

echo "=== ALIGNGUARD_PREFIX=$prefix"
ALIGNGUARD_PREFIX="$prefix" cargo build --offline --locked --manifest-path "$manifest" \
  >"$work/cargo.log" 2>&1 || { cat "$work/cargo.log"; fail "cargo build"; }
demo="$CARGO_TARGET_DIR/debug/vadd-demo"
rc=0
out=$("$demo" aligned 2>&1) || rc=$?
printf '$ vadd-demo aligned  -> %d\n%s\n' "$rc" "$out"
((rc == 0)) || fail "vadd-demo aligned: exit status $rc"
[[ "$out" == "aligned: out[0] = 0.5, out[999] = 999.5" ]] ||
  fail "vadd-demo aligned: wrong output"
rc=0
out=$("$demo" view 2>&1) || rc=$?
printf '$ vadd-demo view  -> %d\n%s\n' "$rc" "$out"
((rc == 134)) || fail "vadd-demo view: exit status $rc, expected 134 (SIGABRT)"
report="^alignguard: vadd: argument #1 'a' = 0x[0-9a-f]+ is 4-byte aligned, not 32-byte aligned \((4|20) bytes past a boundary\) at .*csrc/vadd\.c:[0-9]+:[0-9]+$"
grep -qE "$report" <<<"$out" || fail "vadd-demo view: no AlignGuard report"
! grep -q "not reached" <<<"$out" || fail "vadd-demo view: the kernel returned"
echo "rust-sys-test: passed ($prefix)"
