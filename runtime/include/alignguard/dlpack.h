/*===- alignguard/dlpack.h - AlignGuard checks of DLPack tensors ----------===*
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * For a host runtime (TVM, a PyTorch or NumPy bridge) that is about to hand
 * a DLTensor to a kernel compiled with the `align-guard` pass: checks, before
 * the launch, that the tensor's first element has the alignment the kernel
 * assumes and, on request, that its strides are compact. The kernel's own
 * checks stay the ground truth; this gives the host a clear error first.
 *
 *   char msg[256];
 *   if (alignguard_check_dltensor(t, 64, ALIGNGUARD_REQUIRE_COMPACT, msg,
 *                                 sizeof msg) != 0)
 *     return host_error(msg);
 *
 * Part of libalignguard_rt.a; like the rest of the runtime it uses no malloc,
 * no stdio, no locks, and is thread-safe and async-signal-safe. DLPack itself
 * is header-only: this needs <dlpack/dlpack.h> (Debian: libdlpack-dev) to
 * compile, nothing to link.
 *===----------------------------------------------------------------------===*/
#ifndef ALIGNGUARD_DLPACK_H
#define ALIGNGUARD_DLPACK_H

#include <dlpack/dlpack.h>

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Flags for alignguard_check_dltensor. */
#define ALIGNGUARD_REQUIRE_COMPACT 1u /* strides must be row-major compact */

/* Results of alignguard_check_dltensor. */
#define ALIGNGUARD_DLTENSOR_OK 0
#define ALIGNGUARD_DLTENSOR_MISALIGNED 1 /* data + byte_offset misaligned */
#define ALIGNGUARD_DLTENSOR_NOT_COMPACT                                        \
  2                                   /* with ALIGNGUARD_REQUIRE_COMPACT       \
                                       */
#define ALIGNGUARD_DLTENSOR_INVALID 3 /* a bad tensor or argument */

/* Checks that `(uintptr_t)t->data + t->byte_offset` is a multiple of
 * `alignment` and, with ALIGNGUARD_REQUIRE_COMPACT in `flags`, that the
 * strides are compact. Returns the first problem found, in this order:
 *
 *   ALIGNGUARD_DLTENSOR_INVALID (3)
 *     tensor is NULL
 *     alignment 3 is not a power of two                (also for 0)
 *     unknown flags 0x6
 *     ndim -1 is negative
 *     shape is NULL but ndim is 2
 *     shape [4, -1] has a negative dimension
 *     shape [...] has more than 9223372036854775807 elements
 *     data is NULL but the tensor has 16 elements
 *   ALIGNGUARD_DLTENSOR_MISALIGNED (1)
 *     data 0x1004 is 4 bytes past a 64-byte boundary           (byte_offset 0)
 *     byte_offset 4 leaves data 0x1000 4 bytes past a 64-byte boundary
 *   ALIGNGUARD_DLTENSOR_NOT_COMPACT (2)
 *     strides [1, 4] are not compact for shape [4, 4]
 *
 * and ALIGNGUARD_DLTENSOR_OK (0) with msg set to "" when all is well. Numbers
 * are decimal, addresses 0x-prefixed lowercase hex; lists are in brackets,
 * ", "-separated, in elements as DLPack has them.
 *
 * The rules follow DLPack (and PyTorch's export of it):
 * - NULL data is valid for a tensor with no elements (some shape[i] == 0),
 *   whatever byte_offset says; non-NULL data is checked whatever the shape.
 * - ndim 0 is a scalar: one element, nothing to be compact about.
 * - NULL strides mean compact row-major. Otherwise the tensor is compact when
 *   each dimension i with shape[i] > 1 has strides[i] == shape[i+1] * ... *
 *   shape[ndim-1]; a dimension of size 1 may have any stride, and a tensor
 *   with no elements is compact whatever its strides.
 *
 * msg may be NULL (then msg_size is ignored); otherwise, when msg_size > 0,
 * the message is written there, cut to msg_size - 1 bytes if need be, and
 * always NUL-terminated. Neither data nor any byte it points to is read. */
int alignguard_check_dltensor(const DLTensor *t, size_t alignment,
                              unsigned flags, char *msg, size_t msg_size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ALIGNGUARD_DLPACK_H */
