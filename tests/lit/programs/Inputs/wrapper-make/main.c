// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Calls the kernel on a buffer ARGV[1] floats past a 64-byte boundary.
#include <stdio.h>
#include <stdlib.h>

void scale(float *v, float k, int n);

int main(int argc, char **argv) {
  int offset = argc > 1 ? atoi(argv[1]) : 0;
  float *buf = aligned_alloc(64, 8192);
  for (int i = 0; i < 1024; ++i)
    buf[i] = 1.0f;
  scale(buf + offset, 2.0f, 1000);
  printf("sum %.1f\n", (double)(buf[offset] + buf[offset + 999]));
  return 0;
}
