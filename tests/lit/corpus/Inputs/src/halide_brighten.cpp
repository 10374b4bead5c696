// A Halide 14 generator program: builds the classic "brighten" pipeline over
// an 8-bit image whose rows are promised 64-byte aligned, and writes its
// LLVM assembly for a bare host target (no runtime, no asserts). Halide
// optimises the module itself before writing it.
#include <Halide.h>

#include <cstdio>

using namespace Halide;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.ll\n", argv[0]);
    return 2;
  }
  ImageParam input(UInt(8), 2, "input");
  Param<uint8_t> offset("offset");
  Var x("x"), y("y");
  Func brighten("brighten");
  brighten(x, y) = saturating_add(input(x, y), offset);
  brighten.vectorize(x, 16);
  // Promises a user makes to Halide: 64-byte aligned host pointers, x from 0.
  input.set_host_alignment(64);
  brighten.output_buffer().set_host_alignment(64);
  input.dim(0).set_min(0);
  brighten.output_buffer().dim(0).set_min(0);
  Target t("x86-64-linux-no_asserts-no_bounds_query-no_runtime");
  brighten.compile_to_llvm_assembly(argv[1], {input, offset}, "brighten", t);
  return 0;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
