#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The Debian packages on a fresh Debian 12 root: debootstrap (minbase,
# bookworm, with the host's apt sources) into a directory of the test's own,
# apt-get install ./alignguard-llvmN_*.deb ./libalignguard-dev_*.deb (which
# pull clang-N, libllvmN and their dependencies) and the build tools, then
# run-sample.sh inside the root (chroot) against /usr: no source or build tree
# of AlignGuard is there, only the sample projects. Needs root and the
# network; takes minutes (opt-in: ALIGNGUARD_TEST_CLEAN_ROOT=ON).
#
#   tests/install/clean-root-test.sh DEB_DIR WORKDIR MAJOR
set -euo pipefail
debs=$1 work=$2 major=$3
here=$(cd "$(dirname "$0")" && pwd)
fail() {
  echo "clean-root-test: FAIL: $*" >&2
  exit 1
}
((EUID == 0)) || fail "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || fail "needs debootstrap (apt-get install debootstrap)"
root="$work/root"
cleanup() {
  umount "$root/proc" 2>/dev/null || true
}
trap cleanup EXIT
cleanup
rm -rf "$work"
mkdir -p "$work"

mirror=http://deb.debian.org/debian
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log"; fail "debootstrap"; }
# The host's sources (bookworm, -updates, -security: clang-N comes from them).
cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/" 2>/dev/null || true
[[ ! -f /etc/apt/sources.list ]] || cp /etc/apt/sources.list "$root/etc/apt/"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"

mkdir -p "$root/agtest/debs"
cp "$debs"/alignguard-llvm"$major"_*.deb "$debs"/libalignguard-dev_*.deb "$root/agtest/debs/"
cp -r "$here/sample" "$here/make-sample" "$here/run-sample.sh" "$here/check-layout.sh" "$root/agtest/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
  DEBIAN_FRONTEND=noninteractive HOME=/root "$@"; }
in_root apt-get update -qq >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt-get update"; }
in_root sh -c "apt-get install -y -qq /agtest/debs/*.deb cmake make ninja-build pkg-config" \
  >>"$work/apt.log" 2>&1 || { tail -30 "$work/apt.log"; fail "apt-get install"; }
in_root dpkg-query -W "alignguard-llvm$major" libalignguard-dev "clang-$major" "libllvm$major"
[[ ! -e "$root/agtest/src" ]] || fail "a source tree in the root"
in_root /agtest/check-layout.sh /usr "$major"
in_root /agtest/run-sample.sh /usr /agtest/work "/usr/lib/llvm-$major/bin/clang" "$major"
cleanup
# The root is about 1.7 GB: kept only when the test fails.
if ! grep -q " $root/" /proc/mounts; then
  rm -rf "$root"
fi
echo "clean-root-test: LLVM $major packages pass on a fresh Debian 12 root"
