// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// y += alpha * x on views that Eigen is told are 32-byte aligned: with AVX
// its packets are aligned 32-byte loads and stores (vmovaps).
#include <Eigen/Core>

using AlignedVec = Eigen::Map<Eigen::VectorXf, Eigen::Aligned32>;
using ConstAlignedVec = Eigen::Map<const Eigen::VectorXf, Eigen::Aligned32>;

void axpy(float alpha, const float *x, float *y, long n) {
  AlignedVec(y, n) += alpha * ConstAlignedVec(x, n);
}
