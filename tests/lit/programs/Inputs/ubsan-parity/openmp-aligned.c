// From compiler-rt's ubsan align-assume-openmp: the `aligned` clause of an
// OpenMP simd loop (-fopenmp-simd, no OpenMP runtime) promises that `data`
// is aligned at the loop.
// PARITY-LANGS: c c++
// PARITY-FLAGS: -fopenmp-simd
// PARITY-EXPECT: 32768 0 1
#include "parity.h"

int main(void) {
  char *data = parity_base() + 1;
  data[0] = 0;
  for (int round = 0; round < 2; ++round) {
#pragma omp for simd aligned(data : 0x8000)
    for (int x = 0; x < 1; x++)
      data[x] = data[x];
  }
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
