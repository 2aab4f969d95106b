// Convolution (both forms), elementwise, broadcast (both forms), reduce-window,
// index and conversion ops: each dummy call becomes its llvm.tensor.*
// intrinsic, identically at -O0 and -O2; C scalars become the element type.
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s

#include <tlx.h>

typedef float v4f __attribute__((__vector_size__(4 * sizeof(float))));
typedef float v6f __attribute__((__vector_size__(6 * sizeof(float))));
typedef int v6i __attribute__((__vector_size__(6 * sizeof(int))));
typedef float v9f __attribute__((__vector_size__(9 * sizeof(float))));
typedef float v12f __attribute__((__vector_size__(12 * sizeof(float))));
typedef int v12i __attribute__((__vector_size__(12 * sizeof(int))));
typedef float v16f __attribute__((__vector_size__(16 * sizeof(float))));
typedef float v20f __attribute__((__vector_size__(20 * sizeof(float))));
typedef float v24f __attribute__((__vector_size__(24 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(v12f)
TLX_DECLARE_TENSOR_OPS_AS(v9f, f9)
TLX_DECLARE_TENSOR_OPS_AS(v6f, f6)
TLX_DECLARE_TENSOR_OPS_AS(v6i, i6)
TLX_DECLARE_TENSOR_OPS_AS(v16f, f16)
TLX_DECLARE_TENSOR_OPS_AS(v20f, f20)
TLX_DECLARE_TENSOR_OPS_AS(v24f, f24)

#define INFO(x, ...) tensor_typeinfo(x, TLX_SHAPE(__VA_ARGS__), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2))

void conv(v16f in, v4f k) {
  int ti = tensor_typeinfo(in, TLX_SHAPE(1, 1, 4, 4), TLX_IDENTITY_LAYOUT(4), TLX_ZEROS(4));
  int tk = tensor_typeinfo(k, TLX_SHAPE(1, 1, 2, 2), TLX_IDENTITY_LAYOUT(4), TLX_ZEROS(4));
  v9f c2 = tensor_convolution_f9(ti, tk);
  v9f c5 = tensor_convolution_f9(ti, tk, TLX_DIMS(1, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  int t2 = tensor_typeinfo(c2, TLX_SHAPE(1, 1, 3, 3), TLX_IDENTITY_LAYOUT(4), TLX_ZEROS(4));
  int t5 = tensor_typeinfo(c5, TLX_SHAPE(1, 1, 3, 3), TLX_IDENTITY_LAYOUT(4), TLX_ZEROS(4));
}

void elementwise(v12f x) {
  int t = INFO(x, 3, 4);
  v12f r[14];
  r[0] = tensor_tanh(t);
  r[1] = tensor_sigmoid(t);
  r[2] = tensor_relu(t);
  r[3] = tensor_sin(t);
  r[4] = tensor_cos(t);
  r[5] = tensor_exp(t);
  r[6] = tensor_exp2(t);
  r[7] = tensor_log(t);
  r[8] = tensor_log2(t);
  r[9] = tensor_log10(t);
  r[10] = tensor_sqrt(t);
  r[11] = tensor_fabs(t);
  r[12] = tensor_floor(t);
  r[13] = tensor_ceil(t);
}

void broadcast(v4f row, v12f x) {
  int tr = tensor_typeinfo(row, TLX_SHAPE(1, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  v12f b = tensor_broadcast(tr);
  int tb = INFO(b, 3, 4);
  int tx = INFO(x, 3, 4);
  v12f f = tensor_broadcast(tx, 2.5f);
  int tf = INFO(f, 3, 4);
}

void reductions(v12f x, v12i y) {
  int tx = INFO(x, 3, 4);
  int ty = INFO(y, 3, 4);
  v6f r0 = tensor_reduce_max_f6(tx, TLX_DIMS(1, 2), TLX_DIMS(1, 2));
  v6f r1 = tensor_reduce_min_f6(tx, TLX_DIMS(1, 2), TLX_DIMS(1, 2));
  v6f r2 = tensor_reduce_add_f6(tx, TLX_DIMS(1, 2), TLX_DIMS(1, 2));
  v6f r3 = tensor_reduce_mul_f6(tx, TLX_DIMS(1, 2), TLX_DIMS(1, 2));
  v6i r4 = tensor_reduce_and_i6(ty, TLX_DIMS(1, 2), TLX_DIMS(1, 2));
  v6i r5 = tensor_reduce_or_i6(ty, TLX_DIMS(1, 2), TLX_DIMS(1, 2));
  v6i r6 = tensor_reduce_xor_i6(ty, TLX_DIMS(1, 2), TLX_DIMS(1, 2));
}

void index_ops(v16f sq, v12f x, v12f y, float *out) {
  int ts = INFO(sq, 4, 4);
  v16f rb = tensor_reshape_block_f16(ts, TLX_DIMS(1, 2));
  int trb = tensor_typeinfo(rb, TLX_SHAPE(4, 2, 2), TLX_IDENTITY_LAYOUT(3), TLX_ZEROS(3));
  int tx = INFO(x, 3, 4);
  v12f rp = tensor_reshape_permute(tx);
  int trp = INFO(rp, 4, 3);
  v12f tr = tensor_transpose(tx, TLX_LAYOUT(1, 0));
  int ttr = tensor_typeinfo(tr, TLX_SHAPE(4, 3), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
  v12f tr1 = tensor_transpose(tx);
  int ttr1 = INFO(tr1, 4, 3);
  v20f p = tensor_pad_f20(tx, TLX_DIMS(1, 0), TLX_DIMS(0, 1), 0.5);
  int tp = INFO(p, 4, 5);
  int ty = INFO(y, 3, 4);
  v24f c = tensor_concat_f24(tx, ty, 0);
  int tc = INFO(c, 6, 4);
  v12f v = tensor_tovector(tx);
  int tv = vector_totensor(v, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  tensor_store(out, tv, TLX_ZEROS(2));
}

// CHECK-LABEL: define {{.*}} @conv(
// CHECK: [[V1:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v4i32.v4i32.v4i32(ptr elementtype(float) %0, <4 x i32> <i32 1, i32 1, i32 4, i32 4>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
// CHECK: [[V2:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v4f32.v4i32.v4i32.v4i32(<4 x float> %1, <4 x i32> <i32 1, i32 1, i32 2, i32 2>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
// CHECK: [[V3:%[0-9a-z.]+]] = call <9 x float> @llvm.tensor.convolution.v9f32(token [[V1]], token [[V2]])
// CHECK: [[V4:%[0-9a-z.]+]] = call <9 x float> @llvm.tensor.convolution.v9f32.v2i32.v2i32.v2i32(token [[V1]], token [[V2]], <2 x i32> <i32 1, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
// CHECK: [[V5:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v9f32.v4i32.v4i32.v4i32(<9 x float> [[V3]], <4 x i32> <i32 1, i32 1, i32 3, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
// CHECK: [[V6:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v9f32.v4i32.v4i32.v4i32(<9 x float> [[V4]], <4 x i32> <i32 1, i32 1, i32 3, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @elementwise(
// CHECK: [[V7:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %0, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V8:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.tanh.v12f32(token [[V7]])
// CHECK: [[V9:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.sigmoid.v12f32(token [[V7]])
// CHECK: [[V10:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.relu.v12f32(token [[V7]])
// CHECK: [[V11:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.sin.v12f32(token [[V7]])
// CHECK: [[V12:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.cos.v12f32(token [[V7]])
// CHECK: [[V13:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.exp.v12f32(token [[V7]])
// CHECK: [[V14:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.exp2.v12f32(token [[V7]])
// CHECK: [[V15:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.log.v12f32(token [[V7]])
// CHECK: [[V16:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.log2.v12f32(token [[V7]])
// CHECK: [[V17:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.log10.v12f32(token [[V7]])
// CHECK: [[V18:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.sqrt.v12f32(token [[V7]])
// CHECK: [[V19:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.fabs.v12f32(token [[V7]])
// CHECK: [[V20:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.floor.v12f32(token [[V7]])
// CHECK: [[V21:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.ceil.v12f32(token [[V7]])
// CHECK-LABEL: define {{.*}} @broadcast(
// CHECK: [[V22:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %0, <2 x i32> <i32 1, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V23:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.broadcast.v12f32(token [[V22]])
// CHECK: [[V24:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> [[V23]], <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V25:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %1, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V26:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.broadcast.v12f32.f32(token [[V25]], float 2.500000e+00)
// CHECK: [[V27:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> [[V26]], <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @reductions(
// CHECK: [[V28:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %0, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V29:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(i32) %1, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V30:%[0-9a-z.]+]] = call <6 x float> @llvm.tensor.reduce.max.v6f32.v2i32.v2i32(token [[V28]], <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 1, i32 2>)
// CHECK: [[V31:%[0-9a-z.]+]] = call <6 x float> @llvm.tensor.reduce.min.v6f32.v2i32.v2i32(token [[V28]], <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 1, i32 2>)
// CHECK: [[V32:%[0-9a-z.]+]] = call <6 x float> @llvm.tensor.reduce.add.v6f32.v2i32.v2i32(token [[V28]], <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 1, i32 2>)
// CHECK: [[V33:%[0-9a-z.]+]] = call <6 x float> @llvm.tensor.reduce.mul.v6f32.v2i32.v2i32(token [[V28]], <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 1, i32 2>)
// CHECK: [[V34:%[0-9a-z.]+]] = call <6 x i32> @llvm.tensor.reduce.and.v6i32.v2i32.v2i32(token [[V29]], <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 1, i32 2>)
// CHECK: [[V35:%[0-9a-z.]+]] = call <6 x i32> @llvm.tensor.reduce.or.v6i32.v2i32.v2i32(token [[V29]], <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 1, i32 2>)
// CHECK: [[V36:%[0-9a-z.]+]] = call <6 x i32> @llvm.tensor.reduce.xor.v6i32.v2i32.v2i32(token [[V29]], <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 1, i32 2>)
// CHECK-LABEL: define {{.*}} @index_ops(
// CHECK: [[V37:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %0, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V38:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.reshape.block.v16f32.v2i32(token [[V37]], <2 x i32> <i32 1, i32 2>)
// CHECK: [[V39:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v16f32.v3i32.v3i32.v3i32(<16 x float> [[V38]], <3 x i32> <i32 4, i32 2, i32 2>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
// CHECK: [[V40:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %1, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V41:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.reshape.permute.v12f32(token [[V40]])
// CHECK: [[V42:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> [[V41]], <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V43:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.transpose.v12f32.v2i32(token [[V40]], <2 x i32> <i32 1, i32 0>)
// CHECK: [[V44:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> [[V43]], <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 1, i32 0>, <2 x i32> zeroinitializer)
// CHECK: [[V45:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.transpose.v12f32(token [[V40]])
// CHECK: [[V46:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> [[V45]], <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V47:%[0-9a-z.]+]] = call <20 x float> @llvm.tensor.pad.v20f32.v2i32.v2i32.f32(token [[V40]], <2 x i32> <i32 1, i32 0>, <2 x i32> <i32 0, i32 1>, float 5.000000e-01)
// CHECK: [[V48:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v20f32.v2i32.v2i32.v2i32(<20 x float> [[V47]], <2 x i32> <i32 4, i32 5>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V49:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %2, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V50:%[0-9a-z.]+]] = call <24 x float> @llvm.tensor.concat.v24f32.i32(token [[V40]], token [[V49]], i32 0)
// CHECK: [[V51:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> [[V50]], <2 x i32> <i32 6, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V52:%[0-9a-z.]+]] = call <12 x float> @llvm.tensor.tovector.v12f32(token [[V40]])
// CHECK: [[V53:%[0-9a-z.]+]] = call token @llvm.vector.totensor.v12f32.v2i32.v2i32.v2i32(<12 x float> [[V52]], <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(float) %{{[0-9]+}}, token [[V53]], <2 x i32> zeroinitializer)
