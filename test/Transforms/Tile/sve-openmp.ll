; tlx-tile on an AArch64 function with +sve in a module compiled with
; -fopenmp: the SVE GEMM is split over the OpenMP threads like the other
; vector kernels - by rows in units of MR (M >= N), by columns in units of
; a 512-bit vector length's NR (M < N) - each share running the vector-
; length agnostic loops. (No AArch64 libomp here to run it: the emitted
; region is the one the x86 threads tests run.)
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -S %s -o - | FileCheck %s
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector %s -o - | llc -O2 -o - | FileCheck %s --check-prefix=ASM

target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-unknown-linux-gnu"

; CHECK-LABEL: define void @rows(
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @{{[0-9]+}}, i32 1, ptr @tlx.par.gemm, ptr %tlx.env)
; CHECK-LABEL: define void @cols(
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @{{[0-9]+}}, i32 1, ptr @tlx.par.gemm.{{[0-9]+}}, ptr %tlx.env)
;
; The rows of @rows: 22 units of MR = 12 rows, the last one shorter.
; CHECK-LABEL: define internal void @tlx.par.gemm(
; CHECK: store i64 21, ptr %omp.ub
; CHECK: call void @__kmpc_for_static_init_8(
; CHECK: %share.begin = mul i64 %omp.first, 12
; CHECK: call i64 @llvm.vscale.i64()
; CHECK: call void @__kmpc_for_static_fini(
; CHECK: gemm.k.body:
; The columns of @cols: units of 32 columns (2 vectors of 16 f32).
; CHECK-LABEL: define internal void @tlx.par.gemm.{{[0-9]+}}(
; CHECK: %share.begin = mul i64 %omp.first, 32
; CHECK: gemm.k.body:
;
; ASM-LABEL: tlx.par.gemm:
; ASM: bl __kmpc_for_static_init_8
; ASM: fmla z{{[0-9]+}}.s, p{{[0-9]+}}/m, z{{[0-9]+}}.s, z{{[0-9]+}}.s
; ASM: bl __kmpc_for_static_fini

define void @rows(ptr noalias %x, ptr noalias %w, ptr noalias %y) #0 {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 256, i32 128>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 128, i32 160>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <40960 x float> @llvm.tensor.matmul.v40960f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v40960f32(<40960 x float> %m, <2 x i32> <i32 256, i32 160>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

define void @cols(ptr noalias %x, ptr noalias %w, ptr noalias %y) #0 {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 32, i32 128>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 128, i32 512>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <16384 x float> @llvm.tensor.matmul.v16384f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v16384f32(<16384 x float> %m, <2 x i32> <i32 32, i32 512>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
declare token @llvm.tensor.typeinfo.v40960f32(<40960 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <40960 x float> @llvm.tensor.matmul.v40960f32(token, token)
declare token @llvm.tensor.typeinfo.v16384f32(<16384 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <16384 x float> @llvm.tensor.matmul.v16384f32(token, token)

attributes #0 = { "target-features"="+neon,+sve" }

!llvm.module.flags = !{!0}
!0 = !{i32 7, !"openmp", i32 51}
