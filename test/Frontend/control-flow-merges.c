// Tokens merged across control flow are rebuilt after the merge from the
// merged tensors: a typeinfo on a phi/select of the data, the same load on a
// phi of the pointers, and tovector for a loaded tensor merged with a
// computed one (a loop accumulator). Tensor values merge as plain phis.
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

// CHECK-LABEL: define {{.*}} @if_else_values(
// CHECK: [[V1:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %0, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V2:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.relu.v16f32(token [[V1]])
// CHECK: [[V3:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[V2]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V4:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %1, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V5:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.sigmoid.v16f32(token [[V4]])
// CHECK: [[V6:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[V5]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V7:%[0-9a-z.]+]] = phi <16 x float> [ [[V2]], %{{[0-9]+}} ], [ [[V5]], %{{[0-9]+}} ]
// CHECK: [[V8:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[V7]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V9:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.tanh.v16f32(token [[V8]])
// CHECK-LABEL: define {{.*}} @if_else_loads(
// CHECK: [[V10:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) %{{[0-9]+}}, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 8>)
// CHECK: [[V11:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) %{{[0-9]+}}, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 8>)
// CHECK: [[V12:%[0-9a-z.]+]] = phi ptr [ %{{[0-9]+}}, %{{[0-9]+}} ], [ %{{[0-9]+}}, %{{[0-9]+}} ]
// CHECK: [[V13:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) [[V12]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 8>)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(float) %{{[0-9]+}}, token [[V13]], <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @select_tokens(
// CHECK: [[V14:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %0, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V15:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %1, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V16:%[0-9a-z.]+]] = phi ptr [ %0, %{{[0-9]+}} ], [ %1, %{{[0-9]+}} ]
// CHECK: [[V17:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) [[V16]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V18:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.exp.v16f32(token [[V17]])
// CHECK-LABEL: define {{.*}} @loop_accumulate(
// CHECK: [[V19:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) %{{[0-9]+}}, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
// CHECK: [[V20:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) %{{[0-9]+}}, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
// CHECK: [[V21:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.tovector.v16f32(token [[V20]])
// CHECK: [[V22:%[0-9a-z.]+]] = phi <16 x float> [ [[V21]], %{{[0-9]+}} ], [ [[BACK:%[0-9]+]], %{{[0-9]+}} ]
// CHECK: [[V23:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[V22]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[BACK]] = call <16 x float> @llvm.tensor.matmul.v16f32(token [[V23]], token [[V19]])
// CHECK: [[V25:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[BACK]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(float) %{{[0-9]+}}, token [[V23]], <2 x i32> zeroinitializer)
// CHECK-LABEL: define {{.*}} @merged_values(
// CHECK: [[V26:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %0, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V27:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.relu.v16f32(token [[V26]])
// CHECK: [[V28:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.fabs.v16f32(token [[V26]])
// CHECK: [[V29:%[0-9a-z.]+]] = phi <16 x float> [ [[V27]], %{{[0-9]+}} ], [ [[V28]], %{{[0-9]+}} ]
// CHECK: [[V30:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[V29]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V31:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.sqrt.v16f32(token [[V30]])
