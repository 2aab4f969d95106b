// Name matching: tensor_<op>, alone or followed by a digit or '_' and
// anything, is op <op>, the longest op name winning (tensor_exp2 is exp2,
// tensor_log10_x is log10); nothing else is touched (tensor_matmulx,
// my_tensor_matmul, tensor_expm1), and a function the file defines is
// never a dummy.
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope %s
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope %s

#include <tlx.h>

typedef float v4f __attribute__((__vector_size__(16)));
v4f tensor_matmulx(int, int);
v4f my_tensor_matmul(int, int);
v4f tensor_expm1(int);
v4f tensor_matmul10000(int, int);
v4f tensor_matmul_3(int, int);
v4f tensor_exp2(int);
v4f tensor_exp_2(int);
v4f tensor_log10_x(int);
v4f tensor_reduce_max_2(int, tlx_dims2_t, tlx_dims2_t);
v4f tensor_relu_ref(v4f x) { return x * x; }

void names(v4f a, v4f *out) {
  tlx_token_t t = tensor_typeinfo(a, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  out[0] = tensor_matmul10000(t, t);
  out[1] = tensor_matmul_3(t, t);
  out[2] = tensor_exp2(t);
  out[3] = tensor_exp_2(t);
  out[4] = tensor_log10_x(t);
  out[5] = tensor_reduce_max_2(t, TLX_DIMS(1, 1), TLX_DIMS(1, 1));
  out[6] = tensor_matmulx(1, 2);
  out[7] = my_tensor_matmul(1, 2);
  out[8] = tensor_expm1(3);
  out[9] = tensor_relu_ref(a);
}
// CHECK-LABEL: define {{.*}} @names(
// CHECK: [[T:%[0-9]+]] = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %0,
// CHECK: call <4 x float> @llvm.tensor.matmul.v4f32(token [[T]], token [[T]])
// CHECK: call <4 x float> @llvm.tensor.matmul.v4f32(token [[T]], token [[T]])
// CHECK: call <4 x float> @llvm.tensor.exp2.v4f32(token [[T]])
// CHECK: call <4 x float> @llvm.tensor.exp.v4f32(token [[T]])
// CHECK: call <4 x float> @llvm.tensor.log10.v4f32(token [[T]])
// CHECK: call <4 x float> @llvm.tensor.reduce.max.v4f32.v2i32.v2i32(token [[T]], <2 x i32> <i32 1, i32 1>, <2 x i32> <i32 1, i32 1>)
// CHECK: call <4 x float> @tensor_matmulx(i32 noundef 1, i32 noundef 2)
// CHECK: call <4 x float> @my_tensor_matmul(i32 noundef 1, i32 noundef 2)
// CHECK: call <4 x float> @tensor_expm1(i32 noundef 3)
// CHECK: call <4 x float> @tensor_relu_ref(<4 x float> noundef %{{[0-9]+}})
// CHECK-NOT: @tensor_matmul10000
// CHECK-NOT: @tensor_matmul_3
// CHECK-NOT: @tensor_exp2
// CHECK-NOT: @tensor_exp_2
// CHECK-NOT: @tensor_log10_x
// CHECK-NOT: @tensor_reduce_max_2
// CHECK: declare {{.*}} @tensor_matmulx(
// CHECK: declare {{.*}} @my_tensor_matmul(
// CHECK: declare {{.*}} @tensor_expm1(
