// tlx.h is usable from C++: extern "C" variadic dummies, the same macros, and
// the same llvm.tensor.* calls; -pedantic stays quiet.
// RUN: %clang_tlx -x c++ -std=c++17 -Wall -Wextra -pedantic -Wno-unused-variable -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s 2>&1 | FileCheck --enable-var-scope --implicit-check-not=warning: --implicit-check-not=@tensor_ %s
// RUN: %clang_tlx -x c++ -std=c++17 -Wall -Wextra -pedantic -Wno-unused-variable -O2 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s 2>&1 | FileCheck --enable-var-scope --implicit-check-not=warning: --implicit-check-not=@tensor_ %s

#include <tlx.h>

typedef float v16f __attribute__((__vector_size__(16 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(v16f)

void relu_rows(const float *in, float *out) {
  tlx_token_t t = tensor_load(in, TLX_SHAPE(4, 4), TLX_IDENTITY_LAYOUT(2),
                              TLX_ZEROS(2), TLX_STRIDES(0, 8));
  v16f r = tensor_relu(t);
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(4, 4), TLX_IDENTITY_LAYOUT(2),
                                   TLX_ZEROS(2));
  tensor_store(out, tr, TLX_ZEROS(2));
}

// CHECK-LABEL: define {{.*}} @_Z9relu_rowsPKfPf(
// CHECK: [[V1:%[0-9a-z.]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) %{{[0-9]+}}, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 8>)
// CHECK: [[V2:%[0-9a-z.]+]] = call <16 x float> @llvm.tensor.relu.v16f32(token [[V1]])
// CHECK: [[V3:%[0-9a-z.]+]] = call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> [[V2]], <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(float) %{{[0-9]+}}, token [[V3]], <2 x i32> zeroinitializer)
