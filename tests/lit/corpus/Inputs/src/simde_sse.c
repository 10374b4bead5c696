/* SIMDe 0.7 portable SSE, without the native path: simde_mm_load_ps promises
 * 16-byte alignment via __builtin_assume_aligned (simde_mm_store_ps, in 0.7,
 * does not). */
#define SIMDE_NO_NATIVE
#include <simde/x86/sse.h>

void simde_add4(float *y, const float *x) {
  simde__m128 vx = simde_mm_load_ps(x);
  simde__m128 vy = simde_mm_load_ps(y);
  simde_mm_store_ps(y, simde_mm_add_ps(vy, vx));
}
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
