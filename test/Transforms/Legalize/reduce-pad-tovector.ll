; tlx-legalize: reduce-window accumulates VF windows at once; pad selects
; between the (clamped) operand and the fill value; concat picks an operand
; per element; broadcast splats; tovector writes the logical row-major order
; into a buffer and loads it as the result vector.
; RUN: %opt_tlx -passes=tlx-legalize -pass-remarks=tlx -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; REMARK: reduce.max: 3x4 f32 outputs, window of 9 elements, 4 outputs per vector
; REMARK: pad: 4x6 i32 loop nest, 4-lane vectors along the innermost dim (target vector width 4 lanes)
; REMARK: concat: 2x6 i16 loop nest, 4-lane vectors along the innermost dim
; REMARK: broadcast: 3x8 f64 loop nest, 2-lane vectors along the innermost dim
; REMARK: tovector: 2x3 f32 flattened row-major into a vector through a stack buffer

; [7,9] windows 3x3 strides 2x2 -> [3,4]: lanes 2 input columns apart.
; CHECK-LABEL: define void @reduce_max(
; CHECK: %tlx.acc = alloca <4 x float>
; CHECK: store <4 x float> <float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000, float 0xFFF0000000000000>, ptr %tlx.acc
; CHECK: tlx.win.d0.body:
; CHECK: tlx.win.d1.body:
; CHECK: getelementptr inbounds float, ptr %{{.*}}, i64 2
; llvm.maximum, spelled out: the accumulator wins when greater or NaN, and
; equal values (+0 and -0) combine bitwise.
; CHECK: %[[GT:.*]] = fcmp ogt <4 x float> %[[ACC:.*]], %[[X:.*]]
; CHECK: %[[NAN:.*]] = fcmp uno <4 x float> %[[ACC]], %[[ACC]]
; CHECK: %[[W:.*]] = or <4 x i1> %[[GT]], %[[NAN]]
; CHECK: %[[R:.*]] = select <4 x i1> %[[W]], <4 x float> %[[ACC]], <4 x float> %[[X]]
; CHECK: %[[AND:.*]] = and <4 x i32>
; CHECK: %[[EQ:.*]] = fcmp oeq <4 x float> %[[ACC]], %[[X]]
; CHECK: select <4 x i1> %[[EQ]], <4 x float> %{{.*}}, <4 x float> %[[R]]
; CHECK: store <4 x float> %{{.*}}, ptr %{{.*}}, align 4
define void @reduce_max(ptr %a, ptr %c) #0 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 7, i32 9>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <12 x float> @llvm.tensor.reduce.max.v12f32(token %ta, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 2, i32 2>)
  %tr = call token @llvm.tensor.typeinfo.v12f32(<12 x float> %r, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; [2,3] padded by <1,2> / <1,1> with 9 -> [4,6].
; CHECK-LABEL: define void @pad(
; CHECK: call i64 @llvm.smax.i64(
; CHECK: call i64 @llvm.smin.i64(
; CHECK: select <4 x i1> %{{.*}}, <4 x i32> %{{.*}}, <4 x i32> <i32 9, i32 9, i32 9, i32 9>
define void @pad(ptr %a, ptr %c) #0 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(i32) %a, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <24 x i32> @llvm.tensor.pad.v24i32(token %ta, <2 x i32> <i32 1, i32 2>, <2 x i32> <i32 1, i32 1>, i32 9)
  %tr = call token @llvm.tensor.typeinfo.v24i32(<24 x i32> %r, <2 x i32> <i32 4, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i32) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; [2,2] ++ [2,4] along axis 1: lanes cross the seam, so each lane picks
; its operand.
; CHECK-LABEL: define void @concat(
; CHECK: select i1 {{.*}}, i16 %{{.*}}, i16 %{{.*}}
; CHECK: insertelement <4 x i16> poison, i16 %{{.*}}, i64 0
define void @concat(ptr %a, ptr %b, ptr %c) #0 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(i16) %a, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.load.a(ptr elementtype(i16) %b, <2 x i32> <i32 2, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <12 x i16> @llvm.tensor.concat.v12i16(token %ta, token %tb, i32 1)
  %tr = call token @llvm.tensor.typeinfo.v12i16(<12 x i16> %r, <2 x i32> <i32 2, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i16) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; [8] -> [3,8]: the row is read with full vectors, the same for every row.
; CHECK-LABEL: define void @broadcast(
; CHECK: load <2 x double>, ptr
; CHECK: store <2 x double>
define void @broadcast(ptr %a, ptr %c) #0 {
  %ta = call token @llvm.tensor.load.b(ptr elementtype(double) %a, <1 x i32> <i32 8>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %r = call <24 x double> @llvm.tensor.broadcast.v24f64(token %ta)
  %tr = call token @llvm.tensor.typeinfo.v24f64(<24 x double> %r, <2 x i32> <i32 3, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(double) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; Column-major [2,3] flattened in logical row-major order.
; CHECK-LABEL: define <6 x float> @tovector(
; CHECK: %tlx.vec = alloca [6 x float]
; CHECK: %[[V:.*]] = load <6 x float>, ptr %tlx.vec
; CHECK: ret <6 x float> %[[V]]
define <6 x float> @tovector(ptr %a) #0 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 3, i32 2>, <2 x i32> <i32 1, i32 0>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %v = call <6 x float> @llvm.tensor.tovector.v6f32(token %ta)
  ret <6 x float> %v
}

attributes #0 = { "target-cpu"="x86-64" }

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.load.b(ptr, <1 x i32>, <1 x i32>, <1 x i32>, <1 x i32>)
declare <12 x float> @llvm.tensor.reduce.max.v12f32(token, <2 x i32>, <2 x i32>)
declare <24 x i32> @llvm.tensor.pad.v24i32(token, <2 x i32>, <2 x i32>, i32)
declare <12 x i16> @llvm.tensor.concat.v12i16(token, token, i32)
declare <24 x double> @llvm.tensor.broadcast.v24f64(token)
declare <6 x float> @llvm.tensor.tovector.v6f32(token)
declare token @llvm.tensor.typeinfo.v12f32(<12 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v24i32(<24 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12i16(<12 x i16>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v24f64(<24 x double>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
