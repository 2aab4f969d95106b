; umma/smma/usmma/summa: acc [..,M,N] + op1 [..,M,K] x op2 [..,K,N];
; integer elements only, operands no wider than the accumulator, and the
; result has the accumulator's element type.
; RUN: not %opt_tlx -passes=tlx-verify -disable-output %s 2>&1 | FileCheck %s --implicit-check-not="error:"

; CHECK: error: {{.*}}in function float_acc {{.*}}: llvm.tensor.smma: element type f32 of acc is not allowed (integer elements only)
; CHECK: error: {{.*}}in function float_operand {{.*}}: llvm.tensor.umma: element type bf16 of op2 is not allowed (integer elements only)
define void @float_acc(<9 x float> %acc, <12 x i8> %a) {
  %tacc = call token @llvm.tensor.typeinfo.v9f32.v2i32.v2i32.v2i32(<9 x float> %acc, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %ta = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <9 x float> @llvm.tensor.smma.v9f32(token %tacc, token %ta, token %tb)
  ret void
}
define void @float_operand(<9 x i32> %acc, <12 x i8> %a, <12 x bfloat> %b) {
  %tacc = call token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32> %acc, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %ta = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12bf16.v2i32.v2i32.v2i32(<12 x bfloat> %b, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <9 x i32> @llvm.tensor.umma.v9i32(token %tacc, token %ta, token %tb)
  ret void
}

; CHECK: error: {{.*}}in function wide_operand {{.*}}: llvm.tensor.usmma: op1 element type i64 is wider than the accumulator's i32
; CHECK: error: {{.*}}in function result_not_acc_type {{.*}}: llvm.tensor.summa: result element type i8 differs from the inferred i32
define void @wide_operand(<9 x i32> %acc, <12 x i64> %a, <12 x i8> %b) {
  %tacc = call token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32> %acc, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %ta = call token @llvm.tensor.typeinfo.v12i64.v2i32.v2i32.v2i32(<12 x i64> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %b, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <9 x i32> @llvm.tensor.usmma.v9i32(token %tacc, token %ta, token %tb)
  ret void
}
define void @result_not_acc_type(<9 x i32> %acc, <12 x i8> %a) {
  %tacc = call token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32> %acc, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %ta = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <9 x i8> @llvm.tensor.summa.v9i8(token %tacc, token %ta, token %tb)
  ret void
}

; Shapes.
; CHECK: error: {{.*}}in function acc_rank_one {{.*}}: llvm.tensor.smma: acc is 9: rank >= 2 is required
; CHECK: error: {{.*}}in function ranks_differ {{.*}}: llvm.tensor.smma: ranks differ: acc is 3x3, op1 is 1x3x4, op2 is 4x3
; CHECK: error: {{.*}}in function batch_differs {{.*}}: llvm.tensor.smma: batch dimensions differ: acc is 2x3x3, op1 is 3x3x4, op2 is 3x4x3
; CHECK: error: {{.*}}in function inner_dims {{.*}}: llvm.tensor.smma: inner dimensions differ: op1 is 3x4 (M=3, K=4), op2 is 3x3 (K=3, N=3)
; CHECK: error: {{.*}}in function acc_shape {{.*}}: llvm.tensor.smma: accumulator is 3x4, but op1 x op2 is 3x3 (M=3, N=3)
define void @acc_rank_one(<9 x i32> %acc, <12 x i8> %a) {
  %tacc = call token @llvm.tensor.typeinfo.v9i32.v1i32.v1i32.v1i32(<9 x i32> %acc, <1 x i32> <i32 9>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %ta = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <9 x i32> @llvm.tensor.smma.v9i32(token %tacc, token %ta, token %tb)
  ret void
}
define void @ranks_differ(<9 x i32> %acc, <12 x i8> %a) {
  %tacc = call token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32> %acc, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %ta = call token @llvm.tensor.typeinfo.v12i8.v3i32.v3i32.v3i32(<12 x i8> %a, <3 x i32> <i32 1, i32 3, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <9 x i32> @llvm.tensor.smma.v9i32(token %tacc, token %ta, token %tb)
  ret void
}
define void @batch_differs(<18 x i32> %acc, <36 x i8> %a) {
  %tacc = call token @llvm.tensor.typeinfo.v18i32.v3i32.v3i32.v3i32(<18 x i32> %acc, <3 x i32> <i32 2, i32 3, i32 3>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %ta = call token @llvm.tensor.typeinfo.v36i8.v3i32.v3i32.v3i32(<36 x i8> %a, <3 x i32> <i32 3, i32 3, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v36i8.v3i32.v3i32.v3i32(<36 x i8> %a, <3 x i32> <i32 3, i32 4, i32 3>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <18 x i32> @llvm.tensor.smma.v18i32(token %tacc, token %ta, token %tb)
  ret void
}
define void @inner_dims(<9 x i32> %acc, <12 x i8> %a, <9 x i8> %b) {
  %tacc = call token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32> %acc, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %ta = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v9i8.v2i32.v2i32.v2i32(<9 x i8> %b, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <9 x i32> @llvm.tensor.smma.v9i32(token %tacc, token %ta, token %tb)
  ret void
}
define void @acc_shape(<12 x i32> %acc, <12 x i8> %a) {
  %tacc = call token @llvm.tensor.typeinfo.v12i32.v2i32.v2i32.v2i32(<12 x i32> %acc, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %ta = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <12 x i32> @llvm.tensor.smma.v12i32(token %tacc, token %ta, token %tb)
  ret void
}

; CHECK: tlx: error: 9 error(s) in TLX code; stopping
; No crash after the last error:
; CHECK-NOT: PLEASE submit
; CHECK-NOT: Stack dump

; --- declarations ---
declare <12 x i32> @llvm.tensor.smma.v12i32(token, token, token)
declare <18 x i32> @llvm.tensor.smma.v18i32(token, token, token)
declare <9 x float> @llvm.tensor.smma.v9f32(token, token, token)
declare <9 x i32> @llvm.tensor.smma.v9i32(token, token, token)
declare <9 x i8> @llvm.tensor.summa.v9i8(token, token, token)
declare token @llvm.tensor.typeinfo.v12bf16.v2i32.v2i32.v2i32(<12 x bfloat>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12i32.v2i32.v2i32.v2i32(<12 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12i64.v2i32.v2i32.v2i32(<12 x i64>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12i8.v3i32.v3i32.v3i32(<12 x i8>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v18i32.v3i32.v3i32.v3i32(<18 x i32>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v36i8.v3i32.v3i32.v3i32(<36 x i8>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v9f32.v2i32.v2i32.v2i32(<9 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v9i32.v1i32.v1i32.v1i32(<9 x i32>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v9i8.v2i32.v2i32.v2i32(<9 x i8>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <9 x i32> @llvm.tensor.umma.v9i32(token, token, token)
declare <9 x i32> @llvm.tensor.usmma.v9i32(token, token, token)
