// Calls the Halide pipelines of gen.cpp (brighten, blur3x3; linked in with
// Halide's runtime) on halide_buffer_t views and compares their output with
// a plain C reference:
//
//   harness brighten|blur3x3 aligned|misaligned-input
//
// aligned: every host pointer 32-byte aligned, as the pipelines were
// promised (set_host_alignment(32)), and the promised shapes (x from 0,
// dense, row strides a multiple of 32 bytes, widths a multiple of the
// vectors/tiles). misaligned-input: the same, but the input's host pointer
// is 4 bytes past a 32-byte boundary (a view into a larger image), with
// enough room behind it that nothing is read out of bounds.
//
// Prints what it calls and what came back; exits 1 on a wrong result.
#include <HalideRuntime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int brighten(struct halide_buffer_t *input, uint8_t offset,
             struct halide_buffer_t *output);
int blur3x3(struct halide_buffer_t *input, struct halide_buffer_t *output);

// A 2-D buffer of `bits`-bit unsigned elements over host.
static void make_buffer(halide_buffer_t *b, halide_dimension_t dim[2],
                        void *host, int bits, int width, int height,
                        int stride) {
  memset(b, 0, sizeof *b);
  dim[0] = (halide_dimension_t){0, width, 1, 0};
  dim[1] = (halide_dimension_t){0, height, stride, 0};
  b->host = (uint8_t *)host;
  b->type.code = halide_type_uint;
  b->type.bits = (uint8_t)bits;
  b->type.lanes = 1;
  b->dimensions = 2;
  b->dim = dim;
}

// 32-byte aligned, zeroed, with 64 bytes of room for a misaligned view.
static void *alloc32(size_t bytes) {
  void *p = aligned_alloc(32, (bytes + 64 + 31) / 32 * 32);
  if (!p) {
    perror("aligned_alloc");
    exit(2);
  }
  memset(p, 0, bytes + 64);
  return p;
}

static unsigned long past32(const void *p) {
  return (unsigned long)((uintptr_t)p % 32);
}

static int run_brighten(int misaligned) {
  enum { W = 64, H = 8, IN_STRIDE = 96, OUT_STRIDE = 64 }; // bytes = elements
  const uint8_t offset = 100;
  uint8_t *in_base = alloc32(IN_STRIDE * H), *out = alloc32(OUT_STRIDE * H);
  uint8_t *in = in_base + (misaligned ? 4 : 0);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      in[y * IN_STRIDE + x] = (uint8_t)(x * 7 + y * 13);
  halide_buffer_t ib, ob;
  halide_dimension_t id[2], od[2];
  make_buffer(&ib, id, in, 8, W, H, IN_STRIDE);
  make_buffer(&ob, od, out, 8, W, H, OUT_STRIDE);
  printf("calling brighten: input host %lu bytes past a 32-byte boundary\n",
         past32(in));
  fflush(stdout);
  int rc = brighten(&ib, offset, &ob);
  printf("brighten returned %d\n", rc);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      unsigned want = in[y * IN_STRIDE + x] + offset;
      if (want > 255)
        want = 255;
      if (out[y * OUT_STRIDE + x] != want) {
        printf("brighten: wrong at (%d, %d): %u, expected %u\n", x, y,
               out[y * OUT_STRIDE + x], want);
        return 1;
      }
    }
  printf("brighten: %d x %d pixels equal the reference\n", W, H);
  return rc != 0;
}

static int run_blur(int misaligned) {
  // Output 128 x 16 (2 x 2 tiles of 64 x 8); input 130 x 18; row strides
  // in elements, a multiple of 16 (32 bytes).
  enum { W = 128, H = 16, IN_STRIDE = 144, OUT_STRIDE = 160 };
  uint16_t *in_base = alloc32(2 * IN_STRIDE * (H + 2));
  uint16_t *out = alloc32(2 * OUT_STRIDE * H);
  uint16_t *in = (uint16_t *)((char *)in_base + (misaligned ? 4 : 0));
  for (int y = 0; y < H + 2; ++y)
    for (int x = 0; x < W + 2; ++x)
      in[y * IN_STRIDE + x] = (uint16_t)((x * 37 + y * 101) % 1000);
  halide_buffer_t ib, ob;
  halide_dimension_t id[2], od[2];
  make_buffer(&ib, id, in, 16, W + 2, H + 2, IN_STRIDE);
  make_buffer(&ob, od, out, 16, W, H, OUT_STRIDE);
  printf("calling blur3x3: input host %lu bytes past a 32-byte boundary\n",
         past32(in));
  fflush(stdout);
  int rc = blur3x3(&ib, &ob);
  printf("blur3x3 returned %d\n", rc);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      unsigned bx[3];
      for (int r = 0; r < 3; ++r) {
        const uint16_t *row = in + (y + r) * IN_STRIDE + x;
        bx[r] = (uint16_t)(row[0] + row[1] + row[2]) / 3u;
      }
      unsigned want = (uint16_t)(bx[0] + bx[1] + bx[2]) / 3u;
      if (out[y * OUT_STRIDE + x] != want) {
        printf("blur3x3: wrong at (%d, %d): %u, expected %u\n", x, y,
               out[y * OUT_STRIDE + x], want);
        return 1;
      }
    }
  printf("blur3x3: %d x %d pixels equal the reference\n", W, H);
  return rc != 0;
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[2], "aligned") && strcmp(argv[2], "misaligned-input"))) {
    fprintf(stderr, "usage: %s brighten|blur3x3 aligned|misaligned-input\n", argv[0]);
    return 2;
  }
  int misaligned = !strcmp(argv[2], "misaligned-input");
  if (!strcmp(argv[1], "brighten"))
    return run_brighten(misaligned);
  if (!strcmp(argv[1], "blur3x3"))
    return run_blur(misaligned);
  fprintf(stderr, "%s: unknown pipeline '%s'\n", argv[0], argv[1]);
  return 2;
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
