/*===- alignguard_state.c - AlignGuard runtime: the process's state -------===*
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Defines the runtime's state, apart from the code that uses it, so that
 * the code always reaches it through the dynamic linker's binding and the
 * copies of the runtime in several shared libraries of one process agree on
 * which state is theirs (state.h says how).
 *===----------------------------------------------------------------------===*/

#include "state.h"

#define AG_API __attribute__((visibility("default")))

AG_API ag_state __alignguard_state_v1 = {
    .log_fd = -1,
    .options_diag_taken = ATOMIC_FLAG_INIT,
    .violation_sites = {.null_seen = ATOMIC_FLAG_INIT,
                        .full_said = ATOMIC_FLAG_INIT},
    .fallback_sites = {.null_seen = ATOMIC_FLAG_INIT,
                       .full_said = ATOMIC_FLAG_INIT},
};

AG_API _Thread_local ag_thread_state __alignguard_thread_state_v1;
