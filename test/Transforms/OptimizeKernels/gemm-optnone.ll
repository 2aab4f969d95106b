; At -O0 (optnone) tlx-tile emits each GEMM into an internal kernel function
; of its own (KernelOutliner.h), and tlx-optimize-kernels gives it LLVM's -O2
; function pipeline: the user's function stays optnone and only calls it; the
; kernel is neither optnone nor noinline and comes out optimized (accumulators
; in vector registers across the K loop, no stack traffic there). Functions
; that are not optnone keep their GEMM inline (the normal pipeline optimizes
; it); -tlx-optimize-kernels=false outlines nothing.
; RUN: %opt_tlx -passes=tlx-tile,tlx-optimize-kernels -tlx-target=vector -pass-remarks=tlx-optimize-kernels -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -S %s -o - | FileCheck %s --check-prefix=OUTLINED
; RUN: %opt_tlx -passes=tlx-tile,tlx-optimize-kernels -tlx-target=vector -tlx-optimize-kernels=false -S %s -o - | FileCheck %s --check-prefix=OFF

target triple = "x86_64-unknown-linux-gnu"

; REMARK: remark: {{.*}}kernel 'tlx.gemm.mm_o0.0' optimized at -O2
; REMARK-NOT: mm_o2

; The user's function only calls its kernel.
; CHECK-LABEL: define void @mm_o0(
; CHECK-SAME: #[[USER:[0-9]+]] {
; CHECK-NOT: fmuladd
; CHECK: call void @tlx.gemm.mm_o0.0(ptr %b, ptr %a, ptr %c)
; CHECK-NOT: fmuladd
; CHECK: ret void
define void @mm_o0(ptr %a, ptr %b, ptr %c) #0 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 64, i32 48>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.load.a(ptr elementtype(float) %b, <2 x i32> <i32 48, i32 80>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <5120 x float> @llvm.tensor.matmul.v5120f32(token %ta, token %tb)
  %tm = call token @llvm.tensor.typeinfo.v5120f32(<5120 x float> %m, <2 x i32> <i32 64, i32 80>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %tm, <2 x i32> zeroinitializer)
  ret void
}

; Not optnone: the GEMM stays where it was.
; CHECK-LABEL: define void @mm_o2(
; CHECK-NOT: call void @tlx.gemm
; CHECK: fmuladd

; The kernel, optimized: the 13x32 microkernel keeps its accumulators in
; vector registers (phis) across the K loop, and no stack slot: the edge
; blocks (80 = 2 x 32 + 16 columns) are stored under lane masks, their copy
; through the edge buffer unrolled and the buffer gone.
; CHECK-LABEL: define internal void @tlx.gemm.mm_o0.0(
; CHECK-SAME: ptr %b, ptr %a, ptr %c) #[[KERNEL:[0-9]+]] {
; CHECK-NOT: alloca
; CHECK: phi <16 x float>
; CHECK-NOT: alloca
; CHECK: call <16 x float> @llvm.fmuladd.v16f32(
; CHECK-NOT: alloca
; CHECK: call void @llvm.masked.store.v16f32.p0(
; CHECK-NOT: alloca
; CHECK-DAG: attributes #[[USER]] = { noinline nounwind optnone
; CHECK-DAG: attributes #[[KERNEL]] = { nounwind "min-legal-vector-width"="512" "target-cpu"="skylake-avx512" }

; Outlined by tlx-tile, marked for tlx-optimize-kernels (which drops the mark).
; OUTLINED-LABEL: define void @mm_o0(
; OUTLINED: call void @tlx.gemm.mm_o0.0(
; OUTLINED-LABEL: define internal void @tlx.gemm.mm_o0.0(
; OUTLINED-SAME: #[[K:[0-9]+]]
; OUTLINED: attributes #[[K]] = { {{.*}}"tlx-kernel"

; OFF-NOT: @tlx.gemm

define void @mm_o2(ptr %a, ptr %b, ptr %c) #1 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 64, i32 48>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.load.a(ptr elementtype(float) %b, <2 x i32> <i32 48, i32 80>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <5120 x float> @llvm.tensor.matmul.v5120f32(token %ta, token %tb)
  %tm = call token @llvm.tensor.typeinfo.v5120f32(<5120 x float> %m, <2 x i32> <i32 64, i32 80>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %tm, <2 x i32> zeroinitializer)
  ret void
}

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <5120 x float> @llvm.tensor.matmul.v5120f32(token, token)
declare token @llvm.tensor.typeinfo.v5120f32(<5120 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)

attributes #0 = { noinline nounwind optnone "target-cpu"="skylake-avx512" }
attributes #1 = { nounwind "target-cpu"="skylake-avx512" }
