// A Halide 14 generator program for tests/lit/programs/halide-accesses.test:
//
//   gen brighten OUT.bc    out(x, y) = saturating_add(in(x, y), offset), uint8
//   gen blur3x3  OUT.bc    a separable 3x3 box blur over uint16:
//                          out(x, y) = mean of in(x .. x+2, y .. y+2)
//
// Both are vectorised for x86-64 with SSE4.1 (every x86-64 CI machine has
// it) and written WITH Halide's runtime, so the module links into a program
// on its own. Target feature no_asserts: Halide checks none of the promises
// below at run time; it only uses them to prove its vector loads and stores
// through buffer->host aligned (`align 16` on brighten's <16 x i8> and on
// the blur's <8 x i16> stores and x tap, `align 4` on its x+2 tap).
// Those over-aligned accesses are what align-guard<accesses> checks.
//
// The output is LLVM 14 bitcode, not assembly: the runtime's vtables use
// LLVM 14's spelling of `inrange` in constant GEPs, which LLVM 19 and later
// no longer parse as text, while every later LLVM reads LLVM 14 bitcode
// (and upgrades its typed pointers).
//
// The promises (the caller must keep them; the harness does):
//   - host pointers 32-byte aligned (set_host_alignment(32));
//   - x starts at 0 and is dense; each row's stride is a multiple of 32
//     bytes; the output's width is a multiple of the vector/tile width and
//     the blur's height a multiple of its tile height.
#include <Halide.h>

#include <cstdio>
#include <cstring>

using namespace Halide;

static void promise(OutputImageParam p, int bytes, int width_multiple) {
  const int elems = 32 / bytes; // a 32-byte row stride, in elements
  p.set_host_alignment(32);
  p.dim(0).set_min(0).set_stride(1);
  p.dim(1).set_stride((p.dim(1).stride() / elems) * elems);
  if (width_multiple)
    p.dim(0).set_extent((p.dim(0).extent() / width_multiple) * width_multiple);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s brighten|blur3x3 OUTPUT.bc\n", argv[0]);
    return 2;
  }
  const Target t("x86-64-linux-sse41-no_asserts");
  Var x("x"), y("y");
  if (!std::strcmp(argv[1], "brighten")) {
    ImageParam input(UInt(8), 2, "input");
    Param<uint8_t> offset("offset");
    Func brighten("brighten");
    brighten(x, y) = saturating_add(input(x, y), offset);
    brighten.vectorize(x, 16);
    promise(input, 1, 0);
    promise(brighten.output_buffer(), 1, 32);
    brighten.compile_to_bitcode(argv[2], {input, offset}, "brighten", t);
    return 0;
  }
  if (!std::strcmp(argv[1], "blur3x3")) {
    ImageParam input(UInt(16), 2, "input");
    Func blur_x("blur_x"), blur_y("blur_y");
    // The window starts at (x, y), so the input starts at 0 too: its first
    // column tap input(x, y) is 16-byte aligned, input(x + 2, y) 4-byte
    // aligned and input(x + 1, y) only 2 (Halide knows, and says so).
    blur_x(x, y) = (input(x, y) + input(x + 1, y) + input(x + 2, y)) / 3;
    blur_y(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3;
    // The schedule of Halide's tutorials, without the parallel loop, and
    // with whole tiles (RoundUp; the promised extents are whole tiles)
    // rather than a last tile shifted inward, whose min() would make the
    // addresses not affine in the tile loops. blur_x is a stack buffer per
    // tile (memory the pipeline allocates itself: not checked).
    Var xi("xi"), yi("yi");
    blur_y.tile(x, y, xi, yi, 64, 8, TailStrategy::RoundUp).vectorize(xi, 16);
    blur_x.compute_at(blur_y, x).vectorize(x, 16);
    OutputImageParam output = blur_y.output_buffer();
    promise(input, 2, 0);
    promise(output, 2, 64);
    output.dim(1).set_extent((output.dim(1).extent() / 8) * 8);
    blur_y.compile_to_bitcode(argv[2], {input}, "blur3x3", t);
    return 0;
  }
  std::fprintf(stderr, "%s: unknown pipeline '%s'\n", argv[0], argv[1]);
  return 2;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
