// reduce.max/min/add/mul/and/or/xor as reduce-window over every logical
// dim: windows, strides, signed integer order, wrap-around, float
// accumulation in window order, NaN and signed zeros, layouts, errors.
// RUN: %clang_plain -std=c11 -Wall -I%S/Inputs %s %tlx_rt -o %t && %t | FileCheck %s

#include "check.h"

static int32_t M[] = {1,  -2, 3,  0,   4,  5,   -6, 7,
                      -8, 9,  10, -11, 12, -13, 14, 15};
static const int64_t S44[] = {4, 4}, S22[] = {2, 2}, Win22[] = {2, 2};

static void reduce44(const char *what, tlx_reduce_op op, const int64_t *win,
                     const int64_t *strides, const int64_t *outShape,
                     const int64_t *want) {
  int32_t out[16];
  tlx_tensor ti = makeTensor(M, TLX_I32, 2, S44);
  tlx_tensor to = makeTensor(out, TLX_I32, 2, outShape);
  expectOk(what, tlx_ref_reduce(op, &ti, win, strides, &to));
  expectInts(what, &to, want);
}

// 2x2 blocks: {1,-2,4,5} {3,0,-6,7} {-8,9,12,-13} {10,-11,14,15}.
// CHECK-LABEL: max 2x2/2: ok
// CHECK: min 2x2/2: ok
// CHECK: add 2x2/2: ok
// CHECK: mul 2x2/2: ok
// CHECK: add 3x1 window, strides 1x3: ok
// CHECK: add whole tensor: ok
// CHECK: max 2x2 window, stride 1: ok
static void i32Windows(void) {
  const int64_t max[] = {5, 7, 12, 15}, min[] = {-2, -6, -13, -11},
                add[] = {8, 4, 0, 28}, mul[] = {-40, 0, 11232, -23100};
  reduce44("max 2x2/2", TLX_REDUCE_MAX, Win22, Win22, S22, max);
  reduce44("min 2x2/2", TLX_REDUCE_MIN, Win22, Win22, S22, min);
  reduce44("add 2x2/2", TLX_REDUCE_ADD, Win22, Win22, S22, add);
  reduce44("mul 2x2/2", TLX_REDUCE_MUL, Win22, Win22, S22, mul);
  // Windows of rows 0-2 / 1-3 at columns 0 and 3.
  const int64_t win31[] = {3, 1}, str13[] = {1, 3};
  const int64_t add31[] = {1 + 4 - 8, 0 + 7 - 11, 4 - 8 + 12, 7 - 11 + 15};
  reduce44("add 3x1 window, strides 1x3", TLX_REDUCE_ADD, win31, str13, S22,
           add31);
  const int64_t s11[] = {1, 1}, all[] = {40};
  reduce44("add whole tensor", TLX_REDUCE_ADD, S44, NULL, s11, all);
  const int64_t ones[] = {1, 1}, s33[] = {3, 3};
  const int64_t max33[] = {5, 5, 7, 9, 10, 10, 12, 14, 15};
  reduce44("max 2x2 window, stride 1", TLX_REDUCE_MAX, Win22, ones, s33,
           max33);
}

// CHECK-LABEL: and i8: ok
// CHECK: or i8: ok
// CHECK: xor i8: ok
// CHECK: max/min i8 are signed: ok
// CHECK: add i8 wraps: ok
// CHECK: mul i16 wraps: ok
static void narrowInts(void) {
  int8_t in[] = {0x0F, 0x3C, -1, 0x55}, out[4];
  const int64_t s4[] = {4}, s3[] = {3}, w2[] = {2};
  tlx_tensor ti = makeTensor(in, TLX_I8, 1, s4);
  tlx_tensor to = makeTensor(out, TLX_I8, 1, s3);
  expectOk("and", tlx_ref_reduce(TLX_REDUCE_AND, &ti, w2, NULL, &to));
  const int64_t wAnd[] = {0x0C, 0x3C, 0x55};
  expectInts("and i8", &to, wAnd);
  expectOk("or", tlx_ref_reduce(TLX_REDUCE_OR, &ti, w2, NULL, &to));
  const int64_t wOr[] = {0x3F, -1, -1};
  expectInts("or i8", &to, wOr);
  expectOk("xor", tlx_ref_reduce(TLX_REDUCE_XOR, &ti, w2, NULL, &to));
  const int64_t wXor[] = {0x33, -61, -86}; // 0xC3, 0xAA as i8
  expectInts("xor i8", &to, wXor);

  int8_t sgn[] = {-128, 127, -1}, mm[1];
  const int64_t w3[] = {3}, s1[] = {1};
  tlx_tensor ts = makeTensor(sgn, TLX_I8, 1, s3);
  tlx_tensor tm = makeTensor(mm, TLX_I8, 1, s1);
  int ok = tlx_ref_reduce(TLX_REDUCE_MAX, &ts, w3, NULL, &tm) == 0 &&
           mm[0] == 127;
  ok &= tlx_ref_reduce(TLX_REDUCE_MIN, &ts, w3, NULL, &tm) == 0 &&
        mm[0] == -128;
  expectTrue("max/min i8 are signed", ok);

  int8_t big[] = {100, 100};
  const int64_t s2[] = {2};
  tlx_tensor tb = makeTensor(big, TLX_I8, 1, s2);
  expectOk("add i8", tlx_ref_reduce(TLX_REDUCE_ADD, &tb, w2, NULL, &tm));
  const int64_t wAdd[] = {-56};
  expectInts("add i8 wraps", &tm, wAdd);
  int16_t h[] = {300, 300}, ho[1];
  tlx_tensor th = makeTensor(h, TLX_I16, 1, s2);
  tlx_tensor tho = makeTensor(ho, TLX_I16, 1, s1);
  expectOk("mul i16", tlx_ref_reduce(TLX_REDUCE_MUL, &th, w2, NULL, &tho));
  const int64_t wMul[] = {24464}; // 90000 - 65536
  expectInts("mul i16 wraps", &tho, wMul);
}

static double reduce1(tlx_reduce_op op, tlx_dtype dtype, int n,
                      const double *vals) {
  _Alignas(8) unsigned char in[64], out[8];
  const int64_t sn[] = {n}, s1[] = {1}, zero[] = {0};
  tlx_tensor ti = makeTensor(in, dtype, 1, sn);
  tlx_tensor to = makeTensor(out, dtype, 1, s1);
  for (int64_t i = 0; i < n; ++i)
    tlx_set_f64(&ti, &i, vals[i]);
  expectOk("reduce1", tlx_ref_reduce(op, &ti, sn, NULL, &to));
  return tlx_get_f64(&to, zero);
}

// CHECK-LABEL: f32 add in window order: ok
// CHECK: f16 add rounds once: ok
// CHECK: max/min NaN and signed zeros: ok
// CHECK: f64 mul, bf16 max: ok
static void floats(void) {
  const double order[] = {1e8, 1, -1e8, 1};
  expectTrue("f32 add in window order",
             reduce1(TLX_REDUCE_ADD, TLX_F32, 4, order) == 1);
  const double tiny[] = {1, 0x1p-11, 0x1p-11};
  expectTrue("f16 add rounds once",
             reduce1(TLX_REDUCE_ADD, TLX_F16, 3, tiny) == 1 + 0x1p-10);
  const double nan[] = {1, NAN, 3}, zeros[] = {-0.0, 0.0}, zeros2[] = {0.0, -0.0};
  double mx = reduce1(TLX_REDUCE_MAX, TLX_F32, 2, zeros);
  double mn = reduce1(TLX_REDUCE_MIN, TLX_F32, 2, zeros2);
  expectTrue("max/min NaN and signed zeros",
             isnan(reduce1(TLX_REDUCE_MAX, TLX_F32, 3, nan)) &&
                 isnan(reduce1(TLX_REDUCE_MIN, TLX_F64, 3, nan)) &&
                 mx == 0 && !signbit(mx) && mn == 0 && signbit(mn));
  const double m[] = {1.5, -2, 4}, b[] = {1.5, -2.0, 3.0};
  expectTrue("f64 mul, bf16 max",
             reduce1(TLX_REDUCE_MUL, TLX_F64, 3, m) == -12 &&
                 reduce1(TLX_REDUCE_MAX, TLX_BF16, 3, b) == 3);
}

// CHECK-LABEL: column-major in, add 2x2/2: ok
static void layouts(void) {
  int32_t mt[16], out[4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      mt[j * 4 + i] = M[i * 4 + j];
  const int64_t col[] = {1, 0};
  tlx_tensor ti = makeLayout(mt, TLX_I32, 2, S44, col, NULL);
  tlx_tensor to = makeLayout(out, TLX_I32, 2, S22, col, NULL);
  expectOk("col", tlx_ref_reduce(TLX_REDUCE_ADD, &ti, Win22, Win22, &to));
  const int64_t add[] = {8, 4, 0, 28};
  expectInts("column-major in, add 2x2/2", &to, add);
}

// CHECK-LABEL: and on f32: error: reduce.and: needs an integer element type, not f32
// CHECK: window too big: error: reduce.max: dim 1: window 5 must be in 1..4
// CHECK: wrong out shape: error: reduce.add: out has logical shape [2,2], the result is [3,3]
// CHECK: zero stride: error: reduce.min: dim 0: window 2 must be in 1..4 and stride 0 >= 1
static void errors(void) {
  static float fbuf[16];
  tlx_tensor tf = makeTensor(fbuf, TLX_F32, 2, S44);
  tlx_tensor tf2 = makeTensor(fbuf, TLX_F32, 2, S22);
  expectError("and on f32",
              tlx_ref_reduce(TLX_REDUCE_AND, &tf, Win22, Win22, &tf2),
              "integer element type");
  const int64_t win15[] = {1, 5};
  expectError("window too big",
              tlx_ref_reduce(TLX_REDUCE_MAX, &tf, win15, NULL, &tf2),
              "window 5");
  expectError("wrong out shape",
              tlx_ref_reduce(TLX_REDUCE_ADD, &tf, Win22, NULL, &tf2),
              "logical shape");
  const int64_t zeros[] = {0, 0};
  expectError("zero stride",
              tlx_ref_reduce(TLX_REDUCE_MIN, &tf, Win22, zeros, &tf2),
              "stride 0");
}

int main(void) {
  i32Windows();
  narrowInts();
  floats();
  layouts();
  errors();
  return Failures != 0;
}
