; reshape.block splits each logical dim by its block (which divides it) and
; appends the blocks > 1 as innermost dims; reshape.permute takes its shape
; from the result typeinfo and keeps every element. Both need that typeinfo.
; transpose(T, perm) keeps the logical tensor and stores it with layout
; perm; transpose(T) swaps the last two logical dims.
; RUN: not %opt_tlx -passes=tlx-verify -disable-output %s 2>&1 | FileCheck %s --implicit-check-not="error:"

; CHECK: error: {{.*}}in function block_untyped {{.*}}: llvm.tensor.reshape.block: the result shape cannot be inferred from the operands: the result needs a typeinfo
; CHECK: error: {{.*}}in function block_length {{.*}}: llvm.tensor.reshape.block: blocks has 1 entry, but the input's rank is 2
; CHECK: error: {{.*}}in function block_zero {{.*}}: llvm.tensor.reshape.block: blocks entry 0 of dimension 0 must be >= 1
; CHECK: error: {{.*}}in function block_not_dividing {{.*}}: llvm.tensor.reshape.block: block 4 does not divide extent 6 of dimension 1
; CHECK: error: {{.*}}in function block_shape {{.*}}: llvm.tensor.reshape.block: result typeinfo shape 2x3x2x2 differs from the inferred result shape 2x2x2x3
define void @block_untyped(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <24 x float> @llvm.tensor.reshape.block.v24f32.v2i32(token %t, <2 x i32> <i32 2, i32 3>)
  ret void
}
define void @block_length(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <24 x float> @llvm.tensor.reshape.block.v24f32.v1i32(token %t, <1 x i32> <i32 2>)
  %tr = call token @llvm.tensor.typeinfo.v24f32.v4i32.v4i32.v4i32(<24 x float> %r, <4 x i32> <i32 2, i32 2, i32 2, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  ret void
}
define void @block_zero(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <24 x float> @llvm.tensor.reshape.block.v24f32.v2i32(token %t, <2 x i32> <i32 0, i32 3>)
  %tr = call token @llvm.tensor.typeinfo.v24f32.v4i32.v4i32.v4i32(<24 x float> %r, <4 x i32> <i32 2, i32 2, i32 2, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  ret void
}
define void @block_not_dividing(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <24 x float> @llvm.tensor.reshape.block.v24f32.v2i32(token %t, <2 x i32> <i32 2, i32 4>)
  %tr = call token @llvm.tensor.typeinfo.v24f32.v4i32.v4i32.v4i32(<24 x float> %r, <4 x i32> <i32 2, i32 2, i32 2, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  ret void
}
; 4x6 blocked by <2, 3> is [4/2, 6/3, 2, 3]: the blocks go innermost.
define void @block_shape(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <24 x float> @llvm.tensor.reshape.block.v24f32.v2i32(token %t, <2 x i32> <i32 2, i32 3>)
  %tr = call token @llvm.tensor.typeinfo.v24f32.v4i32.v4i32.v4i32(<24 x float> %r, <4 x i32> <i32 2, i32 3, i32 2, i32 2>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  ret void
}

; CHECK: error: {{.*}}in function permute_untyped {{.*}}: llvm.tensor.reshape.permute: the result shape cannot be inferred from the operands: the result needs a typeinfo
; CHECK: error: {{.*}}in function permute_count {{.*}}: llvm.tensor.reshape.permute: result shape 5x5 holds 25 elements, but the input 4x6 holds 24
define void @permute_untyped(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <24 x float> @llvm.tensor.reshape.permute.v24f32(token %t)
  ret void
}
define void @permute_count(<24 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float> %v, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <25 x float> @llvm.tensor.reshape.permute.v25f32(token %t)
  %tr = call token @llvm.tensor.typeinfo.v25f32.v2i32.v2i32.v2i32(<25 x float> %r, <2 x i32> <i32 5, i32 5>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}

; transpose(T, perm): perm is a permutation of the rank, and the result's
; typeinfo stores the same logical tensor with layout perm.
; CHECK: error: {{.*}}in function perm_length {{.*}}: llvm.tensor.transpose: permutation has 2 entries, but the input's rank is 3
; CHECK: error: {{.*}}in function perm_invalid {{.*}}: llvm.tensor.transpose: permutation <0, 0, 1> is not a permutation of 0..2
; CHECK: error: {{.*}}in function result_layout_not_perm {{.*}}: llvm.tensor.transpose: result typeinfo layout <1, 2, 0> differs from the permutation <2, 0, 1>
; CHECK: error: {{.*}}in function result_identity_layout {{.*}}: llvm.tensor.transpose: result typeinfo shape 3x16x5 differs from the inferred result shape 16x5x3
define void @perm_length(<240 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v240f32.v3i32.v3i32.v3i32(<240 x float> %v, <3 x i32> <i32 16, i32 5, i32 3>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <240 x float> @llvm.tensor.transpose.v240f32.v2i32(token %t, <2 x i32> <i32 1, i32 0>)
  ret void
}
define void @perm_invalid(<240 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v240f32.v3i32.v3i32.v3i32(<240 x float> %v, <3 x i32> <i32 16, i32 5, i32 3>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <240 x float> @llvm.tensor.transpose.v240f32.v3i32(token %t, <3 x i32> <i32 0, i32 0, i32 1>)
  ret void
}
; Logical shape right (16x5x3), but stored with another layout than perm.
define void @result_layout_not_perm(<240 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v240f32.v3i32.v3i32.v3i32(<240 x float> %v, <3 x i32> <i32 16, i32 5, i32 3>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <240 x float> @llvm.tensor.transpose.v240f32.v3i32(token %t, <3 x i32> <i32 2, i32 0, i32 1>)
  %tr = call token @llvm.tensor.typeinfo.v240f32.v3i32.v3i32.v3i32(<240 x float> %r, <3 x i32> <i32 5, i32 3, i32 16>, <3 x i32> <i32 1, i32 2, i32 0>, <3 x i32> zeroinitializer)
  ret void
}
; The RFC's result shape with an identity layout is another logical tensor.
define void @result_identity_layout(<240 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v240f32.v3i32.v3i32.v3i32(<240 x float> %v, <3 x i32> <i32 16, i32 5, i32 3>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <240 x float> @llvm.tensor.transpose.v240f32.v3i32(token %t, <3 x i32> <i32 2, i32 0, i32 1>)
  %tr = call token @llvm.tensor.typeinfo.v240f32.v3i32.v3i32.v3i32(<240 x float> %r, <3 x i32> <i32 3, i32 16, i32 5>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  ret void
}

; transpose(T): the last two logical dims swap.
; CHECK: error: {{.*}}in function swap_rank_one {{.*}}: llvm.tensor.transpose: input is 6: one-operand transpose needs rank >= 2
; CHECK: error: {{.*}}in function swap_result_shape {{.*}}: llvm.tensor.transpose: result typeinfo shape 2x3 differs from the inferred result shape 3x2
define void @swap_rank_one(<6 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v1i32.v1i32.v1i32(<6 x float> %v, <1 x i32> <i32 6>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.transpose.v6f32(token %t)
  ret void
}
define void @swap_result_shape(<6 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <6 x float> @llvm.tensor.transpose.v6f32(token %t)
  %tr = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %r, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}

; CHECK: tlx: error: 13 error(s) in TLX code; stopping
; No crash after the last error:
; CHECK-NOT: PLEASE submit
; CHECK-NOT: Stack dump

; --- declarations ---
declare <24 x float> @llvm.tensor.reshape.block.v24f32.v1i32(token, <1 x i32>)
declare <24 x float> @llvm.tensor.reshape.block.v24f32.v2i32(token, <2 x i32>)
declare <24 x float> @llvm.tensor.reshape.permute.v24f32(token)
declare <25 x float> @llvm.tensor.reshape.permute.v25f32(token)
declare <240 x float> @llvm.tensor.transpose.v240f32.v2i32(token, <2 x i32>)
declare <240 x float> @llvm.tensor.transpose.v240f32.v3i32(token, <3 x i32>)
declare <6 x float> @llvm.tensor.transpose.v6f32(token)
declare token @llvm.tensor.typeinfo.v240f32.v3i32.v3i32.v3i32(<240 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v24f32.v2i32.v2i32.v2i32(<24 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v24f32.v4i32.v4i32.v4i32(<24 x float>, <4 x i32>, <4 x i32>, <4 x i32>)
declare token @llvm.tensor.typeinfo.v25f32.v2i32.v2i32.v2i32(<25 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v6f32.v1i32.v1i32.v1i32(<6 x float>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
