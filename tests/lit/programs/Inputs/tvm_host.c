// The host side of tvm-packed-kernel.test: DLTensors that are views into one
// larger buffer at several byte offsets, passed to the instrumented packed
// kernel; every result is compared bit for bit with a plain reference.
#include <alignguard/alignguard.h>
#include <alignguard/dlpack.h>
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef union {
  int64_t v_int64;
  double v_float64;
  void *v_handle;
} TVMValue;

int32_t fused_scale_add(void *args, int32_t *type_codes, int32_t num_args,
                        void *out_ret_value, int32_t *out_ret_tcode,
                        void *resource_handle);

static char last_error[256];
void TVMAPISetLastError(const char *msg) {
  strncpy(last_error, msg, sizeof last_error - 1);
}

#define N 1000
// Room for one vector of N floats and some slack, a multiple of 64 bytes so
// that each tensor's slice of the pool starts 64-byte aligned.
#define STRIDE 4352

static DLTensor view(char *base, int64_t *shape, int64_t *strides) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = base;
  t.device.device_type = kDLCPU;
  t.ndim = 1;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  t.strides = strides;
  return t;
}

int main(void) {
  char *pool = aligned_alloc(64, 3 * STRIDE);
  float reference[N];
  int64_t shape[1] = {N};
  int64_t unit[1] = {1};
  int failures = 0;
  // Byte offsets of the views into the pool: aligned, then misaligned by
  // one, two, three floats and by 60 bytes.
  int offsets[] = {0, 64, 4, 8, 12, 60};
  for (unsigned k = 0; k < sizeof offsets / sizeof offsets[0]; ++k) {
    int off = offsets[k];
    char *a_base = pool + off;
    char *b_base = pool + STRIDE + off;
    char *out_base = pool + 2 * STRIDE + off;
    float *a = (float *)a_base, *b = (float *)b_base;
    for (int i = 0; i < N; ++i) {
      a[i] = (float)i * 0.37f - 11.0f;
      b[i] = 1.0f / (float)(i + 1);
      reference[i] = 2.0f * a[i] + b[i];
    }
    memset(out_base, 0xff, N * 4);
    DLTensor A = view(a_base, shape, unit), B = view(b_base, shape, 0),
             Out = view(out_base, shape, 0);
    char why[160];
    int host_check = alignguard_check_dltensor(&A, 64, ALIGNGUARD_REQUIRE_COMPACT,
                                               why, sizeof why);
    TVMValue args[3] = {{.v_handle = &A}, {.v_handle = &B}, {.v_handle = &Out}};
    int32_t codes[3] = {7, 7, 7};
    alignguard_clear_last_error();
    int32_t rc = fused_scale_add(args, codes, 3, 0, 0, 0);
    int same = memcmp(out_base, reference, sizeof reference) == 0;
    printf("offset %d: host check %d (%s), rc %d, %s\n", off, host_check,
           host_check ? why : "ok", rc,
           rc ? "not computed" : same ? "bit-identical" : "WRONG");
    if (rc)
      printf("  last error: %s\n", alignguard_last_error());
    failures += rc == 0 && !same;
  }
  // A strided view: the kernel's own assert rejects it, like TVM's.
  int64_t two[1] = {2};
  DLTensor S = view(pool, shape, two);
  char why[160];
  printf("strided: host check %d (%s)\n",
         alignguard_check_dltensor(&S, 64, ALIGNGUARD_REQUIRE_COMPACT, why,
                                   sizeof why),
         why);
  DLTensor B = view(pool + STRIDE, shape, 0),
           Out = view(pool + 2 * STRIDE, shape, 0);
  TVMValue args[3] = {{.v_handle = &S}, {.v_handle = &B}, {.v_handle = &Out}};
  int32_t codes[3] = {7, 7, 7};
  printf("strided: rc %d, error: %s\n", fused_scale_add(args, codes, 3, 0, 0, 0),
         last_error);
  printf("fallbacks %llu, violations %llu, failures %d\n",
         (unsigned long long)alignguard_fallback_count(),
         (unsigned long long)alignguard_violation_count(), failures);
  return failures != 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
