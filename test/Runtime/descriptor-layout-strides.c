// Descriptors: logical shape through layouts, strided views, padding that
// never changes values, IR-stride conversion, and rejected descriptors.
// RUN: %clang_plain -std=c11 -Wall -I%S/Inputs %s %tlx_rt -o %t && %t | FileCheck %s

#include "check.h"

// CHECK-LABEL: rfc typeinfo 16x5x3 padding <3,2,1>: ok
// CHECK: rfc padded element [2,3,1]: ok
static void rfcTypeinfo(void) {
  static float data[240];
  for (int i = 0; i < 240; ++i)
    data[i] = (float)i;
  const int64_t shape[] = {16, 5, 3}, layout[] = {0, 1, 2}, pad[] = {3, 2, 1};
  tlx_tensor t;
  expectOk("init", tlx_tensor_init(&t, data, TLX_F32, 3, shape, layout, pad,
                                   NULL));
  // 240 elements, packed strides: padding is an allocation hint only.
  expectTrue("rfc typeinfo 16x5x3 padding <3,2,1>",
             tlx_tensor_num_elements(&t) == 240 && t.strides[0] == 15 &&
                 t.strides[1] == 3 && t.strides[2] == 1 && t.padding[0] == 3);
  const int64_t idx[] = {2, 3, 1};
  expectTrue("rfc padded element [2,3,1]", tlx_get_f64(&t, idx) == 40.0);
}

// CHECK-LABEL: column-major 2x3: ok
// CHECK: column-major logical shape: ok
static void columnMajor(void) {
  int32_t data[] = {0, 1, 2, 3, 4, 5};
  // Storage dim 0 holds logical dim 1 (extent 3), storage dim 1 logical 0.
  const int64_t shape[] = {3, 2}, layout[] = {1, 0};
  tlx_tensor t = makeLayout(data, TLX_I32, 2, shape, layout, NULL);
  const int64_t want[] = {0, 2, 4, 1, 3, 5};
  expectInts("column-major 2x3", &t, want);
  int64_t logical[2];
  tlx_tensor_logical_shape(&t, logical);
  expectTrue("column-major logical shape", logical[0] == 2 && logical[1] == 3);
}

// CHECK-LABEL: permuted 3-d layout <2,0,1>: ok
static void permuted3d(void) {
  // The RFC's transposed tensor: shape (3,16,5) with layout <2,0,1> holds
  // the logical 16x5x3 tensor; logical [a,b,c] sits at storage (c,a,b).
  static int16_t data[240];
  for (int i = 0; i < 240; ++i)
    data[i] = (int16_t)i;
  const int64_t shape[] = {3, 16, 5}, layout[] = {2, 0, 1};
  tlx_tensor t = makeLayout(data, TLX_I16, 3, shape, layout, NULL);
  int64_t logical[3];
  tlx_tensor_logical_shape(&t, logical);
  const int64_t idx[] = {7, 4, 2};
  expectTrue("permuted 3-d layout <2,0,1>",
             logical[0] == 16 && logical[1] == 5 && logical[2] == 3 &&
                 tlx_get_i64(&t, idx) == 2 * 80 + 7 * 5 + 4);
}

// CHECK-LABEL: strided 2x3 view of 4x5: ok
static void stridedView(void) {
  int64_t data[20];
  for (int i = 0; i < 20; ++i)
    data[i] = i;
  const int64_t shape[] = {2, 3}, strides[] = {5, 1};
  tlx_tensor t = makeLayout(data + 6, TLX_I64, 2, shape, NULL, strides);
  const int64_t want[] = {6, 7, 8, 11, 12, 13};
  expectInts("strided 2x3 view of 4x5", &t, want);
}

// CHECK-LABEL: rfc load strides <0,0,8>: ok
// CHECK: rfc load sub-tensor: ok
// CHECK: rfc store strides <0,12,10>: ok
// CHECK: rfc store overlaps: error: copy: out: strides make two elements share an address
// CHECK: store strides <0,12,10> on 16x1x10: ok
static void irStrides(void) {
  const int64_t loadShape[] = {16, 6, 4}, loadIr[] = {0, 0, 8};
  int64_t s[3];
  expectOk("load strides", tlx_strides_from_ir(3, loadShape, loadIr, s));
  expectTrue("rfc load strides <0,0,8>", s[0] == 48 && s[1] == 8 && s[2] == 1);
  // Load the i8 sub-tensor: rows of 4 taken 8 elements apart.
  static int8_t mem[16 * 48];
  for (int i = 0; i < 16 * 48; ++i)
    mem[i] = (int8_t)(i % 101);
  tlx_tensor src = makeLayout(mem, TLX_I8, 3, loadShape, NULL, s);
  static int8_t loaded[384];
  tlx_tensor dst = makeTensor(loaded, TLX_I8, 3, loadShape);
  expectOk("load copy", tlx_ref_copy(&src, &dst));
  const int64_t i1[] = {1, 2, 3}; // offset 48 + 16 + 3 = 67
  const int64_t i2[] = {15, 5, 0}; // offset 720 + 40 = 760 -> 760 % 101 = 53
  expectTrue("rfc load sub-tensor",
             tlx_get_i64(&dst, i1) == 67 && tlx_get_i64(&dst, i2) == 53);

  const int64_t storeIr[] = {0, 12, 10};
  expectOk("store strides", tlx_strides_from_ir(3, loadShape, storeIr, s));
  expectTrue("rfc store strides <0,12,10>",
             s[0] == 12 && s[1] == 10 && s[2] == 1);
  // 6 rows 10 apart span 54 elements, but matrices are only 12 apart.
  static float out[16 * 12 + 64], in[384];
  tlx_tensor fin = makeTensor(in, TLX_F32, 3, loadShape);
  tlx_tensor fout = makeLayout(out, TLX_F32, 3, loadShape, NULL, s);
  expectError("rfc store overlaps", tlx_ref_copy(&fin, &fout),
              "share an address");
  // The same strides are valid when a matrix has one row of <= 10.
  const int64_t oneRow[] = {16, 1, 10};
  expectOk("one row strides", tlx_strides_from_ir(3, oneRow, storeIr, s));
  fin = makeTensor(in, TLX_F32, 3, oneRow);
  fout = makeLayout(out, TLX_F32, 3, oneRow, NULL, s);
  for (int i = 0; i < 160; ++i)
    in[i] = (float)i;
  expectOk("one row store", tlx_ref_copy(&fin, &fout));
  expectTrue("store strides <0,12,10> on 16x1x10",
             out[0] == 0 && out[9] == 9 && out[12] == 10 && out[10] == 0 &&
                 out[15 * 12 + 9] == 159);
}

// CHECK-LABEL: get/set wrap and convert: ok
static void getSet(void) {
  int8_t b[1];
  int32_t w[1];
  const int64_t one[] = {1}, zero[] = {0};
  tlx_tensor tb = makeTensor(b, TLX_I8, 1, one);
  tlx_tensor tw = makeTensor(w, TLX_I32, 1, one);
  tlx_set_i64(&tb, zero, 200);
  int ok = tlx_get_i64(&tb, zero) == -56;
  tlx_set_f64(&tw, zero, -3.9);
  ok &= tlx_get_i64(&tw, zero) == -3;
  tlx_set_f64(&tw, zero, NAN);
  ok &= tlx_get_i64(&tw, zero) == 0;
  tlx_set_i64(&tw, zero, INT64_C(0x123456789));
  ok &= tlx_get_i64(&tw, zero) == 0x23456789;
  expectTrue("get/set wrap and convert", ok);
}

// CHECK-LABEL: layout not a permutation: error: tlx_tensor_init: tensor: layout is not a permutation of 0..1
// CHECK: rank 9: error: {{.*}}rank 9 outside 0..8
// CHECK: zero extent: error: {{.*}}extent 0 of dim 1
// CHECK: null data: error: copy: in: null data pointer
// CHECK: null descriptor: error: copy: out: null descriptor
// CHECK: bad dtype: error: copy: in: bad element type 42
// CHECK: negative rank: error: exp: out: rank -1 outside 0..8
// CHECK: huge stride: error: matmul: a: stride 4611686018427387904 of dim 0 out of range
// CHECK: huge span: error: copy: in: strides address more than 2^59 elements
// CHECK: too many elements: error: copy: in: more than 2^40 elements
// CHECK: hand-filled layout: error: copy: out: layout is not a permutation of 0..1
// CHECK: zero stride out: error: fill: out: strides make two elements share an address
static void badDescriptors(void) {
  float data[4];
  tlx_tensor t;
  const int64_t shape[] = {2, 2}, badLayout[] = {0, 0};
  expectError("layout not a permutation",
              tlx_tensor_init(&t, data, TLX_F32, 2, shape, badLayout, NULL,
                              NULL),
              "permutation");
  const int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  expectError("rank 9",
              tlx_tensor_init(&t, data, TLX_F32, 9, nine, NULL, NULL, NULL),
              "rank 9");
  const int64_t zeroExt[] = {2, 0};
  expectError("zero extent",
              tlx_tensor_init(&t, data, TLX_F32, 2, zeroExt, NULL, NULL, NULL),
              "extent 0");
  tlx_tensor good = makeTensor(data, TLX_F32, 2, shape);
  tlx_tensor nul = good;
  nul.data = NULL;
  expectError("null data", tlx_ref_copy(&nul, &good), "null data");
  expectError("null descriptor", tlx_ref_copy(&good, NULL), "null descriptor");
  // Hand-filled descriptors are checked by every op, never trusted.
  tlx_tensor bad = good;
  bad.dtype = (tlx_dtype)42;
  expectError("bad dtype", tlx_ref_copy(&bad, &good), "bad element type");
  bad = good;
  bad.rank = -1;
  expectError("negative rank", tlx_ref_unary(TLX_EXP, &good, &bad), "rank -1");
  bad = good;
  bad.strides[0] = INT64_C(1) << 62;
  expectError("huge stride", tlx_ref_matmul(&bad, &good, &good),
              "out of range");
  bad = good;
  bad.shape[0] = INT64_C(1) << 31;
  bad.strides[0] = INT64_C(1) << 30;
  expectError("huge span", tlx_ref_copy(&bad, &good), "2^59");
  bad = good;
  bad.rank = 8;
  for (int i = 0; i < 8; ++i)
    bad.shape[i] = INT64_C(1) << 31, bad.strides[i] = 1, bad.layout[i] = i;
  expectError("too many elements", tlx_ref_copy(&bad, &good), "2^40");
  bad = good;
  bad.layout[1] = 5;
  expectError("hand-filled layout", tlx_ref_copy(&good, &bad), "permutation");
  bad = good;
  bad.strides[1] = 0;
  expectError("zero stride out", tlx_ref_fill_i64(&bad, 1), "share an address");
}

int main(void) {
  rfcTypeinfo();
  columnMajor();
  permuted3d();
  stridedView();
  irStrides();
  getSet();
  badDescriptors();
  return Failures != 0;
}
