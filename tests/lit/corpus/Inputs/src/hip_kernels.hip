// HIP device code for gfx906, compiled without the HIP headers.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))

static __device__ unsigned tid() { return __builtin_amdgcn_workitem_id_x(); }

// Kernel pointer params arrive in the global address space; clang casts
// them to the generic (flat) address space in the body.
__global__ void scale_aligned(float *data, float s) {
  float *d = (float *)__builtin_assume_aligned(data, 32);
  d[tid()] *= s;
}

// align_value on a kernel parameter: an `align 64` attribute on it.
typedef float *__attribute__((align_value(64))) aligned_float_ptr;
__global__ void axpy_align_value(aligned_float_ptr y, aligned_float_ptr x,
                                 float a) {
  unsigned i = tid();
  y[i] += a * x[i];
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
