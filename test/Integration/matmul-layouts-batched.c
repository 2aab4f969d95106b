// matmul through every path of the lowering: sub-tensors loaded and stored
// through leading dimensions, column-major operands and results, batch
// loops (nd-to-2d), a batch dim stored innermost (packed first), and
// narrower operands widening to the result type.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// The same through AMX tiles, run on the runtime's AMX emulator:
// RUN: %clang_tlx -w -O0 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %te0 && %te0 | FileCheck %s
// RUN: %clang_tlx -w -O2 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %te2 && %te2 | FileCheck %s
// CHECK: f32 colmajor strided: ok
// CHECK: i32 batched: ok
// CHECK: f32 batch innermost: ok
// CHECK: f16 x f16 -> f32: ok
// CHECK: i8 x i8 -> i32: ok
// CHECK: PASSED
#include "Inputs/oracle.h"
#include <tlx.h>

typedef float v30f __attribute__((__vector_size__(30 * 4)));
typedef int32_t v30i __attribute__((__vector_size__(30 * 4)));
typedef float v12f __attribute__((__vector_size__(12 * 4)));
typedef int32_t v12i __attribute__((__vector_size__(12 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(v30f, f30)
TLX_DECLARE_TENSOR_OPS_AS(v30i, i30)
TLX_DECLARE_TENSOR_OPS_AS(v12f, f12)
TLX_DECLARE_TENSOR_OPS_AS(v12i, i12)

// A: 5x7 logical, column-major (storage 7x5), storage rows 9 apart.
// B: 7x6 row-major. C: 5x6, stored row-major with rows 8 apart.
static void colmajorStrided(void) {
  float a[7 * 9], b[42], c[5 * 8], want[30];
  const int64_t sa[] = {7, 5}, la[] = {1, 0}, st_a[] = {9, 1};
  const int64_t sb[] = {7, 6}, sc[] = {5, 6}, st_c[] = {8, 1};
  tlx_tensor ta = desc(a, TLX_F32, 2, sa, la, st_a);
  tlx_tensor tb = desc(b, TLX_F32, 2, sb, NULL, NULL);
  tlx_tensor tc = desc(c, TLX_F32, 2, sc, NULL, st_c);
  tlx_tensor tw = desc(want, TLX_F32, 2, sc, NULL, NULL);
  fillRandom(&ta, 3);
  fillRandom(&tb, 3);
  refOk("matmul", tlx_ref_matmul(&ta, &tb, &tw));
  tlx_token_t xa = tensor_load(a, TLX_SHAPE(7, 5), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_STRIDES(0, 9));
  tlx_token_t xb = tensor_load(b, TLX_SHAPE(7, 6), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  v30f r = tensor_matmul_f30(xa, xb);
  tlx_token_t xr = tensor_typeinfo(r, TLX_SHAPE(5, 6), TLX_LAYOUT(0, 1),
                                   TLX_ZEROS(2));
  tensor_store(c, xr, TLX_STRIDES(0, 8));
  compare("f32 colmajor strided", &tc, &tw, 1e-5);
}

// [2,3,4] x [2,4,5] -> [2,3,5], result stored with layout <0,2,1>.
static void batched(void) {
  int32_t a[24], b[40], c[30], want[30];
  const int64_t sa[] = {2, 3, 4}, sb[] = {2, 4, 5}, sc[] = {2, 5, 3},
                lc[] = {0, 2, 1}, sw[] = {2, 3, 5};
  tlx_tensor ta = desc(a, TLX_I32, 3, sa, NULL, NULL);
  tlx_tensor tb = desc(b, TLX_I32, 3, sb, NULL, NULL);
  tlx_tensor tc = desc(c, TLX_I32, 3, sc, lc, NULL);
  tlx_tensor tw = desc(want, TLX_I32, 3, sw, NULL, NULL);
  fillRandom(&ta, 100);
  fillRandom(&tb, 100);
  refOk("matmul", tlx_ref_matmul(&ta, &tb, &tw));
  tlx_token_t xa = tensor_load(a, TLX_SHAPE(2, 3, 4), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  tlx_token_t xb = tensor_load(b, TLX_SHAPE(2, 4, 5), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  v30i r = tensor_matmul_i30(xa, xb);
  tlx_token_t xr = tensor_typeinfo(r, TLX_SHAPE(2, 5, 3), TLX_LAYOUT(0, 2, 1),
                                   TLX_ZEROS(3));
  tensor_store(c, xr, TLX_ZEROS(3));
  compare("i32 batched", &tc, &tw, 0);
}

// A [2,3,4] stored with the batch dim innermost (layout <1,2,0>: storage
// 3x4x2), result [2,3,2] stored batch-innermost too.
static void batchInnermost(void) {
  float a[24], b[16], c[12], want[12];
  const int64_t sa[] = {3, 4, 2}, la[] = {1, 2, 0}, sb[] = {2, 4, 2},
                sc[] = {3, 2, 2}, lc[] = {1, 2, 0}, sw[] = {2, 3, 2};
  tlx_tensor ta = desc(a, TLX_F32, 3, sa, la, NULL);
  tlx_tensor tb = desc(b, TLX_F32, 3, sb, NULL, NULL);
  tlx_tensor tc = desc(c, TLX_F32, 3, sc, lc, NULL);
  tlx_tensor tw = desc(want, TLX_F32, 3, sw, NULL, NULL);
  fillRandom(&ta, 4);
  fillRandom(&tb, 4);
  refOk("matmul", tlx_ref_matmul(&ta, &tb, &tw));
  tlx_token_t xa = tensor_load(a, TLX_SHAPE(3, 4, 2), TLX_LAYOUT(1, 2, 0),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  tlx_token_t xb = tensor_load(b, TLX_SHAPE(2, 4, 2), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  v12f r = tensor_matmul_f12(xa, xb);
  tlx_token_t xr = tensor_typeinfo(r, TLX_SHAPE(3, 2, 2), TLX_LAYOUT(1, 2, 0),
                                   TLX_ZEROS(3));
  tensor_store(c, xr, TLX_ZEROS(3));
  compare("f32 batch innermost", &tc, &tw, 1e-5);
}

static void widening(void) {
  _Float16 a[15], b[20];
  float c[12], want[12];
  int8_t ia[15], ib[20];
  int32_t ic[12], iwant[12];
  const int64_t sa[] = {3, 5}, sb[] = {5, 4}, sc[] = {3, 4};
  tlx_tensor ta = desc(a, TLX_F16, 2, sa, NULL, NULL);
  tlx_tensor tb = desc(b, TLX_F16, 2, sb, NULL, NULL);
  tlx_tensor tc = desc(c, TLX_F32, 2, sc, NULL, NULL);
  tlx_tensor tw = desc(want, TLX_F32, 2, sc, NULL, NULL);
  fillRandom(&ta, 4);
  fillRandom(&tb, 4);
  refOk("matmul", tlx_ref_matmul(&ta, &tb, &tw));
  tlx_token_t xa = tensor_load(a, TLX_SHAPE(3, 5), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t xb = tensor_load(b, TLX_SHAPE(5, 4), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  v12f r = tensor_matmul_f12(xa, xb);
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
  compare("f16 x f16 -> f32", &tc, &tw, 1e-5);

  tlx_tensor tia = desc(ia, TLX_I8, 2, sa, NULL, NULL);
  tlx_tensor tib = desc(ib, TLX_I8, 2, sb, NULL, NULL);
  tlx_tensor tic = desc(ic, TLX_I32, 2, sc, NULL, NULL);
  tlx_tensor tiw = desc(iwant, TLX_I32, 2, sc, NULL, NULL);
  fillRandom(&tia, 120);
  fillRandom(&tib, 120);
  refOk("matmul", tlx_ref_matmul(&tia, &tib, &tiw));
  xa = tensor_load(ia, TLX_SHAPE(3, 5), TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                   TLX_ZEROS(2));
  xb = tensor_load(ib, TLX_SHAPE(5, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                   TLX_ZEROS(2));
  v12i ri = tensor_matmul_i12(xa, xb);
  tensor_store(ic, tensor_typeinfo(ri, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1),
                                   TLX_ZEROS(2)),
               TLX_ZEROS(2));
  compare("i8 x i8 -> i32", &tic, &tiw, 0);
}

int main(void) {
  colmajorStrided();
  batched();
  batchInnermost();
  widening();
  return finish();
}
