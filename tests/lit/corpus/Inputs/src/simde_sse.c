/* SIMDe 0.7 portable SSE, without the native path: simde_mm_load_ps and
 * simde_mm_store_ps promise 16-byte alignment via __builtin_assume_aligned. */
#define SIMDE_NO_NATIVE
#include <simde/x86/sse.h>

void simde_saxpy4(float *y, const float *x, float a) {
  simde__m128 vx = simde_mm_load_ps(x);
  simde__m128 vy = simde_mm_load_ps(y);
  simde_mm_store_ps(y, simde_mm_add_ps(vy, simde_mm_mul_ps(vx, simde_mm_set1_ps(a))));
}
