// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Third-party compile-time benchmark (issue 13, item 5): a plain C program
// of the ordinary kind (no SIMD library): a CSV-ish parser, a hash table,
// CRC-32, a histogram, a box blur and a small matrix library over buffers
// from aligned_alloc, with the alignment promised where the code relies on
// it (__builtin_assume_aligned), as such programs do.
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- CRC-32 (table-driven) ---- */
static uint32_t crc_table[256];

static void crc_init(void) {
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k)
      c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    crc_table[i] = c;
  }
}

uint32_t crc32_buf(const unsigned char *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i)
    c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

/* ---- a string-keyed hash table with open addressing ---- */
struct entry {
  char *key;
  long value;
};

struct table {
  struct entry *slots;
  size_t cap, used;
};

static uint64_t fnv1a(const char *s) {
  uint64_t h = 1469598103934665603ull;
  while (*s)
    h = (h ^ (unsigned char)*s++) * 1099511628211ull;
  return h;
}

static int table_grow(struct table *t);

int table_put(struct table *t, const char *key, long value) {
  if (2 * (t->used + 1) > t->cap && table_grow(t))
    return -1;
  size_t i = fnv1a(key) & (t->cap - 1);
  while (t->slots[i].key) {
    if (!strcmp(t->slots[i].key, key)) {
      t->slots[i].value += value;
      return 0;
    }
    i = (i + 1) & (t->cap - 1);
  }
  t->slots[i].key = strdup(key);
  t->slots[i].value = value;
  t->used++;
  return t->slots[i].key ? 0 : -1;
}

static int table_grow(struct table *t) {
  size_t cap = t->cap ? 2 * t->cap : 64;
  struct entry *old = t->slots;
  size_t oldcap = t->cap;
  t->slots = calloc(cap, sizeof *t->slots);
  if (!t->slots)
    return -1;
  t->cap = cap;
  t->used = 0;
  for (size_t i = 0; i < oldcap; ++i)
    if (old[i].key) {
      table_put(t, old[i].key, old[i].value);
      free(old[i].key);
    }
  free(old);
  return 0;
}

long table_get(const struct table *t, const char *key) {
  if (!t->cap)
    return 0;
  size_t i = fnv1a(key) & (t->cap - 1);
  while (t->slots[i].key) {
    if (!strcmp(t->slots[i].key, key))
      return t->slots[i].value;
    i = (i + 1) & (t->cap - 1);
  }
  return 0;
}

static int by_value(const void *a, const void *b) {
  const struct entry *x = a, *y = b;
  return (y->value > x->value) - (y->value < x->value);
}

/* ---- a line parser: "name,count" records, comments, blank lines ---- */
int parse_line(char *line, char **name, long *count) {
  while (isspace((unsigned char)*line))
    ++line;
  if (!*line || *line == '#')
    return 0;
  char *comma = strchr(line, ',');
  if (!comma)
    return -1;
  *comma = 0;
  char *end;
  *count = strtol(comma + 1, &end, 10);
  while (isspace((unsigned char)*end))
    ++end;
  if (*end)
    return -1;
  for (char *p = comma - 1; p >= line && isspace((unsigned char)*p); --p)
    *p = 0;
  *name = line;
  return 1;
}

/* ---- images: 64-byte aligned rows of floats ---- */
struct image {
  float *px;
  int w, h;
  size_t stride; /* floats per row, a multiple of 16 */
};

int image_alloc(struct image *im, int w, int h) {
  im->w = w;
  im->h = h;
  im->stride = ((size_t)w + 15) & ~(size_t)15;
  im->px = aligned_alloc(64, im->stride * h * sizeof(float));
  return im->px ? 0 : -1;
}

void histogram(const struct image *im, unsigned hist[256]) {
  memset(hist, 0, 256 * sizeof *hist);
  for (int y = 0; y < im->h; ++y) {
    const float *row = __builtin_assume_aligned(im->px + y * im->stride, 64);
    for (int x = 0; x < im->w; ++x) {
      float v = row[x] < 0 ? 0 : (row[x] > 1 ? 1 : row[x]);
      hist[(int)(v * 255.0f + 0.5f)]++;
    }
  }
}

void box_blur(struct image *dst, const struct image *src) {
  float *out = __builtin_assume_aligned(dst->px, 64);
  const float *in = __builtin_assume_aligned(src->px, 64);
  size_t s = src->stride;
  for (int y = 1; y + 1 < src->h; ++y)
    for (int x = 1; x + 1 < src->w; ++x) {
      float acc = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          acc += in[(y + dy) * s + x + dx];
      out[y * s + x] = acc * (1.0f / 9.0f);
    }
}

void gamma_lut(struct image *im, const float lut[257]) {
  for (int y = 0; y < im->h; ++y) {
    float *row = __builtin_assume_aligned(im->px + y * im->stride, 64);
    for (int x = 0; x < im->w; ++x) {
      float v = row[x] * 256.0f;
      int i = v < 0 ? 0 : (v > 255 ? 255 : (int)v);
      float f = v - i;
      row[x] = lut[i] + f * (lut[i + 1] - lut[i]);
    }
  }
}

/* ---- small dense matrices ---- */
void mat_mul(double *c, const double *a, const double *b, int n) {
  double *C = __builtin_assume_aligned(c, 64);
  const double *A = __builtin_assume_aligned(a, 64);
  const double *B = __builtin_assume_aligned(b, 64);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      C[i * n + j] = 0;
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
  }
}

void mat_transpose(double *t, const double *a, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      t[j * n + i] = a[i * n + j];
}

double mat_trace(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i * n + i];
  return s;
}

/* ---- main: counts names from stdin, blurs an image, multiplies ---- */
int main(int argc, char **argv) {
  crc_init();
  struct table t = {0};
  char line[512];
  long bad = 0;
  while (fgets(line, sizeof line, stdin)) {
    char *name;
    long count;
    int r = parse_line(line, &name, &count);
    if (r < 0)
      ++bad;
    else if (r > 0 && table_put(&t, name, count))
      return 1;
  }
  struct entry *all = malloc((t.used + 1) * sizeof *all);
  size_t n = 0;
  for (size_t i = 0; i < t.cap; ++i)
    if (t.slots[i].key)
      all[n++] = t.slots[i];
  qsort(all, n, sizeof *all, by_value);
  for (size_t i = 0; i < n && i < 10; ++i)
    printf("%-20s %8ld %08x\n", all[i].key, all[i].value,
           crc32_buf((const unsigned char *)all[i].key, strlen(all[i].key)));

  int w = argc > 1 ? atoi(argv[1]) : 256;
  struct image a, b;
  if (image_alloc(&a, w, w) || image_alloc(&b, w, w))
    return 1;
  for (int y = 0; y < w; ++y)
    for (int x = 0; x < w; ++x)
      a.px[y * a.stride + x] = (float)((x * 31 + y * 17) % 97) / 96.0f;
  box_blur(&b, &a);
  float lut[257];
  for (int i = 0; i <= 256; ++i)
    lut[i] = (float)(i * i) / (256.0f * 256.0f);
  gamma_lut(&b, lut);
  unsigned hist[256];
  histogram(&b, hist);

  int m = 32;
  double *ma = aligned_alloc(64, m * m * sizeof(double));
  double *mb = aligned_alloc(64, m * m * sizeof(double));
  double *mc = aligned_alloc(64, m * m * sizeof(double));
  for (int i = 0; i < m * m; ++i)
    ma[i] = (i % 7) * 0.5, mb[i] = (i % 5) * 0.25;
  mat_transpose(mc, ma, m);
  mat_mul(ma, mc, mb, m);
  printf("bad %ld, hist[128] %u, trace %g, crc %08x\n", bad, hist[128],
         mat_trace(ma, m), crc32_buf((const unsigned char *)b.px, w * sizeof(float)));
  return 0;
}
