// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Runs rows_blur (Inputs/rows_kernel.c, instrumented) and the plain
// reference on one case, named by argv[1], and compares the output bit for
// bit. Images are 32-byte aligned unless the case moves them.
#include <alignguard/alignguard.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rows_blur(float *, size_t, const float *, size_t, size_t, size_t);
void ref_rows_blur(float *, size_t, const float *, size_t, size_t, size_t);

#define W 48
static float in_pool[80 * 20 + 64] __attribute__((aligned(64)));
static float out_pool[2][80 * 20 + 64] __attribute__((aligned(64)));

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "aligned";
  size_t off = 0, ostride = 64, istride = 64, h = 16;
  int calls = 1;
  if (!strcmp(c, "misaligned")) { // the whole image 4 bytes off, twice
    off = 1;
    calls = 2;
  } else if (!strcmp(c, "odd-stride")) { // the second output row is off
    ostride = 66;
  } else if (!strcmp(c, "one-row")) { // ... but there is no second row
    ostride = 66;
    h = 1;
  } else if (!strcmp(c, "no-rows")) { // misaligned, and nothing to do
    off = 1;
    h = 0;
  } else if (strcmp(c, "aligned")) {
    return 2;
  }
  float *in = in_pool + off, *out = out_pool[0] + off, *ref = out_pool[1] + off;
  for (size_t i = 0; i < 80 * 20; ++i) {
    in[i] = (float)((i * 7) % 13) * 0.5f;
    out[i] = ref[i] = (float)(i % 3);
  }
  for (int k = 0; k < calls; ++k) {
    rows_blur(out, ostride, in, istride, W, h);
    ref_rows_blur(ref, ostride, in, istride, W, h);
  }
  int same = memcmp(out, ref, sizeof(float) * 80 * 20) == 0;
  printf("%s: %s, fallbacks %llu, violations %llu\n", c,
         same ? "bit-identical" : "DIFFERENT",
         (unsigned long long)alignguard_fallback_count(),
         (unsigned long long)alignguard_violation_count());
  return !same;
}
