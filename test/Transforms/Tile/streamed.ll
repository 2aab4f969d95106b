; tlx-tile: skinny products (M or N up to 16) are streamed
; (docs/pipeline.md, "Skinny products"): the large operand read in place
; by a kernel function the module shares (tlx.stream.<form>.<P>.<C>.x<S>),
; the small one converted into a scratch buffer first; an epilogue -
; here relu then a truncation to i8, written through GemmDesc::Out - runs
; after the kernel over C's few values. -tlx-stream-max-rows=0 gives them
; to the blocked GEMM.
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -pass-remarks=tlx-tile -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -tlx-stream-max-rows=0 -pass-remarks=tlx-tile -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

; REMARK: matmul: 64x40x1 (MxKxN) f32 x f32 -> f32 GEMM on vectors, kernel streamed dot f32, A in place, 4 rows of it x 1 column of B per step{{$}}
; REMARK: matmul: 64x40x1 (MxKxN) f32 x f32 -> f32 GEMM on vectors, kernel streamed dot f32, A in place, 4 rows of it x 1 column of B per step{{$}}
; REMARK: matmul: 3x40x64 (MxKxN) bf16 x f32 -> f32 GEMM on vectors, kernel streamed axpy f32, B in place, 2 rows of it x 3 rows of A per step{{$}}
; REMARK: matmul: 16x7x2 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel streamed dot i8->i32, A in place, 4 rows of it x 2 columns of B per step
; OFF: matmul: 64x40x1 (MxKxN) f32 x f32 -> f32 GEMM on vectors, kernel vec128 fma f32
; OFF-NOT: streamed

target triple = "x86_64-unknown-linux-gnu"

; y = W x: W's rows are dot products; two call sites, one kernel.
; CHECK-LABEL: define void @wx(
; CHECK: call ptr @tlxrt_scratch(i32 1,
; CHECK: call void @tlx.stream.dot.f32.f32.x1(ptr %w, i64 40, ptr %{{.*}}, i64 40, i64 1, ptr %y, i64 1, i64 1, ptr %y, i64 1, i64 1, i64 0, i64 64, i64 40, i64 0, i64 0)
; CHECK-NOT: call void @llvm.tensor
define void @wx(ptr noalias %w, ptr noalias %x, ptr noalias %y) {
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 64, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 40, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <64 x float> @llvm.tensor.matmul.v64f32(token %tw, token %tx)
  %tm = call token @llvm.tensor.typeinfo.v64f32(<64 x float> %m, <2 x i32> <i32 64, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

; CHECK-LABEL: define void @wx_again(
; CHECK: call void @tlx.stream.dot.f32.f32.x1(
define void @wx_again(ptr noalias %w, ptr noalias %x, ptr noalias %y) {
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 64, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 40, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <64 x float> @llvm.tensor.matmul.v64f32(token %tw, token %tx)
  %tm = call token @llvm.tensor.typeinfo.v64f32(<64 x float> %m, <2 x i32> <i32 64, i32 1>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

; y (3 x 64) = x (3 x 40, bf16) W (40 x 64): W's rows scaled and added,
; the bf16 activations widened once as they are packed.
; CHECK-LABEL: define void @xw(
; CHECK: call void @tlx.stream.axpy.f32.f32.x3(ptr %w, i64 64, ptr %{{.*}}, i64 40, i64 3, ptr %y, i64 1, i64 64, ptr %y, i64 1, i64 64, i64 0, i64 64, i64 40, i64 0, i64 0)
; CHECK: fpext bfloat %{{.*}} to float
define void @xw(ptr noalias %x, ptr noalias %w, ptr noalias %y) {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(bfloat) %x, <2 x i32> <i32 3, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 40, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <192 x float> @llvm.tensor.matmul.v192f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v192f32(<192 x float> %m, <2 x i32> <i32 3, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

; (int8_t)relu(W x): the kernel writes the i32 sums into the temporary,
; then the epilogue pass writes y.
; CHECK-LABEL: define void @requantize(
; CHECK: call void @tlx.stream.dot.s8.s8.i32.x2(ptr %w, i64 7,
; CHECK: trunc i32 %{{.*}} to i8
; CHECK-NOT: call void @llvm.tensor
define void @requantize(ptr noalias %w, ptr noalias %x, ptr noalias %y) {
  %tmp = alloca [32 x i32], align 64
  %tw = call token @llvm.tensor.load.a(ptr elementtype(i8) %w, <2 x i32> <i32 16, i32 7>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tx = call token @llvm.tensor.load.a(ptr elementtype(i8) %x, <2 x i32> <i32 7, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <32 x i32> @llvm.tensor.matmul.v32i32(token %tw, token %tx)
  %tm = call token @llvm.tensor.typeinfo.v32i32(<32 x i32> %m, <2 x i32> <i32 16, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i32) %tmp, token %tm, <2 x i32> zeroinitializer)
  %rd = call token @llvm.tensor.load.a(ptr elementtype(i32) %tmp, <2 x i32> <i32 16, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <32 x i32> @llvm.tensor.relu.v32i32(token %rd)
  %tr = call token @llvm.tensor.typeinfo.v32i32(<32 x i32> %r, <2 x i32> <i32 16, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %q = call <32 x i8> @llvm.tensor.trunc.v32i8(token %tr)
  %tq = call token @llvm.tensor.typeinfo.v32i8(<32 x i8> %q, <2 x i32> <i32 16, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i8) %y, token %tq, <2 x i32> zeroinitializer)
  ret void
}

; The kernels: vectors of P converted to C's type as they are loaded.
; CHECK-LABEL: define internal void @tlx.stream.dot.f32.f32.x1(
; CHECK: load <4 x float>
; CHECK: call reassoc float @llvm.vector.reduce.fadd.v4f32(
; CHECK-LABEL: define internal void @tlx.stream.axpy.f32.f32.x3(
; CHECK: call ptr @tlxrt_scratch(i32 3,
; CHECK: load <4 x float>
; int8 with the target's dot product (SSE2's pmaddwd: i16 pairs), the
; packed X already i16; the k tail one element at a time.
; CHECK-LABEL: define internal void @tlx.stream.dot.s8.s8.i32.x2(
; CHECK: sext <8 x i8> %{{.*}} to <8 x i16>
; CHECK: call <4 x i32> @llvm.x86.sse2.pmadd.wd(<8 x i16> %{{.*}}, <8 x i16> %{{.*}})
; The block's 8 sums together, lane pairs of two vectors added at a time.
; CHECK: shufflevector <4 x i32> %{{.*}}, <4 x i32> %{{.*}}, <4 x i32> <i32 0, i32 2, i32 4, i32 6>
; CHECK-NEXT: shufflevector <4 x i32> %{{.*}}, <4 x i32> %{{.*}}, <4 x i32> <i32 1, i32 3, i32 5, i32 7>
; CHECK-NEXT: add <4 x i32>
; CHECK: sext i16 %{{.*}} to i32
; CHECK-NOT: define internal void @tlx.stream.dot.f32.f32.x1.

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
declare token @llvm.tensor.typeinfo.v64f32(<64 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v192f32(<192 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v32i32(<32 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v32i8(<32 x i8>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <64 x float> @llvm.tensor.matmul.v64f32(token, token)
declare <192 x float> @llvm.tensor.matmul.v192f32(token, token)
declare <32 x i32> @llvm.tensor.matmul.v32i32(token, token)
declare <32 x i32> @llvm.tensor.relu.v32i32(token)
declare <32 x i8> @llvm.tensor.trunc.v32i8(token)
