; tlx-tile with run-time dispatch (-tlx-dispatch; the clang plugin's
; default): a vector GEMM in a function whose target lacks AVX2/AVX-512 is
; emitted into one internal function per level, each with that level's
; target features; the caller passes the operands in an environment struct
; and calls the version tlxrt_isa_level() selects. A function that has
; every level, and a GEMM below 32^3 multiply-adds, get one version in
; place.
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -tlx-dispatch -S %s -o - | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @baseline(
; CHECK: %tlx.env = alloca { ptr, ptr, ptr }
; CHECK: store ptr %x, ptr
; CHECK: %tlx.isa.level = call i32 @tlxrt_isa_level()
; CHECK: icmp sge i32 %tlx.isa.level, 2
; CHECK: call void @tlx.dispatch.gemm.avx512(ptr %tlx.env
; CHECK: icmp sge i32 %tlx.isa.level, 1
; CHECK: call void @tlx.dispatch.gemm.avx2(ptr %tlx.env
; CHECK: call void @tlx.dispatch.gemm.base(ptr %tlx.env
; CHECK-NOT: avx512-{{vnni|bf16}}
; CHECK-LABEL: define void @has_everything(
; CHECK-NOT: tlxrt_isa_level
; CHECK: fmuladd.v16f32
; CHECK-LABEL: define void @small(
; CHECK-NOT: tlxrt_isa_level
; CHECK: ret void
; CHECK: define internal void @tlx.dispatch.gemm.base(ptr %env) [[BASE:#[0-9]+]]
; CHECK: load ptr, ptr
; CHECK: fmuladd.v4f32
; CHECK: define internal void @tlx.dispatch.gemm.avx2(ptr %env) [[AVX2:#[0-9]+]]
; CHECK: fmuladd.v8f32
; CHECK: define internal void @tlx.dispatch.gemm.avx512(ptr %env) [[AVX512:#[0-9]+]]
; CHECK: fmuladd.v16f32
; CHECK-DAG: attributes [[AVX2]] = { noinline nounwind {{.*}}"target-features"="+avx,+avx2,{{.*}}+fma
; CHECK-DAG: attributes [[AVX512]] = { noinline nounwind {{.*}}"target-features"="{{.*}}+avx512f,+avx512vl,+evex512"
define void @baseline(ptr noalias %x, ptr noalias %w, ptr noalias %y) {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 40, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 40, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <1600 x float> @llvm.tensor.matmul.v1600f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v1600f32(<1600 x float> %m, <2 x i32> <i32 40, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

define void @has_everything(ptr noalias %x, ptr noalias %w, ptr noalias %y) #0 {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 40, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 40, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <1600 x float> @llvm.tensor.matmul.v1600f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v1600f32(<1600 x float> %m, <2 x i32> <i32 40, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

define void @small(ptr noalias %x, ptr noalias %w, ptr noalias %y) {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 8, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 8, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <64 x float> @llvm.tensor.matmul.v64f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v64f32(<64 x float> %m, <2 x i32> <i32 8, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

attributes #0 = { "target-cpu"="znver4" }

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
declare token @llvm.tensor.typeinfo.v1600f32(<1600 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <1600 x float> @llvm.tensor.matmul.v1600f32(token, token)
declare token @llvm.tensor.typeinfo.v64f32(<64 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <64 x float> @llvm.tensor.matmul.v64f32(token, token)
