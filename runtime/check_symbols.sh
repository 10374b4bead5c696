#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# check_symbols.sh ARCHIVE - fail if the AlignGuard runtime archive has an
# undefined reference to something it promises not to use: the allocator,
# the printf family and stdio, or the C++ runtime (operator new/delete,
# __cxa_*, the C++ personality), or locks. NM may name the nm to run
# (default: nm). __tls_get_addr is allowed: the per-thread last error is a
# _Thread_local, which position-independent code reaches through it (the
# linker relaxes the call away in an executable).
set -u
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 path/to/libalignguard_rt.a" >&2
  exit 2
fi
nm_tool=${NM:-nm}
[ -n "$nm_tool" ] || nm_tool=nm
undefined=$("$nm_tool" -u -P "$1") || {
  echo "check_symbols.sh: '$nm_tool -u -P $1' failed" >&2
  exit 2
}
# -P prints "name type ..." per symbol; archive member headers end in ':'.
forbidden=$(printf '%s\n' "$undefined" | awk '$2 == "U" || $2 == "w" { print $1 }' |
  grep -E '^(malloc|calloc|realloc|reallocarray|free|aligned_alloc|posix_memalign|memalign|valloc|strdup|strndup|(__)?v?(f|s|sn|d)?printf(_chk)?|puts|fputs|fwrite|fopen|fdopen|__cxa_.*|_Zn[wa].*|_Zd[la].*|__gxx_personality_v0|pthread_mutex_.*)(@.*)?$' |
  sort -u)
if [ -n "$forbidden" ]; then
  echo "check_symbols.sh: $1 has forbidden undefined symbols:" >&2
  printf '  %s\n' $forbidden >&2
  exit 1
fi
echo "check_symbols.sh: $1: no forbidden undefined symbols"
