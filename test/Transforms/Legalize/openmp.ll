; tlx-legalize in a module compiled with -fopenmp: a loop nest of at least
; 64K element steps shares its outermost loop out over the OpenMP threads
; (Threads.h): the caller forks a parallel region whose static share of
; the rows [share.begin, share.end) the nest's outer loop walks. A reduce
; keeps its accumulator in the region's own frame. Small nests, and
; -tlx-threads=0, stay on the calling thread.
; RUN: %opt_tlx -passes=tlx-legalize -pass-remarks=tlx -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem
; RUN: %opt_tlx -passes=tlx-legalize -tlx-threads=0 -S %s -o - | FileCheck %s --check-prefix=SERIAL

target triple = "x86_64-unknown-linux-gnu"

; REMARK: exp: outermost loop (300 iterations) split over the OpenMP threads (__kmpc_fork_call, static schedule)
; REMARK: reduce.max: outermost loop (300 iterations) split over the OpenMP threads
; REMARK-NOT: relu: outermost loop

; CHECK-LABEL: define void @exp_big(
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @{{[0-9]+}}, i32 1, ptr @tlx.par.loop, ptr %tlx.env)
; CHECK-LABEL: define void @max_windows(
; CHECK-NOT: tlx.acc
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @{{[0-9]+}}, i32 1, ptr @tlx.par.loop.{{[0-9]+}}, ptr %tlx.env)
; CHECK-LABEL: define void @relu_small(
; CHECK-NOT: __kmpc
; CHECK: ret void
; CHECK-LABEL: define internal void @tlx.par.loop(ptr noalias noundef %gtid, ptr noalias noundef %btid, ptr %env)
; CHECK: call void @__kmpc_for_static_init_8(ptr @{{[0-9]+}}, i32 %omp.gtid, i32 34,
; CHECK: %share.end = call i64 @llvm.smin.i64(i64 %{{.*}}, i64 300)
; CHECK: %tlx.el.d0.iv = phi i64 [ %share.begin,
; CHECK: icmp slt i64 %tlx.el.d0.next, %share.end
; CHECK: call void @__kmpc_for_static_fini(
; CHECK-LABEL: define internal void @tlx.par.loop.{{[0-9]+}}(
; CHECK: %tlx.acc = alloca <4 x float>
; CHECK: %tlx.el.d0.iv = phi i64 [ %share.begin,

; SERIAL-NOT: __kmpc
define void @exp_big(ptr %a, ptr %c) {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 300, i32 300>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <90000 x float> @llvm.tensor.exp.v90000f32(token %ta)
  %tr = call token @llvm.tensor.typeinfo.v90000f32(<90000 x float> %r, <2 x i32> <i32 300, i32 300>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

define void @max_windows(ptr %a, ptr %c) {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 300, i32 300>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <30000 x float> @llvm.tensor.reduce.max.v30000f32(token %ta, <2 x i32> <i32 1, i32 3>, <2 x i32> <i32 1, i32 3>)
  %tr = call token @llvm.tensor.typeinfo.v30000f32(<30000 x float> %r, <2 x i32> <i32 300, i32 100>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

define void @relu_small(ptr %a, ptr %c) {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 30, i32 30>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <900 x float> @llvm.tensor.relu.v900f32(token %ta)
  %tr = call token @llvm.tensor.typeinfo.v900f32(<900 x float> %r, <2 x i32> <i32 30, i32 30>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
declare <90000 x float> @llvm.tensor.exp.v90000f32(token)
declare token @llvm.tensor.typeinfo.v90000f32(<90000 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <30000 x float> @llvm.tensor.reduce.max.v30000f32(token, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v30000f32(<30000 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <900 x float> @llvm.tensor.relu.v900f32(token)
declare token @llvm.tensor.typeinfo.v900f32(<900 x float>, <2 x i32>, <2 x i32>, <2 x i32>)

!llvm.module.flags = !{!0}
!0 = !{i32 7, !"openmp", i32 51}
