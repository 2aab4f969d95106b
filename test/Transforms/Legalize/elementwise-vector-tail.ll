; tlx-legalize: an elementwise op becomes a loop nest in the destination's
; storage order whose innermost loop is vectorized to the target's register
; width (AVX-512: 16 x f32, SSE: 4 x f32), with an exact scalar tail; a fused
; transpose reads its operand with strided (gathered) lanes; f16 computes in
; float.
; RUN: %opt_tlx -passes=tlx-legalize -pass-remarks=tlx -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; REMARK: relu: 3x20 f32 loop nest, 16-lane vectors along the innermost dim (target vector width 16 lanes)
; REMARK: relu: 3x20 f32 loop nest, 4-lane vectors along the innermost dim (target vector width 4 lanes)
; REMARK: exp: 4x3 f32 loop nest, 2-lane vectors along the innermost dim, fused with transpose (target vector width 4 lanes)
; REMARK: sqrt: 2x9 f16 loop nest, 8-lane vectors along the innermost dim (target vector width 16 lanes)

; 20 = 16 + 4: one 16-lane vector per row, then a 4-iteration scalar tail.
; CHECK-LABEL: define void @relu_avx512(
; CHECK: tlx.el.d0.body:
; CHECK: %[[V:.*]] = load <16 x float>, ptr %{{.*}}, align 4
; relu(x) = x <= 0 ? +0 : x (an ordered compare: NaN passes through).
; CHECK: %[[C:.*]] = fcmp ole <16 x float> %[[V]], zeroinitializer
; CHECK: select <16 x i1> %[[C]], <16 x float> zeroinitializer, <16 x float> %[[V]]
; CHECK: store <16 x float>
; CHECK: tlx.tail.body:
; CHECK: %tlx.tail.iv = phi i64 [ 16, %{{.*}} ], [ %tlx.tail.next, %tlx.tail.body ]
; CHECK: load float, ptr
; CHECK: icmp slt i64 %tlx.tail.next, 20
; CHECK-NOT: call {{.*}}@llvm.tensor
; CHECK: ret void
define void @relu_avx512(ptr %a, ptr %c) #0 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 3, i32 20>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <60 x float> @llvm.tensor.relu.v60f32(token %ta)
  %tr = call token @llvm.tensor.typeinfo.v60f32(<60 x float> %r, <2 x i32> <i32 3, i32 20>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; SSE: 4 lanes, 20 % 4 == 0: no tail.
; CHECK-LABEL: define void @relu_sse(
; CHECK: tlx.vec.body:
; CHECK: load <4 x float>
; CHECK-NOT: tlx.tail
; CHECK: ret void
define void @relu_sse(ptr %a, ptr %c) #1 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 3, i32 20>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <60 x float> @llvm.tensor.relu.v60f32(token %ta)
  %tr = call token @llvm.tensor.typeinfo.v60f32(<60 x float> %r, <2 x i32> <i32 3, i32 20>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; exp(transpose(a)): a is [3,4] row-major; the result [4,3] row-major reads
; a's columns: lanes 4 elements apart, gathered with insertelement.
; CHECK-LABEL: define void @exp_of_transpose(
; CHECK: %[[L0:.*]] = load float, ptr
; CHECK: insertelement <2 x float> poison, float %[[L0]], i64 0
; CHECK: getelementptr inbounds float, ptr %{{.*}}, i64 4
; exp is expanded inline (range reduction with floor, a polynomial, 2^n
; from the exponent bits), lanes and tail alike - no libm call per lane.
; CHECK-NOT: @llvm.exp
; CHECK: call <2 x float> @llvm.floor.v2f32(
; CHECK: shl <2 x i32> %{{.*}}, <i32 23, i32 23>
; CHECK: store <2 x float>
; CHECK: call float @llvm.floor.f32(
define void @exp_of_transpose(ptr %a, ptr %c) #1 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %t = call <12 x float> @llvm.tensor.transpose.v12f32(token %ta)
  %tt = call token @llvm.tensor.typeinfo.v12f32(<12 x float> %t, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %e = call <12 x float> @llvm.tensor.exp.v12f32(token %tt)
  %te = call token @llvm.tensor.typeinfo.v12f32(<12 x float> %e, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %te, <2 x i32> zeroinitializer)
  ret void
}

; f16: loaded as half, extended to float, rounded back on store.
; CHECK-LABEL: define void @sqrt_f16(
; CHECK: %[[H:.*]] = load <8 x half>
; CHECK: %[[F:.*]] = fpext <8 x half> %[[H]] to <8 x float>
; CHECK: %[[S:.*]] = call <8 x float> @llvm.sqrt.v8f32(<8 x float> %[[F]])
; CHECK: fptrunc <8 x float> %[[S]] to <8 x half>
define void @sqrt_f16(ptr %a, ptr %c) #0 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(half) %a, <2 x i32> <i32 2, i32 9>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <18 x half> @llvm.tensor.sqrt.v18f16(token %ta)
  %tr = call token @llvm.tensor.typeinfo.v18f16(<18 x half> %r, <2 x i32> <i32 2, i32 9>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(half) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

attributes #0 = { "target-cpu"="x86-64-v4" "prefer-vector-width"="512" "target-features"="+avx512f,+avx512vl,+avx2,+avx,+sse4.2,+evex512" }
attributes #1 = { "target-cpu"="x86-64" }

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <60 x float> @llvm.tensor.relu.v60f32(token)
declare <12 x float> @llvm.tensor.transpose.v12f32(token)
declare <12 x float> @llvm.tensor.exp.v12f32(token)
declare <18 x half> @llvm.tensor.sqrt.v18f16(token)
declare token @llvm.tensor.typeinfo.v60f32(<60 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12f32(<12 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v18f16(<18 x half>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
