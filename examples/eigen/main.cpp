// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// `axpy_* OFFSET`: axpy on views OFFSET floats past a 32-byte boundary.
#include <cstdio>
#include <cstdlib>

void axpy(float alpha, const float *x, float *y, long n);

int main(int argc, char **argv) {
  int offset = argc > 1 ? std::atoi(argv[1]) : 0;
  auto *x = static_cast<float *>(aligned_alloc(32, 4096));
  auto *y = static_cast<float *>(aligned_alloc(32, 4096));
  for (int i = 0; i < 1024; ++i) {
    x[i] = float(i);
    y[i] = 1.0f;
  }
  axpy(2.0f, x + offset, y + offset, 512);
  std::printf("y[%d] = %g\n", offset + 3, y[offset + 3]);
  return 0;
}
