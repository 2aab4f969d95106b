; tlx-bufferize: a result whose typeinfo is only stored is computed straight
; into the store's memory (no buffer); an elementwise op reading it is fused
; into its consumer; a result read by two ops gets a stack buffer.
; RUN: %opt_tlx -passes=tlx-bufferize -pass-remarks=tlx -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem

; REMARK: remark: <unknown>:0:0: matmul: result written in place into the destination of its tensor.store
; REMARK: remark: <unknown>:0:0: relu: no buffer, fused into its consumer 'transpose' (computed per element)
; REMARK: remark: <unknown>:0:0: transpose: result written in place into the destination of its tensor.store
; REMARK: remark: <unknown>:0:0: matmul: result 2x2 f32 into a stack buffer of 16 bytes

; CHECK-LABEL: define void @direct(
; CHECK-NOT: alloca
; CHECK: %r = call <4 x float> @llvm.tensor.matmul(token %ta, token %tb)
; CHECK-NEXT: %tr = call token @llvm.tensor.typeinfo(<4 x float> %r,
; CHECK-NEXT: call void @llvm.tensor.store(ptr elementtype(float) %c, token %tr,
define void @direct(ptr %a, ptr %b, ptr %c) {
  %ta = call token @llvm.tensor.load(ptr elementtype(float) %a, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.load(ptr elementtype(float) %b, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <4 x float> @llvm.tensor.matmul(token %ta, token %tb)
  %tr = call token @llvm.tensor.typeinfo(<4 x float> %r, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store(ptr elementtype(float) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; CHECK-LABEL: define void @fused(
; CHECK-NOT: alloca
; CHECK: %e = call <4 x float> @llvm.tensor.relu(token %ta)
; CHECK-NEXT: %te = call token @llvm.tensor.typeinfo(<4 x float> %e,
; CHECK: %t = call <4 x float> @llvm.tensor.transpose(token %te,
; CHECK-NEXT: %tt = call token @llvm.tensor.typeinfo(<4 x float> %t,
; CHECK-NEXT: call void @llvm.tensor.store(ptr elementtype(float) %c, token %tt,
define void @fused(ptr %a, ptr %c) {
  %ta = call token @llvm.tensor.load(ptr elementtype(float) %a, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %e = call <4 x float> @llvm.tensor.relu(token %ta)
  %te = call token @llvm.tensor.typeinfo(<4 x float> %e, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %t = call <4 x float> @llvm.tensor.transpose(token %te, <2 x i32> <i32 1, i32 0>)
  %tt = call token @llvm.tensor.typeinfo(<4 x float> %t, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 1, i32 0>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store(ptr elementtype(float) %c, token %tt, <2 x i32> zeroinitializer)
  ret void
}

; Read by two ops: stored into a stack buffer, read back through a load.
; CHECK-LABEL: define void @shared(
; CHECK: %tlx.tmp = alloca [4 x float], align 64
; CHECK: %r = call <4 x float> @llvm.tensor.matmul(token %ta, token %ta)
; CHECK-NEXT: %tr = call token @llvm.tensor.typeinfo(<4 x float> %r,
; CHECK-NEXT: call void @llvm.tensor.store{{.*}}(ptr elementtype(float) %tlx.tmp, token %tr, <2 x i32> <i32 0, i32 2>)
; CHECK-NEXT: %tlx.buf = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %tlx.tmp,
; CHECK: call <4 x float> @llvm.tensor.matmul(token %tlx.buf, token %tlx.buf)
define void @shared(ptr %a, ptr %c) {
  %ta = call token @llvm.tensor.load(ptr elementtype(float) %a, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <4 x float> @llvm.tensor.matmul(token %ta, token %ta)
  %tr = call token @llvm.tensor.typeinfo(<4 x float> %r, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %s = call <4 x float> @llvm.tensor.matmul(token %tr, token %tr)
  %ts = call token @llvm.tensor.typeinfo(<4 x float> %s, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store(ptr elementtype(float) %c, token %ts, <2 x i32> zeroinitializer)
  ret void
}

declare token @llvm.tensor.load(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <4 x float> @llvm.tensor.matmul(token, token)
declare <4 x float> @llvm.tensor.relu(token)
declare <4 x float> @llvm.tensor.transpose(token, <2 x i32>)
declare token @llvm.tensor.typeinfo(<4 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store(ptr, token, <2 x i32>)
