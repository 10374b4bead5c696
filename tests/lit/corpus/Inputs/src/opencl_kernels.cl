// OpenCL C 2.0 kernels for SPIR. __builtin_assume_aligned returns a pointer
// in the default address space, which OpenCL will not cast back to __global,
// so OpenCL code spells the promise as a mask test under __builtin_assume.
__kernel void vadd4(__global float4 *out, __global const float4 *a,
                    __global const float4 *b) {
  size_t i = get_global_id(0);
  out[i] = a[i] + b[i];
}

__kernel void scale_rows(__global float *m, float s, int stride) {
  __builtin_assume(((size_t)m & 63) == 0);
  size_t i = get_global_id(0);
  m[i * stride] *= s;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
