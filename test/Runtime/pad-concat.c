// pad (XLA pad, no interior padding; value converted to the element type)
// and concat (along a logical axis, other dims equal).
// RUN: %clang_plain -std=c11 -Wall -I%S/Inputs %s %tlx_rt -o %t && %t | FileCheck %s

#include "check.h"

// CHECK-LABEL: pad 2x3 low <1,0> high <0,2>: ok
// CHECK: pad column-major out: ok
// CHECK: pad f16 value rounds: ok
// CHECK: pad i64 exact value: ok
// CHECK: pad nothing is a copy: ok
static void pads(void) {
  int32_t in[] = {1, 2, 3, 4, 5, 6}, out[15];
  const int64_t s23[] = {2, 3}, s35[] = {3, 5}, s53[] = {5, 3};
  const int64_t low[] = {1, 0}, high[] = {0, 2}, col[] = {1, 0};
  tlx_tensor ti = makeTensor(in, TLX_I32, 2, s23);
  tlx_tensor to = makeTensor(out, TLX_I32, 2, s35);
  expectOk("pad", tlx_ref_pad(&ti, low, high, -1, &to));
  const int64_t want[] = {-1, -1, -1, -1, -1, 1,  2, 3,
                          -1, -1, 4,  5,  6,  -1, -1};
  expectInts("pad 2x3 low <1,0> high <0,2>", &to, want);
  tlx_tensor tc = makeLayout(out, TLX_I32, 2, s53, col, NULL);
  expectOk("pad col", tlx_ref_pad(&ti, low, high, -1, &tc));
  expectInts("pad column-major out", &tc, want);

  uint16_t h[1], ho[3];
  const int64_t s1[] = {1}, s3[] = {3}, one[] = {1}, zero[] = {0};
  tlx_tensor th = makeTensor(h, TLX_F16, 1, s1);
  tlx_set_f64(&th, zero, 1.0);
  tlx_tensor tho = makeTensor(ho, TLX_F16, 1, s3);
  expectOk("pad f16", tlx_ref_pad(&th, one, one, 0.1, &tho));
  const double wantH[] = {0.0999755859375, 1, 0.0999755859375};
  expectFloats("pad f16 value rounds", &tho, wantH, 0);

  int64_t l[] = {5}, lo[2];
  const int64_t s2[] = {2};
  tlx_tensor tl = makeTensor(l, TLX_I64, 1, s1);
  tlx_tensor tlo = makeTensor(lo, TLX_I64, 1, s2);
  expectOk("pad i64", tlx_ref_pad_i64(&tl, zero, one, INT64_MIN + 1, &tlo));
  const int64_t wantL[] = {5, INT64_MIN + 1};
  expectInts("pad i64 exact value", &tlo, wantL);

  const int64_t none[] = {0, 0};
  int32_t same[6];
  tlx_tensor ts = makeTensor(same, TLX_I32, 2, s23);
  expectOk("pad none", tlx_ref_pad(&ti, none, none, 9, &ts));
  const int64_t wantS[] = {1, 2, 3, 4, 5, 6};
  expectInts("pad nothing is a copy", &ts, wantS);
}

// CHECK-LABEL: concat axis 1: ok
// CHECK: concat axis 0: ok
// CHECK: concat column-major bf16 axis 0: ok
// CHECK: concat 3-d axis 2 i8: ok
static void concats(void) {
  float a[] = {1, 2, 3, 4}, b[] = {5, 6}, c[] = {7, 8}, out[6];
  const int64_t s22[] = {2, 2}, s21[] = {2, 1}, s12[] = {1, 2},
                s23[] = {2, 3}, s32[] = {3, 2};
  tlx_tensor ta = makeTensor(a, TLX_F32, 2, s22);
  tlx_tensor tb = makeTensor(b, TLX_F32, 2, s21);
  tlx_tensor tc = makeTensor(c, TLX_F32, 2, s12);
  tlx_tensor to = makeTensor(out, TLX_F32, 2, s23);
  expectOk("axis 1", tlx_ref_concat(&ta, &tb, 1, &to));
  const double want1[] = {1, 2, 5, 3, 4, 6};
  expectFloats("concat axis 1", &to, want1, 0);
  tlx_tensor to0 = makeTensor(out, TLX_F32, 2, s32);
  expectOk("axis 0", tlx_ref_concat(&ta, &tc, 0, &to0));
  const double want0[] = {1, 2, 3, 4, 7, 8};
  expectFloats("concat axis 0", &to0, want0, 0);

  uint16_t ha[4], hb[2], ho[6];
  const int64_t col[] = {1, 0};
  tlx_tensor tha = makeLayout(ha, TLX_BF16, 2, s22, col, NULL);
  tlx_tensor thb = makeTensor(hb, TLX_BF16, 2, s12);
  tlx_tensor tho = makeLayout(ho, TLX_BF16, 2, s23, col, NULL); // logical 3x2
  for (int64_t i = 0; i < 4; ++i) {
    int64_t idx[] = {i / 2, i % 2};
    tlx_set_f64(&tha, idx, (double)(i + 1));
  }
  for (int64_t i = 0; i < 2; ++i) {
    int64_t idx[] = {0, i};
    tlx_set_f64(&thb, idx, -(double)(i + 1));
  }
  expectOk("bf16", tlx_ref_concat(&tha, &thb, 0, &tho));
  const double wantH[] = {1, 2, 3, 4, -1, -2};
  expectFloats("concat column-major bf16 axis 0", &tho, wantH, 0);

  int8_t x[] = {1, 2, 3, 4}, y[] = {5, 6}, z[6];
  const int64_t s212[] = {2, 1, 2}, s211[] = {2, 1, 1}, s213[] = {2, 1, 3};
  tlx_tensor tx = makeTensor(x, TLX_I8, 3, s212);
  tlx_tensor ty = makeTensor(y, TLX_I8, 3, s211);
  tlx_tensor tz = makeTensor(z, TLX_I8, 3, s213);
  expectOk("3d", tlx_ref_concat(&tx, &ty, 2, &tz));
  const int64_t wantZ[] = {1, 2, 5, 3, 4, 6};
  expectInts("concat 3-d axis 2 i8", &tz, wantZ);
}

// CHECK-LABEL: negative pad: error: pad: low/high of dim 0 must be in 0..2^31
// CHECK: pad out shape: error: pad: out has logical shape [2,3], the result is [3,5]
// CHECK: concat axis out of range: error: concat: axis 2 outside 0..1
// CHECK: concat dims differ: error: concat: dim 1 differs: a 2, b 1
// CHECK: concat dtypes differ: error: concat: b has element type i32, expected f32
static void errors(void) {
  static float buf[32];
  static int32_t ibuf[32];
  const int64_t s23[] = {2, 3}, s22[] = {2, 2}, s21[] = {2, 1};
  const int64_t neg[] = {-1, 0}, z[] = {0, 0}, low[] = {1, 0}, high[] = {0, 2};
  tlx_tensor t23 = makeTensor(buf, TLX_F32, 2, s23);
  expectError("negative pad", tlx_ref_pad(&t23, neg, z, 0, &t23), "low/high");
  expectError("pad out shape", tlx_ref_pad(&t23, low, high, 0, &t23),
              "logical shape");
  tlx_tensor t22 = makeTensor(buf, TLX_F32, 2, s22);
  tlx_tensor t21 = makeTensor(buf, TLX_F32, 2, s21);
  expectError("concat axis out of range", tlx_ref_concat(&t22, &t21, 2, &t23),
              "axis 2");
  expectError("concat dims differ", tlx_ref_concat(&t22, &t21, 0, &t23),
              "differs");
  tlx_tensor i21 = makeTensor(ibuf, TLX_I32, 2, s21);
  expectError("concat dtypes differ", tlx_ref_concat(&t22, &i21, 1, &t23),
              "element type");
}

int main(void) {
  pads();
  concats();
  errors();
  return Failures != 0;
}
