// The C forms of a tensor value that issue 21 found broken, each checked
// against plain C: vector variables initialized in C (`= {0}`, `= {}`, a
// partial initializer, element writes) as inputs and as the accumulator of
// an mma; C operators on a result named with a non-row-major layout (the
// operator works on the vector's positions); a tovector result in one
// expression with other tensors; element reads with variable indices of
// by-value parameters and returned vectors wider than 256 bytes; a wide
// vector assigned TLX results in both branches of an if (a relu, a matmul,
// a reduce) and in a loop, then read by C; vector_totensor of vectors C
// wrote elements of; `z * z + z` (one fmuladd) on an initialized local.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -fsanitize=address %s %tlx_rt -o %ta && %ta 3 | FileCheck %s
// CHECK: initialized input: ok
// CHECK: zero accumulator: ok
// CHECK: operator on column-major: ok
// CHECK: tovector chain: ok
// CHECK: by-value element reads: ok
// CHECK: merged in branches: ok
// CHECK: merged in a loop: ok
// CHECK: totensor of written vectors: ok
// CHECK: merged totensor: ok
// CHECK: fmuladd on a local: ok
// CHECK-NOT: bad

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

static int failures;
static void expect(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "bad" : "ok");
  failures += bad != 0;
}

typedef float v256f __attribute__((__vector_size__(256 * sizeof(float))));
typedef int32_t v256i __attribute__((__vector_size__(256 * sizeof(int32_t))));
typedef float v1024f __attribute__((__vector_size__(1024 * sizeof(float))));
typedef float v6f __attribute__((__vector_size__(6 * sizeof(float))));
typedef float v16f __attribute__((__vector_size__(16 * sizeof(float))));
typedef float v4f __attribute__((__vector_size__(4 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS_AS(v256f, f256)
TLX_DECLARE_TENSOR_OPS_AS(v256i, i256)
TLX_DECLARE_TENSOR_OPS_AS(v1024f, f1024)
TLX_DECLARE_TENSOR_OPS_AS(v6f, f6)
TLX_DECLARE_TENSOR_OPS_AS(v16f, f16)
TLX_DECLARE_TENSOR_OPS_AS(v4f, f4)

#define ROW_MAJOR(r, c) TLX_SHAPE(r, c), TLX_LAYOUT(0, 1), TLX_ZEROS(2)

static volatile int runtime_one = 1;

static float relu(float x) { return x > 0 ? x : 0; }

// Initialized locals as TLX inputs: {0} + element writes, {}, a partial
// initializer.
static void initialized_input(void) {
  v256f z = {0};
  z[5] = -7;
  z[7] = 3;
  z[runtime_one * 9] = 4;
  v256f e = {};
  e[255] = 2;
  v256f p = {1, -2, 3};
  float out[3][256];
  tensor_store(out[0], tensor_typeinfo(tensor_relu_f256(tensor_typeinfo(z, ROW_MAJOR(16, 16))), ROW_MAJOR(16, 16)), TLX_ZEROS(2));
  tensor_store(out[1], tensor_typeinfo(tensor_fabs_f256(tensor_typeinfo(e, ROW_MAJOR(16, 16))), ROW_MAJOR(16, 16)), TLX_ZEROS(2));
  tensor_store(out[2], tensor_typeinfo(tensor_fabs_f256(tensor_typeinfo(p, ROW_MAJOR(16, 16))), ROW_MAJOR(16, 16)), TLX_ZEROS(2));
  int bad = 0;
  for (int i = 0; i < 256; i++) {
    float wz = i == 7 ? 3 : i == 9 ? 4 : 0;
    float we = i == 255 ? 2 : 0;
    float wp = i == 0 ? 1 : i == 1 ? 2 : i == 2 ? 3 : 0;
    bad += out[0][i] != wz || out[1][i] != we || out[2][i] != wp;
  }
  expect("initialized input", bad);
}

// The research prototype's zero accumulator: vacc zero = {0}; smma(zero..).
static void zero_accumulator(void) {
  int8_t a[16][64], b[64][16];
  int32_t c[16][16];
  for (int i = 0; i < 16; i++)
    for (int k = 0; k < 64; k++)
      a[i][k] = (int8_t)((i + k) % 7 - 3);
  for (int k = 0; k < 64; k++)
    for (int j = 0; j < 16; j++)
      b[k][j] = (int8_t)((k * 3 + j) % 5 - 2);
  v256i zero = {0};
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(16, 64), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(64, 16), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  v256i r = tensor_smma_i256(tensor_typeinfo(zero, ROW_MAJOR(16, 16)), ta, tb);
  tensor_store(c, tensor_typeinfo(r, ROW_MAJOR(16, 16)), TLX_ZEROS(2));
  int bad = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) {
      int32_t s = 0;
      for (int k = 0; k < 64; k++)
        s += a[i][k] * b[k][j];
      bad += s != c[i][j] || s != r[i * 16 + j];
    }
  expect("zero accumulator", bad);
}

// t = relu(a) named column-major holds {1, 4, 2, 5, 3, 6}; t * 2 doubles
// those positions, kept, passed on and named with another layout.
__attribute__((noinline)) static float sum_positions(v6f v) {
  float s = 0;
  for (int i = 0; i < 6; i++)
    s += v[i] * (float)(i + 1);
  return s;
}
static v6f g_colmajor;
static void operator_on_colmajor(void) {
  float a[2][3] = {{1, 2, 3}, {4, 5, 6}};
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  v6f t = tensor_relu_f6(ta);
  tensor_typeinfo(t, TLX_SHAPE(3, 2), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
  v6f c = t * 2.0f;
  v6f d = c - t; // a second statement on the kept result
  g_colmajor = c;
  float rows[6];
  tensor_store(rows, tensor_typeinfo(d, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2)), TLX_ZEROS(2));
  const float want[6] = {1, 4, 2, 5, 3, 6};
  int bad = 0;
  float s = 0;
  for (int i = 0; i < 6; i++) {
    bad += t[i] != want[i] || c[i] != 2 * want[i] || g_colmajor[i] != 2 * want[i] ||
           rows[i] != want[i];
    s += 2 * want[i] * (float)(i + 1);
  }
  bad += sum_positions(c) != s;
  expect("operator on column-major", bad);
}

// A tovector result in one expression with other tensors.
static void tovector_chain(void) {
  float a[4][4];
  for (int i = 0; i < 16; i++)
    a[i / 4][i % 4] = (float)(i - 5);
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  v16f x = tensor_relu_f16(ta);
  tlx_token_t tx = tensor_typeinfo(x, ROW_MAJOR(4, 4));
  v16f y = tensor_tovector_f16(tx);
  v16f z = (y - 3.0f) * x;
  v16f w = -y * x * x;
  int bad = 0;
  for (int i = 0; i < 16; i++) {
    float xi = relu((float)(i - 5));
    bad += z[i] != (xi - 3) * xi || w[i] != -xi * xi * xi;
  }
  expect("tovector chain", bad);
}

// Wide by-value parameters and returned vectors read with variable indices.
__attribute__((noinline)) static float pick(v1024f p, int k) {
  tlx_token_t t = tensor_typeinfo(p, ROW_MAJOR(32, 32));
  v1024f r = tensor_relu_f1024(t);
  return p[k] + r[k + 1];
}
__attribute__((noinline)) static v1024f make(float s) {
  float a[32][32];
  for (int i = 0; i < 1024; i++)
    a[i / 32][i % 32] = (float)(i % 7 - 3) * s;
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(32, 32), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  return tensor_relu_f1024(ta);
}
static void byvalue_element_reads(int k) {
  v1024f m = make(2.0f);
  tensor_typeinfo(m, ROW_MAJOR(32, 32));
  float got = pick(m, k), again = m[k + 1];
  float want = relu((float)(k % 7 - 3) * 2) + relu((float)((k + 1) % 7 - 3) * 2);
  expect("by-value element reads",
         got != want || again != relu((float)((k + 1) % 7 - 3) * 2));
}

// A wide vector given a TLX result in either branch, read by C after.
static float in_16x16(int i) { return (float)((i % 9) - 4); }
static void merged_in_branches(int argc) {
  float a[16][16];
  for (int i = 0; i < 256; i++)
    a[i / 16][i % 16] = in_16x16(i);
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(16, 16), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  int bad = 0;
  for (int which = 0; which < 3; which++) {
    v256f v;
    if (which == 0) {
      v = tensor_relu_f256(ta);
      tensor_typeinfo(v, ROW_MAJOR(16, 16));
    } else if (which == 1) {
      v = tensor_matmul_f256(ta, ta);
      tensor_typeinfo(v, ROW_MAJOR(16, 16));
    } else {
      v = tensor_reduce_max_f256(ta, TLX_DIMS(1, 1), TLX_DIMS(1, 1));
      tensor_typeinfo(v, ROW_MAJOR(16, 16));
    }
    int k = argc * 3 + which;
    float want;
    if (which == 1) {
      want = 0;
      for (int j = 0; j < 16; j++)
        want += in_16x16(k / 16 * 16 + j) * in_16x16(j * 16 + k % 16);
    } else {
      want = which == 0 ? relu(in_16x16(k)) : in_16x16(k);
    }
    bad += v[k] != want;
  }
  expect("merged in branches", bad);
}

// The same in a loop: v = relu(v - 1) three times, read by C.
static void merged_in_loop(int argc) {
  v256f v = {0};
  for (int i = 0; i < 256; i++)
    v[i] = in_16x16(i) + 2;
  for (int n = 0; n < 3; n++) {
    v = tensor_relu_f256(tensor_typeinfo(v - 1.0f, ROW_MAJOR(16, 16)));
    tensor_typeinfo(v, ROW_MAJOR(16, 16));
  }
  int bad = 0;
  for (int i = argc; i < 256; i += 7) {
    float w = in_16x16(i) + 2;
    for (int n = 0; n < 3; n++)
      w = relu(w - 1);
    bad += v[i] != w;
  }
  expect("merged in a loop", bad);
}

// vector_totensor of a by-value parameter after an element write, and of
// an initialized local after two.
__attribute__((noinline)) static float totensor_param(v256f p) {
  p[3] = -5;
  tlx_token_t t = vector_totensor(p, ROW_MAJOR(16, 16));
  v256f r = tensor_fabs_f256(t);
  return r[3] + r[4];
}
static void totensor_written(void) {
  v256f z = {0};
  z[4] = -2;
  z[6] = 1;
  tlx_token_t t = vector_totensor(z, ROW_MAJOR(16, 16));
  v256f r = tensor_fabs_f256(t);
  // The column-major reading of the same positions: logical [i][j] is
  // position i * 16 + j, stored at j * 16 + i.
  tlx_token_t tc = vector_totensor(z, TLX_SHAPE(16, 16), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
  float cm[256];
  tensor_store(cm, tc, TLX_ZEROS(2));
  expect("totensor of written vectors", totensor_param(z) != 7 || r[4] != 2 ||
                                            r[6] != 1 || cm[4 * 16] != -2 ||
                                            cm[6 * 16] != 1 || cm[4] != 0);
}

// A token merge (?:) of a column-major vector_totensor of an initialized
// vector and of an op result (progs.py seed 400 case 495: the merge named
// the vector with a totensor tlx-bufferize could not place).
static void merged_totensor(int argc) {
  v256f z = {1, -2, 3};
  z[20] = -5;
  tlx_token_t t =
      vector_totensor(z, TLX_SHAPE(16, 16), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
  v256f r = tensor_relu_f256(t);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(16, 16), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
  tlx_token_t m = argc == 1 ? t : tr;
  float out[256];
  tensor_store(out, m, TLX_ZEROS(2));
  int bad = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) {
      float v = z[i * 16 + j]; // logical [i][j], stored column-major
      bad += out[j * 16 + i] != (argc == 1 ? v : relu(v));
    }
  expect("merged totensor", bad);
}

// z * z + z is one llvm.fmuladd; z an initialized local.
static void fmuladd_local(void) {
  v256f z = {1, 2, 3};
  tensor_typeinfo(z, ROW_MAJOR(16, 16));
  v256f w = z * z + z;
  expect("fmuladd on a local", w[0] != 2 || w[1] != 6 || w[2] != 12 || w[3] != 0);
}

int main(int argc, char **argv) {
  (void)argv;
  initialized_input();
  zero_accumulator();
  operator_on_colmajor();
  tovector_chain();
  byvalue_element_reads(argc + 2);
  merged_in_branches(argc);
  merged_in_loop(argc);
  totensor_written();
  merged_totensor(argc);
  fmuladd_local();
  return failures != 0;
}
