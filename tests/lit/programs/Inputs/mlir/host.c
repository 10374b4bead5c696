// Calls MLIR kernels through their C interface (llvm.emit_c_interface)
// with memref descriptors whose aligned pointer is aligned (offset 0) or
// one float past an aligned address (offset 1: a view into a larger
// buffer), and checks the numbers.
//
//   host KERNEL OFFSET      KERNEL: vadd, vadd_aligned or matmul
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} memref1d;
typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} memref2d;

void _mlir_ciface_vadd(memref1d *, memref1d *, memref1d *);
void _mlir_ciface_matmul(memref2d *, memref2d *, memref2d *);
#ifdef ALIGNED_LOADS
void _mlir_ciface_vadd_aligned(memref1d *, memref1d *, memref1d *);
#endif

enum { N = 64, M = 8 };

static float *buffer(int offset, int n, float first, float step) {
  float *base = aligned_alloc(64, (size_t)(n + 16) * sizeof(float));
  for (int i = 0; i < n + 16; ++i)
    base[i] = -1.0f;
  for (int i = 0; i < n; ++i)
    base[offset + i] = first + step * (float)i;
  return base;
}

static memref1d view1d(float *base, int offset, int n) {
  memref1d d = {base, base + offset, 0, {n}, {1}};
  return d;
}

static memref2d view2d(float *base, int offset, int rows, int cols) {
  memref2d d = {base, base + offset, 0, {rows, cols}, {cols, 1}};
  return d;
}

static int vadd(const char *kernel, int offset) {
  float *a = buffer(offset, N, 1.0f, 1.0f), *b = buffer(offset, N, 0.5f, 0.0f),
        *c = buffer(offset, N, 0.0f, 0.0f);
  memref1d A = view1d(a, offset, N), B = view1d(b, offset, N),
           C = view1d(c, offset, N);
  if (!strcmp(kernel, "vadd"))
    _mlir_ciface_vadd(&A, &B, &C);
#ifdef ALIGNED_LOADS
  else
    _mlir_ciface_vadd_aligned(&A, &B, &C);
#endif
  for (int i = 0; i < N; ++i)
    if (c[offset + i] != (float)i + 1.5f) {
      printf("%s: c[%d] = %g, expected %g\n", kernel, i, c[offset + i],
             (float)i + 1.5f);
      return 1;
    }
  printf("%s ok: c[0] = %g c[%d] = %g\n", kernel, c[offset], N - 1,
         c[offset + N - 1]);
  return 0;
}

static int matmul(int offset) {
  float *a = buffer(offset, M * M, 1.0f, 1.0f), *b = buffer(offset, M * M, 2.0f, 0.0f),
        *c = buffer(offset, M * M, 0.0f, 0.0f);
  memref2d A = view2d(a, offset, M, M), B = view2d(b, offset, M, M),
           C = view2d(c, offset, M, M);
  _mlir_ciface_matmul(&A, &B, &C);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < M; ++j) {
      float want = 0;
      for (int l = 0; l < M; ++l)
        want += a[offset + i * M + l] * 2.0f;
      if (c[offset + i * M + j] != want) {
        printf("matmul: c[%d][%d] = %g, expected %g\n", i, j,
               c[offset + i * M + j], want);
        return 1;
      }
    }
  printf("matmul ok: c[0][0] = %g c[7][7] = %g\n", c[offset], c[offset + 63]);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  int offset = atoi(argv[2]);
  int rc = !strcmp(argv[1], "matmul") ? matmul(offset) : vadd(argv[1], offset);
  fflush(stdout);
  return rc;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
