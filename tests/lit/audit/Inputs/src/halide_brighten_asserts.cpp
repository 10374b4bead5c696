// A Halide 14 generator program: the "brighten" pipeline (uint8 input plus
// 10, saturating) vectorized by 16 for x86-64 SSE4.1, with Halide's own
// asserts kept (no no_asserts feature) and the runtime left out. The user's
// promises to Halide, which Halide then checks in the pipeline's prologue:
//   - both host pointers are 32-byte aligned (set_host_alignment(32): an
//     assert that (uintptr_t)host & 31 == 0, halide_error_unaligned_host_ptr);
//   - x starts at 0, is dense (stride 1) and its extent is a multiple of 32;
//   - each row's stride is a multiple of 32 bytes.
// With those, Halide proves every vector access aligned and emits
// `load/store <16 x i8> ..., align 16`.
#include <Halide.h>

#include <cstdio>

using namespace Halide;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.ll\n", argv[0]);
    return 2;
  }
  ImageParam input(UInt(8), 2, "input");
  Var x("x"), y("y");
  Func brighten("brighten");
  brighten(x, y) = saturating_add(input(x, y), cast<uint8_t>(10));
  brighten.vectorize(x, 16);

  OutputImageParam output = brighten.output_buffer();
  for (OutputImageParam *p : {static_cast<OutputImageParam *>(&input), &output}) {
    p->set_host_alignment(32);
    p->dim(0).set_min(0).set_stride(1);
    p->dim(0).set_extent((p->dim(0).extent() / 32) * 32);
    p->dim(1).set_stride((p->dim(1).stride() / 32) * 32);
  }
  Target t("x86-64-linux-sse41-no_runtime");
  brighten.compile_to_llvm_assembly(argv[1], {input}, "brighten", t);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
