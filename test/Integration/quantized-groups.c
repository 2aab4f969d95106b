// Group-quantized int8 weights (docs/pipeline.md, "Skinny products"): one
// f32 scale per group of 32 weights along K, activations quantized the
// same way; the group sums - exact int32 - are a batched product over the
// groups, W viewed as [groups][d][32] through its layout operand (the
// matrix as the model file stores it, no copy), times the activations'
// [groups][32][1]; the scales are applied in C. Every group sum against
// plain C, with run-time sizes (d and K from the caller: tails of every
// vector width, one group, many) and constant ones.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: runtime: ok
// CHECK: static: ok
// CHECK: PASSED
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

enum { MAXD = 67, MAXN = 8 * GROUP };
static int8_t wq[MAXD * MAXN], xq[MAXN];
static int32_t part[MAXN / GROUP * MAXD];
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
  static_case();
  printf("static: %s\n", failures ? "FAILED" : "ok");
  printf(failures ? "%d FAILED\n" : "PASSED\n", failures);
  return failures != 0;
}
