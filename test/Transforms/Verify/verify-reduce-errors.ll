; reduce.* is a reduce-window over every logical dim: window and strides
; have one entry per dim, 1 <= window <= extent, stride >= 1, and
; out = (in - window) / stride + 1. and/or/xor take integers only.
; RUN: not %opt_tlx -passes=tlx-verify -disable-output %s 2>&1 | FileCheck %s --implicit-check-not="error:"

; CHECK: error: {{.*}}in function window_length {{.*}}: llvm.tensor.reduce.max: window has 3 entries, but the input's rank is 2
; CHECK: error: {{.*}}in function strides_length {{.*}}: llvm.tensor.reduce.min: strides has 1 entry, but the input's rank is 2
; CHECK: error: {{.*}}in function window_zero {{.*}}: llvm.tensor.reduce.add: window entry 0 of dimension 1 must be >= 1
; CHECK: error: {{.*}}in function stride_zero {{.*}}: llvm.tensor.reduce.mul: strides entry 0 of dimension 0 must be >= 1
; CHECK: error: {{.*}}in function window_too_large {{.*}}: llvm.tensor.reduce.max: window 5 exceeds extent 4 of dimension 0
define void @window_length(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.reduce.max.v6f32.v3i32.v2i32(token %t, <3 x i32> <i32 2, i32 2, i32 1>, <2 x i32> <i32 2, i32 2>)
  ret void
}
define void @strides_length(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.reduce.min.v6f32.v2i32.v1i32(token %t, <2 x i32> <i32 2, i32 2>, <1 x i32> <i32 2>)
  ret void
}
define void @window_zero(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.reduce.add.v6f32.v2i32.v2i32(token %t, <2 x i32> <i32 2, i32 0>, <2 x i32> <i32 2, i32 2>)
  ret void
}
define void @stride_zero(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.reduce.mul.v6f32.v2i32.v2i32(token %t, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 2>)
  ret void
}
define void @window_too_large(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <2 x float> @llvm.tensor.reduce.max.v2f32.v2i32.v2i32(token %t, <2 x i32> <i32 5, i32 3>, <2 x i32> <i32 1, i32 3>)
  ret void
}

; Windows are over logical dims: storage 6x4 column-major is logically 4x6,
; so a window of 6 on dim 0 does not fit.
; CHECK: error: {{.*}}in function window_logical {{.*}}: llvm.tensor.reduce.min: window 6 exceeds extent 4 of dimension 0
define void @window_logical(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 6, i32 4>, <2 x i32> <i32 1, i32 0>, <2 x i32> zeroinitializer)
  %r = call <1 x float> @llvm.tensor.reduce.min.v1f32.v2i32.v2i32(token %t, <2 x i32> <i32 6, i32 4>, <2 x i32> <i32 1, i32 1>)
  ret void
}

; CHECK: error: {{.*}}in function bitwise_on_float {{.*}}: llvm.tensor.reduce.and: element type f32 of input is not allowed (integer elements only)
; CHECK: error: {{.*}}in function bitwise_on_float {{.*}}: llvm.tensor.reduce.or: element type f32 of input is not allowed (integer elements only)
; CHECK: error: {{.*}}in function bitwise_on_float {{.*}}: llvm.tensor.reduce.xor: element type f32 of input is not allowed (integer elements only)
define void @bitwise_on_float(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %a = call <6 x float> @llvm.tensor.reduce.and.v6f32.v2i32.v2i32(token %t, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 2, i32 2>)
  %o = call <6 x float> @llvm.tensor.reduce.or.v6f32.v2i32.v2i32(token %t, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 2, i32 2>)
  %x = call <6 x float> @llvm.tensor.reduce.xor.v6f32.v2i32.v2i32(token %t, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 2, i32 2>)
  ret void
}

; (4 - 2) / 1 + 1 = 3 by (6 - 2) / 2 + 1 = 3.
; CHECK: error: {{.*}}in function result_length {{.*}}: llvm.tensor.reduce.add: result has 6 elements, but the inferred result shape 3x3 holds 9
; CHECK: error: {{.*}}in function result_typeinfo_shape {{.*}}: llvm.tensor.reduce.xor: result typeinfo shape 3x2 differs from the inferred result shape 2x3
define void @result_length(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.reduce.add.v6f32.v2i32.v2i32(token %t, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 1, i32 2>)
  ret void
}
define void @result_typeinfo_shape(<24 x i16> %v) {
  %t = call token @llvm.tensor.typeinfo.v24i16.v2i32.v2i32.v2i32(<24 x i16> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x i16> @llvm.tensor.reduce.xor.v6i16.v2i32.v2i32(token %t, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 2, i32 2>)
  %tr = call token @llvm.tensor.typeinfo.v6i16.v2i32.v2i32.v2i32(<6 x i16> %r, <2 x i32> <i32 3, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}

; CHECK: tlx: error: 11 error(s) in TLX code; stopping
; No crash after the last error:
; CHECK-NOT: PLEASE submit
; CHECK-NOT: Stack dump

; --- declarations ---
declare <6 x float> @llvm.tensor.reduce.add.v6f32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <6 x float> @llvm.tensor.reduce.and.v6f32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <2 x float> @llvm.tensor.reduce.max.v2f32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <6 x float> @llvm.tensor.reduce.max.v6f32.v3i32.v2i32(token, <3 x i32>, <2 x i32>)
declare <1 x float> @llvm.tensor.reduce.min.v1f32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <6 x float> @llvm.tensor.reduce.min.v6f32.v2i32.v1i32(token, <2 x i32>, <1 x i32>)
declare <6 x float> @llvm.tensor.reduce.mul.v6f32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <6 x float> @llvm.tensor.reduce.or.v6f32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <6 x float> @llvm.tensor.reduce.xor.v6f32.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare <6 x i16> @llvm.tensor.reduce.xor.v6i16.v2i32.v2i32(token, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v24i16.v2i32.v2i32.v2i32(<24 x i16>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v6i16.v2i32.v2i32.v2i32(<6 x i16>, <2 x i32>, <2 x i32>, <2 x i32>)
