; tlx-tile: the dot kernel's int8 dot product on AVX-512 VNNI. vpdpbusd
; multiplies unsigned by signed bytes: int8 weights (P) times int8
; activations would need P biased by 128 and the bias's products taken
; off again, which the blocked GEMM does with its packed B's column sums
; but a streamed kernel has no such sums - it takes vpdpwssd on i16 pairs
; instead (once: i32 multiplies, half the speed of AVX2's vpmaddwd kernel).
; Unsigned weights take vpdpbusd as they are.
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -S %s -o - | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

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

; CHECK-LABEL: define void @u8_x_s8(
; CHECK: call void @tlx.stream.dot.u8.s8.i32.x1.acc(
define void @u8_x_s8(ptr noalias %w, ptr noalias %x, ptr noalias %y) #0 {
  %tacc = call token @llvm.tensor.load.a(ptr elementtype(i32) %y, <2 x i32> <i32 16, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(i8) %w, <2 x i32> <i32 16, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tx = call token @llvm.tensor.load.a(ptr elementtype(i8) %x, <2 x i32> <i32 64, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <16 x i32> @llvm.tensor.usmma.v16i32(token %tacc, token %tw, token %tx)
  %tm = call token @llvm.tensor.typeinfo.v16i32(<16 x i32> %m, <2 x i32> <i32 16, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i32) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

; CHECK-LABEL: define internal void @tlx.stream.dot.s8.s8.i32.x1.acc(
; CHECK: sext <32 x i8> %{{.*}} to <32 x i16>
; CHECK: call <16 x i32> @llvm.x86.avx512.vpdpwssd.512(
; CHECK-LABEL: define internal void @tlx.stream.dot.u8.s8.i32.x1.acc(
; CHECK: call <16 x i32> @llvm.x86.avx512.vpdpbusd.512(

attributes #0 = { "target-cpu"="x86-64-v4" "target-features"="+avx512f,+avx512bw,+avx512vl,+avx512dq,+avx512cd,+avx512vnni,+avx2,+fma,+f16c,+bmi2" }

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
declare token @llvm.tensor.typeinfo.v16i32(<16 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <16 x i32> @llvm.tensor.smma.v16i32(token, token, token)
declare <16 x i32> @llvm.tensor.usmma.v16i32(token, token, token)
