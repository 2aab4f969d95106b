; contract is numpy's tensordot: paired axes (in range, distinct, of equal
; extents) are summed; the result is op1's free dims, then op2's.
; RUN: not %opt_tlx -passes=tlx-verify -disable-output %s 2>&1 | FileCheck %s --implicit-check-not="error:"

; CHECK: error: {{.*}}in function axes_lengths_differ {{.*}}: llvm.tensor.contract: op2 axes has 1 entry, but the length of op1 axes is 2
; CHECK: error: {{.*}}in function axis_out_of_range {{.*}}: llvm.tensor.contract: op1 axes entry 3 is out of range for rank 3
; CHECK: error: {{.*}}in function axis_negative {{.*}}: llvm.tensor.contract: op2 axes entry -1 is out of range for rank 3
; CHECK: error: {{.*}}in function axis_repeated {{.*}}: llvm.tensor.contract: op2 axes <1, 1> repeat axis 1
; CHECK: error: {{.*}}in function extents_differ {{.*}}: llvm.tensor.contract: contracted extents differ: op1 axis 2 is 4, op2 axis 0 is 3
define void @axes_lengths_differ(<24 x float> %a) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float> %a, <3 x i32> <i32 2, i32 3, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <4 x float> @llvm.tensor.contract.v4f32.v2i32.v1i32(token %t, token %t, <2 x i32> <i32 0, i32 1>, <1 x i32> <i32 0>)
  ret void
}
define void @axis_out_of_range(<24 x float> %a) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float> %a, <3 x i32> <i32 2, i32 3, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <16 x float> @llvm.tensor.contract.v16f32.v1i32.v1i32(token %t, token %t, <1 x i32> <i32 3>, <1 x i32> <i32 2>)
  ret void
}
define void @axis_negative(<24 x float> %a) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float> %a, <3 x i32> <i32 2, i32 3, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <16 x float> @llvm.tensor.contract.v16f32.v1i32.v1i32(token %t, token %t, <1 x i32> <i32 2>, <1 x i32> <i32 -1>)
  ret void
}
define void @axis_repeated(<24 x float> %a) {
  %t = call token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float> %a, <3 x i32> <i32 2, i32 3, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <16 x float> @llvm.tensor.contract.v16f32.v2i32.v2i32(token %t, token %t, <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 1, i32 1>)
  ret void
}
define void @extents_differ(<24 x float> %a, <12 x float> %b) {
  %ta = call token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float> %a, <3 x i32> <i32 2, i32 3, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %b, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <24 x float> @llvm.tensor.contract.v24f32.v1i32.v1i32(token %ta, token %tb, <1 x i32> <i32 2>, <1 x i32> <i32 0>)
  ret void
}

; The RFC's contract example types its 2x2 result as 2x2x2 <8 x float>.
; CHECK: error: {{.*}}in function rfc_result_typo {{.*}}: llvm.tensor.contract: result has 8 elements, but the inferred result shape 2x2 holds 4
; CHECK: error: {{.*}}in function mixed_classes {{.*}}: llvm.tensor.contract: operands mix integer and floating-point elements: op1 is f32, op2 is i32
define void @rfc_result_typo(<8 x float> %tensor1, <8 x float> %tensor2) {
  %input1 = call token @llvm.tensor.typeinfo.v8f32.v3i32.v3i32.v3i32(<8 x float> %tensor1, <3 x i32> <i32 2, i32 2, i32 2>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> <i32 0, i32 0, i32 0>)
  %input2 = call token @llvm.tensor.typeinfo.v8f32.v3i32.v3i32.v3i32(<8 x float> %tensor2, <3 x i32> <i32 2, i32 2, i32 2>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> <i32 0, i32 0, i32 0>)
  %output = call <8 x float> @llvm.tensor.contract.v8f32.v2i32.v2i32(token %input1, token %input2, <2 x i32> <i32 0, i32 2>, <2 x i32> <i32 0, i32 1>)
  %typed_output = call token @llvm.tensor.typeinfo.v8f32.v3i32.v3i32.v3i32(<8 x float> %output, <3 x i32> <i32 2, i32 2, i32 2>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> <i32 0, i32 0, i32 0>)
  ret void
}
define void @mixed_classes(<8 x float> %a, <8 x i32> %b) {
  %ta = call token @llvm.tensor.typeinfo.v8f32.v3i32.v3i32.v3i32(<8 x float> %a, <3 x i32> <i32 2, i32 2, i32 2>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v8i32.v3i32.v3i32.v3i32(<8 x i32> %b, <3 x i32> <i32 2, i32 2, i32 2>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <4 x float> @llvm.tensor.contract.v4f32.v2i32.v2i32(token %ta, token %tb, <2 x i32> <i32 0, i32 2>, <2 x i32> <i32 0, i32 1>)
  ret void
}

; A result of rank 4 + 5 exceeds TLX's maximum rank.
; CHECK: error: {{.*}}in function result_rank {{.*}}: llvm.tensor.contract: result rank 9 exceeds the maximum of 8
define void @result_rank(<2 x float> %a) {
  %ta = call token @llvm.tensor.typeinfo.v2f32.v5i32.v5i32.v5i32(<2 x float> %a, <5 x i32> <i32 1, i32 1, i32 1, i32 1, i32 2>, <5 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4>, <5 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v2f32.v6i32.v6i32.v6i32(<2 x float> %a, <6 x i32> <i32 2, i32 1, i32 1, i32 1, i32 1, i32 1>, <6 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5>, <6 x i32> zeroinitializer)
  %r = call <1 x float> @llvm.tensor.contract.v1f32.v1i32.v1i32(token %ta, token %tb, <1 x i32> <i32 4>, <1 x i32> <i32 0>)
  ret void
}

; CHECK: tlx: error: 8 error(s) in TLX code; stopping
; No crash after the last error:
; CHECK-NOT: PLEASE submit
; CHECK-NOT: Stack dump

; --- declarations ---
declare <16 x float> @llvm.tensor.contract.v16f32.v1i32.v1i32(token, token, <1 x i32>, <1 x i32>)
declare <16 x float> @llvm.tensor.contract.v16f32.v2i32.v2i32(token, token, <2 x i32>, <2 x i32>)
declare <1 x float> @llvm.tensor.contract.v1f32.v1i32.v1i32(token, token, <1 x i32>, <1 x i32>)
declare <24 x float> @llvm.tensor.contract.v24f32.v1i32.v1i32(token, token, <1 x i32>, <1 x i32>)
declare <4 x float> @llvm.tensor.contract.v4f32.v2i32.v1i32(token, token, <2 x i32>, <1 x i32>)
declare <4 x float> @llvm.tensor.contract.v4f32.v2i32.v2i32(token, token, <2 x i32>, <2 x i32>)
declare <8 x float> @llvm.tensor.contract.v8f32.v2i32.v2i32(token, token, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v2f32.v5i32.v5i32.v5i32(<2 x float>, <5 x i32>, <5 x i32>, <5 x i32>)
declare token @llvm.tensor.typeinfo.v2f32.v6i32.v6i32.v6i32(<2 x float>, <6 x i32>, <6 x i32>, <6 x i32>)
declare token @llvm.tensor.typeinfo.v8f32.v3i32.v3i32.v3i32(<8 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v8i32.v3i32.v3i32.v3i32(<8 x i32>, <3 x i32>, <3 x i32>, <3 x i32>)
