// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Third-party compile-time benchmark (issue 13, item 5): Eigen 3 (Debian's
// libeigen3-dev). Aligned maps over caller buffers (Eigen::Aligned64
// promises the alignment, as real code passing aligned_alloc'd buffers
// does), a matrix product, a dot product, a fused expression and a
// reduction, in float and double.
#include <Eigen/Dense>
#include <cstddef>

using MatF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic>;
using VecF = Eigen::Matrix<float, Eigen::Dynamic, 1>;
using VecD = Eigen::Matrix<double, Eigen::Dynamic, 1>;

extern "C" void eigen_gemm(float *c, const float *a, const float *b, int n) {
  Eigen::Map<MatF, Eigen::Aligned64> C(c, n, n);
  Eigen::Map<const MatF, Eigen::Aligned64> A(a, n, n), B(b, n, n);
  C.noalias() = A * B;
}

extern "C" double eigen_dot(const double *x, const double *y, std::ptrdiff_t n) {
  Eigen::Map<const VecD, Eigen::Aligned64> X(x, n), Y(y, n);
  return X.dot(Y);
}

extern "C" void eigen_axpby(float *out, const float *x, const float *y, float a,
                            float b, std::ptrdiff_t n) {
  Eigen::Map<VecF, Eigen::Aligned64> O(out, n);
  Eigen::Map<const VecF, Eigen::Aligned64> X(x, n), Y(y, n);
  O = a * X + b * Y.cwiseAbs();
}

extern "C" float eigen_norm_sum(const float *m, int rows, int cols) {
  Eigen::Map<const MatF, Eigen::Aligned64> M(m, rows, cols);
  return M.colwise().norm().sum() + M.rowwise().maxCoeff().sum();
}

extern "C" void eigen_fixed4(float *out, const float *in, int count) {
  for (int i = 0; i < count; ++i) {
    Eigen::Map<const Eigen::Matrix4f, Eigen::Aligned16> M(in + 16 * i);
    Eigen::Map<Eigen::Matrix4f, Eigen::Aligned16> O(out + 16 * i);
    O = M * M.transpose() + Eigen::Matrix4f::Identity();
  }
}

extern "C" void eigen_solve(double *x, const double *a, const double *b, int n) {
  Eigen::Map<const Eigen::MatrixXd, Eigen::Aligned64> A(a, n, n);
  Eigen::Map<const VecD, Eigen::Aligned64> B(b, n);
  Eigen::Map<VecD, Eigen::Aligned64> X(x, n);
  X = A.partialPivLu().solve(B);
}
