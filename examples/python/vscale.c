// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The kernel the Python host (examples/python/vscale_host.py) calls through
// ctypes: out[i] = in[i] * s. It promises the optimiser 64-byte aligned
// buffers, as a generated kernel does, and returns an int status (0: done),
// so that `--alignguard=return=-1` can turn a broken promise into an error
// code the host raises as an exception.
//
//   scripts/alignguard-clang -O2 -g -shared -fPIC --alignguard=return=-1 \
//     examples/python/vscale.c -o libvscale-return.so
int vscale(float *out, const float *in, float s, long n) {
  float *o = __builtin_assume_aligned(out, 64);
  const float *x = __builtin_assume_aligned(in, 64);
  for (long i = 0; i < n; ++i)
    o[i] = x[i] * s;
  return 0;
}
