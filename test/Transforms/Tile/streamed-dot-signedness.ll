; tlx-tile: the dot kernel's integer dot product depends on X's signedness
; as well as P's (NEON: sdot for s8 x s8, usdot for u8 x s8 either way
; round), and X is packed in its own type for it: two products whose P
; types agree but whose X types differ get two kernels, named by both
; (tlx.stream.dot.<P>.<X>.<C>). They once shared the first one's kernel -
; wrong sums for the second (found by test/AArch64/sve-differential.test).
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -S %s -o - | FileCheck %s

target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-unknown-linux-gnu"

; CHECK-LABEL: define void @s8_x_s8(
; CHECK: call void @tlx.stream.dot.s8.s8.i32.x1.acc(
define void @s8_x_s8(ptr noalias %w, ptr noalias %x, ptr noalias %y) #0 {
  %tacc = call token @llvm.tensor.load.a(ptr elementtype(i32) %y, <2 x i32> <i32 16, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(i8) %w, <2 x i32> <i32 16, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tx = call token @llvm.tensor.load.a(ptr elementtype(i8) %x, <2 x i32> <i32 64, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <16 x i32> @llvm.tensor.smma.v16i32(token %tacc, token %tw, token %tx)
  %tm = call token @llvm.tensor.typeinfo.v16i32(<16 x i32> %m, <2 x i32> <i32 16, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i32) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

; CHECK-LABEL: define void @s8_x_u8(
; CHECK: call void @tlx.stream.dot.s8.u8.i32.x1.acc(
define void @s8_x_u8(ptr noalias %w, ptr noalias %x, ptr noalias %y) #0 {
  %tacc = call token @llvm.tensor.load.a(ptr elementtype(i32) %y, <2 x i32> <i32 16, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(i8) %w, <2 x i32> <i32 16, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tx = call token @llvm.tensor.load.a(ptr elementtype(i8) %x, <2 x i32> <i32 64, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <16 x i32> @llvm.tensor.summa.v16i32(token %tacc, token %tw, token %tx)
  %tm = call token @llvm.tensor.typeinfo.v16i32(<16 x i32> %m, <2 x i32> <i32 16, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i32) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

; The kernels: sdot, then usdot with the unsigned X first.
; CHECK-LABEL: define internal void @tlx.stream.dot.s8.s8.i32.x1.acc(
; CHECK: call <4 x i32> @llvm.aarch64.neon.sdot.v4i32.v16i8(
; CHECK-LABEL: define internal void @tlx.stream.dot.s8.u8.i32.x1.acc(
; CHECK: call <4 x i32> @llvm.aarch64.neon.usdot.v4i32.v16i8(
; CHECK: zext i8 %{{.*}} to i32

attributes #0 = { "target-cpu"="generic" "target-features"="+neon,+dotprod,+i8mm" }

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
declare token @llvm.tensor.typeinfo.v16i32(<16 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <16 x i32> @llvm.tensor.smma.v16i32(token, token, token)
declare <16 x i32> @llvm.tensor.summa.v16i32(token, token, token)
