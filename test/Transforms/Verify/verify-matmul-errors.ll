; matmul: [..,M,K] x [..,K,N] -> [..,M,N] on logical shapes, equal batch
; dims; operands widen exactly to the result's element type; the result
; (vector type and first typeinfo) must match what the operands give.
; RUN: not %opt_tlx -passes=tlx-verify -disable-output %s 2>&1 | FileCheck %s --implicit-check-not="error:"

; CHECK: error: {{.*}}in function inner_dims {{.*}}: llvm.tensor.matmul: inner dimensions differ: op1 is 3x4 (M=3, K=4), op2 is 5x3 (K=5, N=3)
define void @inner_dims(<12 x float> %a, <15 x float> %b) {
  %ta = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v15f32.v2i32.v2i32.v2i32(<15 x float> %b, <2 x i32> <i32 5, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <9 x float> @llvm.tensor.matmul.v9f32(token %ta, token %tb)
  ret void
}

; Shapes are logical: op1 stored 4x3 column-major is 3x4, so 3x4 x 3x4 fails;
; the message says how the column-major operand is written.
; CHECK: error: {{.*}}in function inner_dims_logical {{.*}}: llvm.tensor.matmul: inner dimensions differ: op1 is 3x4 (M=3, K=4; written 4x3 in storage order, layout <1, 0>), op2 is 3x4 (K=3, N=4)
define void @inner_dims_logical(<12 x float> %a) {
  %ta = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 1, i32 0>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <16 x float> @llvm.tensor.matmul.v16f32(token %ta, token %tb)
  ret void
}

; CHECK: error: {{.*}}in function rank_one {{.*}}: llvm.tensor.matmul: op1 is 4: rank >= 2 is required
; CHECK: error: {{.*}}in function ranks_differ {{.*}}: llvm.tensor.matmul: ranks differ: op1 is 2x3x4, op2 is 4x5
; CHECK: error: {{.*}}in function batch_differs {{.*}}: llvm.tensor.matmul: batch dimensions differ: op1 is 2x3x4, op2 is 3x4x5
define void @rank_one(<4 x float> %a, <20 x float> %b) {
  %ta = call token @llvm.tensor.typeinfo.v4f32.v1i32.v1i32.v1i32(<4 x float> %a, <1 x i32> <i32 4>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v20f32.v2i32.v2i32.v2i32(<20 x float> %b, <2 x i32> <i32 4, i32 5>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <5 x float> @llvm.tensor.matmul.v5f32(token %ta, token %tb)
  ret void
}
define void @ranks_differ(<24 x float> %a, <20 x float> %b) {
  %ta = call token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float> %a, <3 x i32> <i32 2, i32 3, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v20f32.v2i32.v2i32.v2i32(<20 x float> %b, <2 x i32> <i32 4, i32 5>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <30 x float> @llvm.tensor.matmul.v30f32(token %ta, token %tb)
  ret void
}
define void @batch_differs(<24 x float> %a, <60 x float> %b) {
  %ta = call token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float> %a, <3 x i32> <i32 2, i32 3, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v60f32.v3i32.v3i32.v3i32(<60 x float> %b, <3 x i32> <i32 3, i32 4, i32 5>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  %r = call <30 x float> @llvm.tensor.matmul.v30f32(token %ta, token %tb)
  ret void
}

; Element types.
; CHECK: error: {{.*}}in function mixed_classes {{.*}}: llvm.tensor.matmul: operands mix integer and floating-point elements: op1 is i8, op2 is f32
; CHECK: error: {{.*}}in function narrowing_result {{.*}}: llvm.tensor.matmul: operand element type f32 does not widen to the result element type f16
; CHECK: error: {{.*}}in function int_to_float_result {{.*}}: llvm.tensor.matmul: operand element type i32 does not widen to the result element type f32
; CHECK: error: {{.*}}in function f16_bf16_undeclared {{.*}}: llvm.tensor.matmul: operand element types f16 and bf16 differ and the result does not declare its type
; CHECK: error: {{.*}}in function unsupported_result {{.*}}: llvm.tensor.matmul: result element type i1 is not supported
define void @mixed_classes(<12 x i8> %a, <12 x float> %b) {
  %ta = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %b, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <9 x float> @llvm.tensor.matmul.v9f32(token %ta, token %tb)
  ret void
}
define void @narrowing_result(<12 x float> %a) {
  %ta = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <9 x half> @llvm.tensor.matmul.v9f16(token %ta, token %tb)
  ret void
}
define void @int_to_float_result(<12 x i32> %a) {
  %ta = call token @llvm.tensor.typeinfo.v12i32.v2i32.v2i32.v2i32(<12 x i32> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12i32.v2i32.v2i32.v2i32(<12 x i32> %a, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <9 x float> @llvm.tensor.matmul.v9f32(token %ta, token %tb)
  ret void
}
; A memory-form result without a typeinfo declares no element type.
define void @f16_bf16_undeclared(<12 x half> %a, <12 x bfloat> %b) {
  %ta = call token @llvm.tensor.typeinfo.v12f16.v2i32.v2i32.v2i32(<12 x half> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12bf16.v2i32.v2i32.v2i32(<12 x bfloat> %b, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call ptr @llvm.tensor.matmul.p0(token %ta, token %tb)
  ret void
}
define void @unsupported_result(<12 x i8> %a) {
  %ta = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8> %a, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <9 x i1> @llvm.tensor.matmul.v9i1(token %ta, token %tb)
  ret void
}

; The result: its vector length, and its first typeinfo's logical shape and
; element type.
; CHECK: error: {{.*}}in function result_length {{.*}}: llvm.tensor.matmul: result has 12 elements, but the inferred result shape 3x3 holds 9
; CHECK: error: {{.*}}in function result_typeinfo_shape {{.*}}: llvm.tensor.matmul: result typeinfo shape 5x3 differs from the inferred result shape 3x5
; CHECK: error: {{.*}}in function result_typeinfo_elem {{.*}}: llvm.tensor.matmul: operand element type f64 does not widen to the result element type f32
define void @result_length(<12 x float> %a) {
  %ta = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <12 x float> @llvm.tensor.matmul.v12f32(token %ta, token %tb)
  ret void
}
define void @result_typeinfo_shape(<12 x float> %a, <20 x float> %b) {
  %ta = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v20f32.v2i32.v2i32.v2i32(<20 x float> %b, <2 x i32> <i32 4, i32 5>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <15 x float> @llvm.tensor.matmul.v15f32(token %ta, token %tb)
  %tr = call token @llvm.tensor.typeinfo.v15f32.v2i32.v2i32.v2i32(<15 x float> %r, <2 x i32> <i32 5, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}
; The memory-form result's typeinfo declares f32: f64 operands cannot narrow.
define void @result_typeinfo_elem(<12 x double> %a) {
  %ta = call token @llvm.tensor.typeinfo.v12f64.v2i32.v2i32.v2i32(<12 x double> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12f64.v2i32.v2i32.v2i32(<12 x double> %a, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call ptr @llvm.tensor.matmul.p0(token %ta, token %tb)
  %tr = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(float) %r, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}

; Only the FIRST typeinfo of the result fixes it; a later one with another
; logical shape is a separate reinterpretation and not compared.
; CHECK: error: {{.*}}in function first_typeinfo_wins {{.*}}: llvm.tensor.matmul: result typeinfo shape 9 differs from the inferred result shape 3x3
define void @first_typeinfo_wins(<12 x float> %a) {
  %ta = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <9 x float> @llvm.tensor.matmul.v9f32(token %ta, token %tb)
  %flat = call token @llvm.tensor.typeinfo.v9f32.v1i32.v1i32.v1i32(<9 x float> %r, <1 x i32> <i32 9>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %square = call token @llvm.tensor.typeinfo.v9f32.v2i32.v2i32.v2i32(<9 x float> %r, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}

; CHECK: tlx: error: 14 error(s) in TLX code; stopping
; No crash after the last error:
; CHECK-NOT: PLEASE submit
; CHECK-NOT: Stack dump

; --- declarations ---
declare ptr @llvm.tensor.matmul.p0(token, token)
declare <12 x float> @llvm.tensor.matmul.v12f32(token, token)
declare <15 x float> @llvm.tensor.matmul.v15f32(token, token)
declare <16 x float> @llvm.tensor.matmul.v16f32(token, token)
declare <30 x float> @llvm.tensor.matmul.v30f32(token, token)
declare <5 x float> @llvm.tensor.matmul.v5f32(token, token)
declare <9 x half> @llvm.tensor.matmul.v9f16(token, token)
declare <9 x float> @llvm.tensor.matmul.v9f32(token, token)
declare <9 x i1> @llvm.tensor.matmul.v9i1(token, token)
declare token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12bf16.v2i32.v2i32.v2i32(<12 x bfloat>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12f16.v2i32.v2i32.v2i32(<12 x half>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12f64.v2i32.v2i32.v2i32(<12 x double>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12i32.v2i32.v2i32.v2i32(<12 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12i8.v2i32.v2i32.v2i32(<12 x i8>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v15f32.v2i32.v2i32.v2i32(<15 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v20f32.v2i32.v2i32.v2i32(<20 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v24f32.v3i32.v3i32.v3i32(<24 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v4f32.v1i32.v1i32.v1i32(<4 x float>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v60f32.v3i32.v3i32.v3i32(<60 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v9f32.v1i32.v1i32.v1i32(<9 x float>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v9f32.v2i32.v2i32.v2i32(<9 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
