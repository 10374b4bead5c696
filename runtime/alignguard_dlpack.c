/*===- alignguard_dlpack.c - AlignGuard runtime: DLTensor checks ----------===*
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * alignguard_check_dltensor: what a host runtime calls before it launches an
 * instrumented kernel on a DLPack tensor (a zero-copy view from PyTorch or
 * NumPy, say), so a misaligned or strided view is refused with a message
 * that names the problem instead of tripping the kernel's check:
 *
 *   byte_offset 4 leaves data 0x7f0000001000 4 bytes past a 64-byte boundary
 *   strides [1, 4] are not compact for shape [4, 4]
 *
 * The rules and every message are listed in include/alignguard/dlpack.h.
 * Same constraints as alignguard_rt.c: libc-free in fact (no malloc, no
 * stdio; messages go through the bounded appenders of format.h), so it is
 * safe anywhere. DLPack is header-only: nothing to link.
 *===----------------------------------------------------------------------===*/

#include "alignguard/dlpack.h"

#include "format.h"

#include <stdint.h>

#define AG_API __attribute__((visibility("default")))

/// Appends "[a, b, c]".
static void put_list(ag_out *o, const int64_t *v, int n) {
  put_char(o, '[');
  for (int i = 0; i < n; ++i) {
    if (i > 0)
      put_str(o, ", ");
    put_sdec(o, v[i]);
  }
  put_char(o, ']');
}

/// Ends the message and returns `code`, so each failure is one statement.
static int fail(ag_out *o, int code) {
  finish(o);
  return code;
}

/// The number of elements of a shape whose dimensions are all >= 0: 0 when
/// one of them is 0; *overflow set when the product passes INT64_MAX (a
/// tensor no machine holds, refused rather than computed modulo 2^64).
static uint64_t element_count(const int64_t *shape, int ndim, int *overflow) {
  *overflow = 0;
  for (int i = 0; i < ndim; ++i)
    if (shape[i] == 0)
      return 0;
  uint64_t count = 1;
  for (int i = 0; i < ndim; ++i) {
    if ((uint64_t)shape[i] > (uint64_t)INT64_MAX / count) {
      *overflow = 1;
      return 0;
    }
    count *= (uint64_t)shape[i];
  }
  return count;
}

/// Row-major compact under DLPack's rules (see the header). Called only for a
/// tensor with elements whose count fits in int64_t, so every suffix product
/// does too.
static int is_compact(const int64_t *shape, const int64_t *strides, int ndim) {
  if (!strides)
    return 1;
  int64_t expected = 1;
  for (int i = ndim - 1; i >= 0; --i) {
    if (shape[i] > 1 && strides[i] != expected)
      return 0;
    expected *= shape[i];
  }
  return 1;
}

AG_API int alignguard_check_dltensor(const DLTensor *t, size_t alignment,
                                     unsigned flags, char *msg,
                                     size_t msg_size) {
  ag_out o = {msg, msg ? msg_size : 0, 0};

  /* Invalid arguments: nothing below may be trusted until these pass. */
  if (!t) {
    put_str(&o, "tensor is NULL");
    return fail(&o, ALIGNGUARD_DLTENSOR_INVALID);
  }
  if (!is_pow2(alignment)) {
    put_str(&o, "alignment ");
    put_dec(&o, alignment);
    put_str(&o, " is not a power of two");
    return fail(&o, ALIGNGUARD_DLTENSOR_INVALID);
  }
  if (flags & ~ALIGNGUARD_REQUIRE_COMPACT) {
    /* A flag from a newer header must not be ignored silently. */
    put_str(&o, "unknown flags ");
    put_hex(&o, flags & ~ALIGNGUARD_REQUIRE_COMPACT);
    return fail(&o, ALIGNGUARD_DLTENSOR_INVALID);
  }
  int ndim = t->ndim;
  if (ndim < 0) {
    put_str(&o, "ndim ");
    put_sdec(&o, ndim);
    put_str(&o, " is negative");
    return fail(&o, ALIGNGUARD_DLTENSOR_INVALID);
  }
  if (ndim > 0 && !t->shape) {
    put_str(&o, "shape is NULL but ndim is ");
    put_dec(&o, (uint64_t)ndim);
    return fail(&o, ALIGNGUARD_DLTENSOR_INVALID);
  }
  for (int i = 0; i < ndim; ++i) {
    if (t->shape[i] < 0) {
      put_str(&o, "shape ");
      put_list(&o, t->shape, ndim);
      put_str(&o, " has a negative dimension");
      return fail(&o, ALIGNGUARD_DLTENSOR_INVALID);
    }
  }
  int overflow;
  uint64_t count = element_count(t->shape, ndim, &overflow);
  if (overflow) {
    put_str(&o, "shape ");
    put_list(&o, t->shape, ndim);
    put_str(&o, " has more than ");
    put_dec(&o, (uint64_t)INT64_MAX);
    put_str(&o, " elements");
    return fail(&o, ALIGNGUARD_DLTENSOR_INVALID);
  }

  /* Alignment of the first element. */
  if (!t->data) {
    if (count > 0) {
      put_str(&o, "data is NULL but the tensor has ");
      put_dec(&o, count);
      put_str(&o, " elements");
      return fail(&o, ALIGNGUARD_DLTENSOR_INVALID);
    }
  } else {
    uint64_t data = (uint64_t)(uintptr_t)t->data;
    uint64_t past = (data + t->byte_offset) & ((uint64_t)alignment - 1);
    if (past != 0) {
      if (t->byte_offset != 0) {
        put_str(&o, "byte_offset ");
        put_dec(&o, t->byte_offset);
        put_str(&o, " leaves data ");
        put_hex(&o, data);
        put_char(&o, ' ');
      } else {
        put_str(&o, "data ");
        put_hex(&o, data);
        put_str(&o, " is ");
      }
      put_dec(&o, past);
      put_str(&o, " bytes past a ");
      put_dec(&o, alignment);
      put_str(&o, "-byte boundary");
      return fail(&o, ALIGNGUARD_DLTENSOR_MISALIGNED);
    }
  }

  /* Layout. */
  if ((flags & ALIGNGUARD_REQUIRE_COMPACT) && count > 0 &&
      !is_compact(t->shape, t->strides, ndim)) {
    put_str(&o, "strides ");
    put_list(&o, t->strides, ndim);
    put_str(&o, " are not compact for shape ");
    put_list(&o, t->shape, ndim);
    return fail(&o, ALIGNGUARD_DLTENSOR_NOT_COMPACT);
  }
  return fail(&o, ALIGNGUARD_DLTENSOR_OK);
}
