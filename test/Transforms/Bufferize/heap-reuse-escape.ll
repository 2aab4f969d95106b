; tlx-bufferize: temporaries above 4 KiB get heap buffers (tlxrt_temp_alloc)
; freed after their last reader; an elementwise op writes over its dead
; operand's buffer; by-value vector inputs are copied into memory once; a
; result escaping to non-TLX code is read from its buffer where that code
; uses it; unused results are not computed; user memory written before the
; last reader is snapshotted.
; RUN: %opt_tlx -passes=tlx-bufferize -pass-remarks=tlx -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem

; REMARK: matmul: result 32x64 f32 into a heap buffer of 8192 bytes
; REMARK: relu: result 32x64 f32 reuses its operand's buffer
; REMARK: tensor 2x2 f32 passed by value: copied once into a stack buffer (16 bytes)
; REMARK: relu: result 2x2 f32 into a stack buffer of 16 bytes; non-TLX code reads it from the buffer
; REMARK: matmul: result unused, not computed
; REMARK: tensor 2x2 f32 copied at its definition: its memory may be written before its last reader

; CHECK-LABEL: define void @heap(
; CHECK: %tlx.tmp = call align 64 ptr @tlxrt_temp_alloc(i64 8192)
; CHECK: %r = call <2048 x float> @llvm.tensor.matmul{{.*}}(
; CHECK: call void @llvm.tensor.store{{.*}}(ptr elementtype(float) %tlx.tmp, token %tr,
; CHECK: %[[B1:.*]] = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %tlx.tmp,
; CHECK: %e = call <2048 x float> @llvm.tensor.relu.v2048f32(token %[[B1]])
; CHECK: call void @llvm.tensor.store{{.*}}(ptr elementtype(float) %tlx.tmp, token %te,
; CHECK: %[[B2:.*]] = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %tlx.tmp,
; CHECK: call <2048 x float> @llvm.tensor.sigmoid.v2048f32(token %[[B2]])
; CHECK: call <2048 x float> @llvm.tensor.tanh.v2048f32(token %[[B2]])
; CHECK-NEXT: typeinfo
; CHECK-NEXT: call void @llvm.tensor.store(ptr elementtype(float) %d,
; CHECK-NEXT: call void @tlxrt_temp_free(ptr %tlx.tmp)
; CHECK-NEXT: ret void
define void @heap(ptr %a, ptr %b, ptr %c, ptr %d) {
  %ta = call token @llvm.tensor.load(ptr elementtype(float) %a, <2 x i32> <i32 32, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.load(ptr elementtype(float) %b, <2 x i32> <i32 8, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <2048 x float> @llvm.tensor.matmul.v2048f32(token %ta, token %tb)
  %tr = call token @llvm.tensor.typeinfo.v2048f32(<2048 x float> %r, <2 x i32> <i32 32, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %e = call <2048 x float> @llvm.tensor.relu.v2048f32(token %tr)
  %te = call token @llvm.tensor.typeinfo.v2048f32(<2048 x float> %e, <2 x i32> <i32 32, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %s = call <2048 x float> @llvm.tensor.sigmoid.v2048f32(token %te)
  %ts = call token @llvm.tensor.typeinfo.v2048f32(<2048 x float> %s, <2 x i32> <i32 32, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store(ptr elementtype(float) %c, token %ts, <2 x i32> zeroinitializer)
  %h = call <2048 x float> @llvm.tensor.tanh.v2048f32(token %te)
  %th = call token @llvm.tensor.typeinfo.v2048f32(<2048 x float> %h, <2 x i32> <i32 32, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store(ptr elementtype(float) %d, token %th, <2 x i32> zeroinitializer)
  ret void
}

; CHECK-LABEL: define <4 x float> @byvalue(
; CHECK-DAG: %tlx.in = alloca [4 x float], align 64
; CHECK-DAG: %tlx.tmp = alloca [4 x float], align 64
; CHECK: store <4 x float> %v, ptr %tlx.in, align 1
; CHECK-NEXT: %t = call token @llvm.tensor.typeinfo{{.*}}(ptr elementtype(float) %tlx.in,
; CHECK: %e = call <4 x float> @llvm.tensor.relu.v4f32(token %t)
; CHECK: call void @llvm.tensor.store{{.*}}(ptr elementtype(float) %tlx.tmp, token %te,
; CHECK: %e.vec = load <4 x float>, ptr %tlx.tmp, align 1
; CHECK: ret <4 x float> %e.vec
define <4 x float> @byvalue(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %e = call <4 x float> @llvm.tensor.relu.v4f32(token %t)
  %te = call token @llvm.tensor.typeinfo.v4f32(<4 x float> %e, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret <4 x float> %e
}

; CHECK-LABEL: define void @unused(
; CHECK-NOT: llvm.tensor.matmul
; CHECK: ret void
define void @unused(ptr %a) {
  %ta = call token @llvm.tensor.load(ptr elementtype(float) %a, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <4 x float> @llvm.tensor.matmul.v4f32(token %ta, token %ta)
  %tr = call token @llvm.tensor.typeinfo.v4f32(<4 x float> %r, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}

; The C program writes %a between the load and the op: the load is a
; snapshot, copied into a buffer where it is defined.
; CHECK-LABEL: define void @snapshot(
; CHECK: %ta = call token @llvm.tensor.load(ptr elementtype(float) %a,
; CHECK-NEXT: call void @llvm.tensor.store{{.*}}(ptr elementtype(float) %tlx.copy, token %ta,
; CHECK-NEXT: %[[S:.*]] = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %tlx.copy,
; CHECK: store float 1.000000e+00, ptr %a
; CHECK: call <4 x float> @llvm.tensor.relu.v4f32(token %[[S]])
define void @snapshot(ptr %a, ptr %c) {
  %ta = call token @llvm.tensor.load(ptr elementtype(float) %a, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  store float 1.0, ptr %a
  %e = call <4 x float> @llvm.tensor.relu.v4f32(token %ta)
  %te = call token @llvm.tensor.typeinfo.v4f32(<4 x float> %e, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store(ptr elementtype(float) %c, token %te, <2 x i32> zeroinitializer)
  ret void
}

declare token @llvm.tensor.load(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <2048 x float> @llvm.tensor.matmul.v2048f32(token, token)
declare <4 x float> @llvm.tensor.matmul.v4f32(token, token)
declare <2048 x float> @llvm.tensor.relu.v2048f32(token)
declare <2048 x float> @llvm.tensor.sigmoid.v2048f32(token)
declare <2048 x float> @llvm.tensor.tanh.v2048f32(token)
declare <4 x float> @llvm.tensor.relu.v4f32(token)
declare token @llvm.tensor.typeinfo.v2048f32(<2048 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v4f32(<4 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store(ptr, token, <2 x i32>)
