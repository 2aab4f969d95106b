// Group-quantized int8 weights (docs/pipeline.md, "Quantized weights"):
// one f32 scale per group of 32 weights along K, activations quantized the
// same way; the group sums - exact int32 - are a batched product over the
// groups, W viewed as [groups][d][32] through its layout operand (the
// matrix as the model file stores it, no copy), times the activations'
// [groups][32][1]; the scales are applied in C. With run-time sizes the
// batch's k runs on across it (W's groups side by side in each row), and
// one pass over W computes every group's sums (tlx.gemm.rt.seg.*); the
// strides are checked at run time, and a batch they do not fit - W
// stored group by group, 17 activation columns - takes the loop over its
// matrices. Every group sum against plain C, with run-time sizes (d and
// K from the caller: tails of every vector width, one group, many; group
// sizes 1 to 128, int8 and float), sums stored group-major or row-major,
// one, two or 17 activation columns, sums accumulated onto earlier ones
// (smma), and constant sizes.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 -Rpass=tlx-tile %s %tlx_rt -o %t2 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %t2 | FileCheck %s
// RUN: %if cpu-avx2 %{ %clang_tlx -std=c11 -O2 -march=x86-64-v3 %s %tlx_rt -o %tv3 && %tv3 | FileCheck %s %}
// RUN: %clang_tlx -std=c11 -O2 -march=x86-64-v3 -S %s -o - | FileCheck %s --check-prefix=ASM
// RUN: %if openmp %{ %clang_tlx -std=c11 -O2 -fopenmp %s %tlx_rt -o %tp %}
// RUN: %if openmp %{ env OMP_NUM_THREADS=3 %tp | FileCheck %s %}
// CHECK: runtime: ok
// CHECK: rows first: ok
// CHECK: two columns: ok
// CHECK: accumulated: ok
// CHECK: group by group: ok
// CHECK: 17 columns: ok
// CHECK: group sizes: ok
// CHECK: static: ok
// CHECK: PASSED
// REMARK: remark: matmul: MxKxN known at run time i8 x i8 -> i32 GEMM on vectors, kernel streamed dot i8->i32, A in place, 4 rows of it x 1 column of B per step, one pass over A for the batch's segments of k, in tlx.gemm.rt.seg.i8sr.i8sr.i32r, shared by every call site of this kind
// REMARK: remark: matmul: calls tlx.gemm.rt.seg.i8sr.i8sr.i32r for a batch whose k runs on across it, the kernel it shares with an earlier call site
// REMARK: remark: smma: MxKxN known at run time i8 x i8 -> i32 GEMM on vectors, kernel streamed dot i8->i32, {{.*}}one pass over A for the batch's segments of k, in tlx.gemm.rt.seg.i8sr.i8sr.i32r.acc
// The one-pass kernel's int8 products on AVX2: i16 pairs (vpmaddwd) in its
// main loop. (Its element-by-element k tail may be vectorized with
// 32-bit multiplies: LLVM 22 does.)
// ASM-LABEL: tlx.stream.dot.s8.s8.i32.x1.seg:
// ASM: vpmaddwd
// ASM: .size tlx.stream.dot.s8.s8.i32.x1.seg
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

typedef int32_t i32v __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS_AS(i32v, i32)

#define GROUP 32

static int failures;

/* part[g][i] = sum_k wq[i][g*32 + k] xq[g*32 + k] for the n / 32 groups g
 * of W's d rows (n floats apart): W stored [d][groups][32] is the tensor
 * [groups][d][32] of layout (1, 0, 2). */
static void group_sums(int32_t *part, const int8_t *wq, const int8_t *xq,
                       int d, int n) {
  int groups = n / GROUP;
  tlx_token_t w = tensor_load(wq, TLX_SHAPE(d, groups, GROUP),
                              TLX_LAYOUT(1, 0, 2), TLX_ZEROS(3), TLX_ZEROS(3));
  i32v p = tensor_matmul_i32(w, TLX_LOAD(xq, groups, GROUP, 1));
  TLX_STORE(part, tensor_typeinfo(p, TLX_SHAPE(groups, d, 1),
                                  TLX_LAYOUT(0, 1, 2), TLX_ZEROS(3)));
}

/* The same sums stored [d][groups] (C's batch stride 1): each row's sums
 * together, as its scales are. */
static void group_sums_rows_first(int32_t *part, const int8_t *wq,
                                  const int8_t *xq, int d, int n) {
  int groups = n / GROUP;
  tlx_token_t w = tensor_load(wq, TLX_SHAPE(d, groups, GROUP),
                              TLX_LAYOUT(1, 0, 2), TLX_ZEROS(3), TLX_ZEROS(3));
  i32v p = tensor_matmul_i32(w, TLX_LOAD(xq, groups, GROUP, 1));
  TLX_STORE(part, tensor_typeinfo(p, TLX_SHAPE(d, groups, 1),
                                  TLX_LAYOUT(1, 0, 2), TLX_ZEROS(3)));
}

/* part[g][i][c] for activation columns c < cols: x stored [n][cols]. */
static void group_sums_columns(int32_t *part, const int8_t *wq,
                               const int8_t *x2, int d, int n, int cols) {
  int groups = n / GROUP;
  tlx_token_t w = tensor_load(wq, TLX_SHAPE(d, groups, GROUP),
                              TLX_LAYOUT(1, 0, 2), TLX_ZEROS(3), TLX_ZEROS(3));
  i32v p = tensor_matmul_i32(w, TLX_LOAD(x2, groups, GROUP, cols));
  TLX_STORE(part, tensor_typeinfo(p, TLX_SHAPE(groups, d, cols),
                                  TLX_LAYOUT(0, 1, 2), TLX_ZEROS(3)));
}

/* part[g][i] += the group sums (a second half of K onto the first's). */
static void group_sums_acc(int32_t *part, const int8_t *wq, const int8_t *xq,
                           int d, int n) {
  int groups = n / GROUP;
  tlx_token_t w = tensor_load(wq, TLX_SHAPE(d, groups, GROUP),
                              TLX_LAYOUT(1, 0, 2), TLX_ZEROS(3), TLX_ZEROS(3));
  TLX_STORE(part, tlx_smma(TLX_LOAD(part, groups, d, 1), w,
                           TLX_LOAD(xq, groups, GROUP, 1)));
}

/* W stored [groups][d][32] (a batch whose k does not run on): part[g][i]. */
static void group_sums_by_group(int32_t *part, const int8_t *wg,
                                const int8_t *xq, int d, int n) {
  int groups = n / GROUP;
  i32v p = tensor_matmul_i32(TLX_LOAD(wg, groups, d, GROUP),
                             TLX_LOAD(xq, groups, GROUP, 1));
  TLX_STORE(part, tensor_typeinfo(p, TLX_SHAPE(groups, d, 1),
                                  TLX_LAYOUT(0, 1, 2), TLX_ZEROS(3)));
}

/* y[i] = sum_g sw[i][g] sx[g] part[g][i] */
static void dequantize(float *y, const int32_t *part, const float *sw,
                       const float *sx, int d, int groups) {
  for (int i = 0; i < d; ++i) {
    float acc = 0;
    for (int g = 0; g < groups; ++g)
      acc += (float)part[g * d + i] * sw[i * groups + g] * sx[g];
    y[i] = acc;
  }
}

enum { MAXD = 67, MAXN = 8 * GROUP, MAXCOLS = 17 };
static int8_t wq[MAXD * MAXN], xq[MAXN], wg[MAXD * MAXN], x2[MAXN * MAXCOLS];
static int32_t part[MAXN / GROUP * MAXD * MAXCOLS];
static float sw[MAXD * MAXN / GROUP], sx[MAXN / GROUP], y[MAXD];

static void fill(int d, int n) {
  for (int i = 0; i < d * n; ++i)
    wq[i] = (int8_t)((i * 7919) % 255 - 127);
  for (int i = 0; i < n; ++i)
    xq[i] = (int8_t)((i * 31) % 255 - 127);
  for (int i = 0; i < d * n / GROUP; ++i)
    sw[i] = 0.001f * (float)(i % 17 + 1);
  for (int i = 0; i < n / GROUP; ++i)
    sx[i] = 0.01f * (float)(i % 5 + 1);
}

/* The exact sum of group g of row i against activation column c. */
static int32_t group_sum(const int8_t *x, int cols, int c, int i, int g,
                         int n) {
  int32_t s = 0;
  for (int k = 0; k < GROUP; ++k)
    s += wq[i * n + g * GROUP + k] * x[(g * GROUP + k) * cols + c];
  return s;
}

/* part at (g, i, c) = group_sum + base, through part's strides. */
static void check_sums(const char *what, int d, int n, int cols,
                       const int8_t *x, long sg, long si, long sc, int base) {
  for (int g = 0; g < n / GROUP; ++g)
    for (int i = 0; i < d; ++i)
      for (int c = 0; c < cols; ++c) {
        int32_t want = group_sum(x, cols, c, i, g, n) + base;
        int32_t got = part[g * sg + i * si + c * sc];
        if (got != want && failures++ < 10)
          printf("FAILED %s d=%d n=%d: group %d row %d column %d: %d, "
                 "expected %d\n",
                 what, d, n, g, i, c, got, want);
      }
}

static void check(const char *what, int d, int n) {
  int groups = n / GROUP;
  for (int g = 0; g < groups; ++g)
    for (int i = 0; i < d; ++i) {
      int32_t s = 0;
      for (int k = 0; k < GROUP; ++k)
        s += wq[i * n + g * GROUP + k] * xq[g * GROUP + k];
      if (part[g * d + i] != s && failures++ < 10)
        printf("FAILED %s d=%d n=%d: group %d row %d: %d, expected %d\n", what,
               d, n, g, i, part[g * d + i], s);
    }
  dequantize(y, part, sw, sx, d, groups);
  for (int i = 0; i < d; ++i) {
    double want = 0;
    for (int g = 0; g < groups; ++g) {
      int32_t s = 0;
      for (int k = 0; k < GROUP; ++k)
        s += wq[i * n + g * GROUP + k] * xq[g * GROUP + k];
      want += (double)s * sw[i * groups + g] * sx[g];
    }
    if (fabs(y[i] - want) > 1e-4 * (1 + fabs(want)) && failures++ < 10)
      printf("FAILED %s d=%d n=%d: y[%d] = %g, expected %g\n", what, d, n, i,
             y[i], want);
  }
}

/* Any group size, known at run time, int8 and float: the one-pass kernel
 * has a copy of its loops for segments of one, two or four vectors of k (on
 * each target's vector width: 32 or 64 int8 are one of these on every
 * x86 level and NEON) and loops for the others. part[g][i][c]. */
typedef float f32v __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS_AS(f32v, f32)

#define SIZED_SUMS(NAME, T, SUM_T, VT, MATMUL)                                \
  static void NAME(SUM_T *part, const T *w, const T *x, int d, int groups,     \
                   int gs, int cols) {                                         \
    tlx_token_t tw =                                                           \
        tensor_load(w, TLX_SHAPE(d, groups, gs), TLX_LAYOUT(1, 0, 2),          \
                    TLX_ZEROS(3), TLX_ZEROS(3));                               \
    VT p = MATMUL(tw, TLX_LOAD(x, groups, gs, cols));                          \
    TLX_STORE(part, tensor_typeinfo(p, TLX_SHAPE(groups, d, cols),             \
                                    TLX_LAYOUT(0, 1, 2), TLX_ZEROS(3)));       \
  }
SIZED_SUMS(sized_sums, int8_t, int32_t, i32v, tensor_matmul_i32)
SIZED_SUMS(sized_sums_f32, float, float, f32v, tensor_matmul_f32)

enum { MAXGS = 128, MAXG = 3, MAXC = 3 };
static int8_t ws8[MAXD * MAXG * MAXGS], xs8[MAXG * MAXGS * MAXC];
static float wsf[MAXD * MAXG * MAXGS], xsf[MAXG * MAXGS * MAXC];
static int32_t part8[MAXG * MAXD * MAXC];
static float partf[MAXG * MAXD * MAXC];

static void sized_case(int d, int groups, int gs, int cols) {
  int n = groups * gs;
  for (int e = 0; e < d * n; ++e) {
    ws8[e] = (int8_t)((e * 7919) % 255 - 127);
    wsf[e] = (float)((e * 13) % 15 - 7);
  }
  for (int e = 0; e < n * cols; ++e) {
    xs8[e] = (int8_t)((e * 37) % 255 - 127);
    xsf[e] = (float)((e * 11) % 9 - 4);
  }
  sized_sums(part8, ws8, xs8, d, groups, gs, cols);
  sized_sums_f32(partf, wsf, xsf, d, groups, gs, cols);
  for (int g = 0; g < groups; ++g)
    for (int i = 0; i < d; ++i)
      for (int c = 0; c < cols; ++c) {
        int32_t want = 0;
        float wantf = 0; /* small integers: exact in any order */
        for (int k = 0; k < gs; ++k) {
          int e = i * n + g * gs + k, x = (g * gs + k) * cols + c;
          want += ws8[e] * xs8[x];
          wantf += wsf[e] * xsf[x];
        }
        int at = (g * d + i) * cols + c;
        if ((part8[at] != want || partf[at] != wantf) && failures++ < 10)
          printf("FAILED group size %d d=%d groups=%d cols=%d: group %d row "
                 "%d column %d: %d and %g, expected %d\n",
                 gs, d, groups, cols, g, i, c, part8[at], (double)partf[at],
                 want);
      }
}

enum { SD = 33, SN = 4 * GROUP, SG = SN / GROUP };
typedef int32_t sums_t __attribute__((__vector_size__(SG * SD * 4)));
TLX_DECLARE_TENSOR_OPS(sums_t)

static void static_case(void) {
  fill(SD, SN);
  tlx_token_t w = tensor_load(wq, TLX_SHAPE(SD, SG, GROUP),
                              TLX_LAYOUT(1, 0, 2), TLX_ZEROS(3), TLX_ZEROS(3));
  sums_t p = tensor_matmul(w, TLX_LOAD(xq, SG, GROUP, 1));
  TLX_STORE(part, tensor_typeinfo(p, TLX_SHAPE(SG, SD, 1),
                                  TLX_LAYOUT(0, 1, 2), TLX_ZEROS(3)));
  check("static", SD, SN);
}

int main(void) {
  static const int ds[] = {1, 3, 8, 9, 17, 67}, ns[] = {1, 2, 3, 8};
  for (unsigned a = 0; a < sizeof ds / sizeof ds[0]; ++a)
    for (unsigned b = 0; b < sizeof ns / sizeof ns[0]; ++b) {
      fill(ds[a], ns[b] * GROUP);
      group_sums(part, wq, xq, ds[a], ns[b] * GROUP);
      check("runtime", ds[a], ns[b] * GROUP);
    }
  printf("runtime: %s\n", failures ? "FAILED" : "ok");
  for (unsigned a = 0; a < sizeof ds / sizeof ds[0]; ++a)
    for (unsigned b = 0; b < sizeof ns / sizeof ns[0]; ++b) {
      int d = ds[a], n = ns[b] * GROUP, groups = ns[b];
      fill(d, n);
      group_sums_rows_first(part, wq, xq, d, n);
      check_sums("rows first", d, n, 1, xq, 1, groups, 0, 0);
    }
  printf("rows first: %s\n", failures ? "FAILED" : "ok");
  for (int cols = 2; cols <= MAXCOLS; cols += MAXCOLS - 2) {
    for (unsigned a = 0; a < sizeof ds / sizeof ds[0]; ++a)
      for (unsigned b = 0; b < sizeof ns / sizeof ns[0]; ++b) {
        int d = ds[a], n = ns[b] * GROUP;
        fill(d, n);
        for (int e = 0; e < n * cols; ++e)
          x2[e] = (int8_t)((e * 37) % 255 - 127);
        group_sums_columns(part, wq, x2, d, n, cols);
        check_sums(cols == 2 ? "two columns" : "17 columns", d, n, cols, x2,
                   (long)d * cols, cols, 1, 0);
      }
    if (cols == 2)
      printf("two columns: %s\n", failures ? "FAILED" : "ok");
  }
  for (unsigned a = 0; a < sizeof ds / sizeof ds[0]; ++a)
    for (unsigned b = 0; b < sizeof ns / sizeof ns[0]; ++b) {
      int d = ds[a], n = ns[b] * GROUP;
      fill(d, n);
      for (int e = 0; e < n / GROUP * d; ++e)
        part[e] = 1000;
      group_sums_acc(part, wq, xq, d, n);
      check_sums("accumulated", d, n, 1, xq, d, 1, 0, 1000);
    }
  printf("accumulated: %s\n", failures ? "FAILED" : "ok");
  for (unsigned a = 0; a < sizeof ds / sizeof ds[0]; ++a)
    for (unsigned b = 0; b < sizeof ns / sizeof ns[0]; ++b) {
      int d = ds[a], n = ns[b] * GROUP, groups = ns[b];
      fill(d, n);
      for (int g = 0; g < groups; ++g)
        for (int i = 0; i < d; ++i)
          for (int k = 0; k < GROUP; ++k)
            wg[(g * d + i) * GROUP + k] = wq[i * n + g * GROUP + k];
      group_sums_by_group(part, wg, xq, d, n);
      check_sums("group by group", d, n, 1, xq, d, 1, 0, 0);
    }
  printf("group by group: %s\n", failures ? "FAILED" : "ok");
  printf("17 columns: %s\n", failures ? "FAILED" : "ok");
  static const int sizes[] = {1, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128};
  for (unsigned a = 0; a < sizeof ds / sizeof ds[0]; ++a)
    for (unsigned b = 0; b < sizeof sizes / sizeof sizes[0]; ++b)
      for (int groups = 1; groups <= MAXG; groups += MAXG - 1)
        for (int cols = 1; cols <= MAXC; cols += MAXC - 1)
          sized_case(ds[a], groups, sizes[b], cols);
  printf("group sizes: %s\n", failures ? "FAILED" : "ok");
  static_case();
  printf("static: %s\n", failures ? "FAILED" : "ok");
  printf(failures ? "%d FAILED\n" : "PASSED\n", failures);
  return failures != 0;
}
