// A Halide 14 generator program: a separable 3x3 box blur over a 2-D uint16
// image, vectorized by 16 (<16 x i16>, 32 bytes) for x86-64 AVX2, with
// Halide's own asserts kept (no no_asserts feature) and the runtime left
// out. The user's promises to Halide, which Halide checks in the pipeline's
// prologue before it runs:
//   - both host pointers are 32-byte aligned (set_host_alignment(32): an
//     assert that (uintptr_t)host & 31 == 0, halide_error_unaligned_host_ptr);
//   - x starts at 0 and is dense (stride 1); the output's extent is a
//     multiple of 16 lanes;
//   - each row's stride is a multiple of 16 elements (32 bytes).
// The blur reads input(x-1 .. x+1, y-1 .. y+1): the centre tap is aligned,
// the side taps are not; Halide knows which.
#include <Halide.h>

#include <cstdio>

using namespace Halide;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.ll\n", argv[0]);
    return 2;
  }
  ImageParam input(UInt(16), 2, "input");
  Var x("x"), y("y");
  Func blur_x("blur_x"), blur_y("blur_y");
  blur_x(x, y) = (input(x - 1, y) + input(x, y) + input(x + 1, y)) / 3;
  blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
  // The classic schedule of the Halide tutorials, without the parallel loop
  // (which would move the body into a par_for closure).
  Var xi("xi"), yi("yi");
  blur_y.tile(x, y, xi, yi, 64, 8).vectorize(xi, 16);
  blur_x.compute_at(blur_y, x).vectorize(x, 16);

  OutputImageParam output = blur_y.output_buffer();
  input.set_host_alignment(32);
  output.set_host_alignment(32);
  input.dim(0).set_min(0).set_stride(1);
  output.dim(0).set_min(0).set_stride(1);
  output.dim(0).set_extent((output.dim(0).extent() / 64) * 64);
  output.dim(1).set_extent((output.dim(1).extent() / 8) * 8);
  input.dim(1).set_stride((input.dim(1).stride() / 16) * 16);
  output.dim(1).set_stride((output.dim(1).stride() / 16) * 16);
  Target t("x86-64-linux-avx2-sse41-no_runtime");
  blur_y.compile_to_llvm_assembly(argv[1], {input}, "blur3x3", t);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
