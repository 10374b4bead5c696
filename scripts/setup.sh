#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installs what AlignGuard needs to build and test on Debian 12, for each
# LLVM major given (default: 14 22). Idempotent: installs only what is
# missing. Needs root (or sudo) when something is missing.
#
#   scripts/setup.sh [MAJOR...]
set -euo pipefail

majors=("$@")
((${#majors[@]})) || majors=(14 22)

packages=(cmake make ninja-build pkg-config g++ python3 libgtest-dev binutils libdlpack-dev clang-format-14
  libhalide14-0-dev libeigen3-dev python3-numpy libhwy-dev libsimde-dev libxsimd-dev rustc cargo ccache sccache distcc debootstrap lld python3-jsonschema
  rocm-device-libs)
for n in "${majors[@]}"; do
  if ! [[ "$n" =~ ^[0-9]+$ ]] || ((n < 14 || n > 22)); then
    echo "setup.sh: LLVM major '$n' is outside 14..22" >&2
    exit 2
  fi
  packages+=("llvm-$n-dev" "clang-$n" "llvm-$n-tools" "llvm-$n" "mlir-$n-tools")
  # compiler-rt (UBSan's runtime, for tests/lit/programs/ubsan-parity.test;
  # ASan, TSan and libFuzzer for tests/sanitize/run.sh):
  # its own package, except for 15, where libclang-common-15-dev has it.
  if ((n == 15)); then
    packages+=("libclang-common-15-dev")
  else
    packages+=("libclang-rt-$n-dev")
  fi
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "setup.sh: all dependencies present (${packages[*]})"
  exit 0
fi

echo "setup.sh: installing ${missing[*]}"
sudo=()
if ((EUID != 0)); then
  command -v sudo >/dev/null || {
    echo "setup.sh: need root to install: ${missing[*]}" >&2
    exit 1
  }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
