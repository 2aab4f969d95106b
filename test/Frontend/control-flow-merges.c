// Tokens merged across control flow are rebuilt after the merge as a
// totensor of a phi (or select) of each path's data in logical order: the
// vector itself for a row-major typeinfo of a vector, tovector for a tensor
// in memory (loads, a loop accumulator that starts as a load). Merged loads
// are not re-read at the merge (their memory may have changed since).
// Tensor values merge as plain phis; an op whose result reaches such a phi
// without a typeinfo of its own gets a copy of the typeinfo that names the
// merged variable (!tlx.merged), so it writes the layout that typeinfo
// says.
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s

#include <tlx.h>

typedef float v16f __attribute__((__vector_size__(16 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(v16f)

#define S44 TLX_SHAPE(4, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)

v16f if_else_values(v16f x, v16f y, int c) {
  tlx_token_t t;
  if (c)
    t = tensor_typeinfo(tensor_relu(tensor_typeinfo(x, S44)), S44);
  else
    t = tensor_typeinfo(tensor_sigmoid(tensor_typeinfo(y, S44)), S44);
  return tensor_tanh(t);
}

void if_else_loads(const float *a, const float *b, float *out, int c) {
  tlx_token_t t;
  if (c)
    t = tensor_load(a, S44, TLX_STRIDES(0, 8));
  else
    t = tensor_load(b, S44, TLX_STRIDES(0, 8));
  tensor_store(out, t, TLX_ZEROS(2));
}

v16f select_tokens(v16f x, v16f y, int c) {
  tlx_token_t tx = tensor_typeinfo(x, S44);
  tlx_token_t ty = tensor_typeinfo(y, S44);
  return tensor_exp(c ? tx : ty);
}

void loop_accumulate(const float *a, float *acc, int n) {
  tlx_token_t ta = tensor_load(a, S44, TLX_ZEROS(2));
  tlx_token_t t = tensor_load(acc, S44, TLX_ZEROS(2));
  for (int i = 0; i < n; ++i) {
    v16f r = tensor_matmul(t, ta);
    t = tensor_typeinfo(r, S44);
  }
  tensor_store(acc, t, TLX_ZEROS(2));
}

v16f merged_values(v16f x, int c) {
  tlx_token_t tx = tensor_typeinfo(x, S44);
  v16f v;
  if (c)
    v = tensor_relu(tx);
  else
    v = tensor_fabs(tx);
  return tensor_sqrt(tensor_typeinfo(v, S44));
}

v16f merged_column_major(v16f x, v16f y, int c) {
  tlx_token_t tx = tensor_typeinfo(x, S44);
  v16f v = c ? tensor_relu(tx) : y;
  return tensor_sqrt(
      tensor_typeinfo(v, TLX_SHAPE(4, 4), TLX_LAYOUT(1, 0), TLX_ZEROS(2)));
}

// CHECK-LABEL: define {{.*}} @if_else_values(
// CHECK: [[X:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %0, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[R:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.relu.v16f32(token [[X]])
// CHECK: call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[R]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[Y:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %1, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[S:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.sigmoid.v16f32(token [[Y]])
// CHECK: call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[S]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[M:%[0-9a-z.]+]] = phi <16 x float> [ [[R]], %{{[0-9]+}} ], [ [[S]], %{{[0-9]+}} ]
// CHECK: [[T:%[0-9a-z.]+]] = call token @llvm.vector.totensor.v16f32.v2i32.v2i32.v2i32(<16 x float> [[M]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: call <16 x float> @llvm.tensor.tanh.v16f32(token [[T]])
// CHECK-LABEL: define {{.*}} @if_else_loads(
// CHECK: [[A:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) %{{[0-9]+}}, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 8>)
// CHECK-NEXT: [[AV:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.tovector.v16f32(token [[A]])
// CHECK: [[B:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) %{{[0-9]+}}, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 8>)
// CHECK-NEXT: [[BV:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.tovector.v16f32(token [[B]])
// CHECK: [[M:%[0-9a-z.]+]] = phi <16 x float> [ [[AV]], %{{[0-9]+}} ], [ [[BV]], %{{[0-9]+}} ]
// CHECK: [[T:%[0-9a-z.]+]] = call token @llvm.vector.totensor.v16f32.v2i32.v2i32.v2i32(<16 x float> [[M]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(float) %{{[0-9]+}}, token [[T]], <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @select_tokens(
// CHECK: [[X:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %0, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK-NEXT: [[XV:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.tovector.v16f32(token [[X]])
// CHECK: [[Y:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %1, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK-NEXT: [[YV:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.tovector.v16f32(token [[Y]])
// CHECK: [[M:%[0-9a-z.]+]] = {{phi|select}} {{.*}}<16 x float> {{\[ }}[[XV]]{{.*}}[[YV]]
// CHECK: [[T:%[0-9a-z.]+]] = call token @llvm.vector.totensor.v16f32.v2i32.v2i32.v2i32(<16 x float> [[M]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: call <16 x float> @llvm.tensor.exp.v16f32(token [[T]])
// CHECK-LABEL: define {{.*}} @loop_accumulate(
// CHECK: [[A:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) %{{[0-9]+}}, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
// CHECK: [[ACC:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) %{{[0-9]+}}, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
// CHECK-NEXT: [[ACCV:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.tovector.v16f32(token [[ACC]])
// CHECK: [[M:%[0-9a-z.]+]] = phi <16 x float> [ [[ACCV]], %{{[0-9]+}} ], [ [[BACK:%[0-9]+]], %{{[0-9]+}} ]
// CHECK: [[T:%[0-9a-z.]+]] = call token @llvm.vector.totensor.v16f32.v2i32.v2i32.v2i32(<16 x float> [[M]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[BACK]] = call <16 x float> @llvm.tensor.matmul.v16f32(token [[T]], token [[A]])
// CHECK: call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[BACK]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(float) %{{[0-9]+}}, token [[T]], <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @merged_values(
// CHECK: [[X:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %0, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[R:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.relu.v16f32(token [[X]])
// CHECK-NEXT: call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[R]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer), {{.*}}!tlx.merged
// CHECK: [[F:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.fabs.v16f32(token [[X]])
// CHECK-NEXT: call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[F]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer), {{.*}}!tlx.merged
// CHECK: [[M:%[0-9a-z.]+]] = phi <16 x float> [ [[R]], %{{[0-9]+}} ], [ [[F]], %{{[0-9]+}} ]
// CHECK: [[T:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[M]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK-NOT: !tlx.merged
// CHECK: call <16 x float> @llvm.tensor.sqrt.v16f32(token [[T]])
// CHECK-LABEL: define {{.*}} @merged_column_major(
// CHECK: [[R:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.relu.v16f32(
// CHECK-NEXT: call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[R]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 1, i32 0>, <2 x i32> zeroinitializer), {{.*}}!tlx.merged
// CHECK: [[M:%[0-9a-z.]+]] = phi <16 x float> [ [[R]], %{{[0-9]+}} ], [ %{{[0-9]+}}, %{{[0-9]+}} ]
// CHECK: [[T:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[M]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 1, i32 0>, <2 x i32> zeroinitializer)
// CHECK: call <16 x float> @llvm.tensor.sqrt.v16f32(token [[T]])
