// contract: numpy tensordot meaning (a's free dims, then b's), the RFC's
// 2x2x2 example (whose 2x2x2 result type is inconsistent), matmul as a
// contraction, outer and full contractions, layouts and errors.
// RUN: %clang_plain -std=c11 -Wall -I%S/Inputs %s %tlx_rt -o %t && %t | FileCheck %s

#include "check.h"

// a[p][i][q] = 4p+2i+q+1, b[p][q][j] = 4p+2q+j+1;
// out[i][j] = sum_{p,q} a[p][i][q] * b[p][q][j]:
//   out[0][0] = 1*1 + 2*3 + 5*5 + 6*7 = 74    out[0][1] = 2+8+30+48 = 88
//   out[1][0] = 3*1 + 4*3 + 7*5 + 8*7 = 106   out[1][1] = 6+16+42+64 = 128
// CHECK-LABEL: rfc contract <0,2> x <0,1> is 2x2: ok
// CHECK: rfc 2x2x2 result type: error: contract: out has logical shape [2,2,2], the result is [2,2]
static void rfcExample(void) {
  float a[8], b[8], out[8];
  for (int i = 0; i < 8; ++i)
    a[i] = b[i] = (float)(i + 1);
  const int64_t s222[] = {2, 2, 2}, s22[] = {2, 2};
  const int64_t axesA[] = {0, 2}, axesB[] = {0, 1};
  tlx_tensor ta = makeTensor(a, TLX_F32, 3, s222);
  tlx_tensor tb = makeTensor(b, TLX_F32, 3, s222);
  tlx_tensor to = makeTensor(out, TLX_F32, 2, s22);
  expectOk("rfc contract", tlx_ref_contract(&ta, &tb, 2, axesA, axesB, &to));
  const double want[] = {74, 88, 106, 128};
  expectFloats("rfc contract <0,2> x <0,1> is 2x2", &to, want, 0);
  tlx_tensor to3 = makeTensor(out, TLX_F32, 3, s222);
  expectError("rfc 2x2x2 result type",
              tlx_ref_contract(&ta, &tb, 2, axesA, axesB, &to3),
              "logical shape");
}

// CHECK-LABEL: matmul as contract <1> x <0>: ok
// CHECK: swapped operand roles <0> x <1>: ok
static void asMatmul(void) {
  int8_t a[] = {1, 2, 3, 4, 5, 6}, b[] = {1, 0, -1, 2, 3, 1};
  int32_t out[9];
  const int64_t s23[] = {2, 3}, s32[] = {3, 2}, s22[] = {2, 2};
  const int64_t one[] = {1}, zero[] = {0};
  tlx_tensor ta = makeTensor(a, TLX_I8, 2, s23);
  tlx_tensor tb = makeTensor(b, TLX_I8, 2, s32);
  tlx_tensor to = makeTensor(out, TLX_I32, 2, s22);
  // [[1,2,3],[4,5,6]] x [[1,0],[-1,2],[3,1]] = [[8,7],[17,16]]
  expectOk("contract matmul", tlx_ref_contract(&ta, &tb, 1, one, zero, &to));
  const int64_t want[] = {8, 7, 17, 16};
  expectInts("matmul as contract <1> x <0>", &to, want);
  // b's dim 1 with a's dim 0: out[i][j] = sum_k b[i][k] a[k][j], 3x3:
  // b = [[1,0],[-1,2],[3,1]], a = [[1,2,3],[4,5,6]].
  const int64_t s33[] = {3, 3};
  tlx_tensor to33 = makeTensor(out, TLX_I32, 2, s33);
  expectOk("swapped", tlx_ref_contract(&tb, &ta, 1, one, zero, &to33));
  const int64_t want33[] = {1, 2, 3, 7, 8, 9, 7, 11, 15};
  expectInts("swapped operand roles <0> x <1>", &to33, want33);
}

// CHECK-LABEL: outer product: ok
// CHECK: full contraction is [1]: ok
// CHECK: column-major b: ok
static void outerFullLayouts(void) {
  double a[] = {1, 2, 3}, b[] = {4, 5, 6}, out[9];
  const int64_t s2[] = {2}, s3[] = {3}, s23[] = {2, 3};
  tlx_tensor ta = makeTensor(a, TLX_F64, 1, s2);
  tlx_tensor tb = makeTensor(b, TLX_F64, 1, s3);
  tlx_tensor to = makeTensor(out, TLX_F64, 2, s23);
  expectOk("outer", tlx_ref_contract(&ta, &tb, 0, NULL, NULL, &to));
  const double wantOuter[] = {4, 5, 6, 8, 10, 12};
  expectFloats("outer product", &to, wantOuter, 0);

  // A full contraction is a one-element [1] tensor (no rank 0 in the IR).
  const int64_t s1[] = {1};
  tlx_tensor ta3 = makeTensor(a, TLX_F64, 1, s3);
  tlx_tensor scalar = makeTensor(out, TLX_F64, 1, s1);
  const int64_t zero[] = {0};
  expectOk("full", tlx_ref_contract(&ta3, &tb, 1, zero, zero, &scalar));
  const double wantDot[] = {32};
  expectFloats("full contraction is [1]", &scalar, wantDot, 0);

  // b logical 2x3 stored column-major; contract a 2x3 with b over both
  // dims in crossed order: sum_{i,j} a[i][j] * b[i][j] (Frobenius).
  float fa[] = {1, 2, 3, 4, 5, 6}, fbCol[] = {1, 4, 2, 5, 3, 6}, fo[1];
  const int64_t s32[] = {3, 2}, col[] = {1, 0}, ab[] = {1, 0};
  tlx_tensor tfa = makeTensor(fa, TLX_F32, 2, s23);
  tlx_tensor tfb = makeLayout(fbCol, TLX_F32, 2, s32, col, NULL);
  tlx_tensor tfo = makeTensor(fo, TLX_F32, 1, s1);
  expectOk("frobenius", tlx_ref_contract(&tfa, &tfb, 2, ab, ab, &tfo));
  const double wantF[] = {1 + 4 + 9 + 16 + 25 + 36};
  expectFloats("column-major b", &tfo, wantF, 0);
}

// CHECK-LABEL: repeated axis: error: contract: contraction axis pair 1 (1, 1) is out of range or repeated
// CHECK: extent mismatch: error: contract: a dim 0 (extent 2) and b dim 0 (extent 3) differ
// CHECK: axis out of range: error: contract: contraction axis pair 0 (2, 0)
static void errors(void) {
  static float buf[64];
  const int64_t s23[] = {2, 3}, s32[] = {3, 2}, s22[] = {2, 2};
  tlx_tensor a = makeTensor(buf, TLX_F32, 2, s23);
  tlx_tensor b = makeTensor(buf, TLX_F32, 2, s32);
  tlx_tensor o = makeTensor(buf + 32, TLX_F32, 2, s22);
  const int64_t rep[] = {1, 1}, ok[] = {0, 1}, zero[] = {0}, two[] = {2};
  expectError("repeated axis", tlx_ref_contract(&a, &b, 2, rep, ok, &o),
              "repeated");
  expectError("extent mismatch", tlx_ref_contract(&a, &b, 1, zero, zero, &o),
              "differ");
  expectError("axis out of range", tlx_ref_contract(&a, &b, 1, two, zero, &o),
              "out of range");
}

int main(void) {
  rfcExample();
  asMatmul();
  outerFullLayouts();
  errors();
  return Failures != 0;
}
