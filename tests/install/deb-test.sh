#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the Debian packages of a build (cpack -G DEB): alignguard-llvmN and
# libalignguard-dev; checks their Depends and which package holds which file;
# unpacks both (dpkg -x) into a root of the test's own, and builds and runs
# the samples against ROOT/usr only (run-sample.sh). This is not a chroot: the
# compiler, cmake and libc are the host's, the AlignGuard files are the
# packages'. The packages are not installed with apt-get into a clean
# Debian 12 root (debootstrap): that is not tested here.
#
#   tests/install/deb-test.sh BUILD_DIR WORKDIR CLANG MAJOR
set -euo pipefail
build=$1 work=$2 clang=$3 major=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work/debs"
fail() {
  echo "deb-test: FAIL: $*" >&2
  exit 1
}

(cd "$work/debs" && cpack --config "$(realpath "$build")/CPackConfig.cmake" -G DEB \
  -B "$work/debs") >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
arch=$(dpkg --print-architecture)
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
dev="$work/debs/libalignguard-dev_${version}_$arch.deb"
plugin="$work/debs/alignguard-llvm${major}_${version}_$arch.deb"
[[ -f "$dev" && -f "$plugin" ]] || { ls -l "$work/debs"; fail "no $dev or $plugin"; }

for deb in "$dev" "$plugin"; do
  echo "--- $(basename "$deb")"
  dpkg-deb --field "$deb" Package Version Architecture Depends Recommends
done
[[ "$(dpkg-deb --field "$plugin" Depends)" == \
  "libalignguard-dev (= $version), libllvm$major, clang-$major" ]] ||
  fail "alignguard-llvm$major: wrong Depends"
[[ "$(dpkg-deb --field "$dev" Depends)" == "python3" ]] ||
  fail "libalignguard-dev: wrong Depends"

contents() { dpkg-deb --contents "$1" | awk '{print $6}' | sed 's|^\./|/|'; }
contents "$plugin" >"$work/plugin.list"
contents "$dev" >"$work/dev.list"
has() { grep -qx "$2" "$1" || fail "$(basename "$1" .list) package lacks $2"; }
lacks() { ! grep -q "$2" "$1" || fail "$(basename "$1" .list) package holds $2"; }
has "$work/plugin.list" "/usr/lib/alignguard/llvm-$major/AlignGuard.so"
has "$work/plugin.list" "/usr/lib/alignguard/llvm-$major/AlignGuard.llvm-bin"
has "$work/plugin.list" "/usr/lib/pkgconfig/alignguard-llvm$major.pc"
lacks "$work/plugin.list" "libalignguard_rt.a"
lacks "$work/plugin.list" "include/alignguard"
has "$work/dev.list" "/usr/lib/libalignguard_rt.a"
has "$work/dev.list" "/usr/bin/alignguard-clang"
has "$work/dev.list" "/usr/include/alignguard/alignguard.h"
has "$work/dev.list" "/usr/lib/cmake/AlignGuard/AlignGuardConfig.cmake"
has "$work/dev.list" "/usr/bin/alignguard"
lacks "$work/dev.list" "AlignGuard.so"

root="$work/root"
dpkg -x "$dev" "$root"
dpkg -x "$plugin" "$root"
"$here/check-layout.sh" "$root/usr" "$major"
"$here/run-sample.sh" "$root/usr" "$work" "$clang" "$major"
echo "deb-test: packages of LLVM $major pass ($(ls "$work/debs"/*.deb | xargs -n1 basename | tr '\n' ' '))"
