// Small vectors reach the intrinsics with their C types, as operands and as
// results, for every size the x86-64 ABI coerces: a vector of 8 bytes or
// less travels as a scalar of its size or larger (<6 x i8> and <3 x half>
// as double, <3 x i8> as i32), read back from the first bytes of a
// temporary. 3-element vectors, which clang reads and writes in memory as
// 4-element ones plus shuffles ("vec3"), are accessed as themselves, so the
// typeinfo after an op names the op's result and broadcast and the reshapes
// take their result shape from it. (6 x i8 and 3-element results used to be
// rejected or read as 4 elements: Differential/regress-small-vector-result.c,
// regress-vec3-result-typeinfo.c.)
// -march=x86-64: the ABI without AVX, also when the suite runs masked.
// RUN: %clang_tlx -march=x86-64 -O0 -Wno-psabi -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ --implicit-check-not=shufflevector %s
// RUN: %clang_tlx -march=x86-64 -O2 -Wno-psabi -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ --implicit-check-not=shufflevector %s

#include <stdint.h>
#include <tlx.h>

typedef int8_t v6i8 __attribute__((ext_vector_type(6)));
typedef int8_t v3i8 __attribute__((ext_vector_type(3)));
typedef _Float16 v3h __attribute__((ext_vector_type(3)));
typedef float v3f __attribute__((__vector_size__(3 * sizeof(float))));
typedef double v3d __attribute__((ext_vector_type(3)));
TLX_DECLARE_TENSOR_OPS_AS(v6i8, b6)
TLX_DECLARE_TENSOR_OPS_AS(v3i8, b3)
TLX_DECLARE_TENSOR_OPS_AS(v3h, h3)
TLX_DECLARE_TENSOR_OPS_AS(v3f, f3)
TLX_DECLARE_TENSOR_OPS_AS(v3d, d3)

// A <6 x i8> result comes back as a double; the typeinfo names the relu.
void result_6xi8(const int8_t *x, int8_t *y) {
  int t = tensor_load(x, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  v6i8 r = tensor_relu_b6(t);
  int tr = tensor_typeinfo(r, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(y, tr, TLX_ZEROS(2));
}

// A <6 x i8> operand goes to the typeinfo as a double.
v6i8 argument_6xi8(v6i8 v) {
  int t = tensor_typeinfo(v, TLX_SHAPE(6), TLX_LAYOUT(0), TLX_ZEROS(1));
  return tensor_relu_b6(t);
}

// <3 x i8> travels as an i32, <3 x half> as a double.
v3i8 vec3_i8(v3i8 v) {
  int t = vector_totensor(v, TLX_SHAPE(3), TLX_LAYOUT(0), TLX_ZEROS(1));
  return tensor_relu_b3(t);
}

v3h vec3_half(v3h v) {
  int t = tensor_typeinfo(v, TLX_SHAPE(3), TLX_LAYOUT(0), TLX_ZEROS(1));
  v3h r = tensor_log2_h3(t);
  return r;
}

// The broadcast's result shape comes from the typeinfo on its result.
void broadcast_vec3_float(const float *x, float *y) {
  int t = tensor_load(x, TLX_SHAPE(1), TLX_LAYOUT(0), TLX_ZEROS(1), TLX_ZEROS(1));
  v3f r = tensor_broadcast_f3(t);
  int tr = tensor_typeinfo(r, TLX_SHAPE(3), TLX_LAYOUT(0), TLX_ZEROS(1));
  tensor_store(y, tr, TLX_ZEROS(1));
}

// A by-value <3 x double> parameter stays in memory; the permuted result
// takes its shape from the typeinfo.
void permute_vec3_double(v3d v, double *y) {
  int t = tensor_typeinfo(v, TLX_SHAPE(1, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  v3d r = tensor_reshape_permute_d3(t);
  int tr = tensor_typeinfo(r, TLX_SHAPE(3, 1), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(y, tr, TLX_ZEROS(2));
}

// CHECK-LABEL: define {{.*}} @result_6xi8(
// CHECK: [[L:%[0-9]+]] = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(i8)
// CHECK-NEXT: [[R:%[0-9]+]] = call <6 x i8> @llvm.tensor.relu.v6i8(token [[L]])
// CHECK-NEXT: [[T:%[0-9]+]] = call token @llvm.tensor.typeinfo.v6i8.v2i32.v2i32.v2i32(<6 x i8> [[R]], <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(i8) %{{[0-9]+}}, token [[T]], <2 x i32> zeroinitializer)

// CHECK-LABEL: define {{.*}} double @argument_6xi8(double %0)
// CHECK: store double %0, ptr [[TMP:%[0-9]+]]
// CHECK-NEXT: [[V:%[0-9]+]] = load <6 x i8>, ptr [[TMP]]
// CHECK-NEXT: [[T:%[0-9]+]] = call token @llvm.tensor.typeinfo.v6i8.v1i32.v1i32.v1i32(<6 x i8> [[V]], <1 x i32> <i32 6>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
// CHECK-NEXT: [[R:%[0-9]+]] = call <6 x i8> @llvm.tensor.relu.v6i8(token [[T]])
// CHECK-NEXT: store <6 x i8> [[R]], ptr

// CHECK-LABEL: define {{.*}} i32 @vec3_i8(i32 %0)
// CHECK: store i32 %0, ptr [[TMP:%[0-9]+]]
// CHECK-NEXT: [[V:%[0-9]+]] = load <3 x i8>, ptr [[TMP]]
// CHECK-NEXT: [[T:%[0-9]+]] = call token @llvm.vector.totensor.v3i8.v1i32.v1i32.v1i32(<3 x i8> [[V]], <1 x i32> <i32 3>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
// CHECK-NEXT: [[R:%[0-9]+]] = call <3 x i8> @llvm.tensor.relu.v3i8(token [[T]])
// CHECK-NEXT: store <3 x i8> [[R]], ptr

// CHECK-LABEL: define {{.*}} double @vec3_half(double %0)
// CHECK: store double %0, ptr [[TMP:%[0-9]+]]
// CHECK-NEXT: [[V:%[0-9]+]] = load <3 x half>, ptr [[TMP]]
// CHECK-NEXT: [[T:%[0-9]+]] = call token @llvm.tensor.typeinfo.v3f16.v1i32.v1i32.v1i32(<3 x half> [[V]], <1 x i32> <i32 3>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
// CHECK-NEXT: [[R:%[0-9]+]] = call <3 x half> @llvm.tensor.log2.v3f16(token [[T]])
// CHECK-NEXT: store <3 x half> [[R]], ptr

// CHECK-LABEL: define {{.*}} @broadcast_vec3_float(
// CHECK: [[L:%[0-9]+]] = call token @llvm.tensor.load.p0.v1i32.v1i32.v1i32.v1i32(ptr elementtype(float)
// CHECK-NEXT: [[R:%[0-9]+]] = call <3 x float> @llvm.tensor.broadcast.v3f32(token [[L]])
// CHECK-NEXT: [[T:%[0-9]+]] = call token @llvm.tensor.typeinfo.v3f32.v1i32.v1i32.v1i32(<3 x float> [[R]], <1 x i32> <i32 3>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.p0.v1i32(ptr elementtype(float) %{{[0-9]+}}, token [[T]], <1 x i32> zeroinitializer)

// CHECK-LABEL: define {{.*}} @permute_vec3_double(ptr noundef byval(<3 x double>) align 32 %0,
// CHECK: [[A:%[0-9]+]] = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(double) %0, <2 x i32> <i32 1, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK-NEXT: [[R:%[0-9]+]] = call <3 x double> @llvm.tensor.reshape.permute.v3f64(token [[A]])
// CHECK-NEXT: [[T:%[0-9]+]] = call token @llvm.tensor.typeinfo.v3f64.v2i32.v2i32.v2i32(<3 x double> [[R]], <2 x i32> <i32 3, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(double) %{{[0-9]+}}, token [[T]], <2 x i32> zeroinitializer)
