; tlx-legalize on AArch64: NEON's 128-bit registers give 4 x f32 and
; 8 x i16 lanes.
; RUN: %opt_tlx -passes=tlx-legalize -pass-remarks=tlx -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem

target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-unknown-linux-gnu"

; REMARK: exp: 5x12 f32 loop nest, 4-lane vectors along the innermost dim (target vector width 4 lanes)
; REMARK: relu: 3x8 i16 loop nest, 8-lane vectors along the innermost dim (target vector width 8 lanes)

; CHECK-LABEL: define void @exp_f32(
; CHECK: call <4 x float> @llvm.floor.v4f32(
; CHECK: shl <4 x i32>
define void @exp_f32(ptr %a, ptr %c) #0 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 5, i32 12>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <60 x float> @llvm.tensor.exp.v60f32(token %ta)
  %tr = call token @llvm.tensor.typeinfo.v60f32(<60 x float> %r, <2 x i32> <i32 5, i32 12>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; CHECK-LABEL: define void @relu_i16(
; CHECK: call <8 x i16> @llvm.smax.v8i16(<8 x i16> %{{.*}}, <8 x i16> zeroinitializer)
define void @relu_i16(ptr %a, ptr %c) #0 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(i16) %a, <2 x i32> <i32 3, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <24 x i16> @llvm.tensor.relu.v24i16(token %ta)
  %tr = call token @llvm.tensor.typeinfo.v24i16(<24 x i16> %r, <2 x i32> <i32 3, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i16) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

attributes #0 = { "target-cpu"="generic" "target-features"="+neon" }

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <60 x float> @llvm.tensor.exp.v60f32(token)
declare <24 x i16> @llvm.tensor.relu.v24i16(token)
declare token @llvm.tensor.typeinfo.v60f32(<60 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v24i16(<24 x i16>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
