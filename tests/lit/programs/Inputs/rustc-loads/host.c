// The C caller of loads.rs: a 64-byte aligned array of 32 floats, and a
// pointer into it (argv[1] floats in), passed by reference to the kernels.
#include <stdio.h>
#include <stdlib.h>
float block_sum(float **x);
float row_first(float **x);
int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0); /* the report aborts: print first */
  static _Alignas(64) float buf[32];
  for (int i = 0; i < 32; ++i)
    buf[i] = (float)i;
  float *p = buf + atoi(argv[1]);
  printf("row_first %g\n", row_first(&p));
  printf("block_sum %g\n", block_sum(&p));
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
