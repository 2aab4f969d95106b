// Contractions (matmul, contract, umma, smma, usmma, summa): each dummy call
// becomes its llvm.tensor.* intrinsic with the same operands, identically at
// -O0 and -O2.
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s

#include <tlx.h>

typedef float v12f __attribute__((__vector_size__(12 * sizeof(float))));
typedef float v9f __attribute__((__vector_size__(9 * sizeof(float))));
typedef int v9i __attribute__((__vector_size__(9 * sizeof(int))));
TLX_DECLARE_TENSOR_OPS(v12f)
TLX_DECLARE_TENSOR_OPS_AS(v9f, f9)
TLX_DECLARE_TENSOR_OPS_AS(v9i, i9)

#define T34(x) tensor_typeinfo(x, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2))

void contractions(v12f a, v12f b, const signed char *p, const signed char *q,
                  int *acc) {
  int ta = T34(a);
  int tb = tensor_typeinfo(b, TLX_SHAPE(4, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  v9f m = tensor_matmul_f9(ta, tb);
  v9f c = tensor_contract_f9(ta, tb, TLX_DIMS(1), TLX_DIMS(0));
  int tp = tensor_load(p, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  int tq = tensor_load(q, TLX_SHAPE(4, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  int tc = tensor_load(acc, TLX_SHAPE(3, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  v9i u = tensor_umma_i9(tc, tp, tq);
  v9i s = tensor_smma_i9(tc, tp, tq);
  v9i us = tensor_usmma_i9(tc, tp, tq);
  v9i su = tensor_summa_i9(tc, tp, tq);
  int tm = tensor_typeinfo(m, TLX_SHAPE(3, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  int tcc = tensor_typeinfo(c, TLX_SHAPE(3, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  int tu = tensor_typeinfo(u, TLX_SHAPE(3, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  int ts = tensor_typeinfo(s, TLX_SHAPE(3, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  int tus = tensor_typeinfo(us, TLX_SHAPE(3, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  int tsu = tensor_typeinfo(su, TLX_SHAPE(3, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
}

// CHECK-LABEL: define {{.*}} @contractions(
// CHECK: [[V1:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %0, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V2:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %1, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V3:%[0-9a-z.]+]] = call <9 x float> @llvm.tensor.matmul.v9f32(token [[V1]], token [[V2]])
// CHECK: [[V4:%[0-9a-z.]+]] = call <9 x float> @llvm.tensor.contract.v9f32.v1i32.v1i32(token [[V1]], token [[V2]], <1 x i32> <i32 1>, <1 x i32> zeroinitializer)
// CHECK: [[V5:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(i8) %{{[0-9]+}}, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
// CHECK: [[V6:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(i8) %{{[0-9]+}}, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
// CHECK: [[V7:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(i32) %{{[0-9]+}}, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
// CHECK: [[V8:%[0-9a-z.]+]] = call <9 x i32> @llvm.tensor.umma.v9i32(token [[V7]], token [[V5]], token [[V6]])
// CHECK: [[V9:%[0-9a-z.]+]] = call <9 x i32> @llvm.tensor.smma.v9i32(token [[V7]], token [[V5]], token [[V6]])
// CHECK: [[V10:%[0-9a-z.]+]] = call <9 x i32> @llvm.tensor.usmma.v9i32(token [[V7]], token [[V5]], token [[V6]])
// CHECK: [[V11:%[0-9a-z.]+]] = call <9 x i32> @llvm.tensor.summa.v9i32(token [[V7]], token [[V5]], token [[V6]])
// CHECK: [[V12:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v9f32.v2i32.v2i32.v2i32(<9 x float> [[V3]], <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V13:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v9f32.v2i32.v2i32.v2i32(<9 x float> [[V4]], <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V14:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32> [[V8]], <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V15:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32> [[V9]], <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V16:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32> [[V10]], <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V17:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32> [[V11]], <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
