// The short form's elementwise arithmetic as tlx-recognize emits it: the
// ops C operators become (IR/Elementwise.h). An operand of another shape is
// broadcast to the result's (numpy: trailing dims aligned), a scalar fills
// it - converted to the element type, on either side -, max is a compare
// (signed for integers) and a select, and each result is named row-major.
// A row reduction over a run-time extent (window TLX_DIMS(1, n) over n
// columns) keeps an extent of 1 to broadcast against.
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s

#include <tlx.h>

// CHECK-LABEL: define {{.*}}void @bias_row(
// CHECK: [[X:%.*]] = call token @llvm.tensor.load.{{.*}}<2 x i32> <i32 2, i32 4>
// CHECK: [[B:%.*]] = call token @llvm.tensor.load.{{.*}}<1 x i32> {{<i32 4>|splat \(i32 4\)}}
// CHECK: [[BB:%.*]] = call <8 x float> @llvm.tensor.broadcast.v8f32(token [[B]])
// CHECK: [[TB:%.*]] = call token @llvm.tensor.typeinfo.v8f32.v2i32.v2i32.v2i32(<8 x float> [[BB]], <2 x i32> <i32 2, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: [[S:%.*]] = call <8 x float> @llvm.tensor.fadd.v8f32(token [[X]], token [[TB]]){{.*}}!tlx.spelling
// CHECK: [[T:%.*]] = call token @llvm.tensor.typeinfo.v8f32.v2i32.v2i32.v2i32(<8 x float> [[S]], <2 x i32> <i32 2, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
// CHECK: call void @llvm.tensor.store.{{.*}}token [[T]]
void bias_row(float *y, const float *x, const float *b) {
  TLX_STORE(y, tlx_add(TLX_LOAD(x, 2, 4), TLX_LOAD(b, 4)));
}

// CHECK-LABEL: define {{.*}}void @scale_first(
// CHECK: [[X:%.*]] = call token @llvm.tensor.load.{{.*}}(ptr elementtype(double)
// CHECK: [[F:%.*]] = call <3 x double> @llvm.tensor.broadcast.v3f64.f64(token [[X]], double [[SV:%.*]])
// CHECK: [[TF:%.*]] = call token @llvm.tensor.typeinfo.v3f64.{{.*}}(<3 x double> [[F]],
// CHECK: call <3 x double> @llvm.tensor.fmul.v3f64(token [[TF]], token [[X]])
void scale_first(double *y, const double *x, double s) {
  TLX_STORE(y, tlx_mul(s, TLX_LOAD(x, 3)));
}

// CHECK-LABEL: define {{.*}}void @float_scalar_as_half(
// CHECK: call <4 x half> @llvm.tensor.broadcast.v4f16.f16(token {{%.*}}, half 0xH3400)
// CHECK: call <4 x half> @llvm.tensor.fsub.v4f16(
void float_scalar_as_half(_Float16 *y, const _Float16 *x) {
  TLX_STORE(y, tlx_sub(TLX_LOAD(x, 4), 0.25f));
}

// CHECK-LABEL: define {{.*}}void @clamp_low(
// CHECK: [[X:%.*]] = call token @llvm.tensor.load.{{.*}}(ptr elementtype(i32)
// CHECK: [[F:%.*]] = call <4 x i32> @llvm.tensor.broadcast.v4i32.i32(token [[X]], i32 -1)
// CHECK: [[TF:%.*]] = call token @llvm.tensor.typeinfo.v4i32.{{.*}}(<4 x i32> [[F]],
// CHECK: [[C:%.*]] = call <4 x i32> @llvm.tensor.icmp.v4i32.i32(token [[X]], token [[TF]], i32 38)
// CHECK: [[TC:%.*]] = call token @llvm.tensor.typeinfo.v4i32.{{.*}}(<4 x i32> [[C]],
// CHECK: call <4 x i32> @llvm.tensor.select.v4i32(token [[TC]], token [[X]], token [[TF]])
void clamp_low(int *y, const int *x) {
  TLX_STORE(y, tlx_max(TLX_LOAD(x, 4), -1));
}

// CHECK-LABEL: define {{.*}}void @min_f32(
// CHECK: [[C:%.*]] = call <6 x i32> @llvm.tensor.fcmp.v6i32.i32(token [[A:%.*]], token [[B:%.*]], i32 4)
// CHECK: [[TC:%.*]] = call token @llvm.tensor.typeinfo.v6i32.{{.*}}(<6 x i32> [[C]],
// CHECK: call <6 x float> @llvm.tensor.select.v6f32(token [[TC]], token [[A]], token [[B]])
void min_f32(float *y, const float *a, const float *b) {
  TLX_STORE(y, tlx_min(TLX_LOAD(a, 2, 3), TLX_LOAD(b, 2, 3)));
}

// CHECK-LABEL: define {{.*}}void @divide_i16(
// CHECK: call <8 x i16> @llvm.tensor.sdiv.v8i16(
void divide_i16(short *y, const short *a, const short *b) {
  TLX_STORE(y, tlx_div(TLX_LOAD(a, 8), TLX_LOAD(b, 8)));
}

// The reduction's result is ?x1: broadcast along the columns.
// CHECK-LABEL: define {{.*}}void @minus_row_max(
// CHECK: [[X:%.*]] = call token @llvm.tensor.load.{{.*}}(ptr elementtype(float)
// CHECK: [[R:%.*]] = call <1 x float> @llvm.tensor.reduce.max.v1f32.v2i32.v2i32(token [[X]],
// CHECK: [[RS:%.*]] = insertelement <2 x i32> <i32 0, i32 1>,
// CHECK: [[TR:%.*]] = call token @llvm.tensor.typeinfo.v1f32.v2i32.v2i32.v2i32(<1 x float> [[R]], <2 x i32> [[RS]],
// CHECK: [[BR:%.*]] = call <1 x float> @llvm.tensor.broadcast.v1f32(token [[TR]])
// CHECK: [[TB:%.*]] = call token @llvm.tensor.typeinfo.v1f32.v2i32.v2i32.v2i32(<1 x float> [[BR]],
// CHECK: call <1 x float> @llvm.tensor.fsub.v1f32(token [[X]], token [[TB]])
void minus_row_max(float *y, const float *x, int m, int n) {
  tlx_token_t t = TLX_LOAD(x, m, n);
  TLX_STORE(y, tlx_sub(t, tlx_reduce_max(t, TLX_DIMS(1, n), TLX_DIMS(1, n))));
}
