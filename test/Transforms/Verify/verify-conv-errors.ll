; convolution: input [N,C,spatial..] x kernel [O,C,kspatial..] ->
; [N,O,out..], equal ranks >= 3 and channels; strides and dilations have one
; entry per spatial dim (0 reads as 1); the dilated kernel fits the dilated
; input: out = ((in-1)*idil+1 - ((k-1)*kdil+1)) / stride + 1 >= 1.
; RUN: not %opt_tlx -passes=tlx-verify -disable-output %s 2>&1 | FileCheck %s --implicit-check-not="error:"

; The RFC's convolution example convolves 2-D tensors (3x4 with 4x3), which
; have no batch and channel dims.
; CHECK: error: {{.*}}in function rfc_rank_two {{.*}}: llvm.tensor.convolution: input is 3x4: rank >= 3 is required ([N, C, spatial...])
; CHECK: error: {{.*}}in function ranks_differ {{.*}}: llvm.tensor.convolution: ranks differ: input is 1x2x5x5, kernel is 3x2x3
; CHECK: error: {{.*}}in function channels_differ {{.*}}: llvm.tensor.convolution: channels differ: input 1x2x5x5 has 2, kernel 3x1x3x3 has 1
define void @rfc_rank_two(<12 x float> %tensor1, <12 x float> %tensor2) {
  %input = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %tensor1, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> <i32 0, i32 0>)
  %kernel = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %tensor2, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> <i32 0, i32 0>)
  %output = call <9 x float> @llvm.tensor.convolution.v9f32.v2i32.v2i32.v2i32(token %input, token %kernel, <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 0, i32 0>, <2 x i32> <i32 0, i32 0>)
  ret void
}
define void @ranks_differ(<50 x float> %in, <18 x float> %k) {
  %tin = call token @llvm.tensor.typeinfo.v50f32.v4i32.v4i32.v4i32(<50 x float> %in, <4 x i32> <i32 1, i32 2, i32 5, i32 5>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.typeinfo.v18f32.v3i32.v3i32.v3i32(<18 x float> %k, <3 x i32> <i32 3, i32 2, i32 3>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <27 x float> @llvm.tensor.convolution.v27f32(token %tin, token %tk)
  ret void
}
define void @channels_differ(<50 x float> %in, <27 x float> %k) {
  %tin = call token @llvm.tensor.typeinfo.v50f32.v4i32.v4i32.v4i32(<50 x float> %in, <4 x i32> <i32 1, i32 2, i32 5, i32 5>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.typeinfo.v27f32.v4i32.v4i32.v4i32(<27 x float> %k, <4 x i32> <i32 3, i32 1, i32 3, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %r = call <27 x float> @llvm.tensor.convolution.v27f32(token %tin, token %tk)
  ret void
}

; CHECK: error: {{.*}}in function strides_length {{.*}}: llvm.tensor.convolution: strides has 3 entries, but the input's spatial dimension count is 2
; CHECK: error: {{.*}}in function negative_dilation {{.*}}: llvm.tensor.convolution: kernel dilations entry -1 of dimension 1 must be >= 0
; CHECK: error: {{.*}}in function negative_stride {{.*}}: llvm.tensor.convolution: strides entry -2 of dimension 0 must be >= 0
define void @strides_length(<50 x float> %in, <54 x float> %k) {
  %tin = call token @llvm.tensor.typeinfo.v50f32.v4i32.v4i32.v4i32(<50 x float> %in, <4 x i32> <i32 1, i32 2, i32 5, i32 5>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.typeinfo.v54f32.v4i32.v4i32.v4i32(<54 x float> %k, <4 x i32> <i32 3, i32 2, i32 3, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %r = call <27 x float> @llvm.tensor.convolution.v27f32.v3i32(token %tin, token %tk, <3 x i32> <i32 1, i32 1, i32 1>)
  ret void
}
define void @negative_dilation(<50 x float> %in, <54 x float> %k) {
  %tin = call token @llvm.tensor.typeinfo.v50f32.v4i32.v4i32.v4i32(<50 x float> %in, <4 x i32> <i32 1, i32 2, i32 5, i32 5>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.typeinfo.v54f32.v4i32.v4i32.v4i32(<54 x float> %k, <4 x i32> <i32 3, i32 2, i32 3, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %r = call <27 x float> @llvm.tensor.convolution.v27f32.v2i32.v2i32.v2i32(token %tin, token %tk, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer, <2 x i32> <i32 1, i32 -1>)
  ret void
}
define void @negative_stride(<50 x float> %in, <54 x float> %k) {
  %tin = call token @llvm.tensor.typeinfo.v50f32.v4i32.v4i32.v4i32(<50 x float> %in, <4 x i32> <i32 1, i32 2, i32 5, i32 5>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.typeinfo.v54f32.v4i32.v4i32.v4i32(<54 x float> %k, <4 x i32> <i32 3, i32 2, i32 3, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %r = call <27 x float> @llvm.tensor.convolution.v27f32.v2i32(token %tin, token %tk, <2 x i32> <i32 -2, i32 1>)
  ret void
}

; A kernel larger than the input (after dilation) leaves no output.
; CHECK: error: {{.*}}in function kernel_too_large {{.*}}: llvm.tensor.convolution: kernel window 6 exceeds input extent 5 in spatial dimension 1 (after dilation)
; CHECK: error: {{.*}}in function dilated_kernel_too_large {{.*}}: llvm.tensor.convolution: kernel window 7 exceeds input extent 5 in spatial dimension 0 (after dilation)
define void @kernel_too_large(<50 x float> %in, <36 x float> %k) {
  %tin = call token @llvm.tensor.typeinfo.v50f32.v4i32.v4i32.v4i32(<50 x float> %in, <4 x i32> <i32 1, i32 2, i32 5, i32 5>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.typeinfo.v36f32.v4i32.v4i32.v4i32(<36 x float> %k, <4 x i32> <i32 1, i32 2, i32 3, i32 6>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %r = call <3 x float> @llvm.tensor.convolution.v3f32(token %tin, token %tk)
  ret void
}
define void @dilated_kernel_too_large(<50 x float> %in, <54 x float> %k) {
  %tin = call token @llvm.tensor.typeinfo.v50f32.v4i32.v4i32.v4i32(<50 x float> %in, <4 x i32> <i32 1, i32 2, i32 5, i32 5>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.typeinfo.v54f32.v4i32.v4i32.v4i32(<54 x float> %k, <4 x i32> <i32 3, i32 2, i32 3, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %r = call <3 x float> @llvm.tensor.convolution.v3f32.v2i32.v2i32.v2i32(token %tin, token %tk, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer, <2 x i32> <i32 3, i32 1>)
  ret void
}

; The result: 1x3x3x3 with unit strides; strides 2 give 1x3x2x2.
; CHECK: error: {{.*}}in function result_length {{.*}}: llvm.tensor.convolution: result has 27 elements, but the inferred result shape 1x3x2x2 holds 12
; CHECK: error: {{.*}}in function result_typeinfo_shape {{.*}}: llvm.tensor.convolution: result typeinfo shape 3x1x3x3 differs from the inferred result shape 1x3x3x3
; CHECK: error: {{.*}}in function mixed_classes {{.*}}: llvm.tensor.convolution: operands mix integer and floating-point elements: input is f32, kernel is i8
define void @result_length(<50 x float> %in, <54 x float> %k) {
  %tin = call token @llvm.tensor.typeinfo.v50f32.v4i32.v4i32.v4i32(<50 x float> %in, <4 x i32> <i32 1, i32 2, i32 5, i32 5>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.typeinfo.v54f32.v4i32.v4i32.v4i32(<54 x float> %k, <4 x i32> <i32 3, i32 2, i32 3, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %r = call <27 x float> @llvm.tensor.convolution.v27f32.v2i32(token %tin, token %tk, <2 x i32> <i32 2, i32 2>)
  ret void
}
define void @result_typeinfo_shape(<50 x float> %in, <54 x float> %k) {
  %tin = call token @llvm.tensor.typeinfo.v50f32.v4i32.v4i32.v4i32(<50 x float> %in, <4 x i32> <i32 1, i32 2, i32 5, i32 5>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.typeinfo.v54f32.v4i32.v4i32.v4i32(<54 x float> %k, <4 x i32> <i32 3, i32 2, i32 3, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %r = call <27 x float> @llvm.tensor.convolution.v27f32(token %tin, token %tk)
  %tr = call token @llvm.tensor.typeinfo.v27f32.v4i32.v4i32.v4i32(<27 x float> %r, <4 x i32> <i32 3, i32 1, i32 3, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  ret void
}
define void @mixed_classes(<50 x float> %in, <54 x i8> %k) {
  %tin = call token @llvm.tensor.typeinfo.v50f32.v4i32.v4i32.v4i32(<50 x float> %in, <4 x i32> <i32 1, i32 2, i32 5, i32 5>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %tk = call token @llvm.tensor.typeinfo.v54i8.v4i32.v4i32.v4i32(<54 x i8> %k, <4 x i32> <i32 3, i32 2, i32 3, i32 3>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer)
  %r = call <27 x float> @llvm.tensor.convolution.v27f32(token %tin, token %tk)
  ret void
}

; CHECK: tlx: error: 11 error(s) in TLX code; stopping
; No crash after the last error:
; CHECK-NOT: PLEASE submit
; CHECK-NOT: Stack dump

; --- declarations ---
declare <27 x float> @llvm.tensor.convolution.v27f32(token, token)
declare <27 x float> @llvm.tensor.convolution.v27f32.v2i32(token, token, <2 x i32>)
declare <27 x float> @llvm.tensor.convolution.v27f32.v2i32.v2i32.v2i32(token, token, <2 x i32>, <2 x i32>, <2 x i32>)
declare <27 x float> @llvm.tensor.convolution.v27f32.v3i32(token, token, <3 x i32>)
declare <3 x float> @llvm.tensor.convolution.v3f32(token, token)
declare <3 x float> @llvm.tensor.convolution.v3f32.v2i32.v2i32.v2i32(token, token, <2 x i32>, <2 x i32>, <2 x i32>)
declare <9 x float> @llvm.tensor.convolution.v9f32.v2i32.v2i32.v2i32(token, token, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v18f32.v3i32.v3i32.v3i32(<18 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v27f32.v4i32.v4i32.v4i32(<27 x float>, <4 x i32>, <4 x i32>, <4 x i32>)
declare token @llvm.tensor.typeinfo.v36f32.v4i32.v4i32.v4i32(<36 x float>, <4 x i32>, <4 x i32>, <4 x i32>)
declare token @llvm.tensor.typeinfo.v50f32.v4i32.v4i32.v4i32(<50 x float>, <4 x i32>, <4 x i32>, <4 x i32>)
declare token @llvm.tensor.typeinfo.v54f32.v4i32.v4i32.v4i32(<54 x float>, <4 x i32>, <4 x i32>, <4 x i32>)
declare token @llvm.tensor.typeinfo.v54i8.v4i32.v4i32.v4i32(<54 x i8>, <4 x i32>, <4 x i32>, <4 x i32>)
