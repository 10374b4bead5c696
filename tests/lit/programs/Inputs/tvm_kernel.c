// A kernel in TVM's packed-function shape, as TVM's codegen lays it out:
// the exported wrapper unpacks DLTensor arguments, asserts their shape and
// type (setting the last error and returning -1 like TVM), promises the
// optimiser that each data pointer is 64-byte aligned, and calls an
// internal compute function whose parameters carry the same promise.
#include <dlpack/dlpack.h>
#include <stdint.h>

typedef union {
  int64_t v_int64;
  double v_float64;
  void *v_handle;
} TVMValue;

enum { kTVMDLTensorHandle = 7 };

// Provided by the host runtime, as TVM's is.
void TVMAPISetLastError(const char *msg);

typedef float *__attribute__((align_value(64))) aligned_floats;

// out[i] = 2 * a[i] + b[i]; vectorised with aligned loads and stores.
__attribute__((noinline)) static int32_t
fused_scale_add_compute_(aligned_floats restrict out, aligned_floats restrict a,
                         aligned_floats restrict b, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = 2.0f * a[i] + b[i];
  return 0;
}

static int check_tensor(const DLTensor *t, int64_t n) {
  return t->ndim == 1 && t->dtype.code == kDLFloat && t->dtype.bits == 32 &&
         t->dtype.lanes == 1 && t->shape[0] == n &&
         (t->strides == 0 || t->strides[0] == 1);
}

int32_t fused_scale_add(void *args, int32_t *type_codes, int32_t num_args,
                        void *out_ret_value, int32_t *out_ret_tcode,
                        void *resource_handle) {
  if (num_args != 3) {
    TVMAPISetLastError("fused_scale_add: expected 3 arguments");
    return -1;
  }
  // One assert per argument, unrolled, as TVM's codegen emits them.
  if (type_codes[0] != kTVMDLTensorHandle ||
      type_codes[1] != kTVMDLTensorHandle ||
      type_codes[2] != kTVMDLTensorHandle) {
    TVMAPISetLastError("fused_scale_add: arguments must be DLTensors");
    return -1;
  }
  DLTensor *A = (DLTensor *)((TVMValue *)args)[0].v_handle;
  DLTensor *B = (DLTensor *)((TVMValue *)args)[1].v_handle;
  DLTensor *Out = (DLTensor *)((TVMValue *)args)[2].v_handle;
  int64_t n = A->shape[0];
  if (!check_tensor(A, n) || !check_tensor(B, n) || !check_tensor(Out, n) ||
      A->byte_offset || B->byte_offset || Out->byte_offset) {
    TVMAPISetLastError("fused_scale_add: expected compact float32 vectors "
                       "of one length, byte_offset 0");
    return -1;
  }
  float *a = __builtin_assume_aligned(A->data, 64);
  float *b = __builtin_assume_aligned(B->data, 64);
  float *out = __builtin_assume_aligned(Out->data, 64);
  return fused_scale_add_compute_(out, a, b, n);
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
