// Eigen 3.4 kernels: aligned Maps, fixed-size vectorizable matrices passed
// by reference, and a member function (whose `this` carries `align`).
#include <Eigen/Dense>

using Eigen::Aligned16;
using Eigen::Map;
using Eigen::Matrix4f;
using Eigen::Vector4f;

// Map<..., Aligned16>: the alignment lives in the type, not in the IR.
extern "C" void eigen_axpy_mapped(float *y, const float *x, float a) {
  Map<Vector4f, Aligned16> Y(y);
  Map<const Vector4f, Aligned16> X(x);
  Y += a * X;
}

// References to Matrix4f: clang marks each `align 16`.
extern "C" void eigen_mat4_mul(Matrix4f &out, const Matrix4f &l,
                               const Matrix4f &r) {
  out.noalias() = l * r;
}

struct Particle {
  Vector4f pos, vel;
  void step(float dt);
};

// An out-of-line member: `this` is `align 16`.
void Particle::step(float dt) { pos += dt * vel; }
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
