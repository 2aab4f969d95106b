; pad(T, low, high, value): low/high >= 0 per logical dim, value of T's
; element type, result extent + low + high. concat(T, T, i32 axis): same
; element type and rank, other dims equal. tovector: 1-D of all elements.
; RUN: not %opt_tlx -passes=tlx-verify -disable-output %s 2>&1 | FileCheck %s --implicit-check-not="error:"

; CHECK: error: {{.*}}in function pad_low_negative {{.*}}: llvm.tensor.pad: low entry -1 of dimension 0 must be >= 0
; CHECK: error: {{.*}}in function pad_high_length {{.*}}: llvm.tensor.pad: high has 1 entry, but the input's rank is 2
; CHECK: error: {{.*}}in function pad_value_type {{.*}}: llvm.tensor.pad: value type i32 differs from the input's element type f32
; CHECK: error: {{.*}}in function pad_result {{.*}}: llvm.tensor.pad: result has 6 elements, but the inferred result shape 3x5 holds 15
define void @pad_low_negative(<6 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.pad.v6f32.v2i32.v2i32.f32(token %t, <2 x i32> <i32 -1, i32 0>, <2 x i32> <i32 1, i32 0>, float 0.0)
  ret void
}
define void @pad_high_length(<6 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.pad.v6f32.v2i32.v1i32.f32(token %t, <2 x i32> <i32 0, i32 0>, <1 x i32> <i32 1>, float 0.0)
  ret void
}
define void @pad_value_type(<6 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.pad.v6f32.v2i32.v2i32.i32(token %t, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer, i32 0)
  ret void
}
define void @pad_result(<6 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.pad.v6f32.v2i32.v2i32.f32(token %t, <2 x i32> <i32 1, i32 0>, <2 x i32> <i32 0, i32 2>, float 0.0)
  ret void
}

; CHECK: error: {{.*}}in function concat_elements {{.*}}: llvm.tensor.concat: element types differ: op1 is f32, op2 is i32
; CHECK: error: {{.*}}in function concat_axis_range {{.*}}: llvm.tensor.concat: axis 2 is out of range for rank 2
; CHECK: error: {{.*}}in function concat_axis_negative {{.*}}: llvm.tensor.concat: axis -1 is out of range for rank 2
; CHECK: error: {{.*}}in function concat_ranks {{.*}}: llvm.tensor.concat: ranks differ: op1 is 2x3, op2 is 6
; CHECK: error: {{.*}}in function concat_other_dim {{.*}}: llvm.tensor.concat: dimension 1 differs: op1 is 2x3, op2 is 4x4 (only axis 0 may differ)
; CHECK: error: {{.*}}in function concat_result {{.*}}: llvm.tensor.concat: result typeinfo shape 3x6 differs from the inferred result shape 6x3
define void @concat_elements(<6 x float> %a, <6 x i32> %b) {
  %ta = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %a, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v6i32.v2i32.v2i32.v2i32(<6 x i32> %b, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <12 x float> @llvm.tensor.concat.v12f32.i32(token %ta, token %tb, i32 0)
  ret void
}
define void @concat_axis_range(<6 x float> %a) {
  %ta = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %a, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <12 x float> @llvm.tensor.concat.v12f32.i32(token %ta, token %ta, i32 2)
  ret void
}
define void @concat_axis_negative(<6 x float> %a) {
  %ta = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %a, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <12 x float> @llvm.tensor.concat.v12f32.i32(token %ta, token %ta, i32 -1)
  ret void
}
define void @concat_ranks(<6 x float> %a) {
  %ta = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %a, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v6f32.v1i32.v1i32.v1i32(<6 x float> %a, <1 x i32> <i32 6>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %r = call <12 x float> @llvm.tensor.concat.v12f32.i32(token %ta, token %tb, i32 0)
  ret void
}
define void @concat_other_dim(<6 x float> %a, <16 x float> %b) {
  %ta = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %a, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float> %b, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <22 x float> @llvm.tensor.concat.v22f32.i32(token %ta, token %tb, i32 0)
  ret void
}
define void @concat_result(<6 x float> %a, <12 x float> %b) {
  %ta = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %a, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %b, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <18 x float> @llvm.tensor.concat.v18f32.i32(token %ta, token %tb, i32 0)
  %tr = call token @llvm.tensor.typeinfo.v18f32.v2i32.v2i32.v2i32(<18 x float> %r, <2 x i32> <i32 3, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}

; CHECK: error: {{.*}}in function tovector_length {{.*}}: llvm.tensor.tovector: result has 4 elements, but the inferred result shape 6 holds 6
; CHECK: error: {{.*}}in function tovector_element {{.*}}: llvm.tensor.tovector: result element type i16 differs from the inferred i8
define void @tovector_length(<6 x float> %a) {
  %ta = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %a, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <4 x float> @llvm.tensor.tovector.v4f32(token %ta)
  ret void
}
define void @tovector_element(<6 x i8> %a) {
  %ta = call token @llvm.tensor.typeinfo.v6i8.v2i32.v2i32.v2i32(<6 x i8> %a, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x i16> @llvm.tensor.tovector.v6i16(token %ta)
  ret void
}

; CHECK: tlx: error: 12 error(s) in TLX code; stopping
; No crash after the last error:
; CHECK-NOT: PLEASE submit
; CHECK-NOT: Stack dump

; --- declarations ---
declare <12 x float> @llvm.tensor.concat.v12f32.i32(token, token, i32)
declare <18 x float> @llvm.tensor.concat.v18f32.i32(token, token, i32)
declare <22 x float> @llvm.tensor.concat.v22f32.i32(token, token, i32)
declare <6 x float> @llvm.tensor.pad.v6f32.v2i32.v1i32.f32(token, <2 x i32>, <1 x i32>, float)
declare <6 x float> @llvm.tensor.pad.v6f32.v2i32.v2i32.f32(token, <2 x i32>, <2 x i32>, float)
declare <6 x float> @llvm.tensor.pad.v6f32.v2i32.v2i32.i32(token, <2 x i32>, <2 x i32>, i32)
declare <4 x float> @llvm.tensor.tovector.v4f32(token)
declare <6 x i16> @llvm.tensor.tovector.v6i16(token)
declare token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v16f32.v2i32.v2i32.v2i32(<16 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v18f32.v2i32.v2i32.v2i32(<18 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v6f32.v1i32.v1i32.v1i32(<6 x float>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v6i32.v2i32.v2i32.v2i32(<6 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v6i8.v2i32.v2i32.v2i32(<6 x i8>, <2 x i32>, <2 x i32>, <2 x i32>)
