// Calls the Rust kernel (kernel.rs) through its C ABI, as another
// language's FFI would, with a buffer that is 32-byte aligned (offset 0)
// or one float past an aligned address (offset 1), and checks the numbers.
//
//   host OFFSET
#include <alignguard/alignguard.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int rs_scale(float *blocks, float k);

enum { N = 16 * 8 };

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  int offset = atoi(argv[1]);
  float *base = aligned_alloc(64, (N + 16) * sizeof(float));
  float *v = base + offset;
  for (int i = 0; i < N; ++i)
    v[i] = (float)i;
  int rc = rs_scale(v, 2.0f);
  int wrong = 0;
  for (int i = 0; i < N; ++i)
    wrong += v[i] != (rc == 0 ? 2.0f * (float)i : (float)i);
  printf("rs_scale returned %d; %s; violations %llu\n", rc,
         wrong ? "WRONG numbers" : "numbers right",
         (unsigned long long)alignguard_violation_count());
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
