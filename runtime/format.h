/*===- format.h - AlignGuard runtime: bounded text appenders (internal) ----===*
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * The snprintf replacement shared by alignguard_rt.c (report lines) and
 * alignguard_dlpack.c (DLTensor messages): a sink that stores what fits in a
 * caller's buffer, keeps room for the NUL and counts everything, plus
 * decimal, hex and escaping appenders. No malloc, no stdio, no locale, so
 * the runtime stays async-signal-safe and links into any program.
 *
 *   ag_out o = {buf, size, 0};
 *   put_str(&o, "data ");
 *   put_hex(&o, address);           // "data 0x1004"
 *   size_t full = finish(&o);       // NUL-terminated; the untruncated length
 *
 * Not installed: the public headers are in include/alignguard/.
 *===----------------------------------------------------------------------===*/
#ifndef ALIGNGUARD_RUNTIME_FORMAT_H
#define ALIGNGUARD_RUNTIME_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/// Longest line the runtime builds, NUL or newline included; longer ones are
/// cut, never spilled. Also the size of each thread's last-error buffer.
#define AG_LINE_MAX 1024

/// snprintf-like sink: stores what fits (keeping room for the NUL) and counts
/// everything, so callers learn the full length. buf may be NULL when size is
/// 0.
typedef struct {
  char *buf;
  size_t size;
  size_t len;
} ag_out;

static inline void put_char(ag_out *o, char c) {
  if (o->len + 1 < o->size)
    o->buf[o->len] = c;
  o->len++;
}

static inline void put_mem(ag_out *o, const char *s, size_t n) {
  for (size_t i = 0; i < n; ++i)
    put_char(o, s[i]);
}

/// A NULL string reads as "?": a descriptor with a missing name still gives a
/// readable line.
static inline void put_str(ag_out *o, const char *s) {
  for (s = s ? s : "?"; *s; ++s)
    put_char(o, *s);
}

/// A string the IR controls (a function, value or file name) or the user
/// typed (ALIGNGUARD_OPTIONS): each control byte (below 0x20, and 0x7f) is
/// written as `\xNN`, lowercase, as the audit table writes it, so a report
/// stays one line and no escape sequence reaches a terminal raw. Other bytes,
/// UTF-8 included, pass through.
static inline void put_escaped_mem(ag_out *o, const char *s, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c == 0x7f) {
      put_str(o, "\\x");
      put_char(o, "0123456789abcdef"[c >> 4]);
      put_char(o, "0123456789abcdef"[c & 15]);
    } else {
      put_char(o, (char)c);
    }
  }
}

/// put_escaped_mem of a NUL-terminated string; NULL reads as "?", as in
/// put_str.
static inline void put_escaped(ag_out *o, const char *s) {
  s = s ? s : "?";
  put_escaped_mem(o, s, strlen(s));
}

static inline void put_dec(ag_out *o, uint64_t v) {
  char digits[20];
  int n = 0;
  do
    digits[n++] = (char)('0' + v % 10);
  while ((v /= 10) != 0);
  while (n > 0)
    put_char(o, digits[--n]);
}

/// Signed decimal; INT64_MIN too (negated in unsigned arithmetic).
static inline void put_sdec(ag_out *o, int64_t v) {
  if (v < 0) {
    put_char(o, '-');
    put_dec(o, 0 - (uint64_t)v);
  } else {
    put_dec(o, (uint64_t)v);
  }
}

/// Lowercase, `0x` prefix, no padding: the form users paste into a debugger.
static inline void put_hex(ag_out *o, uint64_t v) {
  char digits[16];
  int n = 0;
  do
    digits[n++] = "0123456789abcdef"[v & 15];
  while ((v >>= 4) != 0);
  put_str(o, "0x");
  while (n > 0)
    put_char(o, digits[--n]);
}

/// NUL-terminates (when there is room at all) and returns the full length.
static inline size_t finish(ag_out *o) {
  if (o->size > 0)
    o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
  return o->len;
}

static inline int is_pow2(uint64_t a) { return a != 0 && (a & (a - 1)) == 0; }

#endif /* ALIGNGUARD_RUNTIME_FORMAT_H */
