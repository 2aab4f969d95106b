// Small vectors the x86-64 ABI coerces through memory (8-byte vectors become
// double in calls and returns, ext_vector_type(1) an i32, ext_vector_type(3)
// a shuffle of a 4-vector, 5 to 8 elements a byval copy) reach the intrinsics
// with their C vector types, as operands and as results.
// -march=x86-64: the ABI without AVX, also when the suite runs masked.
// RUN: %clang_tlx -march=x86-64 -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s
// RUN: %clang_tlx -march=x86-64 -O2 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s

#include <tlx.h>

typedef float v2f __attribute__((__vector_size__(8)));
typedef short v4s __attribute__((__vector_size__(8)));
typedef float v8f __attribute__((__vector_size__(32)));
TLX_DECLARE_TENSOR_OPS_AS(v2f, f)
TLX_DECLARE_TENSOR_OPS_AS(v4s, s)

v2f coerced_float(v2f x) {
  int t = tensor_typeinfo(x, TLX_SHAPE(1, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  return tensor_relu_f(t);
}

v4s coerced_short(v4s x) {
  int t = tensor_typeinfo(x, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  v4s r = tensor_relu_s(t);
  return r;
}

void ranks(float *p, v8f x) {
  int t1 = tensor_load(p, TLX_SHAPE(8), TLX_LAYOUT(0), TLX_ZEROS(1), TLX_ZEROS(1));
  int t3 = tensor_load(p, TLX_SHAPE(2, 2, 2), TLX_IDENTITY_LAYOUT(3), TLX_ZEROS(3), TLX_ZEROS(3));
  int t5 = tensor_load(p, TLX_SHAPE(1, 2, 1, 2, 2), TLX_IDENTITY_LAYOUT(5), TLX_ZEROS(5), TLX_ZEROS(5));
  int t6 = tensor_typeinfo(x, TLX_SHAPE(1, 1, 2, 1, 2, 2), TLX_IDENTITY_LAYOUT(6), TLX_ZEROS(6));
  int t8 = tensor_load(p, TLX_SHAPE(1, 1, 1, 1, 2, 1, 2, 2), TLX_IDENTITY_LAYOUT(8), TLX_ZEROS(8), TLX_STRIDES(0, 0, 0, 0, 0, 0, 0, 4));
  tensor_store(p, t1, TLX_ZEROS(1));
  tensor_store(p, t3, TLX_ZEROS(3));
  tensor_store(p, t5, TLX_ZEROS(5));
  tensor_store(p, t6, TLX_ZEROS(6));
  tensor_store(p, t8, TLX_ZEROS(8));
}

// CHECK-LABEL: define {{.*}} @coerced_float(
// CHECK: [[V1:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v2f32.v2i32.v2i32.v2i32(<2 x float> %{{[0-9]+}}, <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V2:%[0-9a-z.]+]] = call <2 x float> @llvm.tensor.relu.v2f32(token [[V1]])
// CHECK-NEXT: store <2 x float> [[V2]], ptr
// CHECK-LABEL: define {{.*}} @coerced_short(
// CHECK: [[V3:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v4i16.v2i32.v2i32.v2i32(<4 x i16> %{{[0-9]+}}, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V4:%[0-9a-z.]+]] = call <4 x i16> @llvm.tensor.relu.v4i16(token [[V3]])
// CHECK-NEXT: store <4 x i16> [[V4]], ptr
// CHECK-LABEL: define {{.*}} @ranks(
// CHECK: [[V5:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v1i32.v1i32.v1i32.v1i32(ptr elementtype(float) %{{[0-9]+}}, <1 x i32> <i32 8>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
// CHECK: [[V6:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v3i32(ptr elementtype(float) %{{[0-9]+}}, <3 x i32> <i32 2, i32 2, i32 2>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer)
// CHECK: [[V7:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v5i32.v5i32.v5i32.v5i32(ptr elementtype(float) %{{[0-9]+}}, <5 x i32> <i32 1, i32 2, i32 1, i32 2, i32 2>, <5 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4>, <5 x i32> zeroinitializer, <5 x i32> zeroinitializer)
// CHECK: [[V8:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v6i32.v6i32.v6i32(ptr elementtype(float) %1, <6 x i32> <i32 1, i32 1, i32 2, i32 1, i32 2, i32 2>, <6 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5>, <6 x i32> zeroinitializer)
// CHECK: [[V9:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v8i32.v8i32.v8i32.v8i32(ptr elementtype(float) %{{[0-9]+}}, <8 x i32> <i32 1, i32 1, i32 1, i32 1, i32 2, i32 1, i32 2, i32 2>, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>, <8 x i32> zeroinitializer, <8 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 4>)
// CHECK: call void @llvm.tensor.store.p0.v1i32(ptr elementtype(float) %{{[0-9]+}}, token [[V5]], <1 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.p0.v3i32(ptr elementtype(float) %{{[0-9]+}}, token [[V6]], <3 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.p0.v5i32(ptr elementtype(float) %{{[0-9]+}}, token [[V7]], <5 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.p0.v6i32(ptr elementtype(float) %{{[0-9]+}}, token [[V8]], <6 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.p0.v8i32(ptr elementtype(float) %{{[0-9]+}}, token [[V9]], <8 x i32> zeroinitializer)
