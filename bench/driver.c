// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The benchmark driver: loads every variant of the kernels (one shared
// library per build: plain -O3, align-guard<abort>, ...) into one process,
// so that timing can alternate between variants call by call and whatever
// noise the machine makes hits all of them alike. It is compiled once,
// without instrumentation, and is the same code for every variant.
//
//   driver time   [--reps R] [--sample-ms T] [--case-budget-ms B]
//                 VARIANT... -- CASE...
//   driver count  VARIANT -- CASE...          (run under callgrind)
//   driver detect KERNEL REFERENCE VARIANT    (misaligned call, may die)
//
// VARIANT is NAME=LIBRARY@OFFSET: the library's kernels are called on
// buffers that start OFFSET bytes past a 64-byte boundary (0: aligned; 4:
// the misaligned variants). The first variant is the
// reference (plain -O3). CASE is KERNEL:SIZE[:skip=NAME,NAME...] (see
// `kernels` below); skip= leaves variants out of that case (a variant that
// would abort on it).
//
// `time` first verifies each variant's output against the reference's (bit
// for bit; every kernel's result is exactly reproducible in any evaluation
// order, see the kernels), that nothing is reported and no fallback runs on
// aligned input and that the instrumentation notices misaligned input (the
// fallback runs, or recover reports), then prints per case and variant the
// time of each repetition. `count` calls each case once inside
// bench_region(), the function callgrind's --toggle-collect names, and
// prints the cases in order (one callgrind dump per call). Output lines are
// tokens for run.py.
#include <dlfcn.h>
#include <dlpack/dlpack.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_BUFS 3
#define MAX_VARIANTS 16
#define CONV_TAPS 8 /* as in kernels/conv1d.c */

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

// One case's buffers for one offset: the allocations, and the views the
// kernels see (allocation + offset). The TVM kernel's DLTensors live here
// too, so that building them is not part of the measured call.
typedef struct {
  int offset;
  char *mem[MAX_BUFS];
  char *view[MAX_BUFS];
  size_t bytes[MAX_BUFS];
  DLTensor tensor[MAX_BUFS];
  int64_t shape[1];
} bufset;

//===----------------------------------------------------------------------===//
// Kernels: how to lay out, fill and call each one
//===----------------------------------------------------------------------===//

typedef struct kernel {
  const char *name; // the symbol in each variant library
  int nbuf;
  void (*layout)(size_t size, size_t bytes[]);
  void (*init)(bufset *b, size_t size); // inputs, and the output cleared
  // Calls the kernel once; returns its scalar result (dot), its return code
  // (tvm) or 0.
  double (*call)(void *fn, bufset *b, size_t size);
  int out; // the output buffer, compared bit for bit; -1: the scalar result
} kernel;

// saxpy: size = n. Buffers x, y (y is the output, updated in place).
static void saxpy_layout(size_t n, size_t bytes[]) {
  bytes[0] = bytes[1] = n * sizeof(float);
}
static void saxpy_init(bufset *b, size_t n) {
  float *x = (float *)b->view[0], *y = (float *)b->view[1];
  for (size_t i = 0; i < n; ++i) {
    x[i] = (float)(i % 97) * 0.25f - 12.0f;
    y[i] = (float)(i % 89) * 0.5f;
  }
}
static double saxpy_call(void *fn, bufset *b, size_t n) {
  ((void (*)(float, const float *, float *, size_t))fn)(
      1.5f, (const float *)b->view[0], (float *)b->view[1], n);
  return 0;
}

// dot: size = n. Small integers, so every summation order is exact.
static void dot_layout(size_t n, size_t bytes[]) {
  bytes[0] = bytes[1] = n * sizeof(double);
}
static void dot_init(bufset *b, size_t n) {
  double *x = (double *)b->view[0], *y = (double *)b->view[1];
  for (size_t i = 0; i < n; ++i) {
    x[i] = (double)(i % 17) - 8.0;
    y[i] = (double)(i % 13) - 6.0;
  }
}
static double dot_call(void *fn, bufset *b, size_t n) {
  return ((double (*)(const double *, const double *, size_t))fn)(
      (const double *)b->view[0], (const double *)b->view[1], n);
}

// stencil3x3: size = w * h pixels, w = h. Output rows of w floats (w is a
// multiple of 8, so rows stay 32-byte aligned); the input is padded to
// (h + 2) rows of w + 8 floats.
static size_t side(size_t pixels) {
  size_t w = (size_t)sqrt((double)pixels);
  while (w * w < pixels)
    ++w;
  return w;
}
static void stencil_layout(size_t pixels, size_t bytes[]) {
  size_t w = side(pixels);
  bytes[0] = w * w * sizeof(float);
  bytes[1] = (w + 2) * (w + 8) * sizeof(float);
}
static void stencil_init(bufset *b, size_t pixels) {
  size_t w = side(pixels);
  float *in = (float *)b->view[1];
  for (size_t i = 0; i < (w + 2) * (w + 8); ++i)
    in[i] = (float)((i * 7) % 31) * 0.125f;
  memset(b->view[0], 0, w * w * sizeof(float));
}
static double stencil_call(void *fn, bufset *b, size_t pixels) {
  size_t w = side(pixels);
  ((void (*)(float *, const float *, size_t, size_t))fn)(
      (float *)b->view[0], (const float *)b->view[1], w / 8, w);
  return 0;
}
// stencil3x3_rows: the same images, strides passed in floats.
static double stencil_rows_call(void *fn, bufset *b, size_t pixels) {
  size_t w = side(pixels);
  ((void (*)(float *, size_t, const float *, size_t, size_t, size_t))fn)(
      (float *)b->view[0], w, (const float *)b->view[1], w + 8, w, w);
  return 0;
}

// gemm: size = n (n x n matrices, n a multiple of 16). C = A * B.
static void gemm_layout(size_t n, size_t bytes[]) {
  bytes[0] = bytes[1] = bytes[2] = n * n * sizeof(float);
}
static void gemm_init(bufset *b, size_t n) {
  float *a = (float *)b->view[1], *bb = (float *)b->view[2];
  for (size_t i = 0; i < n * n; ++i) {
    a[i] = (float)((i * 3) % 11) * 0.25f - 1.25f;
    bb[i] = (float)((i * 5) % 13) * 0.125f - 0.75f;
  }
  memset(b->view[0], 0, n * n * sizeof(float));
}
static double gemm_call(void *fn, bufset *b, size_t n) {
  ((void (*)(float *, const float *, const float *, size_t))fn)(
      (float *)b->view[0], (const float *)b->view[1],
      (const float *)b->view[2], n / 16);
  return 0;
}

// conv1d: size = n outputs; the input has n + CONV_TAPS - 1 samples, the
// taps are a constant of the driver.
static const float conv_taps[CONV_TAPS] = {0.125f, -0.25f, 0.5f,   1.0f,
                                           0.75f,  -0.5f,  0.25f, -0.125f};
static void conv_layout(size_t n, size_t bytes[]) {
  bytes[0] = n * sizeof(float);
  bytes[1] = (n + CONV_TAPS - 1) * sizeof(float);
}
static void conv_init(bufset *b, size_t n) {
  float *in = (float *)b->view[1];
  for (size_t i = 0; i < n + CONV_TAPS - 1; ++i)
    in[i] = (float)((i * 11) % 37) * 0.0625f - 1.0f;
  memset(b->view[0], 0, n * sizeof(float));
}
static double conv_call(void *fn, bufset *b, size_t n) {
  ((void (*)(float *, const float *, const float *, size_t))fn)(
      (float *)b->view[0], (const float *)b->view[1], conv_taps, n);
  return 0;
}

// tvm: size = n. The packed function fused_scale_add(A, B, Out), called
// with DLTensors whose data are the views (byte_offset 0, as the kernel's
// own assert requires).
typedef union {
  int64_t v_int64;
  double v_float64;
  void *v_handle;
} TVMValue;
static char tvm_last_error[256];
// The kernel library calls back into its host for errors, as TVM's do
// (the driver is linked with -rdynamic so that the libraries find it).
void TVMAPISetLastError(const char *msg) {
  strncpy(tvm_last_error, msg, sizeof tvm_last_error - 1);
}
static void tvm_layout(size_t n, size_t bytes[]) {
  bytes[0] = bytes[1] = bytes[2] = n * sizeof(float);
}
static void tvm_init(bufset *b, size_t n) {
  float *a = (float *)b->view[0], *bb = (float *)b->view[1];
  for (size_t i = 0; i < n; ++i) {
    a[i] = (float)i * 0.37f - 11.0f;
    bb[i] = 1.0f / (float)(i + 1);
  }
  memset(b->view[2], 0, n * sizeof(float));
  b->shape[0] = (int64_t)n;
  for (int t = 0; t < 3; ++t) {
    DLTensor *d = &b->tensor[t];
    memset(d, 0, sizeof *d);
    d->data = b->view[t];
    d->device.device_type = kDLCPU;
    d->ndim = 1;
    d->dtype.code = kDLFloat;
    d->dtype.bits = 32;
    d->dtype.lanes = 1;
    d->shape = b->shape;
  }
}
static double tvm_call(void *fn, bufset *b, size_t n) {
  (void)n;
  TVMValue args[3] = {{.v_handle = &b->tensor[0]},
                      {.v_handle = &b->tensor[1]},
                      {.v_handle = &b->tensor[2]}};
  int32_t codes[3] = {7, 7, 7};
  return ((int32_t(*)(void *, int32_t *, int32_t, void *, int32_t *,
                      void *))fn)(args, codes, 3, 0, 0, 0);
}

static const kernel kernels[] = {
    {"saxpy", 2, saxpy_layout, saxpy_init, saxpy_call, 1},
    {"dot", 2, dot_layout, dot_init, dot_call, -1},
    {"stencil3x3", 2, stencil_layout, stencil_init, stencil_call, 0},
    {"stencil3x3_rows", 2, stencil_layout, stencil_init, stencil_rows_call, 0},
    {"gemm", 3, gemm_layout, gemm_init, gemm_call, 0},
    {"conv1d", 2, conv_layout, conv_init, conv_call, 0},
    {"fused_scale_add", 3, tvm_layout, tvm_init, tvm_call, 2},
};

//===----------------------------------------------------------------------===//
// Variants, cases, helpers
//===----------------------------------------------------------------------===//

typedef struct {
  const char *name;
  int offset;
  void *lib;
  uint64_t (*fallbacks)(void);  // alignguard_fallback_count, if linked in
  uint64_t (*violations)(void); // alignguard_violation_count, if linked in
} variant;

static void die(const char *what, const char *detail) {
  fprintf(stderr, "driver: %s%s%s\n", what, detail ? ": " : "",
          detail ? detail : "");
  exit(2);
}

static const kernel *find_kernel(const char *name) {
  for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i)
    if (!strcmp(kernels[i].name, name))
      return &kernels[i];
  die("unknown kernel", name);
  return 0;
}

// NAME=LIBRARY@OFFSET. RTLD_NOW: the first call must not resolve symbols
// lazily inside a measured region. RTLD_LOCAL: every library has its own
// `saxpy`, found with dlsym on its own handle.
static variant parse_variant(char *spec) {
  variant v = {0};
  char *eq = strchr(spec, '='), *at = strrchr(spec, '@');
  if (!eq || !at || at < eq)
    die("variant must be NAME=LIBRARY@OFFSET", spec);
  *eq = *at = 0;
  v.name = spec;
  v.offset = atoi(at + 1);
  v.lib = dlopen(eq + 1, RTLD_NOW | RTLD_LOCAL);
  if (!v.lib)
    die("dlopen", dlerror());
  v.fallbacks = (uint64_t(*)(void))dlsym(v.lib, "alignguard_fallback_count");
  v.violations = (uint64_t(*)(void))dlsym(v.lib, "alignguard_violation_count");
  return v;
}

static void *kernel_fn(const variant *v, const kernel *k) {
  void *fn = dlsym(v->lib, k->name);
  if (!fn)
    die("kernel not found in variant library", k->name);
  return fn;
}

// KERNEL:SIZE[:skip=NAME,...]; `skip` gets the list (or "").
static void parse_case(const char *spec, const kernel **k, size_t *size,
                       const char **skip) {
  const char *colon = strchr(spec, ':');
  if (!colon)
    die("case must be KERNEL:SIZE", spec);
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)(colon - spec), spec);
  *k = find_kernel(name);
  char *end;
  *size = strtoull(colon + 1, &end, 10);
  *skip = !strncmp(end, ":skip=", 6) ? end + 6 : "";
}

// Whether NAME is in the comma-separated LIST.
static int listed(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len == n && !strncmp(p, name, n))
      return 1;
    p += len + (comma != 0);
  }
  return 0;
}

// Allocates the buffers of a case (64 bytes of slack each, for the offset)
// and views them at `offset`; with `share`, views the same allocations as
// that set instead, so that the aligned and the misaligned variants of a
// timing run work on the same memory, in the same cache state.
static void bufs_alloc(bufset *b, const kernel *k, size_t size, int offset,
                       const bufset *share) {
  memset(b, 0, sizeof *b);
  b->offset = offset;
  k->layout(size, b->bytes);
  for (int i = 0; i < k->nbuf; ++i) {
    if (share) {
      b->mem[i] = share->mem[i];
    } else {
      b->mem[i] = aligned_alloc(64, (b->bytes[i] + 64 + 63) / 64 * 64);
      if (!b->mem[i])
        die("out of memory", k->name);
    }
    b->view[i] = b->mem[i] + offset;
  }
  k->init(b, size);
}

static void bufs_free(bufset *b, const kernel *k) {
  for (int i = 0; i < k->nbuf; ++i)
    free(b->mem[i]);
}

// Before timing, the whole of each allocation gets one 32-bit pattern (the
// float 1.0), which reads as a normal number from every view, float or
// double, aligned or not: a misaligned view of data laid out for the
// aligned one would read halves of two doubles, denormals that slow
// arithmetic down by themselves. Timing needs no particular values.
static void fill_for_timing(bufset *b, const kernel *k) {
  const uint32_t one = 0x3f800000u;
  for (int i = 0; i < k->nbuf; ++i) {
    size_t words = (b->bytes[i] + 64) / 4;
    for (size_t w = 0; w < words; ++w)
      memcpy(b->mem[i] + 4 * w, &one, 4);
  }
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static uint64_t count_of(uint64_t (*f)(void)) { return f ? f() : 0; }

// The region callgrind counts (--toggle-collect=bench_region): one call of
// the kernel through the same driver code for every variant.
__attribute__((noinline)) double bench_region(const kernel *k, void *fn,
                                              bufset *b, size_t size) {
  double r = k->call(fn, b, size);
  __asm__ volatile("" ::: "memory");
  return r;
}

//===----------------------------------------------------------------------===//
// Modes
//===----------------------------------------------------------------------===//

// Verifies, then times one case: repetitions that each call every variant
// `inner` times, in a rotating order (repetition r starts with variant r),
// so that drifts in the machine's speed hit every variant alike. `inner` is
// set so that the reference's sample takes about sample_ns; the number of
// repetitions is `reps`, fewer (not under 5) when that would take the case
// past budget_ns (the largest GEMM).
static int time_case(const kernel *k, size_t size, const char *skip,
                     variant *all, int nall, int reps, double sample_ns,
                     double budget_ns) {
  variant *vs[MAX_VARIANTS];
  int nv = 0;
  for (int v = 0; v < nall; ++v)
    if (!listed(skip, all[v].name))
      vs[nv++] = &all[v];
  if (!nv || vs[0] != &all[0])
    die("the reference variant cannot be skipped", k->name);

  // The views: offset 0 and the misaligned offset (at most one other), on
  // the same allocations.
  bufset sets[2];
  int nsets = 0, set_of[MAX_VARIANTS];
  for (int v = 0; v < nv; ++v) {
    int s = 0;
    while (s < nsets && sets[s].offset != vs[v]->offset)
      ++s;
    if (s == nsets) {
      if (nsets == 2)
        die("at most two distinct offsets", vs[v]->name);
      bufs_alloc(&sets[nsets], k, size, vs[v]->offset, nsets ? &sets[0] : 0);
      ++nsets;
    }
    set_of[v] = s;
  }
  void *fns[MAX_VARIANTS];
  for (int v = 0; v < nv; ++v)
    fns[v] = kernel_fn(vs[v], k);

  // Verification: fresh inputs, one call per variant, output compared with
  // the reference's (variant 0) bit for bit.
  int failures = 0;
  size_t out_bytes = k->out >= 0 ? sets[set_of[0]].bytes[k->out] : 0;
  char *ref = k->out >= 0 ? malloc(out_bytes) : 0;
  double ref_scalar = 0;
  for (int v = 0; v < nv; ++v) {
    bufset *b = &sets[set_of[v]];
    k->init(b, size);
    uint64_t f0 = count_of(vs[v]->fallbacks), e0 = count_of(vs[v]->violations);
    double r = k->call(fns[v], b, size);
    uint64_t fb = count_of(vs[v]->fallbacks) - f0;
    uint64_t viol = count_of(vs[v]->violations) - e0;
    int same;
    if (v == 0) {
      if (ref)
        memcpy(ref, b->view[k->out], out_bytes);
      ref_scalar = r;
      same = 1;
    } else {
      same = !memcmp(&r, &ref_scalar, sizeof r) &&
             (!ref || !memcmp(ref, b->view[k->out], out_bytes));
    }
    // On aligned input nothing may be reported and the fallback copy must
    // not run; on misaligned input the instrumentation must have noticed
    // (the fallback ran, or recover reported and went on).
    int path_ok = vs[v]->offset ? fb + viol >= 1 : fb == 0 && viol == 0;
    printf("verify %s %zu %s %s fallbacks=%llu violations=%llu\n", k->name,
           size, vs[v]->name, same && path_ok ? "ok" : "FAILED",
           (unsigned long long)fb, (unsigned long long)viol);
    failures += !(same && path_ok);
  }
  free(ref);
  fill_for_timing(&sets[0], k);

  // Calibration on the reference, after one warm-up call.
  bench_region(k, fns[0], &sets[set_of[0]], size);
  double t0 = now_ns();
  bench_region(k, fns[0], &sets[set_of[0]], size);
  double one = now_ns() - t0;
  long inner = one > 0 ? (long)(sample_ns / one) : 1;
  if (inner < 1)
    inner = 1;
  double per_rep = (double)nv * (double)inner * one;
  if (per_rep * reps > budget_ns) {
    reps = (int)(budget_ns / per_rep);
    if (reps < 5)
      reps = 5;
  }

  double *t = calloc((size_t)reps * nv, sizeof *t);
  for (int r = 0; r < reps; ++r)
    for (int j = 0; j < nv; ++j) {
      int v = (j + r) % nv;
      bufset *b = &sets[set_of[v]];
      double start = now_ns();
      for (long i = 0; i < inner; ++i)
        bench_region(k, fns[v], b, size);
      t[r * nv + v] = (now_ns() - start) / (double)inner;
    }
  for (int v = 0; v < nv; ++v) {
    printf("time %s %zu %s %ld", k->name, size, vs[v]->name, inner);
    for (int r = 0; r < reps; ++r)
      printf(" %.1f", t[r * nv + v]);
    printf("\n");
  }
  fflush(stdout);
  free(t);
  bufs_free(&sets[0], k); // the other set shares its allocations
  return failures;
}

static int mode_time(int argc, char **argv) {
  int reps = 15, i = 0, nv = 0;
  double sample_ms = 2.0, budget_ms = 4000;
  variant vs[MAX_VARIANTS];
  for (; i < argc && strcmp(argv[i], "--"); ++i) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--sample-ms") && i + 1 < argc)
      sample_ms = atof(argv[++i]);
    else if (!strcmp(argv[i], "--case-budget-ms") && i + 1 < argc)
      budget_ms = atof(argv[++i]);
    else if (nv < MAX_VARIANTS)
      vs[nv++] = parse_variant(argv[i]);
    else
      die("too many variants", argv[i]);
  }
  if (!nv || i == argc)
    die("usage: driver time [--reps R] [--sample-ms T] [--case-budget-ms B] "
        "VARIANT... -- CASE...",
        0);
  int failures = 0;
  for (++i; i < argc; ++i) {
    const kernel *k;
    size_t size;
    const char *skip;
    parse_case(argv[i], &k, &size, &skip);
    failures += time_case(k, size, skip, vs, nv, reps, sample_ms * 1e6,
                          budget_ms * 1e6);
  }
  return failures ? 1 : 0;
}

// One variant, each case once in bench_region. The first case of each
// kernel is preceded by an uncounted call, so that one-time work (the
// runtime's first fallback reads ALIGNGUARD_OPTIONS) is not counted.
static int mode_count(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--"))
    die("usage: driver count VARIANT -- CASE...", 0);
  variant v = parse_variant(argv[0]);
  const kernel *warmed[16];
  int nwarmed = 0;
  for (int i = 2; i < argc; ++i) {
    const kernel *k;
    size_t size;
    const char *skip;
    parse_case(argv[i], &k, &size, &skip);
    bufset b;
    bufs_alloc(&b, k, size, v.offset, 0);
    void *fn = kernel_fn(&v, k);
    int warm = 0;
    for (int w = 0; w < nwarmed; ++w)
      warm |= warmed[w] == k;
    if (!warm) {
      k->call(fn, &b, size);
      warmed[nwarmed++] = k;
      k->init(&b, size);
    }
    bench_region(k, fn, &b, size);
    printf("counted %s %zu %s\n", k->name, size, v.name);
    fflush(stdout);
    bufs_free(&b, k);
  }
  return 0;
}

// A misaligned call at the kernel's smallest size: prints what happened if
// the process survives (it may abort, trap or crash, which is the point).
static int mode_detect(int argc, char **argv) {
  if (argc != 3)
    die("usage: driver detect KERNEL REFERENCE VARIANT", 0);
  const kernel *k = find_kernel(argv[0]);
  variant ref = parse_variant(argv[1]), v = parse_variant(argv[2]);
  size_t size = !strcmp(k->name, "gemm") ? 64 : 1024;
  bufset rb, b;
  bufs_alloc(&rb, k, size, ref.offset, 0);
  bufs_alloc(&b, k, size, v.offset, 0);
  double rr = k->call(kernel_fn(&ref, k), &rb, size);
  setvbuf(stdout, 0, _IONBF, 0);
  double r = k->call(kernel_fn(&v, k), &b, size);
  int same = k->out >= 0 ? !memcmp(rb.view[k->out], b.view[k->out],
                                   rb.bytes[k->out]) && r == rr
                         : r == rr;
  printf("completed %s\n", same ? "correct" : "wrong");
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2)
    die("usage: driver time|count|detect ...", 0);
  if (!strcmp(argv[1], "time"))
    return mode_time(argc - 2, argv + 2);
  if (!strcmp(argv[1], "count"))
    return mode_count(argc - 2, argv + 2);
  if (!strcmp(argv[1], "detect"))
    return mode_detect(argc - 2, argv + 2);
  die("unknown mode", argv[1]);
  return 2;
}
