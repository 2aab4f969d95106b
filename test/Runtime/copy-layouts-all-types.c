// copy (the oracle of load, store, tovector and totensor): every element
// type, row-major <-> column-major, a 3-d permutation, strided destinations,
// and mismatches.
// RUN: %clang_plain -std=c11 -Wall -I%S/Inputs %s %tlx_rt -o %t && %t | FileCheck %s

#include "check.h"

static const int64_t Shape23[] = {2, 3}, ColShape[] = {3, 2}, ColLayout[] = {1, 0};

// Copies a 2x3 row-major tensor into column-major storage and checks both
// the logical values and the physical (transposed) order.
static void copyColumnMajor(const char *what, tlx_dtype dtype,
                            const double *vals) {
  _Alignas(8) unsigned char in[48], out[48];
  tlx_tensor src = makeTensor(in, dtype, 2, Shape23);
  int64_t idx[2];
  for (int k = 0; k < 6; ++k) {
    idx[0] = k / 3, idx[1] = k % 3;
    tlx_set_f64(&src, idx, vals[k]);
  }
  tlx_tensor dst = makeLayout(out, dtype, 2, ColShape, ColLayout, NULL);
  expectOk(what, tlx_ref_copy(&src, &dst));
  expectFloats(what, &dst, vals, 0);
  // Physically, storage [j][i] holds logical [i][j].
  tlx_tensor raw = makeTensor(out, dtype, 2, ColShape);
  const double phys[] = {vals[0], vals[3], vals[1], vals[4], vals[2], vals[5]};
  char name[64];
  snprintf(name, sizeof(name), "%s physical", what);
  expectFloats(name, &raw, phys, 0);
}

// CHECK-LABEL: i8 column-major: ok
// CHECK: i8 column-major physical: ok
// CHECK: i16 column-major: ok
// CHECK: i32 column-major: ok
// CHECK: f16 column-major: ok
// CHECK: bf16 column-major: ok
// CHECK: f32 column-major: ok
// CHECK: f64 column-major: ok
// CHECK: f64 column-major physical: ok
static void allTypes(void) {
  const double i8[] = {-128, -1, 0, 1, 127, 5};
  const double i16[] = {-32768, -300, 0, 1, 32767, 5};
  const double i32[] = {-2147483648.0, -70000, 0, 1, 2147483647.0, 5};
  const double f16[] = {1.5, -2.0, 0.5, 65504.0, -0.0, 0x1p-24};
  const double bf16[] = {1.5, -2.0, 0.5, 3.3895313892515355e+38, -0.0, 0x1p-133};
  const double f32[] = {1.5, -2.0, 0.1f, 3.4028234663852886e+38, -0.0, 0x1p-149};
  const double f64[] = {1.5, -2.0, 0.1, 1.7976931348623157e+308, -0.0, 0x1p-1074};
  copyColumnMajor("i8 column-major", TLX_I8, i8);
  copyColumnMajor("i16 column-major", TLX_I16, i16);
  copyColumnMajor("i32 column-major", TLX_I32, i32);
  copyColumnMajor("f16 column-major", TLX_F16, f16);
  copyColumnMajor("bf16 column-major", TLX_BF16, bf16);
  copyColumnMajor("f32 column-major", TLX_F32, f32);
  copyColumnMajor("f64 column-major", TLX_F64, f64);
}

// CHECK-LABEL: i64 column-major: ok
static void i64Copy(void) {
  int64_t in[6] = {INT64_MIN, -1, 0, INT64_C(0x123456789abcdef), INT64_MAX, 5};
  int64_t out[6];
  tlx_tensor src = makeTensor(in, TLX_I64, 2, Shape23);
  tlx_tensor dst = makeLayout(out, TLX_I64, 2, ColShape, ColLayout, NULL);
  expectOk("i64 copy", tlx_ref_copy(&src, &dst));
  expectInts("i64 column-major", &dst, in);
}

// CHECK-LABEL: 3-d layout <2,0,1> physical: ok
// CHECK: 3-d layout <2,0,1> logical: ok
static void permuted3d(void) {
  int32_t in[24], out[24], want[24];
  for (int i = 0; i < 24; ++i)
    in[i] = i;
  const int64_t shape[] = {2, 3, 4}, outShape[] = {4, 2, 3},
                layout[] = {2, 0, 1};
  tlx_tensor src = makeTensor(in, TLX_I32, 3, shape);
  tlx_tensor dst = makeLayout(out, TLX_I32, 3, outShape, layout, NULL);
  expectOk("3-d copy", tlx_ref_copy(&src, &dst));
  // Storage (c, a, b) holds logical (a, b, c) = a*12 + b*4 + c.
  const int64_t phys[] = {0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21,
                          2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23};
  tlx_tensor raw = makeTensor(out, TLX_I32, 3, outShape);
  expectInts("3-d layout <2,0,1> physical", &raw, phys);
  for (int i = 0; i < 24; ++i)
    want[i] = i;
  int64_t want64[24];
  for (int i = 0; i < 24; ++i)
    want64[i] = want[i];
  expectInts("3-d layout <2,0,1> logical", &dst, want64);
}

// CHECK-LABEL: store into 4x5 at [1,1]: ok
// CHECK: column-major source to strided row-major: ok
static void stridedStore(void) {
  int16_t in[6] = {1, 2, 3, 4, 5, 6}, buf[20];
  for (int i = 0; i < 20; ++i)
    buf[i] = -1;
  const int64_t strides[] = {5, 1};
  tlx_tensor src = makeTensor(in, TLX_I16, 2, Shape23);
  tlx_tensor dst = makeLayout(buf + 6, TLX_I16, 2, Shape23, NULL, strides);
  expectOk("strided store", tlx_ref_copy(&src, &dst));
  const int64_t shape45[] = {4, 5};
  const int64_t want[] = {-1, -1, -1, -1, -1, -1, 1,  2,  3,  -1,
                          -1, 4,  5,  6,  -1, -1, -1, -1, -1, -1};
  tlx_tensor whole = makeTensor(buf, TLX_I16, 2, shape45);
  expectInts("store into 4x5 at [1,1]", &whole, want);

  // A column-major 2x3 (storage 3x2) inside a 3x4 buffer: storage rows of 2
  // taken 4 apart, read back into a padded-row row-major destination.
  int16_t colBuf[12] = {1, 4, 0, 0, 2, 5, 0, 0, 3, 6, 0, 0}, out[8] = {0};
  const int64_t colStrides[] = {4, 1}, rowStrides[] = {4, 1};
  tlx_tensor col = makeLayout(colBuf, TLX_I16, 2, ColShape, ColLayout,
                              colStrides);
  tlx_tensor row = makeLayout(out, TLX_I16, 2, Shape23, NULL, rowStrides);
  expectOk("col to row", tlx_ref_copy(&col, &row));
  const int64_t wantRow[] = {1, 2, 3, 4, 5, 6};
  expectInts("column-major source to strided row-major", &row, wantRow);
}

// CHECK-LABEL: 1-extent dims: ok
static void unitExtents(void) {
  float in[3] = {1, 2, 3}, out[3];
  const int64_t shape[] = {1, 3, 1}, outShape[] = {1, 1, 3},
                layout[] = {2, 0, 1};
  tlx_tensor src = makeTensor(in, TLX_F32, 3, shape);
  tlx_tensor dst = makeLayout(out, TLX_F32, 3, outShape, layout, NULL);
  expectOk("unit copy", tlx_ref_copy(&src, &dst));
  const double want[] = {1, 2, 3};
  expectFloats("1-extent dims", &dst, want, 0);
}

// Writing a row-major 3x3 back over itself as column-major transposes the
// buffer in place: out may alias in.
// CHECK-LABEL: in-place transpose through aliasing descriptors: ok
static void aliasing(void) {
  int32_t buf[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const int64_t s33[] = {3, 3};
  tlx_tensor rowView = makeTensor(buf, TLX_I32, 2, s33);
  tlx_tensor colView = makeLayout(buf, TLX_I32, 2, s33, ColLayout, NULL);
  expectOk("alias", tlx_ref_copy(&rowView, &colView));
  const int64_t want[] = {1, 4, 7, 2, 5, 8, 3, 6, 9};
  expectInts("in-place transpose through aliasing descriptors", &rowView,
             want);
}

// CHECK-LABEL: dtype mismatch: error: copy: out has element type f32, expected i32
// CHECK: shape mismatch: error: copy: out has logical shape [3,2], the result is [2,3]
static void mismatches(void) {
  int32_t a[6];
  float b[6];
  tlx_tensor ta = makeTensor(a, TLX_I32, 2, Shape23);
  tlx_tensor tb = makeTensor(b, TLX_F32, 2, Shape23);
  expectError("dtype mismatch", tlx_ref_copy(&ta, &tb), "element type");
  tlx_tensor tc = makeTensor(a, TLX_I32, 2, ColShape);
  expectError("shape mismatch", tlx_ref_copy(&ta, &tc), "logical shape");
}

int main(void) {
  allTypes();
  i64Copy();
  permuted3d();
  stridedStore();
  unitExtents();
  aliasing();
  mismatches();
  return Failures != 0;
}
