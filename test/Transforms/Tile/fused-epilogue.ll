; tlx-tile step 4: an elementwise chain reading a matmul's temporary and
; stored is applied as the GEMM writes C (GemmDesc::Epilogue): the GEMM is
; emitted at the chain's store, into its destination, and the last K
; block's write-back evaluates the chain on the accumulators. noalias
; arguments need no run-time overlap check; plain pointers get one that
; falls back to the temporary (then copied). A chain ending in another
; element type (i32 -> f32, i32 -> i8) writes its destination through
; GemmDesc::Out while partial sums stay in the accumulator-typed temporary;
; that needs the destination proven disjoint (no run-time fallback).
; -tlx-fuse-epilogues=false keeps the second pass. (These products are
; skinny; -tlx-stream-max-rows=0 gives them to the blocked GEMM this tests;
; streamed products apply their epilogues after the kernel: streamed.ll.)
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -tlx-stream-max-rows=0 -pass-remarks=tlx-tile -pass-remarks-missed=tlx-tile -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -tlx-stream-max-rows=0 -tlx-fuse-epilogues=false -pass-remarks=tlx-tile -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

; REMARK: matmul: fused epilogue (fmul, relu) applied to C in registers as the GEMM writes it; no temporary{{$}}
; REMARK: matmul: fused epilogue (relu) applied to C in registers as the GEMM writes it; no temporary unless the destination overlaps an operand (checked at run time)
; REMARK: matmul: fused epilogue (sitofp) applied to C in registers as the GEMM writes it; only partial sums between K blocks go to an i32 temporary
; REMARK: matmul: fused epilogue (relu, trunc) applied to C in registers as the GEMM writes it; only partial sums between K blocks go to an i32 temporary
; REMARK: matmul: its elementwise consumer is not fused: the destination may overlap an operand and holds i8, not the i32 sums
; OFF-NOT: fused epilogue

target triple = "x86_64-unknown-linux-gnu"

; y = relu(x w * s): the temporary is gone; the chain runs on the
; accumulator vectors on the last K block, and C is the destination.
; CHECK-LABEL: define void @scale_relu(
; CHECK-NOT: alloca [30 x float]
; CHECK: %gemm.lastk = icmp sge
; CHECK: fmul <{{[0-9]+}} x float>
; CHECK: fcmp ole <{{[0-9]+}} x float>
; CHECK: select <{{[0-9]+}} x i1>
; CHECK-NOT: call {{.*}}@llvm.tensor.{{relu|fmul|matmul|store}}
define void @scale_relu(ptr noalias %x, ptr noalias %w, ptr noalias %y, float %s) {
  %tmp = alloca [30 x float], align 64
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 5, i32 7>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 7, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <30 x float> @llvm.tensor.matmul.v30f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v30f32(<30 x float> %m, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %tmp, token %tm, <2 x i32> zeroinitializer)
  %rd = call token @llvm.tensor.load.a(ptr elementtype(float) %tmp, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %splat = call <30 x float> @llvm.tensor.broadcast.v30f32.f32(token %rd, float %s)
  %tsplat = call token @llvm.tensor.typeinfo.v30f32(<30 x float> %splat, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %z = call <30 x float> @llvm.tensor.fmul.v30f32(token %rd, token %tsplat)
  %tz = call token @llvm.tensor.typeinfo.v30f32(<30 x float> %z, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %r = call <30 x float> @llvm.tensor.relu.v30f32(token %tz)
  %tr = call token @llvm.tensor.typeinfo.v30f32(<30 x float> %r, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; Plain pointers: a run-time range check chooses C = y or C = the
; temporary, and copies the temporary to y when they overlap.
; CHECK-LABEL: define void @may_overlap(
; CHECK: ptrtoint ptr %y to i64
; CHECK: %gemm.c = select i1 %{{.*}}, ptr %y, ptr %tmp
; CHECK: fcmp ole
; CHECK-NOT: call {{.*}}@llvm.tensor.{{relu|fmul|matmul|store}}
define void @may_overlap(ptr %x, ptr %w, ptr %y) {
  %tmp = alloca [30 x float], align 64
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 5, i32 7>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 7, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <30 x float> @llvm.tensor.matmul.v30f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v30f32(<30 x float> %m, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %tmp, token %tm, <2 x i32> zeroinitializer)
  %rd = call token @llvm.tensor.load.a(ptr elementtype(float) %tmp, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <30 x float> @llvm.tensor.relu.v30f32(token %rd)
  %tr = call token @llvm.tensor.typeinfo.v30f32(<30 x float> %r, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; (float)(x w) on i32: the GEMM stores floats into %y on the last K block;
; partial sums would go to the i32 temporary, which the single K block here
; never touches.
; CHECK-LABEL: define void @convert(
; CHECK-NOT: call void @llvm.tensor.store
; CHECK: sitofp <[[N:[0-9]+]] x i32> %{{.*}} to <[[N]] x float>
; CHECK: store <[[N]] x float> %{{.*}}, ptr %{{.*}}, align 4
; CHECK-NOT: call void @llvm.tensor.store
; CHECK-LABEL: define void @requantize(
define void @convert(ptr noalias %x, ptr noalias %w, ptr noalias %y) {
  %tmp = alloca [30 x i32], align 64
  %tx = call token @llvm.tensor.load.a(ptr elementtype(i32) %x, <2 x i32> <i32 5, i32 7>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(i32) %w, <2 x i32> <i32 7, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <30 x i32> @llvm.tensor.matmul.v30i32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v30i32(<30 x i32> %m, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i32) %tmp, token %tm, <2 x i32> zeroinitializer)
  %rd = call token @llvm.tensor.load.a(ptr elementtype(i32) %tmp, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %f = call <30 x float> @llvm.tensor.sitofp.v30f32(token %rd)
  %tf = call token @llvm.tensor.typeinfo.v30f32(<30 x float> %f, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tf, <2 x i32> zeroinitializer)
  ret void
}

; (int8_t)relu(x w): the chain ends in i8 stores.
; CHECK-NOT: call void @llvm.tensor.store
; CHECK: trunc <[[N:[0-9]+]] x i32> %{{.*}} to <[[N]] x i8>
; CHECK: store <[[N]] x i8> %{{.*}}, ptr %{{.*}}, align 1
; CHECK-NOT: call void @llvm.tensor.store
define void @requantize(ptr noalias %x, ptr noalias %w, ptr noalias %y) {
  %tmp = alloca [30 x i32], align 64
  %tx = call token @llvm.tensor.load.a(ptr elementtype(i32) %x, <2 x i32> <i32 5, i32 7>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(i32) %w, <2 x i32> <i32 7, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <30 x i32> @llvm.tensor.matmul.v30i32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v30i32(<30 x i32> %m, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i32) %tmp, token %tm, <2 x i32> zeroinitializer)
  %rd = call token @llvm.tensor.load.a(ptr elementtype(i32) %tmp, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <30 x i32> @llvm.tensor.relu.v30i32(token %rd)
  %tr = call token @llvm.tensor.typeinfo.v30i32(<30 x i32> %r, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %q = call <30 x i8> @llvm.tensor.trunc.v30i8(token %tr)
  %tq = call token @llvm.tensor.typeinfo.v30i8(<30 x i8> %q, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i8) %y, token %tq, <2 x i32> zeroinitializer)
  ret void
}

; The same with plain pointers: %y might overlap %x or %w, and a narrower
; destination cannot hold the partial sums of the run-time fallback.
; CHECK-LABEL: define void @requantize_may_alias(
; CHECK: call void @llvm.tensor.store
define void @requantize_may_alias(ptr %x, ptr %w, ptr %y) {
  %tmp = alloca [30 x i32], align 64
  %tx = call token @llvm.tensor.load.a(ptr elementtype(i32) %x, <2 x i32> <i32 5, i32 7>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(i32) %w, <2 x i32> <i32 7, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <30 x i32> @llvm.tensor.matmul.v30i32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v30i32(<30 x i32> %m, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i32) %tmp, token %tm, <2 x i32> zeroinitializer)
  %rd = call token @llvm.tensor.load.a(ptr elementtype(i32) %tmp, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %q = call <30 x i8> @llvm.tensor.trunc.v30i8(token %rd)
  %tq = call token @llvm.tensor.typeinfo.v30i8(<30 x i8> %q, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i8) %y, token %tq, <2 x i32> zeroinitializer)
  ret void
}

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
declare token @llvm.tensor.typeinfo.v30f32(<30 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v30i32(<30 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <30 x float> @llvm.tensor.matmul.v30f32(token, token)
declare <30 x i32> @llvm.tensor.matmul.v30i32(token, token)
declare <30 x float> @llvm.tensor.broadcast.v30f32.f32(token, float)
declare <30 x float> @llvm.tensor.fmul.v30f32(token, token)
declare <30 x float> @llvm.tensor.relu.v30f32(token)
declare <30 x float> @llvm.tensor.sitofp.v30f32(token)
declare <30 x i32> @llvm.tensor.relu.v30i32(token)
declare <30 x i8> @llvm.tensor.trunc.v30i8(token)
declare token @llvm.tensor.typeinfo.v30i8(<30 x i8>, <2 x i32>, <2 x i32>, <2 x i32>)
