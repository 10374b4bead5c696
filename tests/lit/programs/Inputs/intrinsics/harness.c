// Calls the kernels PREFIX_muladd and PREFIX_dot (avx.c, ../highway/kernel.cc,
// xsimd.cc: -DPREFIX=avx|hwy|xs, -DVBYTES= their vector size in bytes) and
// compares them with a plain C reference:
//
//   harness muladd|dot aligned|misaligned|misaligned-out [n]
//
// aligned: every array 64-byte aligned. misaligned: one input is a view one
// float past the start (x + 1 for muladd, y + 1 for dot), 4 bytes past a
// VBYTES boundary, with room behind it; misaligned-out: muladd's output is.
// n: the element count, at most 1024 (default 1021 for muladd, 1024 for
// dot, which needs a multiple of 2 vectors). The values are small
// integers, so every sum is exact in float whatever the order.
//
// Prints what it calls and what came back; exits 1 on a wrong result.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define STR2(a) #a
#define STR(a) STR2(a)
#define MULADD CAT(PREFIX, muladd)
#define DOT CAT(PREFIX, dot)

void MULADD(float *out, const float *x, const float *y, float a, size_t n);
float DOT(const float *x, const float *y, size_t n);

enum { N = 1024 };

static float *alloc64(void) {
  float *p = aligned_alloc(64, (N + 64) * sizeof(float));
  if (!p) {
    perror("aligned_alloc");
    exit(2);
  }
  memset(p, 0, (N + 64) * sizeof(float));
  return p;
}

static unsigned long past(const void *p) {
  return (unsigned long)((uintptr_t)p % VBYTES);
}

int main(int argc, char **argv) {
  if ((argc != 3 && argc != 4) ||
      (strcmp(argv[2], "aligned") && strcmp(argv[2], "misaligned") &&
       strcmp(argv[2], "misaligned-out"))) {
    fprintf(stderr,
            "usage: %s muladd|dot aligned|misaligned|misaligned-out [n]\n",
            argv[0]);
    return 2;
  }
  int bad_in = !strcmp(argv[2], "misaligned");
  int bad_out = !strcmp(argv[2], "misaligned-out");
  size_t count = argc == 4 ? strtoul(argv[3], NULL, 10) : 0;
  if (count > N) {
    fprintf(stderr, "%s: n is at most %d\n", argv[0], N);
    return 2;
  }
  float *xb = alloc64(), *yb = alloc64(), *ob = alloc64();
  if (!strcmp(argv[1], "muladd")) {
    // n not a multiple of the lanes: the kernel's scalar tail runs too.
    const size_t n = count ? count : N - 3;
    float *x = xb + bad_in, *y = yb, *out = ob + bad_out;
    for (size_t i = 0; i < n; ++i) {
      x[i] = (float)(i % 17);
      y[i] = (float)((i * 3) % 11);
    }
    printf("calling %s: x %lu, out %lu bytes past a %d-byte boundary\n",
           STR(MULADD), past(x), past(out), VBYTES);
    fflush(stdout);
    MULADD(out, x, y, 2.0f, n);
    printf("%s returned\n", STR(MULADD));
    for (size_t i = 0; i < n; ++i)
      if (out[i] != 2.0f * x[i] + y[i]) {
        printf("%s: wrong at %zu: %g, expected %g\n", STR(MULADD), i, out[i],
               2.0f * x[i] + y[i]);
        return 1;
      }
    printf("%s: %zu elements equal the reference\n", STR(MULADD), n);
    return 0;
  }
  if (!strcmp(argv[1], "dot")) {
    const size_t n = count ? count : N;
    float *x = xb, *y = yb + bad_in;
    float want = 0;
    for (size_t i = 0; i < n; ++i) {
      x[i] = (float)(i % 17);
      y[i] = (float)((i * 3) % 11);
      want += x[i] * y[i];
    }
    printf("calling %s: y %lu bytes past a %d-byte boundary\n", STR(DOT),
           past(y), VBYTES);
    fflush(stdout);
    float got = DOT(x, y, n);
    printf("%s returned %g\n", STR(DOT), got);
    if (got != want) {
      printf("%s: wrong: %g, expected %g\n", STR(DOT), got, want);
      return 1;
    }
    printf("%s: equals the reference\n", STR(DOT));
    return 0;
  }
  fprintf(stderr, "%s: unknown kernel '%s'\n", argv[0], argv[1]);
  return 2;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
