/*===- tests/fuzz/libfuzzer/rt_site_table.c - Fuzz the site tables ------===*
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * libFuzzer target for the descriptor tables (alignguard_site) that the
 * table hooks read: the runtime decodes a table entry (its strings by their
 * offsets from the descriptor) and formats its report line in
 * alignguard_format_report, which the hooks and alignguard_last_error()
 * call. The input makes a table as well-formed as the pass writes one (1 to
 * 4 descriptors of ALIGNGUARD_SITE_VERSION, every string offset 0 or
 * pointing into a NUL-terminated string area after them); every other
 * field (kind, lines, alignment, offset, the addresses) is the input's:
 *
 *   byte 0           count - 1 (low two bits)
 *   56 bytes each    the descriptors (short input: zeros)
 *   4 x 8 bytes      the addresses the hook gets
 *   the rest         the strings
 *
 * It calls __alignguard_fallback_first (which counts and records the
 * failing element, and reports nothing: report_fallback is off), checks
 * that alignguard_last_error() is the line of the element the hook had to
 * pick, one line without control bytes and shorter than the runtime's line
 * buffer, then formats each element into buffers of every small size and
 * of its full length: the same length each time, the same text cut short.
 *===----------------------------------------------------------------------===*/

#include "alignguard/alignguard.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DescriptorSize = 56, LineMax = 1024 };

static void fail(const char *why, size_t element, const char *line) {
  fprintf(stderr, "rt_site_table fuzzer: element %zu: %s: '%s'\n", element, why,
          line ? line : "");
  abort();
}

static void take(void *to, size_t n, const uint8_t **data, size_t *size) {
  size_t have = n < *size ? n : *size;
  memset(to, 0, n);
  memcpy(to, *data, have);
  *data += have;
  *size -= have;
}

/* An offset that names a string of the area at strings (n bytes, the last
   one NUL), seen from the descriptor at self; 0 stays 0 (none). */
static uint32_t point(uint32_t raw, const char *self, const char *strings,
                      size_t n) {
  return raw ? (uint32_t)(strings + raw % n - self) : 0;
}

/* Formats element e into buffers of every size up to 64 and of its full
   length: each returns the full length and holds the text's prefix. */
static void check_cuts(const alignguard_site *site, uint64_t pointer,
                       uint64_t alignment, int64_t offset, size_t e) {
  size_t full =
      alignguard_format_report(NULL, 0, site, pointer, alignment, offset);
  char *text = malloc(full + 1);
  if (alignguard_format_report(text, full + 1, site, pointer, alignment,
                               offset) != full ||
      strlen(text) != full)
    fail("the full line's length differs", e, text);
  for (size_t size = 1; size <= 64 && size <= full; ++size) {
    char *cut = malloc(size); /* exactly: ASan sees a byte past it */
    if (alignguard_format_report(cut, size, site, pointer, alignment, offset) !=
            full ||
        strlen(cut) != size - 1 || memcmp(cut, text, size - 1))
      fail("a cut line is not the full one's prefix", e, cut);
    free(cut);
  }
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  size_t count = (data[0] & 3) + 1;
  ++data;
  --size;
  size_t table_size = count * DescriptorSize;
  uint64_t addresses[4];
  /* The table and its strings in one block, as the pass emits them; the
     block is 8-aligned (malloc), as the descriptors' 64-bit fields need. */
  size_t rest = size > table_size + 32 ? size - table_size - 32 : 0;
  char *block = malloc(table_size + rest + 1);
  take(block, table_size, &data, &size);
  take(addresses, sizeof addresses, &data, &size);
  char *strings = block + table_size;
  memcpy(strings, data, size);
  strings[size] = '\0';
  for (size_t e = 0; e < count; ++e) {
    alignguard_site *d = (alignguard_site *)(void *)block + e;
    const char *self = (const char *)d;
    d->version = ALIGNGUARD_SITE_VERSION;
    d->function = point(d->function, self, strings, size + 1);
    d->subject = point(d->subject, self, strings, size + 1);
    d->file = point(d->file, self, strings, size + 1);
    d->promise_file = point(d->promise_file, self, strings, size + 1);
  }
  const alignguard_site *table = (const alignguard_site *)(void *)block;

  /* The element the hook must pick: the first (of all but the last) whose
     power-of-two alignment the address, less its offset, misses; else the
     last. */
  size_t pick = count - 1;
  for (size_t e = 0; e + 1 < count; ++e) {
    uint64_t a = table[e].alignment;
    if (a && !(a & (a - 1)) &&
        ((addresses[e] - table[e].offset) & (a - 1)) != 0) {
      pick = e;
      break;
    }
  }
  __alignguard_fallback_first(addresses[0], addresses[1], addresses[2],
                              addresses[3], table, count);
  const char *last = alignguard_last_error();
  char expected[LineMax];
  alignguard_format_report(expected, sizeof expected, &table[pick],
                           addresses[pick], table[pick].alignment,
                           (int64_t)table[pick].offset);
  if (strcmp(last, expected) != 0)
    fail("the last error is not the line of the element to report", pick, last);
  if (strlen(last) >= LineMax)
    fail("the last error is longer than its buffer", pick, last);
  for (const char *c = last; *c; ++c)
    if ((unsigned char)*c < 0x20 || *c == 0x7f)
      fail("a control byte in the line", pick, last);

  for (size_t e = 0; e < count; ++e)
    check_cuts(&table[e], addresses[e], table[e].alignment,
               (int64_t)table[e].offset, e);
  free(block);
  return 0;
}
