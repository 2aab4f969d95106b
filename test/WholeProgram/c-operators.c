// C vector operators on tensor values are TLX ops (tlx-vector-ops): every
// binary operator, unary minus, comparisons and ?: on vectors, conversions
// (__builtin_convertvector), splats of scalars and constants, mixed with
// TLX ops, on tensors of a few elements and of hundreds of thousands, at
// -O0..-O3; the expected values come from plain C loops over arrays.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O1 %s %tlx_rt -o %t1 && %t1 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O3 %march_native %s %tlx_rt -o %t3 && %t3 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -fsanitize=address %s %tlx_rt -o %ta && %ta | FileCheck %s
// CHECK: float small: ok
// CHECK: float large: ok
// CHECK: int small: ok
// CHECK: int large: ok
// CHECK: compare select small: ok
// CHECK: compare select large: ok
// CHECK: conversions small: ok
// CHECK: conversions large: ok
// CHECK-NOT: bad

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tlx.h>

static int failures;
static void expect(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "bad" : "ok");
  failures += bad;
}

// One test body per size: N elements viewed as R x C.
#define DEFINE_TESTS(SFX, R, C)                                                \
  typedef float f##SFX __attribute__((__vector_size__(R * C * 4)));           \
  typedef int32_t i##SFX __attribute__((__vector_size__(R * C * 4)));         \
  typedef double d##SFX __attribute__((__vector_size__(R * C * 8)));          \
  typedef int16_t s##SFX __attribute__((__vector_size__(R * C * 2)));         \
  typedef uint32_t u##SFX __attribute__((__vector_size__(R * C * 4)));        \
  typedef float fe##SFX __attribute__((ext_vector_type(R * C)));              \
  typedef int32_t ie##SFX __attribute__((ext_vector_type(R * C)));            \
  TLX_DECLARE_TENSOR_OPS_AS(f##SFX, f##SFX)                                    \
  TLX_DECLARE_TENSOR_OPS_AS(i##SFX, i##SFX)                                    \
  static float fa##SFX[R * C], fb##SFX[R * C], fo##SFX[R * C];                 \
  static int32_t ia##SFX[R * C], ib##SFX[R * C], io##SFX[R * C];               \
  static double dd##SFX[R * C];                                                \
  static int16_t ss##SFX[R * C];                                               \
                                                                               \
  /* z = relu(a * 0.5f + b) - (-a) / 4, stored. */                            \
  __attribute__((noinline)) static void float_ops##SFX(void) {                 \
    tlx_token_t ta = tensor_load(fa##SFX, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),   \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                  \
    tlx_token_t tb = tensor_load(fb##SFX, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),   \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                  \
    f##SFX a = tensor_fabs_f##SFX(ta); /* |a| */                               \
    f##SFX b = tensor_floor_f##SFX(tb);                                        \
    f##SFX z = a * 0.5f + b;                                                   \
    f##SFX r = tensor_relu_f##SFX(tensor_typeinfo(                             \
        z, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1), TLX_ZEROS(2)));                  \
    f##SFX o = r - (-a) / 4.0f;                                                \
    tensor_store(fo##SFX,                                                      \
                 tensor_typeinfo(o, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2)),                                \
                 TLX_ZEROS(2));                                                \
  }                                                                            \
  static int check_float##SFX(void) {                                          \
    float_ops##SFX();                                                          \
    int bad = 0;                                                               \
    for (int i = 0; i < R * C; ++i) {                                          \
      float a = fabsf(fa##SFX[i]), b = floorf(fb##SFX[i]);                     \
      float z = a * 0.5f + b, r = z > 0 ? z : 0;                               \
      float o = r - (-a) / 4.0f;                                               \
      bad += fo##SFX[i] != o;                                                  \
    }                                                                          \
    return bad;                                                                \
  }                                                                            \
                                                                               \
  /* Every integer operator, one after the other. */                           \
  __attribute__((noinline)) static void int_ops##SFX(void) {                   \
    tlx_token_t ta = tensor_load(ia##SFX, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),   \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                  \
    tlx_token_t tb = tensor_load(ib##SFX, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),   \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                  \
    i##SFX a = tensor_relu_i##SFX(ta);                                         \
    i##SFX b = tensor_relu_i##SFX(tb) + 1;                                     \
    i##SFX x = (a + b) * 3 - a / b + a % b;                                    \
    x = (x & 0xff) | (a ^ b) << 2;                                             \
    x = x + (b >> 1) - (i##SFX)((u##SFX)b >> 3u);                            \
    tensor_store(io##SFX,                                                      \
                 tensor_typeinfo(x, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2)),                                \
                 TLX_ZEROS(2));                                                \
  }                                                                            \
  static int check_int##SFX(void) {                                            \
    int_ops##SFX();                                                            \
    int bad = 0;                                                               \
    for (int i = 0; i < R * C; ++i) {                                          \
      int32_t a = ia##SFX[i] > 0 ? ia##SFX[i] : 0;                             \
      int32_t b = (ib##SFX[i] > 0 ? ib##SFX[i] : 0) + 1;                       \
      int32_t x = (a + b) * 3 - a / b + a % b;                                 \
      x = (x & 0xff) | (a ^ b) << 2;                                           \
      x = x + (b >> 1) - (int32_t)((uint32_t)b >> 3u);                         \
      bad += io##SFX[i] != x;                                                  \
    }                                                                          \
    return bad;                                                                \
  }                                                                            \
                                                                               \
  /* m = a < b ? a : b * 2 (?: on ext vectors: masks, as in OpenCL C),     \
     then a compare as integers. */                                            \
  __attribute__((noinline)) static void select_ops##SFX(void) {                \
    tlx_token_t ta = tensor_load(fa##SFX, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),   \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                  \
    tlx_token_t tb = tensor_load(fb##SFX, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),   \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                  \
    fe##SFX a = (fe##SFX)tensor_floor_f##SFX(ta);                              \
    fe##SFX b = (fe##SFX)tensor_ceil_f##SFX(tb);                               \
    fe##SFX m = a < b ? a : b * 2.0f;                                          \
    ie##SFX ge = m >= 1.0f;                                                    \
    tensor_store(fo##SFX,                                                      \
                 tensor_typeinfo(m, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2)),                                \
                 TLX_ZEROS(2));                                                \
    tensor_store(io##SFX,                                                      \
                 tensor_typeinfo(ge, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),        \
                                 TLX_ZEROS(2)),                                \
                 TLX_ZEROS(2));                                                \
  }                                                                            \
  static int check_select##SFX(void) {                                         \
    select_ops##SFX();                                                         \
    int bad = 0;                                                               \
    for (int i = 0; i < R * C; ++i) {                                          \
      float a = floorf(fa##SFX[i]), b = ceilf(fb##SFX[i]);                     \
      float m = a < b ? a : b * 2.0f;                                          \
      bad += fo##SFX[i] != m || io##SFX[i] != (m >= 1.0f ? -1 : 0);            \
    }                                                                          \
    return bad;                                                                \
  }                                                                            \
                                                                               \
  /* float -> double, int -> float, float -> int16 conversions. */             \
  __attribute__((noinline)) static void convert_ops##SFX(void) {               \
    tlx_token_t ta = tensor_load(fa##SFX, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),   \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                  \
    tlx_token_t ti = tensor_load(ia##SFX, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),   \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                  \
    f##SFX a = tensor_sqrt_f##SFX(ta);                                         \
    d##SFX d = __builtin_convertvector(a, d##SFX) * 3.0;                       \
    f##SFX f = __builtin_convertvector(tensor_relu_i##SFX(ti), f##SFX);        \
    s##SFX s = __builtin_convertvector(f * 0.25f, s##SFX);                     \
    tensor_store(dd##SFX,                                                      \
                 tensor_typeinfo(d, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2)),                                \
                 TLX_ZEROS(2));                                                \
    tensor_store(ss##SFX,                                                      \
                 tensor_typeinfo(s, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2)),                                \
                 TLX_ZEROS(2));                                                \
  }                                                                            \
  static int check_convert##SFX(void) {                                        \
    convert_ops##SFX();                                                        \
    int bad = 0;                                                               \
    for (int i = 0; i < R * C; ++i) {                                          \
      double d = (double)sqrtf(fa##SFX[i]) * 3.0;                              \
      float f = (float)(ia##SFX[i] > 0 ? ia##SFX[i] : 0);                      \
      int16_t s = (int16_t)(f * 0.25f);                                        \
      bad += !(dd##SFX[i] == d || (d != d && dd##SFX[i] != dd##SFX[i])) ||     \
             ss##SFX[i] != s;                                                  \
    }                                                                          \
    return bad;                                                                \
  }                                                                            \
                                                                               \
  static void fill##SFX(void) {                                                \
    for (int i = 0; i < R * C; ++i) {                                          \
      fa##SFX[i] = (float)((i * 37) % 101 - 50) / 8;                           \
      fb##SFX[i] = (float)((i * 11) % 23 - 11) / 4;                            \
      ia##SFX[i] = (i * 7919) % 1999 - 999;                                    \
      ib##SFX[i] = (i * 104729) % 997 - 400;                                   \
    }                                                                          \
  }

DEFINE_TESTS(small, 3, 5)
DEFINE_TESTS(large, 256, 512)

int main(void) {
  fillsmall();
  filllarge();
  expect("float small", check_floatsmall());
  expect("float large", check_floatlarge());
  expect("int small", check_intsmall());
  expect("int large", check_intlarge());
  expect("compare select small", check_selectsmall());
  expect("compare select large", check_selectlarge());
  expect("conversions small", check_convertsmall());
  expect("conversions large", check_convertlarge());
  return failures != 0;
}
