; Elementwise ops keep shape and element type; float-only ops reject
; integers. broadcast(T) follows numpy to its result typeinfo's shape;
; broadcast(T, value) fills T's shape with a value of T's element type.
; RUN: not %opt_tlx -passes=tlx-verify -disable-output %s 2>&1 | FileCheck %s --implicit-check-not="error:"

; CHECK: error: {{.*}}in function float_only {{.*}}: llvm.tensor.tanh: element type i32 of input is not allowed (floating-point elements only)
; CHECK: error: {{.*}}in function float_only {{.*}}: llvm.tensor.sqrt: element type i32 of input is not allowed (floating-point elements only)
; CHECK: error: {{.*}}in function float_only {{.*}}: llvm.tensor.exp2: element type i32 of input is not allowed (floating-point elements only)
define void @float_only(<6 x i32> %v) {
  %t = call token @llvm.tensor.typeinfo.v6i32.v2i32.v2i32.v2i32(<6 x i32> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %a = call <6 x i32> @llvm.tensor.tanh.v6i32(token %t)
  %b = call <6 x i32> @llvm.tensor.sqrt.v6i32(token %t)
  %c = call <6 x i32> @llvm.tensor.exp2.v6i32(token %t)
  ret void
}

; CHECK: error: {{.*}}in function result_length {{.*}}: llvm.tensor.relu: result has 8 elements, but the inferred result shape 2x3 holds 6
; CHECK: error: {{.*}}in function result_element {{.*}}: llvm.tensor.sigmoid: result element type f64 differs from the inferred f32
; CHECK: error: {{.*}}in function result_typeinfo_element {{.*}}: llvm.tensor.exp: result typeinfo element type f64 differs from the inferred f32
; CHECK: error: {{.*}}in function result_typeinfo_shape {{.*}}: llvm.tensor.log: result typeinfo shape 3x2 differs from the inferred result shape 2x3
define void @result_length(<6 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <8 x float> @llvm.tensor.relu.v8f32(token %t)
  ret void
}
define void @result_element(<6 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x double> @llvm.tensor.sigmoid.v6f64(token %t)
  ret void
}
define void @result_typeinfo_element(<6 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call ptr @llvm.tensor.exp.p0(token %t)
  %tr = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(double) %r, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}
define void @result_typeinfo_shape(<6 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.log.v6f32(token %t)
  %tr = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %r, <2 x i32> <i32 3, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}

; broadcast(T): the target shape comes from the result typeinfo.
; CHECK: error: {{.*}}in function broadcast_untyped {{.*}}: llvm.tensor.broadcast: the result shape cannot be inferred from the operands: the result needs a typeinfo
; CHECK: error: {{.*}}in function broadcast_more_dims {{.*}}: llvm.tensor.broadcast: cannot broadcast 2x3x4 to 3x4: the input has more dimensions
; CHECK: error: {{.*}}in function broadcast_extent {{.*}}: llvm.tensor.broadcast: cannot broadcast 3x4 to 2x5x4: extent 3 of dimension 0 is neither 1 nor 5
; CHECK: error: {{.*}}in function broadcast_element {{.*}}: llvm.tensor.broadcast: result element type i32 differs from the inferred f32
define void @broadcast_untyped(<3 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v3f32.v1i32.v1i32.v1i32(<3 x float> %v, <1 x i32> <i32 3>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.broadcast.v6f32(token %t)
  ret void
}
define void @broadcast_more_dims(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float> %v, <3 x i32> <i32 2, i32 3, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <12 x float> @llvm.tensor.broadcast.v12f32(token %t)
  %tr = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %r, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}
define void @broadcast_extent(<12 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %v, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <40 x float> @llvm.tensor.broadcast.v40f32(token %t)
  %tr = call token @llvm.tensor.typeinfo.v40f32.v3i32.v3i32.v3i32(<40 x float> %r, <3 x i32> <i32 2, i32 5, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  ret void
}
define void @broadcast_element(<3 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v3f32.v1i32.v1i32.v1i32(<3 x float> %v, <1 x i32> <i32 3>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %r = call <6 x i32> @llvm.tensor.broadcast.v6i32(token %t)
  %tr = call token @llvm.tensor.typeinfo.v6i32.v2i32.v2i32.v2i32(<6 x i32> %r, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}

; broadcast(T, value) (research prototype): value has T's element type and
; the result T's shape.
; CHECK: error: {{.*}}in function fill_value_type {{.*}}: llvm.tensor.broadcast: value type f64 differs from the input's element type f32
; CHECK: error: {{.*}}in function fill_result_length {{.*}}: llvm.tensor.broadcast: result has 12 elements, but the inferred result shape 2x3 holds 6
define void @fill_value_type(<6 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.broadcast.v6f32.f64(token %t, double 1.0)
  ret void
}
define void @fill_result_length(<6 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <12 x float> @llvm.tensor.broadcast.v12f32.f32(token %t, float 1.0)
  ret void
}

; CHECK: tlx: error: 13 error(s) in TLX code; stopping
; No crash after the last error:
; CHECK-NOT: PLEASE submit
; CHECK-NOT: Stack dump

; --- declarations ---
declare <12 x float> @llvm.tensor.broadcast.v12f32(token)
declare <12 x float> @llvm.tensor.broadcast.v12f32.f32(token, float)
declare <40 x float> @llvm.tensor.broadcast.v40f32(token)
declare <6 x float> @llvm.tensor.broadcast.v6f32(token)
declare <6 x float> @llvm.tensor.broadcast.v6f32.f64(token, double)
declare <6 x i32> @llvm.tensor.broadcast.v6i32(token)
declare ptr @llvm.tensor.exp.p0(token)
declare <6 x i32> @llvm.tensor.exp2.v6i32(token)
declare <6 x float> @llvm.tensor.log.v6f32(token)
declare <8 x float> @llvm.tensor.relu.v8f32(token)
declare <6 x double> @llvm.tensor.sigmoid.v6f64(token)
declare <6 x i32> @llvm.tensor.sqrt.v6i32(token)
declare <6 x i32> @llvm.tensor.tanh.v6i32(token)
declare token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v3f32.v1i32.v1i32.v1i32(<3 x float>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v40f32.v3i32.v3i32.v3i32(<40 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v6i32.v2i32.v2i32.v2i32(<6 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
