; tlx-tile: a streamed kernel is shared by every call site of its kind and
; target (docs/pipeline.md, "Skinny products"), found by its key rather than
; its name: the second target's copy gets a numbered name, and a third
; call site for that target must still find it rather than build another
; (whichever target the pass meets first keeps the plain name).
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: grep -c "^define internal void @tlx.stream.dot.f32.f32.x1" %t.ll | FileCheck %s --check-prefix=COPIES
; RUN: grep -c "^define internal void @tlx.stream.axpy.f32.f32.x1" %t.ll | FileCheck %s --check-prefix=COPIES

; COPIES: {{^}}2{{$}}

target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @avx2_first(
; CHECK: call void @[[AVX2:tlx\.stream\.dot\.f32\.f32\.x1(\.[0-9]+)?]](
define void @avx2_first(ptr noalias %w, ptr noalias %x, ptr noalias %y) #0 {
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 64, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 40, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <64 x float> @llvm.tensor.matmul.v64f32(token %tw, token %tx)
  %tm = call token @llvm.tensor.typeinfo.v64f32(<64 x float> %m, <2 x i32> <i32 64, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

; CHECK-LABEL: define void @baseline(
; CHECK-NOT: call void @[[AVX2]](
; CHECK: call void @tlx.stream.dot.f32.f32.x1
define void @baseline(ptr noalias %w, ptr noalias %x, ptr noalias %y) {
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 64, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 40, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <64 x float> @llvm.tensor.matmul.v64f32(token %tw, token %tx)
  %tm = call token @llvm.tensor.typeinfo.v64f32(<64 x float> %m, <2 x i32> <i32 64, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

; CHECK-LABEL: define void @avx2_again(
; CHECK: call void @[[AVX2]](
define void @avx2_again(ptr noalias %w, ptr noalias %x, ptr noalias %y) #0 {
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 64, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 40, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <64 x float> @llvm.tensor.matmul.v64f32(token %tw, token %tx)
  %tm = call token @llvm.tensor.typeinfo.v64f32(<64 x float> %m, <2 x i32> <i32 64, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

; A second kind: its copy for the second target is numbered after the
; first kind's (LLVM numbers every renamed global from one counter).
; CHECK-LABEL: define void @xw_baseline(
; CHECK: call void @tlx.stream.axpy.f32.f32.x1
define void @xw_baseline(ptr noalias %x, ptr noalias %w, ptr noalias %y) {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 1, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 40, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <64 x float> @llvm.tensor.matmul.v64f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v64f32(<64 x float> %m, <2 x i32> <i32 1, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

; CHECK-LABEL: define void @xw_avx2(
; CHECK: call void @[[XW:tlx\.stream\.axpy\.f32\.f32\.x1(\.[0-9]+)?]](
define void @xw_avx2(ptr noalias %x, ptr noalias %w, ptr noalias %y) #0 {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 1, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 40, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <64 x float> @llvm.tensor.matmul.v64f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v64f32(<64 x float> %m, <2 x i32> <i32 1, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

; CHECK-LABEL: define void @xw_avx2_again(
; CHECK: call void @[[XW]](
define void @xw_avx2_again(ptr noalias %x, ptr noalias %w, ptr noalias %y) #0 {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 1, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 40, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <64 x float> @llvm.tensor.matmul.v64f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v64f32(<64 x float> %m, <2 x i32> <i32 1, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

attributes #0 = { "target-cpu"="haswell" "target-features"="+avx2,+fma" }

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
declare token @llvm.tensor.typeinfo.v64f32(<64 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <64 x float> @llvm.tensor.matmul.v64f32(token, token)
