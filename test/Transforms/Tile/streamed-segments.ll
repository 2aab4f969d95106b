; tlx-tile: a batch whose k runs on across it (the group sums of
; group-quantized int8 weights, docs/pipeline.md "Quantized weights") calls
; the segmented kernels, and an integer one (AVX2's vpmaddwd: 16 k per
; vector) has a copy of its loops for segments of one, two and four
; vectors - 16, 32 and 64 int8 - each taking a whole segment per block of
; rows in one step (no k loop: no stream.k blocks), chosen by the segment
; length at run time, then the general loops for other lengths. The IR is
; clang's for a C function (tlx-cc -march=x86-64-v3, stopped after
; nd-to-2d):
;   tensor_matmul_i32(tensor_load(w, TLX_SHAPE(d, groups, gs),
;                                 TLX_LAYOUT(1, 0, 2), ...),
;                     TLX_LOAD(x, groups, gs, 1))
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -S %s -o - | FileCheck %s

; CHECK-LABEL: define void @group_sums(
; CHECK: call void @tlx.gemm.rt.seg.i8sr.i8sr.i32r(
; Four rows of W a block (then single rows): one step of 4 + 1 vpmaddwd
; for 16, 2 x (4 + 1) for 32, 4 x (4 + 1) for 64.
; CHECK-LABEL: define internal void @tlx.stream.dot.s8.s8.i32.x1.seg(
; CHECK: icmp eq i64 %seg, 16
; CHECK: icmp eq i64 %seg, 32
; CHECK-NOT: stream.k
; CHECK-COUNT-5: @llvm.x86.avx2.pmadd.wd(
; CHECK-NOT: stream.k
; CHECK: icmp eq i64 %seg, 64
; CHECK-NOT: stream.k
; CHECK-COUNT-30: @llvm.x86.avx2.pmadd.wd(
; CHECK-NOT: icmp eq i64 %seg
; CHECK: stream.k
; CHECK-LABEL: define internal void @tlx.stream.dot.s8.s8.i32.x4.seg(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nounwind uwtable
define void @group_sums(ptr noalias noundef %0, ptr noalias noundef %1, ptr noalias noundef %2, i32 noundef %3, i32 noundef %4, i32 noundef %5) #0 {
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca ptr, align 8
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  store ptr %0, ptr %7, align 8
  store ptr %1, ptr %8, align 8
  store ptr %2, ptr %9, align 8
  store i32 %3, ptr %10, align 4
  store i32 %4, ptr %11, align 4
  store i32 %5, ptr %12, align 4
  %13 = load ptr, ptr %8, align 8
  %14 = load i32, ptr %10, align 4
  %15 = insertelement <3 x i32> poison, i32 %14, i32 0
  %16 = load i32, ptr %11, align 4
  %17 = insertelement <3 x i32> %15, i32 %16, i32 1
  %18 = load i32, ptr %12, align 4
  %19 = insertelement <3 x i32> %17, i32 %18, i32 2
  %20 = call token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v3i32(ptr elementtype(i8) %13, <3 x i32> %19, <3 x i32> <i32 1, i32 0, i32 2>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer)
  %21 = load ptr, ptr %9, align 8
  %22 = load i32, ptr %11, align 4
  %23 = insertelement <3 x i32> poison, i32 %22, i32 0
  %24 = load i32, ptr %12, align 4
  %25 = insertelement <3 x i32> %23, i32 %24, i32 1
  %26 = insertelement <3 x i32> %25, i32 1, i32 2
  %27 = call token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v3i32(ptr elementtype(i8) %21, <3 x i32> %26, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer)
  %28 = load ptr, ptr %7, align 8
  %29 = load i32, ptr %10, align 4
  %30 = insertelement <3 x i32> poison, i32 %29, i32 0
  %31 = load i32, ptr %11, align 4
  %32 = insertelement <3 x i32> %30, i32 %31, i32 1
  %33 = insertelement <3 x i32> %32, i32 1, i32 2
  %34 = call <4 x i32> @llvm.tensor.matmul.v4i32(token %20, token %27)
  %35 = call token @llvm.tensor.typeinfo.v4i32.v3i32.v3i32.v3i32(<4 x i32> %34, <3 x i32> %33, <3 x i32> <i32 1, i32 0, i32 2>, <3 x i32> zeroinitializer)
  call void @llvm.tensor.store.p0.v3i32(ptr elementtype(i32) %28, token %35, <3 x i32> zeroinitializer)
  ret void
}
; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #1
; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #1
; Function Attrs: nofree nosync nounwind willreturn memory(argmem: read)
declare token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v3i32(ptr, <3 x i32>, <3 x i32>, <3 x i32>, <3 x i32>) #2
; Function Attrs: nofree nosync nounwind speculatable willreturn memory(none)
declare token @llvm.tensor.typeinfo.v4i32.v3i32.v3i32.v3i32(<4 x i32>, <3 x i32>, <3 x i32>, <3 x i32>) #3
; Function Attrs: nofree nosync nounwind speculatable willreturn memory(none)
declare <4 x i32> @llvm.tensor.matmul.v4i32(token, token) #3
; Function Attrs: nofree nosync nounwind willreturn memory(argmem: write)
declare void @llvm.tensor.store.p0.v3i32(ptr, token, <3 x i32>) #4
attributes #0 = { nounwind uwtable "min-legal-vector-width"="128" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64-v3" "target-features"="+avx,+avx2,+bmi,+bmi2,+cmov,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nofree nosync nounwind willreturn memory(argmem: read) }
attributes #3 = { nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { nofree nosync nounwind willreturn memory(argmem: write) }
