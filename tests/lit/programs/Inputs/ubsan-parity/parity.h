/* Shared by the UBSan parity programs (tests/tools/ubsan-parity.py).
 *
 * compiler-rt's tests misalign a malloc'd pointer, so their misalignment
 * offset depends on where the heap happens to be. Here every program
 * misaligns a pointer into a 32 KiB-aligned arena instead: the offset
 * `(pointer - offset) mod alignment` is then the same in every build and
 * every run, and the UBSan build and the AlignGuard build can be compared
 * on it. The arena's address goes through a volatile pointer so that the
 * compiler knows no more about it than about malloc's result.
 *
 * Unlike the originals, most programs make their promise twice (a loop of
 * two rounds): UBSan reports a source location once, and AlignGuard's
 * `recover` must report the site once too. The originals' other details
 * (which tool options, which languages) are kept; see each program's
 * PARITY- lines and tests/tools/ubsan-parity.py. */
#ifndef PARITY_H
#define PARITY_H

#define PARITY_ARENA_ALIGN 0x8000

static char parity_arena[2 * PARITY_ARENA_ALIGN]
    __attribute__((aligned(PARITY_ARENA_ALIGN)));

static inline char *parity_base(void) {
  char *volatile laundered = parity_arena;
  return laundered;
}

#endif
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
