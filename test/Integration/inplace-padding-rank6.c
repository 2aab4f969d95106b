// Destinations that are also operands (the op then computes into a buffer
// first, except elementwise ops over identical views), padded temporaries
// (a typeinfo's padding on an intermediate result), and rank-5/6 tensors
// with permuted layouts, loaded and stored as strided sub-tensors.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: transpose in place: ok
// CHECK: matmul into its operand: ok
// CHECK: relu in place: ok
// CHECK: padded intermediate: ok
// CHECK: rank 6 permuted strided: ok
// CHECK: rank 5 matmul batched permuted: ok
// CHECK: PASSED
#include "Inputs/oracle.h"
#include <tlx.h>

typedef float v16f __attribute__((__vector_size__(16 * 4)));
typedef int32_t v720i __attribute__((__vector_size__(720 * 4)));
typedef double v96d __attribute__((__vector_size__(96 * 8)));
TLX_DECLARE_TENSOR_OPS_AS(v16f, f)
TLX_DECLARE_TENSOR_OPS_AS(v720i, i)
TLX_DECLARE_TENSOR_OPS_AS(v96d, d)

static void inPlace(void) {
  float m[16], orig[16], want[16];
  const int64_t s[] = {4, 4}, lt[] = {1, 0};
  tlx_tensor tm = desc(m, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor to = desc(orig, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor tw = desc(want, TLX_F32, 2, s, NULL, NULL);
  fillRandom(&to, 9);
  memcpy(m, orig, sizeof m);
  // Store the logical transpose of m over m, row-major.
  refOk("transpose", tlx_ref_transpose(&to, NULL, &tw));
  tlx_token_t x = tensor_load(m, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  v16f r = tensor_transpose_f(x);
  tensor_store(m, tensor_typeinfo(r, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
  compare("transpose in place", &tm, &tw, 0);

  // b = a x b
  float a[16], b[16];
  tlx_tensor ta = desc(a, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor tb = desc(b, TLX_F32, 2, s, NULL, NULL);
  fillRandom(&ta, 5);
  fillRandom(&tb, 5);
  refOk("matmul", tlx_ref_matmul(&ta, &tb, &tw));
  tlx_token_t xa = tensor_load(a, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t xb = tensor_load(b, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  r = tensor_matmul_f(xa, xb);
  tensor_store(b, tensor_typeinfo(r, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
  compare("matmul into its operand", &tb, &tw, 1e-5);

  // relu over itself, read column-major and written column-major.
  fillRandom(&to, 9);
  memcpy(m, orig, sizeof m);
  refOk("relu", tlx_ref_unary(TLX_RELU, &to, &tw));
  x = tensor_load(m, TLX_SHAPE(4, 4), TLX_LAYOUT(1, 0), TLX_ZEROS(2),
                  TLX_ZEROS(2));
  r = tensor_relu_f(x);
  tensor_store(m, tensor_typeinfo(r, TLX_SHAPE(4, 4), TLX_LAYOUT(1, 0),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
  compare("relu in place", &tm, &tw, 0);
}

// sqrt(relu(x)) where relu's result is typed with padding <1,3> and read
// twice (so it gets a padded buffer).
static void padded(void) {
  float in[16], out[16], t[16], want[16];
  const int64_t s[] = {4, 4};
  tlx_tensor ti = desc(in, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor tt = desc(t, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor to = desc(out, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor tw = desc(want, TLX_F32, 2, s, NULL, NULL);
  fillRandom(&ti, 9);
  refOk("relu", tlx_ref_unary(TLX_RELU, &ti, &tt));
  refOk("matmul", tlx_ref_matmul(&tt, &tt, &tw));
  tlx_token_t x = tensor_load(in, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  v16f r = tensor_relu_f(x);
  tlx_token_t xr = tensor_typeinfo(r, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1),
                                   TLX_PADDING(1, 3));
  v16f m = tensor_matmul_f(xr, xr);
  tensor_store(out, tensor_typeinfo(m, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1),
                                    TLX_ZEROS(2)),
               TLX_ZEROS(2));
  compare("padded intermediate", &to, &tw, 1e-5);
}

// [2,3,4,5,3,2] i32 stored with layout <5,3,0,4,1,2>, loaded as a
// sub-tensor of a bigger buffer (innermost storage rows 4 apart instead of
// 2), relu'd, stored into another sub-tensor with layout <2,0,1,5,4,3>.
static void rank6(void) {
  enum { N = 720 };
  static int32_t src[N * 2], dst[N * 3], want[N];
  const int64_t ls[] = {5, 3, 0, 4, 1, 2}, ld[] = {2, 0, 1, 5, 4, 3};
  const int64_t logical[] = {2, 3, 4, 5, 3, 2};
  int64_t ss[6], sd[6];
  for (int i = 0; i < 6; ++i) {
    ss[i] = logical[ls[i]];
    sd[i] = logical[ld[i]];
  }
  // element strides: innermost storage dim contiguous, the next 4 apart
  // (source) or 3 x its extent apart (destination).
  int64_t sts[6], std_[6];
  sts[5] = 1;
  sts[4] = 4;
  for (int i = 3; i >= 0; --i)
    sts[i] = sts[i + 1] * ss[i + 1];
  std_[5] = 1;
  std_[4] = sd[5] * 3;
  for (int i = 3; i >= 0; --i)
    std_[i] = std_[i + 1] * sd[i + 1];
  tlx_tensor ts = desc(src, TLX_I32, 6, ss, ls, sts);
  tlx_tensor td = desc(dst, TLX_I32, 6, sd, ld, std_);
  tlx_tensor tw = desc(want, TLX_I32, 6, logical, NULL, NULL);
  fillRandom(&ts, 1000);
  refOk("relu", tlx_ref_unary(TLX_RELU, &ts, &tw));
  // ss = {2,5,2,3,3,4}: leading dims: strides[5] = 4 (row length 4 > 2).
  tlx_token_t x = tensor_load(src, TLX_SHAPE(2, 5, 2, 3, 3, 4),
                              TLX_LAYOUT(5, 3, 0, 4, 1, 2), TLX_ZEROS(6),
                              TLX_STRIDES(0, 0, 0, 0, 0, 4));
  v720i r = tensor_relu_i(x);
  // sd = {4,2,3,2,3,5}: rows of 5 stored 15 apart.
  tensor_store(dst, tensor_typeinfo(r, TLX_SHAPE(4, 2, 3, 2, 3, 5),
                                    TLX_LAYOUT(2, 0, 1, 5, 4, 3),
                                    TLX_ZEROS(6)),
               TLX_STRIDES(0, 0, 0, 0, 0, 15));
  compare("rank 6 permuted strided", &td, &tw, 0);
}

// [2,1,3,4,2] x [2,1,3,2,4] f64 with permuted layouts -> [2,1,3,4,4].
static void rank5(void) {
  double a[48], b[48], c[96], w[96];
  const int64_t la[] = {4, 0, 1, 2, 3}, sa[] = {2, 2, 1, 3, 4};
  const int64_t lb[] = {0, 2, 1, 4, 3}, sb[] = {2, 3, 1, 4, 2};
  const int64_t lc[] = {3, 4, 0, 1, 2}, sc[] = {4, 4, 2, 1, 3},
                sw[] = {2, 1, 3, 4, 4};
  tlx_tensor ta = desc(a, TLX_F64, 5, sa, la, NULL);
  tlx_tensor tb = desc(b, TLX_F64, 5, sb, lb, NULL);
  tlx_tensor tc = desc(c, TLX_F64, 5, sc, lc, NULL);
  tlx_tensor tw = desc(w, TLX_F64, 5, sw, NULL, NULL);
  fillRandom(&ta, 7);
  fillRandom(&tb, 7);
  refOk("matmul", tlx_ref_matmul(&ta, &tb, &tw));
  tlx_token_t xa = tensor_load(a, TLX_SHAPE(2, 2, 1, 3, 4),
                               TLX_LAYOUT(4, 0, 1, 2, 3), TLX_ZEROS(5),
                               TLX_ZEROS(5));
  tlx_token_t xb = tensor_load(b, TLX_SHAPE(2, 3, 1, 4, 2),
                               TLX_LAYOUT(0, 2, 1, 4, 3), TLX_ZEROS(5),
                               TLX_ZEROS(5));
  v96d r = tensor_matmul_d(xa, xb);
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(4, 4, 2, 1, 3),
                                  TLX_LAYOUT(3, 4, 0, 1, 2), TLX_ZEROS(5)),
               TLX_ZEROS(5));
  compare("rank 5 matmul batched permuted", &tc, &tw, 1e-12);
}

int main(void) {
  inPlace();
  padded();
  rank6();
  rank5();
  return finish();
}
