// tlx.h's short form: TLX_LOAD (dense row-major), tlx_<op> (the result's
// type inferred: no vector typedef, no tensor_typeinfo), TLX_STORE (packed,
// any rank) - in C and C++, at -O0 and -O2, against plain C loops. Chains
// of short-form ops, an mma accumulating into a loaded tensor, rank 1 and
// rank 3 stores, and short and long forms mixed in one function.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -x c++ -w -O2 -c %s -o %t.o && %clang_tlx %t.o %tlx_rt -o %tx && %tx | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 -Rpass=tlx-recognize -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=IR --allow-empty
// CHECK: readme matmul: 4 5 / 10 11
// CHECK: chain: ok
// CHECK: mma: ok
// CHECK: rank 1 and 3: ok
// CHECK: mixed with the long form: ok
// CHECK-NOT: bad
// IR-NOT: error

#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

static int failures;
static void expect(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "bad" : "ok");
  failures += bad != 0;
}

static void readme(void) {
  float a[2][3] = {{1, 2, 3}, {4, 5, 6}};
  float b[3][2] = {{1, 0}, {0, 1}, {1, 1}};
  float c[2][2];
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, 2, 3), TLX_LOAD(b, 3, 2)));
  printf("readme matmul: %g %g / %g %g\n", c[0][0], c[0][1], c[1][0],
         c[1][1]);
}

// relu(x * w), its transpose, and its column maxima.
static void chain(void) {
  float x[4][5], w[5][3], t[3][4], m[1][3];
  for (int i = 0; i < 20; i++)
    x[i / 5][i % 5] = (float)(i % 7 - 3);
  for (int i = 0; i < 15; i++)
    w[i / 3][i % 3] = (float)(i % 5 - 2);
  tlx_token_t h = tlx_relu(tlx_matmul(TLX_LOAD(x, 4, 5), TLX_LOAD(w, 5, 3)));
  TLX_STORE(t, tlx_transpose(h));
  TLX_STORE(m, tlx_reduce_max(h, TLX_DIMS(4, 1), TLX_DIMS(4, 1)));
  int bad = 0;
  for (int j = 0; j < 3; j++) {
    float mx = -1e30f;
    for (int i = 0; i < 4; i++) {
      float s = 0;
      for (int k = 0; k < 5; k++)
        s += x[i][k] * w[k][j];
      s = s > 0 ? s : 0;
      bad += t[j][i] != s;
      mx = s > mx ? s : mx;
    }
    bad += m[0][j] != mx;
  }
  expect("chain", bad);
}

// acc + a x b with int8 operands: the accumulator's int32 is the result's.
static void mma(void) {
  int8_t a[3][8], b[8][2];
  int32_t acc[3][2], c[3][2];
  for (int i = 0; i < 24; i++)
    a[i / 8][i % 8] = (int8_t)(i * 5 % 11 - 5);
  for (int i = 0; i < 16; i++)
    b[i / 2][i % 2] = (int8_t)(i % 9 - 4);
  for (int i = 0; i < 6; i++)
    acc[i / 2][i % 2] = 1000 * i;
  TLX_STORE(c, tlx_smma(TLX_LOAD(acc, 3, 2), TLX_LOAD(a, 3, 8),
                        TLX_LOAD(b, 8, 2)));
  int bad = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) {
      int32_t s = acc[i][j];
      for (int k = 0; k < 8; k++)
        s += a[i][k] * b[k][j];
      bad += c[i][j] != s;
    }
  expect("mma", bad);
}

static void ranks(void) {
  double v[7], r[7];
  float cube[2][3][4], out[2][3][4];
  for (int i = 0; i < 7; i++)
    v[i] = i - 3.5;
  for (int i = 0; i < 24; i++)
    cube[i / 12][i / 4 % 3][i % 4] = (float)(i - 12);
  TLX_STORE(r, tlx_fabs(TLX_LOAD(v, 7)));
  TLX_STORE(out, tlx_relu(TLX_LOAD(cube, 2, 3, 4)));
  int bad = 0;
  for (int i = 0; i < 7; i++)
    bad += r[i] != (v[i] < 0 ? -v[i] : v[i]);
  for (int i = 0; i < 24; i++)
    bad += out[i / 12][i / 4 % 3][i % 4] != (i > 12 ? (float)(i - 12) : 0);
  expect("rank 1 and 3", bad);
}

typedef float v6f __attribute__((__vector_size__(6 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS_AS(v6f, f6)

// A short-form token read by a long-form op, whose vector C reads.
static void mixed(void) {
  float a[2][3] = {{-1, 2, -3}, {4, -5, 6}};
  tlx_token_t r = tlx_relu(TLX_LOAD(a, 2, 3));
  v6f neg = tensor_fabs_f6(r);
  tensor_typeinfo(neg, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  const float want[6] = {0, 2, 0, 4, 0, 6};
  int bad = 0;
  for (int i = 0; i < 6; i++)
    bad += neg[i] != want[i];
  expect("mixed with the long form", bad);
}

int main(void) {
  readme();
  chain();
  mma();
  ranks();
  mixed();
  return failures != 0;
}
