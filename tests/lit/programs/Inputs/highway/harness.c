// Calls the Highway kernels of kernel.cc and compares them with a plain C
// reference:
//
//   harness muladd|dot aligned|misaligned [n]
//
// aligned: every array 64-byte aligned. misaligned: one input is a view one
// float past the start (x + 1 for muladd, y + 1 for dot), 4 bytes past a
// 16-byte boundary, with room behind it. n: the element count, at most 1024
// (default 1021 for muladd, 1024 for dot, which needs a multiple of 8). The
// values are small integers, so every sum is exact in float whatever the
// order.
//
// Prints what it calls and what came back; exits 1 on a wrong result.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hwy_muladd(float *out, const float *x, const float *y, float a, size_t n);
float hwy_dot(const float *x, const float *y, size_t n);

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

static unsigned long past16(const void *p) {
  return (unsigned long)((uintptr_t)p % 16);
}

int main(int argc, char **argv) {
  if ((argc != 3 && argc != 4) ||
      (strcmp(argv[2], "aligned") && strcmp(argv[2], "misaligned"))) {
    fprintf(stderr, "usage: %s muladd|dot aligned|misaligned [n]\n", argv[0]);
    return 2;
  }
  int misaligned = !strcmp(argv[2], "misaligned");
  size_t count = argc == 4 ? strtoul(argv[3], NULL, 10) : 0;
  if (count > N) {
    fprintf(stderr, "%s: n is at most %d\n", argv[0], N);
    return 2;
  }
  float *xb = alloc64(), *yb = alloc64(), *out = alloc64();
  if (!strcmp(argv[1], "muladd")) {
    // n not a multiple of the lanes: the kernel's scalar tail runs too.
    const size_t n = count ? count : N - 3;
    const float *x = xb + (misaligned ? 1 : 0), *y = yb;
    for (size_t i = 0; i < n; ++i) {
      xb[i + (misaligned ? 1 : 0)] = (float)(i % 17);
      yb[i] = (float)((i * 3) % 11);
    }
    printf("calling hwy_muladd: x %lu bytes past a 16-byte boundary\n", past16(x));
    fflush(stdout);
    hwy_muladd(out, x, y, 2.0f, n);
    printf("hwy_muladd returned\n");
    for (size_t i = 0; i < n; ++i)
      if (out[i] != 2.0f * x[i] + y[i]) {
        printf("hwy_muladd: wrong at %zu: %g, expected %g\n", i, out[i], 2.0f * x[i] + y[i]);
        return 1;
      }
    printf("hwy_muladd: %zu elements equal the reference\n", n);
    return 0;
  }
  if (!strcmp(argv[1], "dot")) {
    const size_t n = count ? count : N;
    const float *x = xb, *y = yb + (misaligned ? 1 : 0);
    float want = 0;
    for (size_t i = 0; i < n; ++i) {
      xb[i] = (float)(i % 17);
      yb[i + (misaligned ? 1 : 0)] = (float)((i * 3) % 11);
      want += x[i] * y[i];
    }
    printf("calling hwy_dot: y %lu bytes past a 16-byte boundary\n", past16(y));
    fflush(stdout);
    float got = hwy_dot(x, y, n);
    printf("hwy_dot returned %g\n", got);
    if (got != want) {
      printf("hwy_dot: wrong: %g, expected %g\n", got, want);
      return 1;
    }
    printf("hwy_dot: equals the reference\n");
    return 0;
  }
  fprintf(stderr, "%s: unknown kernel '%s'\n", argv[0], argv[1]);
  return 2;
}
