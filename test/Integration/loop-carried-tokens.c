// Tokens carried by loops, in the short form (`h = tlx_relu(h)`: the
// loop's back edge brings a result whose type is inferred from the merge
// itself) and the long form: an MLP over a layer loop, an smma accumulator
// over k-blocks, nested loops with an early exit, trip counts 0 to 3 - every
// element against plain C. A loop that changes its tensor's shape is an
// error (test/Frontend/diag-ir-located.c).
// RUN: %clang_tlx -std=c11 -Wall -Werror -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 %t2 | FileCheck %s %}
// CHECK: relu loop: ok
// CHECK: layer loop: ok
// CHECK: smma over k-blocks: ok
// CHECK: nested loops: ok
// CHECK: long form: ok
// CHECK: PASSED
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

static volatile int Trips[] = {0, 1, 2, 3};
static volatile int Stop = 1;
static int failures;

static int expect(const char *what, int n, const float *got,
                  const float *want) {
  int before = failures;
  for (int i = 0; i < n; ++i)
    if (got[i] != want[i] && failures++ < 10)
      printf("%s: [%d] = %g, want %g\n", what, i, got[i], want[i]);
  return failures == before;
}

/* h = relu(h) n times: relu once, or a copy when n is 0. */
static int reluLoop(int n) {
  float x[2][3] = {{-1, 2, -3}, {4, -5, 6}}, y[6], want[6];
  tlx_token_t h = TLX_LOAD(x, 2, 3);
  for (int i = 0; i < n; ++i)
    h = tlx_relu(h);
  TLX_STORE(y, h);
  for (int i = 0; i < 6; ++i) {
    float v = (&x[0][0])[i];
    want[i] = n && v < 0 ? 0 : v;
  }
  return expect("relu loop", 6, y, want);
}

/* h = relu(h x W[l]) over n layers of a 1x4 activation. */
static int layerLoop(int n) {
  float x[1][4] = {{1, -2, 3, -4}}, w[3][4][4], y[4], want[4];
  for (int l = 0; l < 3; ++l)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        w[l][i][j] = i == j ? l + 1 : (i + j == 3 ? -0.5f : 0.25f * l);
  tlx_token_t h = TLX_LOAD(x, 1, 4);
  for (int l = 0; l < n; ++l)
    h = tlx_relu(tlx_matmul(h, TLX_LOAD(w[l], 4, 4)));
  TLX_STORE(y, h);
  for (int j = 0; j < 4; ++j)
    want[j] = x[0][j];
  for (int l = 0; l < n; ++l) {
    float t[4];
    for (int j = 0; j < 4; ++j) {
      float s = 0;
      for (int k = 0; k < 4; ++k)
        s += want[k] * w[l][k][j];
      t[j] = s > 0 ? s : 0;
    }
    for (int j = 0; j < 4; ++j)
      want[j] = t[j];
  }
  return expect("layer loop", 4, y, want);
}

/* acc = smma(acc, A[:, kb], B[kb, :]) over n k-blocks of 4, A read through
 * its leading dimension 12. */
static int smmaBlocks(int n) {
  int8_t a[2][12], b[12][3];
  int32_t c0[2][3] = {{1, 2, 3}, {-4, 5, -6}}, c[2][3];
  for (int i = 0; i < 24; ++i)
    (&a[0][0])[i] = (int8_t)(i * 7 - 80);
  for (int i = 0; i < 36; ++i)
    (&b[0][0])[i] = (int8_t)(100 - i * 5);
  tlx_token_t acc = TLX_LOAD(c0, 2, 3);
  for (int kb = 0; kb < n; ++kb)
    acc = tlx_smma(acc,
                   tensor_load(&a[0][kb * 4], TLX_SHAPE(2, 4), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_STRIDES(0, 12)),
                   TLX_LOAD(&b[kb * 4][0], 4, 3));
  TLX_STORE(c, acc);
  float got[6], want[6];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      int32_t s = c0[i][j];
      for (int k = 0; k < 4 * n; ++k)
        s += a[i][k] * b[k][j];
      want[i * 3 + j] = (float)s;
      got[i * 3 + j] = (float)c[i][j];
    }
  return expect("smma over k-blocks", 6, got, want);
}

/* Nested loops: an inner loop of logical transposes that leaves after one
 * trip, then fabs; n outer trips. */
static int nestedLoops(int n) {
  float z[2][2] = {{-1, 2}, {3, -4}}, o[2][2], want[4];
  tlx_token_t g = TLX_LOAD(z, 2, 2);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < 3; ++j) {
      g = tlx_transpose(g);
      if (Stop)
        break;
    }
    g = tlx_fabs(g);
  }
  TLX_STORE(o, g);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      float v = n % 2 ? z[j][i] : z[i][j];
      want[i * 2 + j] = n ? (v < 0 ? -v : v) : v;
    }
  return expect("nested loops", 4, &o[0][0], want);
}

typedef float v8 __attribute__((__vector_size__(8 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(v8)

/* The long form: a vector carried by the loop, named in it. */
static int longForm(int n) {
  float x[2][4] = {{1.5f, -2, 3, -4.5f}, {5, -6.5f, 7, -8}}, y[8], want[8];
  tlx_token_t t = TLX_LOAD(x, 2, 4);
  for (int i = 0; i < n; ++i) {
    v8 r = tensor_floor(t);
    t = tensor_typeinfo(r, TLX_SHAPE(2, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  }
  TLX_STORE(y, t);
  for (int i = 0; i < 8; ++i) {
    float v = (&x[0][0])[i];
    want[i] = n ? floorf(v) : v;
  }
  return expect("long form", 8, y, want);
}

int main(void) {
  int ok = 1;
  for (int i = 0; i < 4; ++i)
    ok &= reluLoop(Trips[i]);
  printf("relu loop: %s\n", ok ? "ok" : "FAILED");
  ok = 1;
  for (int i = 0; i < 4; ++i)
    ok &= layerLoop(Trips[i]);
  printf("layer loop: %s\n", ok ? "ok" : "FAILED");
  ok = 1;
  for (int i = 0; i < 4; ++i)
    ok &= smmaBlocks(Trips[i]);
  printf("smma over k-blocks: %s\n", ok ? "ok" : "FAILED");
  ok = 1;
  for (int i = 0; i < 4; ++i)
    ok &= nestedLoops(Trips[i]);
  printf("nested loops: %s\n", ok ? "ok" : "FAILED");
  ok = 1;
  for (int i = 0; i < 4; ++i)
    ok &= longForm(Trips[i]);
  printf("long form: %s\n", ok ? "ok" : "FAILED");
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}
