// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A host that launches a kernel on DLPack tensors (DLTensor: data +
// byte_offset, shape, strides), as TVM or a framework bridge does: before
// the launch it checks each tensor with alignguard_check_dltensor
// (<alignguard/dlpack.h>) and refuses a misaligned or non-compact one with
// a message of its own; the kernel's AlignGuard checks stay behind it.
//
//   scripts/alignguard-clang -O2 -g examples/dlpack/dltensor_host.c -o host
//   ./host            # five tensors through the host's check
//   ./host unchecked  # byte_offset 4 straight to the kernel
#include <alignguard/dlpack.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The kernel: out = in * s over n floats, promised 64-byte aligned.
int vscale(float *out, const float *in, float s, long n) {
  float *o = __builtin_assume_aligned(out, 64);
  const float *x = __builtin_assume_aligned(in, 64);
  for (long i = 0; i < n; ++i)
    o[i] = x[i] * s;
  return 0;
}

// A tensor's first element: DLPack puts it byte_offset bytes past data.
static float *first(const DLTensor *t) {
  return (float *)((char *)t->data + t->byte_offset);
}

// What the host runs before the launch: each tensor 64-byte aligned and
// compact (row-major, no gaps), as vscale assumes; 0, or -1 with the
// reason in err.
static int check_args(const DLTensor *out, const DLTensor *in, char *err,
                      size_t size) {
  const DLTensor *args[] = {out, in};
  const char *names[] = {"out", "in"};
  for (int i = 0; i < 2; ++i) {
    char msg[256];
    int rc = alignguard_check_dltensor(args[i], 64, ALIGNGUARD_REQUIRE_COMPACT,
                                       msg, sizeof msg);
    if (rc != ALIGNGUARD_DLTENSOR_OK) {
      snprintf(err, size, "%s: %s (code %d)", names[i], msg, rc);
      return -1;
    }
  }
  return 0;
}

static int64_t shape[2] = {4, 4};
static int64_t column_major[2] = {1, 4}; // a transposed view's strides

// A 4x4 float tensor at data + byte_offset.
static DLTensor tensor(void *data, uint64_t byte_offset, int64_t *strides) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = 2;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  t.strides = strides;
  t.byte_offset = byte_offset;
  return t;
}

static void launch(const char *what, const DLTensor *out, const DLTensor *in) {
  char err[300];
  if (check_args(out, in, err, sizeof err) != 0) {
    printf("%-26s refused: %s\n", what, err);
    return;
  }
  vscale(first(out), first(in), 2.5f, 16);
  printf("%-26s launched: out[1] = %.1f\n", what, first(out)[1]);
}

int main(int argc, char **argv) {
  float *buf = aligned_alloc(64, 64 * sizeof(float));
  float *res = aligned_alloc(64, 16 * sizeof(float));
  for (int i = 0; i < 64; ++i)
    buf[i] = (float)i;
  DLTensor out = tensor(res, 0, NULL);
  DLTensor view = tensor(buf, 4, NULL); // one float in: byte_offset 4
  if (argc > 1 && strcmp(argv[1], "unchecked") == 0) {
    vscale(first(&out), first(&view), 2.5f, 16); // no check_args
    printf("unchecked: out[1] = %.1f\n", first(&out)[1]);
    return 0;
  }
  DLTensor aligned = tensor(buf, 0, NULL);
  DLTensor data_off = tensor(buf + 1, 0, NULL);
  DLTensor both = tensor(buf + 1, 60, NULL); // data + 4 + 60: aligned
  DLTensor transposed = tensor(buf, 0, column_major);
  launch("aligned", &out, &aligned);
  launch("byte_offset 4", &out, &view);
  launch("data + 4", &out, &data_off);
  launch("data + 4, byte_offset 60", &out, &both);
  launch("strides [1, 4]", &out, &transposed);
  free(buf);
  free(res);
  return 0;
}
