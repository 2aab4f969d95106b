; Operand counts, operand kinds (TLXOps.def's Signature column) and return
; types: each bad call is one error naming the op and the rule, and the
; verifier never crashes on them.
; RUN: not %opt_tlx -passes=tlx-verify -disable-output %s 2>&1 | FileCheck %s --implicit-check-not="error:"

; CHECK: error: {{.*}}in function unknown_op {{.*}}: llvm.tensor.frobnicate.v4f32: unknown TLX operation
define void @unknown_op() {
  %r = call <4 x float> @llvm.tensor.frobnicate.v4f32(token none)
  ret void
}

; CHECK: error: {{.*}}in function too_many_operands {{.*}}: llvm.tensor.matmul: expects 2 operands, got 3
; CHECK: error: {{.*}}in function too_few_operands {{.*}}: llvm.tensor.convolution: expects 2 to 5 operands, got 1
; CHECK: error: {{.*}}in function typeinfo_no_operands {{.*}}: llvm.tensor.typeinfo: expects 4 operands, got 0
define void @too_many_operands(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <4 x float> @llvm.tensor.matmul.v4f32.3(token %t, token %t, token %t)
  ret void
}
define void @too_few_operands(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <4 x float> @llvm.tensor.convolution.v4f32.1(token %t)
  ret void
}
define void @typeinfo_no_operands() {
  %t = call token @llvm.tensor.typeinfo.0()
  ret void
}

; CHECK: error: {{.*}}in function typeinfo_returns_vector {{.*}}: llvm.tensor.typeinfo: must return a token
; CHECK: error: {{.*}}in function store_returns_value {{.*}}: llvm.tensor.store: must return void
; CHECK: error: {{.*}}in function matmul_returns_scalar {{.*}}: llvm.tensor.matmul: must return a fixed-length vector or a pointer
define void @typeinfo_returns_vector(<4 x float> %v) {
  %t = call <4 x float> @llvm.tensor.typeinfo.r.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}
define void @store_returns_value(<4 x float> %v, ptr %p) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call i32 @llvm.tensor.store.i32.p0.v2i32(ptr elementtype(float) %p, token %t, <2 x i32> zeroinitializer)
  ret void
}
define void @matmul_returns_scalar(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call float @llvm.tensor.matmul.f32(token %t, token %t)
  ret void
}

; Token operands (T) must be tokens from typeinfo, load or totensor.
; CHECK: error: {{.*}}in function token_not_a_token {{.*}}: llvm.tensor.tanh: input must be a token
; CHECK: error: {{.*}}in function token_none {{.*}}: llvm.tensor.matmul: op1 must be a token from typeinfo, load or totensor
; CHECK: error: {{.*}}in function token_none {{.*}}: llvm.tensor.matmul: op2 must be a token from typeinfo, load or totensor
; CHECK: error: {{.*}}in function token_from_other_op {{.*}}: llvm.tensor.matmul: must return a fixed-length vector or a pointer
; CHECK: error: {{.*}}in function token_from_other_op {{.*}}: llvm.tensor.relu: input must be a token from typeinfo, load or totensor
define void @token_not_a_token(<4 x float> %v) {
  %r = call <4 x float> @llvm.tensor.tanh.v4f32.v4f32(<4 x float> %v)
  ret void
}
define void @token_none() {
  %r = call <4 x float> @llvm.tensor.matmul.v4f32(token none, token none)
  ret void
}
define void @token_from_other_op(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %m = call token @llvm.tensor.matmul.tok(token %t, token %t)
  %r = call <4 x float> @llvm.tensor.relu.v4f32(token %m)
  ret void
}

; Shape-like operands (V) must be constant <n x i32> vectors.
; CHECK: error: {{.*}}in function shape_not_constant {{.*}}: llvm.tensor.typeinfo: shape ?x? is computed at run time, but the data is a C vector value, whose shape is constant
; CHECK: error: {{.*}}in function shape_undef {{.*}}: llvm.tensor.typeinfo: shape 2x? is computed at run time, but the data is a C vector value, whose shape is constant
; CHECK: error: {{.*}}in function shape_i64 {{.*}}: llvm.tensor.typeinfo: shape must be a <n x i32> vector
; CHECK: error: {{.*}}in function layout_scalar {{.*}}: llvm.tensor.typeinfo: layout must be a <n x i32> vector
; CHECK: error: {{.*}}in function axis_not_constant {{.*}}: llvm.tensor.transpose: permutation must be a constant <n x i32> vector (only shapes, strides, pad amounts and reduce windows and strides may be computed at run time)
define void @shape_not_constant(<4 x float> %v, <2 x i32> %shape) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> %shape, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}
define void @shape_undef(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 undef>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}
define void @shape_i64(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i64.v2i32.v2i32(<4 x float> %v, <2 x i64> <i64 2, i64 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}
define void @layout_scalar(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v1i32.i32.v1i32(<4 x float> %v, <1 x i32> <i32 4>, i32 0, <1 x i32> zeroinitializer)
  ret void
}
define void @axis_not_constant(<4 x float> %v, <2 x i32> %p) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <4 x float> @llvm.tensor.transpose.v4f32.v2i32(token %t, <2 x i32> %p)
  ret void
}

; Pointers (P) need elementtype(); data (D) is a vector or such a pointer.
; CHECK: error: {{.*}}in function load_from_integer {{.*}}: llvm.tensor.load: pointer must be a pointer
; CHECK: error: {{.*}}in function load_without_elementtype {{.*}}: llvm.tensor.load: pointer needs an elementtype() attribute giving the tensor's element type
; CHECK: error: {{.*}}in function store_without_elementtype {{.*}}: llvm.tensor.store: pointer needs an elementtype() attribute giving the tensor's element type
; CHECK: error: {{.*}}in function typeinfo_scalar_data {{.*}}: llvm.tensor.typeinfo: data must be a fixed-length vector or a pointer
; CHECK: error: {{.*}}in function typeinfo_untyped_pointer {{.*}}: llvm.tensor.typeinfo: data is a pointer without elementtype() or byval(): its element type is unknown
; CHECK: error: {{.*}}in function totensor_scalable {{.*}}: llvm.vector.totensor: data must be a fixed-length vector or a pointer
; (the relu using that load's token is not checked: one mistake, one error)
define void @load_from_integer(i64 %p) {
  %t = call token @llvm.tensor.load.i64.v1i32.v1i32.v1i32.v1i32(i64 %p, <1 x i32> <i32 4>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %r = call <4 x i64> @llvm.tensor.relu.v4i64(token %t)
  ret void
}
define void @load_without_elementtype(ptr %p) {
  %t = call token @llvm.tensor.load.p0.v1i32.v1i32.v1i32.v1i32(ptr %p, <1 x i32> <i32 4>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  ret void
}
define void @store_without_elementtype(<4 x float> %v, ptr %p) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.p0.v2i32(ptr %p, token %t, <2 x i32> zeroinitializer)
  ret void
}
define void @typeinfo_scalar_data(float %f) {
  %t = call token @llvm.tensor.typeinfo.f32.v1i32.v1i32.v1i32(float %f, <1 x i32> <i32 1>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  ret void
}
define void @typeinfo_untyped_pointer(ptr %p) {
  %t = call token @llvm.tensor.typeinfo.p0.v1i32.v1i32.v1i32(ptr %p, <1 x i32> <i32 4>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  ret void
}
define void @totensor_scalable(<vscale x 4 x float> %v) {
  %t = call token @llvm.vector.totensor.nxv4f32.v1i32.v1i32.v1i32(<vscale x 4 x float> %v, <1 x i32> <i32 4>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  ret void
}

; Scalars (S) and constant integers (I).
; CHECK: error: {{.*}}in function fill_with_vector {{.*}}: llvm.tensor.broadcast: value must be a scalar of the tensor's element type
; CHECK: error: {{.*}}in function concat_dynamic_axis {{.*}}: llvm.tensor.concat: axis must be a constant i32
; CHECK: error: {{.*}}in function concat_i64_axis {{.*}}: llvm.tensor.concat: axis must be a constant i32
define void @fill_with_vector(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <4 x float> @llvm.tensor.broadcast.v4f32.v4f32(token %t, <4 x float> %v)
  ret void
}
define void @concat_dynamic_axis(<4 x float> %v, i32 %axis) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <8 x float> @llvm.tensor.concat.v8f32.i32(token %t, token %t, i32 %axis)
  ret void
}
define void @concat_i64_axis(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <8 x float> @llvm.tensor.concat.v8f32.i64(token %t, token %t, i64 0)
  ret void
}

; CHECK: tlx: error: 26 error(s) in TLX code; stopping
; No crash after the last error:
; CHECK-NOT: PLEASE submit
; CHECK-NOT: Stack dump

; --- declarations ---
declare <4 x float> @llvm.tensor.broadcast.v4f32.v4f32(token, <4 x float>)
declare <8 x float> @llvm.tensor.concat.v8f32.i32(token, token, i32)
declare <8 x float> @llvm.tensor.concat.v8f32.i64(token, token, i64)
declare <4 x float> @llvm.tensor.convolution.v4f32.1(token)
declare <4 x float> @llvm.tensor.frobnicate.v4f32(token)
declare token @llvm.tensor.load.i64.v1i32.v1i32.v1i32.v1i32(i64, <1 x i32>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.load.p0.v1i32.v1i32.v1i32.v1i32(ptr, <1 x i32>, <1 x i32>, <1 x i32>, <1 x i32>)
declare float @llvm.tensor.matmul.f32(token, token)
declare token @llvm.tensor.matmul.tok(token, token)
declare <4 x float> @llvm.tensor.matmul.v4f32(token, token)
declare <4 x float> @llvm.tensor.matmul.v4f32.3(token, token, token)
declare <4 x float> @llvm.tensor.transpose.v4f32.v2i32(token, <2 x i32>)
declare <4 x float> @llvm.tensor.relu.v4f32(token)
declare <4 x i64> @llvm.tensor.relu.v4i64(token)
declare i32 @llvm.tensor.store.i32.p0.v2i32(ptr, token, <2 x i32>)
declare void @llvm.tensor.store.p0.v2i32(ptr, token, <2 x i32>)
declare <4 x float> @llvm.tensor.tanh.v4f32.v4f32(<4 x float>)
declare token @llvm.tensor.typeinfo.0()
declare token @llvm.tensor.typeinfo.f32.v1i32.v1i32.v1i32(float, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.p0.v1i32.v1i32.v1i32(ptr, <1 x i32>, <1 x i32>, <1 x i32>)
declare <4 x float> @llvm.tensor.typeinfo.r.v4f32.v2i32.v2i32.v2i32(<4 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v4f32.v1i32.i32.v1i32(<4 x float>, <1 x i32>, i32, <1 x i32>)
declare token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v4f32.v2i64.v2i32.v2i32(<4 x float>, <2 x i64>, <2 x i32>, <2 x i32>)
declare token @llvm.vector.totensor.nxv4f32.v1i32.v1i32.v1i32(<vscale x 4 x float>, <1 x i32>, <1 x i32>, <1 x i32>)
