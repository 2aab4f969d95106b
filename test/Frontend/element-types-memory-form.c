// Every element type reaches the IR through tlx.h's element tag: pointers to
// int8_t/uint8_t (i8), int16_t, int32_t, int64_t, _Float16, __bf16, float and
// double give `ptr elementtype(<T>)` on llvm.tensor.load/store and on
// memory-form typeinfo (tensor_typeinfo_mem, arrays decay to pointers).
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s

#include <stdint.h>
#include <tlx.h>

#define COPY(name, T)                                                          \
  void name(const T *in, T *out) {                                             \
    tlx_token_t t = tensor_load(in, TLX_SHAPE(2, 8), TLX_IDENTITY_LAYOUT(2),   \
                                TLX_ZEROS(2), TLX_STRIDES(0, 16));             \
    tensor_store(out, t, TLX_ZEROS(2));                                        \
  }

COPY(copy_i8, int8_t)
COPY(copy_u8, uint8_t)
COPY(copy_i16, int16_t)
COPY(copy_i32, int32_t)
COPY(copy_i64, int64_t)
COPY(copy_f16, _Float16)
COPY(copy_bf16, __bf16)
COPY(copy_f32, float)
COPY(copy_f64, double)

typedef double v8d __attribute__((__vector_size__(8 * sizeof(double))));
TLX_DECLARE_TENSOR_OPS(v8d)

double buffer[8];

v8d memory_typeinfo(const double *p, double *q) {
  tlx_token_t tp = tensor_typeinfo_mem(p, TLX_SHAPE(2, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_typeinfo_mem(buffer, TLX_SHAPE(4, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  v8d r = tensor_relu(tp);
  tensor_store(q, tb, TLX_ZEROS(2));
  return r;
}

// CHECK-LABEL: define {{.*}} @copy_i8(
// CHECK: [[V1:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(i8) %{{[0-9]+}}, <2 x i32> <i32 2, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 16>)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(i8) %{{[0-9]+}}, token [[V1]], <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @copy_u8(
// CHECK: [[V2:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(i8) %{{[0-9]+}}, <2 x i32> <i32 2, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 16>)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(i8) %{{[0-9]+}}, token [[V2]], <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @copy_i16(
// CHECK: [[V3:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(i16) %{{[0-9]+}}, <2 x i32> <i32 2, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 16>)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(i16) %{{[0-9]+}}, token [[V3]], <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @copy_i32(
// CHECK: [[V4:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(i32) %{{[0-9]+}}, <2 x i32> <i32 2, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 16>)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(i32) %{{[0-9]+}}, token [[V4]], <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @copy_i64(
// CHECK: [[V5:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(i64) %{{[0-9]+}}, <2 x i32> <i32 2, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 16>)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(i64) %{{[0-9]+}}, token [[V5]], <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @copy_f16(
// CHECK: [[V6:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(half) %{{[0-9]+}}, <2 x i32> <i32 2, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 16>)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(half) %{{[0-9]+}}, token [[V6]], <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @copy_bf16(
// CHECK: [[V7:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(bfloat) %{{[0-9]+}}, <2 x i32> <i32 2, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 16>)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(bfloat) %{{[0-9]+}}, token [[V7]], <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @copy_f32(
// CHECK: [[V8:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) %{{[0-9]+}}, <2 x i32> <i32 2, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 16>)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(float) %{{[0-9]+}}, token [[V8]], <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @copy_f64(
// CHECK: [[V9:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(double) %{{[0-9]+}}, <2 x i32> <i32 2, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 16>)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(double) %{{[0-9]+}}, token [[V9]], <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @memory_typeinfo(
// CHECK: [[V10:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(double) %{{[0-9]+}}, <2 x i32> <i32 2, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V11:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(double) @buffer, <2 x i32> <i32 4, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V12:%[0-9a-z.]+]] = call <8 x double> @llvm.tensor.relu.v8f64(token [[V10]])
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(double) %{{[0-9]+}}, token [[V11]], <2 x i32> zeroinitializer)
