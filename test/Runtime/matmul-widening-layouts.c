// matmul: the RFC's 3x4 x 4x3, layouts, batches, integer widening and
// wrap-around, f16/bf16 operands, float accumulation, and rejected shapes.
// RUN: %clang_plain -std=c11 -Wall -I%S/Inputs %s %tlx_rt -o %t && %t | FileCheck %s

#include "check.h"

static const int64_t S34[] = {3, 4}, S43[] = {4, 3}, S33[] = {3, 3},
                     ColLayout[] = {1, 0};
static float A34[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
static float B43[] = {1, 0, 2, 0, 1, 0, 1, 1, 1, 2, 0, -1};
static const double C33[] = {12, 5, 1, 28, 13, 9, 44, 21, 17};

// CHECK-LABEL: rfc 3x4 x 4x3 f32: ok
// CHECK: column-major out: ok
// CHECK: column-major a and out: ok
// CHECK: padding changes nothing: ok
static void rfcExample(void) {
  float c[9];
  tlx_tensor a = makeTensor(A34, TLX_F32, 2, S34);
  tlx_tensor b = makeTensor(B43, TLX_F32, 2, S43);
  tlx_tensor out = makeTensor(c, TLX_F32, 2, S33);
  expectOk("rfc matmul", tlx_ref_matmul(&a, &b, &out));
  expectFloats("rfc 3x4 x 4x3 f32", &out, C33, 0);

  tlx_tensor colOut = makeLayout(c, TLX_F32, 2, S33, ColLayout, NULL);
  expectOk("col out", tlx_ref_matmul(&a, &b, &colOut));
  expectFloats("column-major out", &colOut, C33, 0);

  // A stored column-major: storage 4x3 holding logical 3x4.
  float aCol[12];
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 4; ++k)
      aCol[k * 3 + i] = A34[i * 4 + k];
  tlx_tensor aC = makeLayout(aCol, TLX_F32, 2, S43, ColLayout, NULL);
  expectOk("col a", tlx_ref_matmul(&aC, &b, &colOut));
  expectFloats("column-major a and out", &colOut, C33, 0);

  // Padding is an allocation hint: same data, same result.
  const int64_t padA[] = {1, 3}, padC[] = {0, 1};
  tlx_tensor aPad, cPad;
  expectOk("pad a", tlx_tensor_init(&aPad, A34, TLX_F32, 2, S34, NULL, padA,
                                    NULL));
  expectOk("pad c", tlx_tensor_init(&cPad, c, TLX_F32, 2, S33, NULL, padC,
                                    NULL));
  expectOk("padded", tlx_ref_matmul(&aPad, &b, &cPad));
  expectFloats("padding changes nothing", &cPad, C33, 0);
}

// CHECK-LABEL: i8 x i8 -> i32 sign-extends: ok
// CHECK: i8 x i8 -> i8 wraps: ok
// CHECK: i32 wraps: ok
static void integers(void) {
  int8_t a[] = {-128, 127, -1, 2}, b[] = {-128, 1, 127, -1}, c8[4];
  int32_t c[4];
  const int64_t s22[] = {2, 2};
  tlx_tensor ta = makeTensor(a, TLX_I8, 2, s22);
  tlx_tensor tb = makeTensor(b, TLX_I8, 2, s22);
  tlx_tensor out = makeTensor(c, TLX_I32, 2, s22);
  expectOk("i8 matmul", tlx_ref_matmul(&ta, &tb, &out));
  const int64_t want[] = {32513, -255, 382, -3};
  expectInts("i8 x i8 -> i32 sign-extends", &out, want);
  tlx_tensor out8 = makeTensor(c8, TLX_I8, 2, s22);
  expectOk("i8 out", tlx_ref_matmul(&ta, &tb, &out8));
  const int64_t want8[] = {1, 1, 126, -3};
  expectInts("i8 x i8 -> i8 wraps", &out8, want8);

  int32_t x[] = {2147483647, 1}, y[] = {2, 1}, z[1];
  const int64_t s12[] = {1, 2}, s21[] = {2, 1}, s11[] = {1, 1};
  tlx_tensor tx = makeTensor(x, TLX_I32, 2, s12);
  tlx_tensor ty = makeTensor(y, TLX_I32, 2, s21);
  tlx_tensor tz = makeTensor(z, TLX_I32, 2, s11);
  expectOk("i32 wrap", tlx_ref_matmul(&tx, &ty, &tz));
  const int64_t wantZ[] = {-1};
  expectInts("i32 wraps", &tz, wantZ);
}

// CHECK-LABEL: batched 2x2x2 f64: ok
// CHECK: odd sizes 1x5 x 5x3 i16: ok
static void batchedAndOdd(void) {
  double a[] = {1, 2, 3, 4, 1, 1, 1, 1}, b[] = {1, 0, 0, 1, 2, 3, 4, 5}, c[8];
  const int64_t s222[] = {2, 2, 2};
  tlx_tensor ta = makeTensor(a, TLX_F64, 3, s222);
  tlx_tensor tb = makeTensor(b, TLX_F64, 3, s222);
  tlx_tensor tc = makeTensor(c, TLX_F64, 3, s222);
  expectOk("batched", tlx_ref_matmul(&ta, &tb, &tc));
  const double want[] = {1, 2, 3, 4, 6, 8, 6, 8};
  expectFloats("batched 2x2x2 f64", &tc, want, 0);

  int16_t x[] = {1, 2, 3, 4, 5}, y[15], z[3];
  for (int i = 0; i < 15; ++i)
    y[i] = (int16_t)(i % 3 == 0 ? 1 : i % 3 == 1 ? -1 : i);
  // Columns of y: (1,1,1,1,1), (-1,-1,-1,-1,-1), (2,5,8,11,14).
  const int64_t s15[] = {1, 5}, s53[] = {5, 3}, s13[] = {1, 3};
  tlx_tensor tx = makeTensor(x, TLX_I16, 2, s15);
  tlx_tensor ty = makeTensor(y, TLX_I16, 2, s53);
  tlx_tensor tz = makeTensor(z, TLX_I16, 2, s13);
  expectOk("odd", tlx_ref_matmul(&tx, &ty, &tz));
  const int64_t wantZ[] = {15, -15, 2 + 10 + 24 + 44 + 70};
  expectInts("odd sizes 1x5 x 5x3 i16", &tz, wantZ);
}

// A 1xK x Kx1 matmul of 16-bit float operands given as doubles.
static double dot16(tlx_dtype in, tlx_dtype outType, int k, const double *x,
                    const double *y) {
  uint16_t a[8], b[8];
  _Alignas(8) unsigned char c[8];
  const int64_t sa[] = {1, k}, sb[] = {k, 1}, s11[] = {1, 1};
  tlx_tensor ta = makeTensor(a, in, 2, sa);
  tlx_tensor tb = makeTensor(b, in, 2, sb);
  tlx_tensor tc = makeTensor(c, outType, 2, s11);
  for (int64_t i = 0; i < k; ++i) {
    int64_t ia[] = {0, i}, ib[] = {i, 0};
    tlx_set_f64(&ta, ia, x[i]);
    tlx_set_f64(&tb, ib, y[i]);
  }
  expectOk("dot16", tlx_ref_matmul(&ta, &tb, &tc));
  const int64_t zero[] = {0, 0};
  return tlx_get_f64(&tc, zero);
}

// CHECK-LABEL: bf16 x bf16 -> f32: ok
// CHECK: f16 x f16 -> f32 beyond f16 range: ok
// CHECK: f16 out rounds once: ok
// CHECK: bf16 out rounds once: ok
// CHECK: f32 accumulates in float: ok
static void halfTypes(void) {
  const double ones[] = {1, 1, 1};
  const double x[] = {1.5, 2.5}, y[] = {2, 4};
  expectTrue("bf16 x bf16 -> f32", dot16(TLX_BF16, TLX_F32, 2, x, y) == 13);
  const double big[] = {0.5, 65504}, twos[] = {2, 2};
  expectTrue("f16 x f16 -> f32 beyond f16 range",
             dot16(TLX_F16, TLX_F32, 2, big, twos) == 131009);
  // Rounding to f16 after each add would lose both 2^-11 (ties to even).
  const double tiny16[] = {1, 0x1p-11, 0x1p-11};
  expectTrue("f16 out rounds once",
             dot16(TLX_F16, TLX_F16, 3, tiny16, ones) == 1 + 0x1p-10);
  const double tiny8[] = {1, 0x1p-8, 0x1p-8};
  expectTrue("bf16 out rounds once",
             dot16(TLX_BF16, TLX_BF16, 3, tiny8, ones) == 1 + 0x1p-7);

  float a[] = {1e8f, 1, -1e8f}, b[] = {1, 1, 1}, c[1];
  const int64_t s13[] = {1, 3}, s31[] = {3, 1}, s11[] = {1, 1};
  tlx_tensor ta = makeTensor(a, TLX_F32, 2, s13);
  tlx_tensor tb = makeTensor(b, TLX_F32, 2, s31);
  tlx_tensor tc = makeTensor(c, TLX_F32, 2, s11);
  expectOk("f32 order", tlx_ref_matmul(&ta, &tb, &tc));
  // In float, 1e8 + 1 == 1e8: the sum is 0, not 1.
  expectTrue("f32 accumulates in float", c[0] == 0.0f);
}

// CHECK-LABEL: inner mismatch: error: matmul: inner extents differ: [..,3,4] x [..,3,3]
// CHECK: batch mismatch: error: matmul: batch dim 0 differs: 2 vs 1
// CHECK: rank mismatch: error: matmul: operands need equal ranks >= 2, got 2 and 3
// CHECK: narrowing out: error: matmul: a element type f32 does not widen to f16
// CHECK: int into float: error: matmul: a element type i32 does not widen to f32
// CHECK: wrong out shape: error: matmul: out has logical shape [3,4], the result is [3,3]
static void errors(void) {
  static float buf[64], out[64];
  static int32_t ibuf[64];
  tlx_tensor a = makeTensor(buf, TLX_F32, 2, S34);
  tlx_tensor b33 = makeTensor(buf, TLX_F32, 2, S33);
  tlx_tensor c = makeTensor(out, TLX_F32, 2, S33);
  expectError("inner mismatch", tlx_ref_matmul(&a, &b33, &c), "inner extents");
  const int64_t s234[] = {2, 3, 4}, s143[] = {1, 4, 3}, s233[] = {2, 3, 3};
  tlx_tensor a3 = makeTensor(buf, TLX_F32, 3, s234);
  tlx_tensor b3 = makeTensor(buf, TLX_F32, 3, s143);
  tlx_tensor c3 = makeTensor(out, TLX_F32, 3, s233);
  expectError("batch mismatch", tlx_ref_matmul(&a3, &b3, &c3), "batch dim 0");
  expectError("rank mismatch", tlx_ref_matmul(&a, &b3, &c), "equal ranks");
  tlx_tensor b = makeTensor(buf, TLX_F32, 2, S43);
  tlx_tensor c16 = makeTensor(out, TLX_F16, 2, S33);
  expectError("narrowing out", tlx_ref_matmul(&a, &b, &c16), "does not widen");
  tlx_tensor ai = makeTensor(ibuf, TLX_I32, 2, S34);
  expectError("int into float", tlx_ref_matmul(&ai, &b, &c), "does not widen");
  tlx_tensor c34 = makeTensor(out, TLX_F32, 2, S34);
  expectError("wrong out shape", tlx_ref_matmul(&a, &b, &c34), "logical shape");
}

int main(void) {
  rfcExample();
  integers();
  batchedAndOdd();
  halfTypes();
  errors();
  return Failures != 0;
}
