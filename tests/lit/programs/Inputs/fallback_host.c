// Runs each kernel of fallback_kernels.c, instrumented with fallback, on
// aligned buffers and on views offset by 4, 8 and 12 bytes, and compares
// the results bit for bit with the plain reference build.
#include <alignguard/alignguard.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void saxpy(float, float *, float *, size_t);
void ref_saxpy(float, float *, float *, size_t);
double dot(const double *, const double *, size_t);
double ref_dot(const double *, const double *, size_t);
void blur3x3(float *, const float *, size_t, size_t, size_t);
void ref_blur3x3(float *, const float *, size_t, size_t, size_t);

#define N 4096
static char pool[4][N * 8 + 256] __attribute__((aligned(64)));

static void *at(int buf, int off) { return pool[buf] + off; }

int main(void) {
  int offsets[] = {0, 64, 4, 8, 12};
  int bad = 0;
  for (unsigned k = 0; k < sizeof offsets / sizeof *offsets; ++k) {
    int off = offsets[k];
    // saxpy
    float *x = at(0, off), *y = at(1, off), *y2 = at(2, off);
    for (int i = 0; i < N; ++i) {
      x[i] = (float)i * 0.125f - 7.0f;
      y[i] = y2[i] = 1.0f / (float)(i + 3);
    }
    saxpy(0.75f, x, y, N);
    ref_saxpy(0.75f, x, y2, N);
    int same_saxpy = memcmp(y, y2, N * sizeof(float)) == 0;
    // dot
    double *a = at(0, off), *b = at(1, off);
    for (int i = 0; i < N; ++i) {
      a[i] = (double)(i % 17) - 8;
      b[i] = (double)(i % 5);
    }
    double d = dot(a, b, N), d2 = ref_dot(a, b, N);
    int same_dot = memcmp(&d, &d2, sizeof d) == 0;
    // blur: 60x60 floats, rows of 64
    float *in = at(0, off), *out = at(1, off), *out2 = at(2, off);
    for (int i = 0; i < 64 * 60; ++i) {
      in[i] = (float)((i * 7) % 13) * 0.5f;
      out[i] = out2[i] = 0;
    }
    blur3x3(out, in, 60, 60, 64);
    ref_blur3x3(out2, in, 60, 60, 64);
    int same_blur = memcmp(out, out2, 64 * 60 * sizeof(float)) == 0;
    printf("offset %d: saxpy %s, dot %s, blur3x3 %s\n", off,
           same_saxpy ? "bit-identical" : "DIFFERENT",
           same_dot ? "bit-identical" : "DIFFERENT",
           same_blur ? "bit-identical" : "DIFFERENT");
    bad += !same_saxpy + !same_dot + !same_blur;
  }
  printf("fallbacks %llu\n", (unsigned long long)alignguard_fallback_count());
  return bad != 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
