// The index-map ops, alone and fused into one loop nest: transpose (layout
// change and the prototype's logical transpose), broadcast (numpy-style and
// fill), reshape.block, reshape.permute, pad and concat, on several ranks
// and element types.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: transpose perm: ok
// CHECK: transpose logical: ok
// CHECK: broadcast numpy: ok
// CHECK: broadcast fill: ok
// CHECK: reshape.block: ok
// CHECK: reshape.permute: ok
// CHECK: pad: ok
// CHECK: concat: ok
// CHECK: fused pad(relu(transpose)): ok
// CHECK: PASSED
#include "Inputs/oracle.h"
#include <tlx.h>

typedef float v120f __attribute__((__vector_size__(120 * 4)));
typedef int16_t v120s __attribute__((__vector_size__(120 * 2)));
typedef double v60d __attribute__((__vector_size__(60 * 8)));
typedef __bf16 v48b __attribute__((__vector_size__(48 * 2)));
typedef int8_t v48c __attribute__((__vector_size__(48)));
typedef float v24f __attribute__((__vector_size__(24 * 4)));
typedef float v42f __attribute__((__vector_size__(42 * 4)));
typedef float v20f __attribute__((__vector_size__(20 * 4)));
typedef int16_t v70s __attribute__((__vector_size__(70 * 2)));
TLX_DECLARE_TENSOR_OPS_AS(v120f, f)
TLX_DECLARE_TENSOR_OPS_AS(v120s, s)
TLX_DECLARE_TENSOR_OPS_AS(v60d, d)
TLX_DECLARE_TENSOR_OPS_AS(v48b, b)
TLX_DECLARE_TENSOR_OPS_AS(v48c, c)
TLX_DECLARE_TENSOR_OPS_AS(v24f, f24)
TLX_DECLARE_TENSOR_OPS_AS(v42f, f42)
TLX_DECLARE_TENSOR_OPS_AS(v20f, f20)
TLX_DECLARE_TENSOR_OPS_AS(v70s, s70)

// [4,5,6] row-major -> transpose <2,0,1> (storage 6x4x5).
static void transposes(void) {
  float in[120], out[120], want[120];
  const int64_t s[] = {4, 5, 6}, so[] = {6, 4, 5}, lo[] = {2, 0, 1};
  tlx_tensor ti = desc(in, TLX_F32, 3, s, NULL, NULL);
  tlx_tensor to = desc(out, TLX_F32, 3, so, lo, NULL);
  tlx_tensor tw = desc(want, TLX_F32, 3, so, lo, NULL);
  fillRandom(&ti, 9);
  refOk("transpose", tlx_ref_transpose(&ti, lo, &tw));
  tlx_token_t x = tensor_load(in, TLX_SHAPE(4, 5, 6), TLX_LAYOUT(0, 1, 2),
                              TLX_ZEROS(3), TLX_ZEROS(3));
  v120f r = tensor_transpose_f(x, TLX_LAYOUT(2, 0, 1));
  tensor_store(out, tensor_typeinfo(r, TLX_SHAPE(6, 4, 5), TLX_LAYOUT(2, 0, 1),
                                    TLX_ZEROS(3)),
               TLX_ZEROS(3));
  compare("transpose perm", &to, &tw, 0);

  // Logical transpose of the last two dims: [4,5,6] -> [4,6,5], i16.
  int16_t si[120], so2[120], sw[120];
  const int64_t st[] = {4, 6, 5};
  tlx_tensor tsi = desc(si, TLX_I16, 3, s, NULL, NULL);
  tlx_tensor tso = desc(so2, TLX_I16, 3, st, NULL, NULL);
  tlx_tensor tsw = desc(sw, TLX_I16, 3, st, NULL, NULL);
  fillRandom(&tsi, 1000);
  refOk("transpose", tlx_ref_transpose(&tsi, NULL, &tsw));
  x = tensor_load(si, TLX_SHAPE(4, 5, 6), TLX_LAYOUT(0, 1, 2), TLX_ZEROS(3),
                  TLX_ZEROS(3));
  v120s rs = tensor_transpose_s(x);
  tensor_store(so2, tensor_typeinfo(rs, TLX_SHAPE(4, 6, 5),
                                    TLX_LAYOUT(0, 1, 2), TLX_ZEROS(3)),
               TLX_ZEROS(3));
  compare("transpose logical", &tso, &tsw, 0);
}

static void broadcasts(void) {
  // [5,1] -> [3,5,4] (f64), result column-major-ish layout <2,1,0>.
  double in[5], out[60], want[60];
  const int64_t s[] = {5, 1}, so[] = {4, 5, 3}, lo[] = {2, 1, 0},
                sw[] = {3, 5, 4};
  tlx_tensor ti = desc(in, TLX_F64, 2, s, NULL, NULL);
  tlx_tensor to = desc(out, TLX_F64, 3, so, lo, NULL);
  tlx_tensor tw = desc(want, TLX_F64, 3, sw, NULL, NULL);
  fillRandom(&ti, 9);
  refOk("broadcast", tlx_ref_broadcast(&ti, &tw));
  tlx_token_t x = tensor_load(in, TLX_SHAPE(5, 1), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  v60d r = tensor_broadcast_d(x);
  tensor_store(out, tensor_typeinfo(r, TLX_SHAPE(4, 5, 3), TLX_LAYOUT(2, 1, 0),
                                    TLX_ZEROS(3)),
               TLX_ZEROS(3));
  compare("broadcast numpy", &to, &tw, 0);

  // Fill the shape of a token with a scalar (research prototype form).
  __bf16 b[48], bw[48];
  const int64_t sb[] = {6, 8};
  tlx_tensor tb = desc(b, TLX_BF16, 2, sb, NULL, NULL);
  tlx_tensor tbw = desc(bw, TLX_BF16, 2, sb, NULL, NULL);
  refOk("fill", tlx_ref_fill_f64(&tbw, 2.5));
  x = tensor_load(b, TLX_SHAPE(6, 8), TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                  TLX_ZEROS(2));
  v48b rb = tensor_broadcast_b(x, (__bf16)2.5f);
  tensor_store(b, tensor_typeinfo(rb, TLX_SHAPE(6, 8), TLX_LAYOUT(0, 1),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
  compare("broadcast fill", &tb, &tbw, 0);
}

static void reshapes(void) {
  // reshape.block [6,8] blocks <2,4> -> [3,2,2,4].
  int8_t in[48], out[48], want[48];
  const int64_t s[] = {6, 8}, so[] = {3, 2, 2, 4}, blocks[] = {2, 4};
  tlx_tensor ti = desc(in, TLX_I8, 2, s, NULL, NULL);
  tlx_tensor to = desc(out, TLX_I8, 4, so, NULL, NULL);
  tlx_tensor tw = desc(want, TLX_I8, 4, so, NULL, NULL);
  fillRandom(&ti, 100);
  refOk("reshape.block", tlx_ref_reshape_block(&ti, blocks, &tw));
  tlx_token_t x = tensor_load(in, TLX_SHAPE(6, 8), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  v48c r = tensor_reshape_block_c(x, TLX_DIMS(2, 4));
  tensor_store(out, tensor_typeinfo(r, TLX_SHAPE(3, 2, 2, 4),
                                    TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4)),
               TLX_ZEROS(4));
  compare("reshape.block", &to, &tw, 0);

  // reshape.permute of a column-major [4,6] into [3,8].
  float fi[24], fo[24], fw[24];
  const int64_t sf[] = {6, 4}, lf[] = {1, 0}, sfo[] = {3, 8};
  tlx_tensor tfi = desc(fi, TLX_F32, 2, sf, lf, NULL);
  tlx_tensor tfo = desc(fo, TLX_F32, 2, sfo, NULL, NULL);
  tlx_tensor tfw = desc(fw, TLX_F32, 2, sfo, NULL, NULL);
  fillRandom(&tfi, 9);
  refOk("reshape.permute", tlx_ref_reshape_permute(&tfi, &tfw));
  x = tensor_load(fi, TLX_SHAPE(6, 4), TLX_LAYOUT(1, 0), TLX_ZEROS(2),
                  TLX_ZEROS(2));
  v24f rf = tensor_reshape_permute_f24(x);
  tensor_store(fo, tensor_typeinfo(rf, TLX_SHAPE(3, 8), TLX_LAYOUT(0, 1),
                                   TLX_ZEROS(2)),
               TLX_ZEROS(2));
  compare("reshape.permute", &tfo, &tfw, 0);
}

static void padConcat(void) {
  // pad [3,5] by low <1,2> high <2,0> with 7 -> [6,7].
  float in[15], out[42], want[42];
  const int64_t s[] = {3, 5}, so[] = {6, 7}, lo[] = {1, 2}, hi[] = {2, 0};
  tlx_tensor ti = desc(in, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor to = desc(out, TLX_F32, 2, so, NULL, NULL);
  tlx_tensor tw = desc(want, TLX_F32, 2, so, NULL, NULL);
  fillRandom(&ti, 9);
  refOk("pad", tlx_ref_pad(&ti, lo, hi, 7.0, &tw));
  tlx_token_t x = tensor_load(in, TLX_SHAPE(3, 5), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  v42f r = tensor_pad_f42(x, TLX_DIMS(1, 2), TLX_DIMS(2, 0), 7.0f);
  tensor_store(out, tensor_typeinfo(r, TLX_SHAPE(6, 7), TLX_LAYOUT(0, 1),
                                    TLX_ZEROS(2)),
               TLX_ZEROS(2));
  compare("pad", &to, &tw, 0);

  // concat [2,3,5] and [2,4,5] along axis 1, i16.
  int16_t a[30], b[40], c[70], cw[70];
  const int64_t sa[] = {2, 3, 5}, sb[] = {2, 4, 5}, sc[] = {2, 7, 5};
  tlx_tensor ta = desc(a, TLX_I16, 3, sa, NULL, NULL);
  tlx_tensor tb = desc(b, TLX_I16, 3, sb, NULL, NULL);
  tlx_tensor tc = desc(c, TLX_I16, 3, sc, NULL, NULL);
  tlx_tensor tcw = desc(cw, TLX_I16, 3, sc, NULL, NULL);
  fillRandom(&ta, 1000);
  fillRandom(&tb, 1000);
  refOk("concat", tlx_ref_concat(&ta, &tb, 1, &tcw));
  tlx_token_t xa = tensor_load(a, TLX_SHAPE(2, 3, 5), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  tlx_token_t xb = tensor_load(b, TLX_SHAPE(2, 4, 5), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  v70s rc = tensor_concat_s70(xa, xb, 1);
  tensor_store(c, tensor_typeinfo(rc, TLX_SHAPE(2, 7, 5), TLX_LAYOUT(0, 1, 2),
                                  TLX_ZEROS(3)),
               TLX_ZEROS(3));
  compare("concat", &tc, &tcw, 0);
}

// pad(relu(transpose(x))) computed in one loop nest, compared with the
// oracle run step by step.
static void fused(void) {
  float in[20], t1[20], t2[20], want[42], out[42];
  const int64_t s[] = {4, 5}, st[] = {5, 4}, lt[] = {1, 0}, so[] = {6, 7},
                lo[] = {1, 2}, hi[] = {1, 0};
  tlx_tensor ti = desc(in, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor tt1 = desc(t1, TLX_F32, 2, st, lt, NULL);
  tlx_tensor tt2 = desc(t2, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor tw = desc(want, TLX_F32, 2, so, NULL, NULL);
  tlx_tensor to = desc(out, TLX_F32, 2, so, NULL, NULL);
  fillRandom(&ti, 9);
  refOk("transpose", tlx_ref_transpose(&ti, lt, &tt1));
  refOk("relu", tlx_ref_unary(TLX_RELU, &tt1, &tt2));
  refOk("pad", tlx_ref_pad(&tt2, lo, hi, -1.0, &tw));
  tlx_token_t x = tensor_load(in, TLX_SHAPE(4, 5), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  v20f r1 = tensor_transpose_f20(x, TLX_LAYOUT(1, 0));
  tlx_token_t x1 = tensor_typeinfo(r1, TLX_SHAPE(5, 4), TLX_LAYOUT(1, 0),
                                   TLX_ZEROS(2));
  v20f r2 = tensor_relu_f20(x1);
  tlx_token_t x2 = tensor_typeinfo(r2, TLX_SHAPE(4, 5), TLX_LAYOUT(0, 1),
                                   TLX_ZEROS(2));
  v42f r3 = tensor_pad_f42(x2, TLX_DIMS(1, 2), TLX_DIMS(1, 0), -1.0f);
  tensor_store(out, tensor_typeinfo(r3, TLX_SHAPE(6, 7), TLX_LAYOUT(0, 1),
                                    TLX_ZEROS(2)),
               TLX_ZEROS(2));
  compare("fused pad(relu(transpose))", &to, &tw, 0);
}

int main(void) {
  transposes();
  broadcasts();
  reshapes();
  padConcat();
  fused();
  return finish();
}
