// broadcast (numpy-style: in's dims align with out's trailing dims, extents
// equal or 1) and fill (the research prototype's broadcast(token, scalar)).
// RUN: %clang_plain -std=c11 -Wall -I%S/Inputs %s %tlx_rt -o %t && %t | FileCheck %s

#include "check.h"

// CHECK-LABEL: [3] -> [2,3]: ok
// CHECK: [2,1] -> [2,3]: ok
// CHECK: [3,1] -> [2,3,4]: ok
// CHECK: [1] -> column-major [2,3]: ok
static void broadcasts(void) {
  int32_t row[] = {1, 2, 3}, out[24];
  const int64_t s3[] = {3}, s23[] = {2, 3};
  tlx_tensor ti = makeTensor(row, TLX_I32, 1, s3);
  tlx_tensor to = makeTensor(out, TLX_I32, 2, s23);
  expectOk("row", tlx_ref_broadcast(&ti, &to));
  const int64_t want1[] = {1, 2, 3, 1, 2, 3};
  expectInts("[3] -> [2,3]", &to, want1);

  float col[] = {5, 7}, fout[6];
  const int64_t s21[] = {2, 1};
  tlx_tensor tc = makeTensor(col, TLX_F32, 2, s21);
  tlx_tensor tfo = makeTensor(fout, TLX_F32, 2, s23);
  expectOk("col", tlx_ref_broadcast(&tc, &tfo));
  const double want2[] = {5, 5, 5, 7, 7, 7};
  expectFloats("[2,1] -> [2,3]", &tfo, want2, 0);

  const int64_t s31[] = {3, 1}, s234[] = {2, 3, 4};
  tlx_tensor t31 = makeTensor(row, TLX_I32, 2, s31);
  tlx_tensor t234 = makeTensor(out, TLX_I32, 3, s234);
  expectOk("rank", tlx_ref_broadcast(&t31, &t234));
  int64_t want3[24];
  for (int i = 0; i < 24; ++i)
    want3[i] = (i / 4) % 3 + 1; // out[a][b][c] = in[b][0]
  expectInts("[3,1] -> [2,3,4]", &t234, want3);

  uint16_t one[1], hout[6];
  const int64_t s1[] = {1}, s32[] = {3, 2}, colLayout[] = {1, 0};
  tlx_tensor th = makeTensor(one, TLX_F16, 1, s1);
  const int64_t zero[] = {0};
  tlx_set_f64(&th, zero, -0.5);
  tlx_tensor thc = makeLayout(hout, TLX_F16, 2, s32, colLayout, NULL);
  expectOk("scalar", tlx_ref_broadcast(&th, &thc));
  const double want4[] = {-0.5, -0.5, -0.5, -0.5, -0.5, -0.5};
  expectFloats("[1] -> column-major [2,3]", &thc, want4, 0);
}

// CHECK-LABEL: fill i8 wraps: ok
// CHECK: fill bf16 rounds: ok
// CHECK: fill i64 into f32: ok
// CHECK: fill f64 into i32 truncates: ok
// CHECK: fill strided leaves gaps: ok
static void fills(void) {
  int8_t b[4];
  const int64_t s4[] = {4}, s22[] = {2, 2};
  tlx_tensor tb = makeTensor(b, TLX_I8, 1, s4);
  expectOk("fill i8", tlx_ref_fill_i64(&tb, 300));
  const int64_t want1[] = {44, 44, 44, 44};
  expectInts("fill i8 wraps", &tb, want1);

  uint16_t h[4];
  tlx_tensor th = makeTensor(h, TLX_BF16, 2, s22);
  expectOk("fill bf16", tlx_ref_fill_f64(&th, 1.0 / 3));
  const double want2[] = {0.333984375, 0.333984375, 0.333984375, 0.333984375};
  expectFloats("fill bf16 rounds", &th, want2, 0);

  float f[4];
  tlx_tensor tf = makeTensor(f, TLX_F32, 1, s4);
  expectOk("fill f32", tlx_ref_fill_i64(&tf, 7));
  const double want3[] = {7, 7, 7, 7};
  expectFloats("fill i64 into f32", &tf, want3, 0);

  int32_t w[4];
  tlx_tensor tw = makeTensor(w, TLX_I32, 1, s4);
  expectOk("fill i32", tlx_ref_fill_f64(&tw, -2.7));
  const int64_t want4[] = {-2, -2, -2, -2};
  expectInts("fill f64 into i32 truncates", &tw, want4);

  int16_t buf[9] = {0};
  const int64_t strides[] = {6, 2};
  tlx_tensor ts = makeLayout(buf, TLX_I16, 2, s22, NULL, strides);
  expectOk("fill strided", tlx_ref_fill_i64(&ts, 9));
  const int64_t s9[] = {9};
  tlx_tensor whole = makeTensor(buf, TLX_I16, 1, s9);
  const int64_t want5[] = {9, 0, 9, 0, 0, 0, 9, 0, 9};
  expectInts("fill strided leaves gaps", &whole, want5);
}

// CHECK-LABEL: extent mismatch: error: broadcast: in dim 0 has extent 3, out dim 1 has 4 (must be equal or 1)
// CHECK: rank too large: error: broadcast: in has rank 2, more than out's 1
// CHECK: dtype mismatch: error: broadcast: out has element type i64, expected i32
static void errors(void) {
  static int32_t buf[16];
  static int64_t lbuf[16];
  const int64_t s3[] = {3}, s24[] = {2, 4}, s23[] = {2, 3};
  tlx_tensor t3 = makeTensor(buf, TLX_I32, 1, s3);
  tlx_tensor t24 = makeTensor(buf + 4, TLX_I32, 2, s24);
  expectError("extent mismatch", tlx_ref_broadcast(&t3, &t24), "equal or 1");
  tlx_tensor t23 = makeTensor(buf, TLX_I32, 2, s23);
  expectError("rank too large", tlx_ref_broadcast(&t23, &t3), "rank");
  tlx_tensor l23 = makeTensor(lbuf, TLX_I64, 2, s23);
  expectError("dtype mismatch", tlx_ref_broadcast(&t3, &l23), "element type");
}

int main(void) {
  broadcasts();
  fills();
  errors();
  return Failures != 0;
}
