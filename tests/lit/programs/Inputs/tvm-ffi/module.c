// A module shaped like TVM's tvm-ffi output, in one translation unit: the
// packed function __tvm_ffi_vadd (int32_t(void *self, const TVMFFIAny
// *args, int32_t num_args, TVMFFIAny *result); TVM declares its return
// `range(i32 -1, 1)`, which the test adds on LLVM 19+) unpacks three
// DLTensors, promises that their data is 64-byte aligned (TVM's
// `llvm.assume` align 64) and calls an internal compute function whose
// parameters are `align 64` and whose loop -O2 vectorises from that
// promise. A same-module caller tests the return code, as TVM's own
// wrappers do.
//
//   module OFFSET      (floats between a 64-byte boundary and the data)
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int32_t type_index;
  uint32_t zero_padding;
  union {
    int64_t v_int64;
    void *v_ptr;
  };
} TVMFFIAny;

enum { kTVMFFIDLTensorPtr = 7 };

typedef float *__attribute__((align_value(64))) aligned_floats;

__attribute__((noinline)) static void vadd_compute_(aligned_floats a,
                                                    aligned_floats b,
                                                    aligned_floats c,
                                                    int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}

__attribute__((noinline)) int32_t __tvm_ffi_vadd(void *self,
                                                 const TVMFFIAny *args,
                                                 int32_t num_args,
                                                 TVMFFIAny *result) {
  (void)self;
  (void)result;
  if (num_args != 3)
    return -1;
  for (int i = 0; i < 3; ++i)
    if (args[i].type_index != kTVMFFIDLTensorPtr)
      return -1;
  DLTensor *a = args[0].v_ptr, *b = args[1].v_ptr, *c = args[2].v_ptr;
  float *A = __builtin_assume_aligned(a->data, 64);
  float *B = __builtin_assume_aligned(b->data, 64);
  float *C = __builtin_assume_aligned(c->data, 64);
  vadd_compute_(A, B, C, a->shape[0]);
  return 0;
}

static DLTensor tensor(float *data, int64_t *shape) {
  DLTensor t = {data, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, NULL, 0};
  return t;
}

enum { N = 1000 };

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  int offset = atoi(argv[1]);
  float *buf = aligned_alloc(64, 3 * 4096 * sizeof(float));
  float *a = buf + offset, *b = buf + 4096 + offset, *c = buf + 8192 + offset;
  for (int i = 0; i < N; ++i) {
    a[i] = (float)i;
    b[i] = 0.5f;
    c[i] = -1.0f;
  }
  int64_t shape[1] = {N};
  DLTensor ta = tensor(a, shape), tb = tensor(b, shape), tc = tensor(c, shape);
  TVMFFIAny args[3] = {{kTVMFFIDLTensorPtr, 0, {.v_ptr = &ta}},
                       {kTVMFFIDLTensorPtr, 0, {.v_ptr = &tb}},
                       {kTVMFFIDLTensorPtr, 0, {.v_ptr = &tc}}};
  int32_t rc = __tvm_ffi_vadd(NULL, args, 3, NULL);
  if (rc == -24) {
    printf("caller: the kernel refused the call (-24); c untouched: %s\n",
           c[0] == -1.0f && c[N - 1] == -1.0f ? "yes" : "no");
    return 0;
  }
  int wrong = 0;
  for (int i = 0; i < N; ++i)
    wrong += c[i] != (float)i + 0.5f;
  printf("caller: rc %d, %s\n", rc, wrong ? "WRONG numbers" : "numbers right");
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
