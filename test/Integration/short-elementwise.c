// The short form's elementwise arithmetic - tlx_add, tlx_sub, tlx_mul,
// tlx_div, tlx_max, tlx_min - against plain C loops: numpy broadcasting
// (a row, a column, a rank-3 tensor against a matrix, the smaller operand
// first or second), C scalars on either side, float, double and signed
// int32 (C's truncating division, negative values in max/min), a column-
// major operand, chains with the unary ops and reductions (softmax and
// RMSNorm rows), results used twice, merged across if/else and carried
// around a loop, stored into an operand (a residual x = x + W h, in place)
// and run-time extents (from argv) on both sides of the vector width; a
// run-time extent that differs from the other operand's stops the program.
// RUN: %clang_tlx -std=c11 -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %t2 9 33 | FileCheck %s
// RUN: %clang_tlx -x c++ -O2 -c %s -o %t.o && %clang_tlx %t.o %tlx_rt -o %tx && %tx 1 1 | FileCheck %s
// RUN: not %t2 4 5 mismatch 2>&1 | FileCheck %s --check-prefix=MISMATCH
// CHECK: float broadcasts: ok
// CHECK: scalars: ok
// CHECK: double and int32: ok
// CHECK: rank 3 and column-major: ok
// CHECK: softmax rows: ok
// CHECK: rmsnorm rows: ok
// CHECK: merged and carried: ok
// CHECK: in place: ok
// CHECK: run-time extents: ok
// CHECK-NOT: bad
// MISMATCH: short-elementwise.c:{{[0-9]+}}:{{[0-9]+}}: error: 'tlx_add': operand shapes differ at run time: op1 is 4x5, op2 is 5x5

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tlx.h>

static int failures;
static void expect(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "bad" : "ok");
  failures += bad != 0;
}

enum Op { ADD, SUB, MUL, DIV, MAX, MIN };

static double apply(enum Op op, double a, double b) {
  switch (op) {
  case ADD: return a + b;
  case SUB: return a - b;
  case MUL: return a * b;
  case DIV: return a / b;
  case MAX: return a > b ? a : b;
  default: return a < b ? a : b;
  }
}

/* Plain C broadcasting of a (ar x ac) and b (br x bc) into r x c. */
static int check2d(const float *got, enum Op op, const float *a, int ar,
                   int ac, const float *b, int br, int bc) {
  int r = ar > br ? ar : br, c = ac > bc ? ac : bc, bad = 0;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++) {
      float x = a[(ar == 1 ? 0 : i) * ac + (ac == 1 ? 0 : j)];
      float y = b[(br == 1 ? 0 : i) * bc + (bc == 1 ? 0 : j)];
      float want = (float)apply(op, x, y);
      bad += fabsf(got[i * c + j] - want) > 1e-6f * (1 + fabsf(want));
    }
  return bad;
}

static void fill(float *p, int n, int seed) {
  for (int i = 0; i < n; i++)
    p[i] = (float)((i * 7 + seed * 13) % 23 - 11) / 4 + (seed == 3 ? 20 : 0);
}

static void float_broadcasts(void) {
  float x[3][5], row[5], col[3][1], r[3][5];
  fill(&x[0][0], 15, 1), fill(row, 5, 2), fill(&col[0][0], 3, 3);
  int bad = 0;
  tlx_token_t tx = TLX_LOAD(x, 3, 5), trow = TLX_LOAD(row, 5);
  tlx_token_t tcol = TLX_LOAD(col, 3, 1);
  TLX_STORE(r, tlx_add(tx, trow));
  bad += check2d(&r[0][0], ADD, &x[0][0], 3, 5, row, 1, 5);
  TLX_STORE(r, tlx_sub(trow, tx)); /* the smaller operand first */
  bad += check2d(&r[0][0], SUB, row, 1, 5, &x[0][0], 3, 5);
  TLX_STORE(r, tlx_mul(tx, tcol));
  bad += check2d(&r[0][0], MUL, &x[0][0], 3, 5, &col[0][0], 3, 1);
  TLX_STORE(r, tlx_div(tx, tcol));
  bad += check2d(&r[0][0], DIV, &x[0][0], 3, 5, &col[0][0], 3, 1);
  TLX_STORE(r, tlx_max(tcol, tx));
  bad += check2d(&r[0][0], MAX, &col[0][0], 3, 1, &x[0][0], 3, 5);
  TLX_STORE(r, tlx_min(tx, trow));
  bad += check2d(&r[0][0], MIN, &x[0][0], 3, 5, row, 1, 5);
  TLX_STORE(r, tlx_add(tcol, trow)); /* both broadcast: 3x1 + 5 */
  bad += check2d(&r[0][0], ADD, &col[0][0], 3, 1, row, 1, 5);
  expect("float broadcasts", bad);
}

static void scalars(void) {
  float x[4][6], r[4][6], s = 0.75f;
  fill(&x[0][0], 24, 4);
  int bad = 0;
  tlx_token_t tx = TLX_LOAD(x, 4, 6);
  TLX_STORE(r, tlx_mul(tx, s));
  bad += check2d(&r[0][0], MUL, &x[0][0], 4, 6, &s, 1, 1);
  TLX_STORE(r, tlx_sub(1.5, tx)); /* a double literal, converted */
  float c = 1.5f;
  bad += check2d(&r[0][0], SUB, &c, 1, 1, &x[0][0], 4, 6);
  TLX_STORE(r, tlx_max(tx, 0)); /* an int scalar: relu */
  float z = 0;
  bad += check2d(&r[0][0], MAX, &x[0][0], 4, 6, &z, 1, 1);
  expect("scalars", bad);
}

static void double_and_int32(void) {
  double d[2][3] = {{1, -2, 3}, {4, 5, -6}}, dr[2][3];
  int32_t a[2][4] = {{7, -7, 9, -9}, {100, -100, 3, -3}}, b[4] = {2, -2, 4, 5};
  int32_t ir[2][4];
  int bad = 0;
  TLX_STORE(dr, tlx_div(TLX_LOAD(d, 2, 3), 4.0));
  for (int i = 0; i < 6; i++)
    bad += (&dr[0][0])[i] != (&d[0][0])[i] / 4.0;
  TLX_STORE(ir, tlx_div(TLX_LOAD(a, 2, 4), TLX_LOAD(b, 4)));
  for (int i = 0; i < 8; i++)
    bad += (&ir[0][0])[i] != (&a[0][0])[i] / b[i % 4];
  TLX_STORE(ir, tlx_min(tlx_max(TLX_LOAD(a, 2, 4), -8), 8));
  for (int i = 0; i < 8; i++) {
    int32_t v = (&a[0][0])[i];
    bad += (&ir[0][0])[i] != (v < -8 ? -8 : v > 8 ? 8 : v);
  }
  TLX_STORE(ir, tlx_sub(tlx_mul(TLX_LOAD(a, 2, 4), 3), TLX_LOAD(b, 4)));
  for (int i = 0; i < 8; i++)
    bad += (&ir[0][0])[i] != (&a[0][0])[i] * 3 - b[i % 4];
  expect("double and int32", bad);
}

static void rank3_and_column_major(void) {
  float p[2][1][3], q[4][1], o[2][4][3], m[3][2], v[3], cm[2][3];
  fill(&p[0][0][0], 6, 5), fill(&q[0][0], 4, 6), fill(&m[0][0], 6, 7);
  fill(v, 3, 8);
  int bad = 0;
  TLX_STORE(o, tlx_sub(TLX_LOAD(p, 2, 1, 3), TLX_LOAD(q, 4, 1)));
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 3; k++)
        bad += o[i][j][k] != p[i][0][k] - q[j][0];
  /* m read column-major: the 2x3 tensor m^T, plus a row of 3 */
  tlx_token_t mt = tensor_load(m, TLX_SHAPE(3, 2), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  TLX_STORE(cm, tlx_add(mt, TLX_LOAD(v, 3)));
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      bad += cm[i][j] != m[j][i] + v[j];
  expect("rank 3 and column-major", bad);
}

/* softmax of each row of x (rows x cols), in the short form */
static void softmax_rows(float *out, const float *x, int rows, int cols) {
  tlx_token_t t = TLX_LOAD(x, rows, cols);
  tlx_token_t e = tlx_exp(tlx_sub(
      t, tlx_reduce_max(t, TLX_DIMS(1, cols), TLX_DIMS(1, cols))));
  TLX_STORE(out, tlx_div(e, tlx_reduce_add(e, TLX_DIMS(1, cols),
                                           TLX_DIMS(1, cols))));
}

static void softmax(void) {
  float x[5][7], s[5][7];
  fill(&x[0][0], 35, 9);
  softmax_rows(&s[0][0], &x[0][0], 5, 7);
  int bad = 0;
  for (int i = 0; i < 5; i++) {
    float max = x[i][0], sum = 0;
    for (int j = 1; j < 7; j++)
      max = x[i][j] > max ? x[i][j] : max;
    for (int j = 0; j < 7; j++)
      sum += expf(x[i][j] - max);
    for (int j = 0; j < 7; j++)
      bad += fabsf(s[i][j] - expf(x[i][j] - max) / sum) > 1e-5f;
  }
  expect("softmax rows", bad);
}

/* RMSNorm of each row of x (rows x cols) times w, in the short form */
static void rmsnorm_rows(float *out, const float *x, const float *w,
                         int rows, int cols) {
  tlx_token_t t = TLX_LOAD(x, rows, cols);
  tlx_token_t mean = tlx_div(
      tlx_reduce_add(tlx_mul(t, t), TLX_DIMS(1, cols), TLX_DIMS(1, cols)),
      cols);
  tlx_token_t r = tlx_div(1, tlx_sqrt(tlx_add(mean, 1e-5f)));
  TLX_STORE(out, tlx_mul(tlx_mul(t, r), TLX_LOAD(w, cols)));
}

static int rmsnorm_bad(int rows, int cols) {
  float *x = (float *)malloc(sizeof(float) * rows * cols);
  float *w = (float *)malloc(sizeof(float) * cols);
  float *y = (float *)malloc(sizeof(float) * rows * cols);
  fill(x, rows * cols, 15), fill(w, cols, 16);
  rmsnorm_rows(y, x, w, rows, cols);
  int bad = 0;
  for (int i = 0; i < rows; i++) {
    float ss = 0;
    for (int j = 0; j < cols; j++)
      ss += x[i * cols + j] * x[i * cols + j];
    float r = 1 / sqrtf(ss / cols + 1e-5f);
    for (int j = 0; j < cols; j++) {
      float want = x[i * cols + j] * r * w[j];
      bad += fabsf(y[i * cols + j] - want) > 1e-5f * (1 + fabsf(want));
    }
  }
  free(x), free(w), free(y);
  return bad;
}

static void merged_and_carried(int flag) {
  float x[8], b[8], h[8], twice[8];
  fill(x, 8, 10), fill(b, 8, 11);
  tlx_token_t t = TLX_LOAD(x, 8);
  if (flag)
    t = tlx_mul(t, 2.0f);
  else
    t = tlx_add(t, TLX_LOAD(b, 8));
  tlx_token_t u = tlx_sub(t, 1.0f); /* used twice below */
  for (int k = 0; k < 3; k++)
    t = tlx_max(tlx_add(t, u), (float)k);
  TLX_STORE(h, t);
  TLX_STORE(twice, tlx_add(u, u));
  int bad = 0;
  for (int i = 0; i < 8; i++) {
    float v = flag ? x[i] * 2 : x[i] + b[i], w = v - 1;
    for (int k = 0; k < 3; k++)
      v = v + w > k ? v + w : (float)k;
    bad += h[i] != v || twice[i] != w + w;
  }
  expect("merged and carried", bad);
}

/* Stores into an operand: element for element in place (x = x + W h, a
 * residual), with constant and run-time extents. */
static void in_place(int n) {
  float x[17], w[17][17], h[17], v[8], x0[17], v0[8];
  fill(x, 17, 17), fill(&w[0][0], 17 * 17, 18), fill(h, 17, 19);
  fill(v, 8, 20);
  memcpy(x0, x, sizeof x), memcpy(v0, v, sizeof v);
  tlx_token_t wh = tlx_matmul(
      tensor_load(w, TLX_SHAPE(n, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                  TLX_DIMS(0, 17)),
      TLX_LOAD(h, n, 1));
  TLX_STORE(x, tlx_add(TLX_LOAD(x, n, 1), wh));
  TLX_STORE(v, tlx_add(tlx_mul(TLX_LOAD(v, 8), 2.0f), TLX_LOAD(v + 3, 1)));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int j = 0; j < n; j++)
      s += w[i][j] * h[j];
    bad += fabsf(x[i] - (x0[i] + s)) > 1e-5f * (1 + fabsf(s));
  }
  for (int i = n; i < 17; i++)
    bad += x[i] != x0[i];
  for (int i = 0; i < 8; i++)
    bad += v[i] != v0[i] * 2 + v0[3];
  expect("in place", bad);
}

static int runtime_extents(int m, int n, int mismatch) {
  float *x = (float *)malloc(sizeof(float) * m * n);
  float *row = (float *)malloc(sizeof(float) * n);
  float *col = (float *)malloc(sizeof(float) * m);
  float *r = (float *)malloc(sizeof(float) * m * n);
  fill(x, m * n, 12), fill(row, n, 13), fill(col, m, 14);
  tlx_token_t tx = TLX_LOAD(x, m, n);
  int bad = 0;
  if (mismatch) /* an n x n operand against m x n: stops at run time */
    TLX_STORE(r, tlx_add(tx, TLX_LOAD(x, n, n)));
  TLX_STORE(r, tlx_add(tx, TLX_LOAD(row, 1, n)));
  bad += check2d(r, ADD, x, m, n, row, 1, n);
  TLX_STORE(r, tlx_mul(TLX_LOAD(col, m, 1), tx));
  bad += check2d(r, MUL, col, m, 1, x, m, n);
  TLX_STORE(r, tlx_min(tx, 0.5f));
  float half = 0.5f;
  bad += check2d(r, MIN, x, m, n, &half, 1, 1);
  softmax_rows(r, x, m, n);
  for (int i = 0; i < m; i++) {
    float sum = 0;
    for (int j = 0; j < n; j++)
      sum += r[i * n + j];
    bad += fabsf(sum - 1) > 1e-5f;
  }
  free(x), free(row), free(col), free(r);
  return bad;
}

int main(int argc, char **argv) {
  int m = argc > 1 ? atoi(argv[1]) : 3, n = argc > 2 ? atoi(argv[2]) : 17;
  float_broadcasts();
  scalars();
  double_and_int32();
  rank3_and_column_major();
  softmax();
  expect("rmsnorm rows", rmsnorm_bad(3, 17) + rmsnorm_bad(m, n));
  merged_and_carried(argc > 5);
  in_place(n < 17 ? n : 17);
  int bad = runtime_extents(m, n, argc > 3);
  for (int k = 1; k <= 33; k += 8)
    bad += runtime_extents(k, k + 1, 0);
  expect("run-time extents", bad);
  return failures;
}
