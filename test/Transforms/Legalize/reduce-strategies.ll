; tlx-legalize's three loop structures for reduce-window (ReduceWindow.cpp;
; lanes on outputs: reduce-pad-tovector.ll). A row max is vectorized along
; its window: 4 accumulators of compare-selects, beside each a sum of
; x * 0 (NaN once the window held a NaN or an infinity), the lanes combined
; by halving shuffles, and the in-order fold again for an output whose
; window held a NaN (or an infinity) or whose maximum is a zero. A column sum folds a
; window row at a time into a block of accumulators: the window loop
; outside the lane loop. A full float sum starts from -0.0.
; RUN: %opt_tlx -passes=tlx-legalize -pass-remarks=tlx -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem

; REMARK: reduce.max: 3x1 f32 outputs, window of 37 elements, vectorized along the window (logical dim 1): 4 lanes x 4 accumulators per output
; REMARK: reduce.add: 1x10 i32 outputs, window of 20 elements, folded a window row at a time into blocks of outputs, 4 per vector
; REMARK: reduce.add: 1x1 f32 outputs, window of 36 elements, vectorized along the window (logical dim 1): 4 lanes x 2 accumulators per output

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; [3, 37] windows 1x37 -> [3, 1]: 32 elements in 2 trips of 4 x 4 lanes,
; one more vector, one scalar as lane 0 of an identity vector.
; CHECK-LABEL: define void @row_max(
; CHECK: tlx.win.vec.body:
; CHECK: %[[GT:.*]] = fcmp ogt <4 x float> %[[ACC:.*]], %[[X:.*]]
; CHECK-NEXT: select <4 x i1> %[[GT]], <4 x float> %[[ACC]], <4 x float> %[[X]]
; CHECK: call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %[[X]], <4 x float> zeroinitializer, <4 x float>
; CHECK-COUNT-3: fcmp ogt <4 x float>
; CHECK: tlx.win.vec.exit:
; CHECK: insertelement <4 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>, float %{{.*}}, i64 0
; CHECK: shufflevector <4 x float> %{{.*}}, <4 x float> poison, <2 x i32> <i32 0, i32 1>
; CHECK: shufflevector <2 x float> %{{.*}}, <2 x float> poison, <1 x i32> zeroinitializer
; CHECK: %[[ZERO:.*]] = fcmp oeq float %{{.*}}, 0.000000e+00
; CHECK: %[[NANS:.*]] = fcmp uno <4 x float> %[[SUMS:.*]], %[[SUMS]]
; CHECK: %[[ANYNAN:.*]] = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %[[NANS]])
; CHECK: %[[REDO:.*]] = or i1 %[[ANYNAN]], %[[ZERO]]
; CHECK: br i1 %[[REDO]], label %tlx.win.inorder.then, label %tlx.win.inorder.end
; CHECK: tlx.win.inorder.then:
; CHECK: tlx.win.d1.body:
; CHECK: fcmp uno float
; CHECK: tlx.win.inorder.end:
define void @row_max(ptr %a, ptr %c) #0 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 3, i32 37>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <3 x float> @llvm.tensor.reduce.max.v3f32(token %ta, <2 x i32> <i32 1, i32 37>, <2 x i32> <i32 1, i32 1>)
  %tr = call token @llvm.tensor.typeinfo.v3f32(<3 x float> %r, <2 x i32> <i32 3, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; [20, 10] windows 20x1 -> [1, 10]: accumulators set to 0, then per
; window row a lane loop adding one contiguous row segment, then stored.
; CHECK-LABEL: define void @column_sum(
; CHECK: %[[BLOCK:.*]] = alloca [4096 x i32], align 64
; CHECK: store <4 x i32> zeroinitializer
; CHECK: tlx.win.d0.body:
; CHECK: tlx.red.vec.body{{[0-9]+}}:
; CHECK: %[[IN:.*]] = load <4 x i32>
; CHECK: %[[OLD:.*]] = load <4 x i32>, ptr %[[SLOT:.*]], align 4
; CHECK: %[[SUM:.*]] = add <4 x i32> %[[OLD]], %[[IN]]
; CHECK: store <4 x i32> %[[SUM]], ptr %[[SLOT]]
; CHECK: tlx.win.d0.exit:
; CHECK: load <4 x i32>, ptr
; CHECK: store <4 x i32>
define void @column_sum(ptr %a, ptr %c) #0 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(i32) %a, <2 x i32> <i32 20, i32 10>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <10 x i32> @llvm.tensor.reduce.add.v10i32(token %ta, <2 x i32> <i32 20, i32 1>, <2 x i32> <i32 1, i32 1>)
  %tr = call token @llvm.tensor.typeinfo.v10i32(<10 x i32> %r, <2 x i32> <i32 1, i32 10>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i32) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; CHECK-LABEL: define void @full_sum(
; CHECK: store <4 x float> <float -0.000000e+00, float -0.000000e+00, float -0.000000e+00, float -0.000000e+00>
; CHECK: tlx.win.d0.body:
; CHECK: fadd <4 x float>
; CHECK: fadd <4 x float>
; CHECK-NOT: tlx.win.inorder
; CHECK: ret void
define void @full_sum(ptr %a, ptr %c) #0 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 4, i32 9>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <1 x float> @llvm.tensor.reduce.add.v1f32(token %ta, <2 x i32> <i32 4, i32 9>, <2 x i32> <i32 1, i32 1>)
  %tr = call token @llvm.tensor.typeinfo.v1f32(<1 x float> %r, <2 x i32> <i32 1, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
declare <3 x float> @llvm.tensor.reduce.max.v3f32(token, <2 x i32>, <2 x i32>)
declare <10 x i32> @llvm.tensor.reduce.add.v10i32(token, <2 x i32>, <2 x i32>)
declare <1 x float> @llvm.tensor.reduce.add.v1f32(token, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v3f32(<3 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v10i32(<10 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v1f32(<1 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
attributes #0 = { "target-cpu"="x86-64" }
