// CUDA device code, compiled without the CUDA headers: the few attributes
// and builtins needed are spelled out here.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))

struct __attribute__((aligned(16))) Params {
  float a, b, c, d;
};

static __device__ unsigned tid() { return __nvvm_read_ptx_sreg_tid_x(); }

// The host promises 64-byte aligned buffers.
__global__ void saxpy_aligned(float *y, const float *x, float a) {
  float *ya = (float *)__builtin_assume_aligned(y, 64);
  const float *xa = (const float *)__builtin_assume_aligned(x, 64);
  unsigned i = tid();
  ya[i] = a * xa[i] + ya[i];
}

// A struct by value: the callee owns the aligned copy, nothing to check.
__global__ void affine(float *out, Params p) {
  unsigned i = tid();
  out[i] = p.a * out[i] + p.b;
}

// align_value on a kernel parameter: `align 32` on the entry's parameter.
typedef float *__attribute__((align_value(32))) f32_a32;
__global__ void fill(f32_a32 out, float v) { out[tid()] = v; }

// The same parameter on a device function: its callers are device code the
// compiler sees, so it is no entry point and its attribute is left alone.
__device__ void fill_one(f32_a32 out, float v) { out[0] = v; }
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
