// Tensors passed and returned by value (the research prototype's foo()
// returns the matmul result vector), tovector (logical row-major flattening
// of any layout), vector_totensor, and a result both stored and escaping.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: foo returns matmul: ok
// CHECK: tovector of colmajor: ok
// CHECK: totensor relu store: ok
// CHECK: stored and escaping: ok
// CHECK: escaping vector: ok
// CHECK: PASSED
#include "Inputs/oracle.h"
#include <tlx.h>

typedef float v12f __attribute__((__vector_size__(12 * 4)));
typedef float v20f __attribute__((__vector_size__(20 * 4)));
typedef float v15f __attribute__((__vector_size__(15 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(v12f, f12)
TLX_DECLARE_TENSOR_OPS_AS(v20f, f20)
TLX_DECLARE_TENSOR_OPS_AS(v15f, f15)

// [3,4] x [4,5] -> [3,5], everything by value.
__attribute__((noinline)) v15f foo(v12f a, v20f b) {
  tlx_token_t ta = tensor_typeinfo(a, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1),
                                   TLX_ZEROS(2));
  tlx_token_t tb = tensor_typeinfo(b, TLX_SHAPE(4, 5), TLX_LAYOUT(0, 1),
                                   TLX_ZEROS(2));
  v15f r = tensor_matmul_f15(ta, tb);
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(3, 5), TLX_LAYOUT(0, 1),
                                   TLX_ZEROS(2));
  (void)tr;
  return r;
}

// tovector of a column-major [3,5]: the logical row-major flattening.
__attribute__((noinline)) v15f flatten(const float *colmajor) {
  tlx_token_t t = tensor_load(colmajor, TLX_SHAPE(5, 3), TLX_LAYOUT(1, 0),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  return tensor_tovector_f15(t);
}

// totensor a logical [3,5] vector stored column-major, relu, store
// row-major.
__attribute__((noinline)) void reluOf(v15f v, float *out) {
  tlx_token_t t = vector_totensor(v, TLX_SHAPE(5, 3), TLX_LAYOUT(1, 0),
                                  TLX_ZEROS(2));
  v15f r = tensor_relu_f15(t);
  tensor_store(out, tensor_typeinfo(r, TLX_SHAPE(3, 5), TLX_LAYOUT(0, 1),
                                    TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

// The matmul result is stored and also returned by value.
__attribute__((noinline)) v15f storeAndReturn(const float *a, const float *b,
                                              float *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(4, 5), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  v15f r = tensor_matmul_f15(ta, tb);
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(3, 5), TLX_LAYOUT(0, 1),
                                   TLX_ZEROS(2));
  tensor_store(c, tr, TLX_ZEROS(2));
  return r;
}

int main(void) {
  float a[12], b[20], c[15], want[15], got[15];
  const int64_t sa[] = {3, 4}, sb[] = {4, 5}, sc[] = {3, 5};
  tlx_tensor ta = desc(a, TLX_F32, 2, sa, NULL, NULL);
  tlx_tensor tb = desc(b, TLX_F32, 2, sb, NULL, NULL);
  tlx_tensor tw = desc(want, TLX_F32, 2, sc, NULL, NULL);
  tlx_tensor tg = desc(got, TLX_F32, 2, sc, NULL, NULL);
  fillRandom(&ta, 5);
  fillRandom(&tb, 5);
  refOk("matmul", tlx_ref_matmul(&ta, &tb, &tw));

  v12f va;
  v20f vb;
  memcpy(&va, a, sizeof a);
  memcpy(&vb, b, sizeof b);
  v15f r = foo(va, vb);
  memcpy(got, &r, sizeof got);
  compare("foo returns matmul", &tg, &tw, 1e-5);

  // want is row-major [3,5]; store it column-major and flatten it back.
  float cm[15];
  const int64_t scm[] = {5, 3}, lcm[] = {1, 0};
  tlx_tensor tcm = desc(cm, TLX_F32, 2, scm, lcm, NULL);
  refOk("copy", tlx_ref_copy(&tw, &tcm));
  r = flatten(cm);
  memcpy(got, &r, sizeof got);
  compare("tovector of colmajor", &tg, &tw, 0);

  // totensor takes the logical row-major elements (want's order) whatever
  // the layout it is given; relu -> row-major.
  float relu[15];
  tlx_tensor trelu = desc(relu, TLX_F32, 2, sc, NULL, NULL);
  refOk("relu", tlx_ref_unary(TLX_RELU, &tw, &trelu));
  v15f v;
  memcpy(&v, want, sizeof want);
  reluOf(v, got);
  compare("totensor relu store", &tg, &trelu, 0);

  tlx_tensor tc = desc(c, TLX_F32, 2, sc, NULL, NULL);
  r = storeAndReturn(a, b, c);
  compare("stored and escaping", &tc, &tw, 1e-5);
  memcpy(got, &r, sizeof got);
  compare("escaping vector", &tg, &tw, 1e-5);
  return finish();
}
