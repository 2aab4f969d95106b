// A program in the research prototype's style compiles with tlx.h included
// and nothing else changed: its own typedefs, K&R-compatible prototypes of
// suffixed dummies (tensor_typeinfo_mm0l, tensor_matmul10000, ...), 2-D shape
// vectors the ABI passes as doubles, one-operand transpose and
// broadcast(token, int) with the int converted to the element type.
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s 2>&1 | FileCheck --enable-var-scope --implicit-check-not=@tensor_ --implicit-check-not=warning: %s
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s 2>&1 | FileCheck --enable-var-scope --implicit-check-not=@tensor_ --implicit-check-not=warning: %s

#include <tlx.h>

typedef float _tensor_t __attribute__((__vector_size__(16 * sizeof(float))));
typedef float _t_mm0l __attribute__((__vector_size__(32 * sizeof(float))));
typedef float _t_mm1l __attribute__((__vector_size__(32 * sizeof(float))));
typedef int _shape_t __attribute__((__vector_size__(8), __aligned__(4)));
typedef int _layout_t __attribute__((__vector_size__(8), __aligned__(4)));
typedef int _padding_t __attribute__((__vector_size__(8), __aligned__(4)));
typedef int _token_t;

_token_t tensor_typeinfo(_tensor_t, _shape_t, _layout_t, _padding_t);
_token_t tensor_typeinfo_mm0l(_t_mm0l, _shape_t, _layout_t, _padding_t);
_token_t tensor_typeinfo_mm1l(_t_mm1l, _shape_t, _layout_t, _padding_t);
_t_mm1l tensor_transpose_0(_token_t);
_tensor_t tensor_matmul10000(_token_t, _token_t);
_tensor_t tensor_relu(_token_t);
_tensor_t tensor_broadcast(_token_t, int);

void chain(_t_mm0l a, _t_mm0l b, float *out) {
  _shape_t s0 = {4, 8};
  _shape_t s1 = {8, 4};
  _shape_t s2 = {4, 4};
  _layout_t l = {0, 1};
  _padding_t p = {0, 0};
  _token_t ta = tensor_typeinfo_mm0l(a, s0, l, p);
  _token_t tb = tensor_typeinfo_mm0l(b, s0, l, p);
  _t_mm1l bt = tensor_transpose_0(tb);
  _token_t tbt = tensor_typeinfo_mm1l(bt, s1, l, p);
  _tensor_t c = tensor_matmul10000(ta, tbt);
  _token_t tc = tensor_typeinfo(c, s2, l, p);
  _tensor_t r = tensor_relu(tc);
  _token_t tr = tensor_typeinfo(r, s2, l, p);
  _tensor_t ones = tensor_broadcast(tr, 1);
  _token_t to = tensor_typeinfo(ones, s2, l, p);
  tensor_store(out, to, p);
}

// CHECK-LABEL: define {{.*}} @chain(
// CHECK: [[V1:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %0, <2 x i32> <i32 4, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V2:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %1, <2 x i32> <i32 4, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V3:%[0-9a-z.]+]] = call <32 x float> @llvm.tensor.transpose.v32f32(token [[V2]])
// CHECK: [[V4:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v32f32.v2i32.v2i32.v2i32(<32 x float> [[V3]], <2 x i32> <i32 8, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V5:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.matmul.v16f32(token [[V1]], token [[V4]])
// CHECK: [[V6:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[V5]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V7:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.relu.v16f32(token [[V6]])
// CHECK: [[V8:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[V7]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[V9:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.broadcast.v16f32.f32(token [[V8]], float 1.000000e+00)
// CHECK: [[V10:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[V9]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(float) %{{[0-9]+}}, token [[V10]], <2 x i32> zeroinitializer)
