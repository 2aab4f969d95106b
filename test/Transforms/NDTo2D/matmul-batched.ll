; tlx-nd-to-2d: a batched matmul in destination-passing form becomes a loop
; over the batch dims around 2-D matmuls on sub-tensors (the RFC's lowering
; example); an operand whose batch dim is innermost is packed first.
; RUN: %opt_tlx -passes=tlx-nd-to-2d -pass-remarks=tlx -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem

; REMARK: matmul: 2x3x4 -> loop over 2 batch slices of 3x4 2-D matmul
; REMARK: matmul: 2x3x2 -> loop over 2 batch slices of 3x2 2-D matmul; packed first: op1; result via a packed temporary

; CHECK-LABEL: define void @batched(
; CHECK: tlx.batch.d0.body:
; CHECK-NEXT: %tlx.batch.d0.iv = phi i64 [ 0, %{{.*}} ], [ %tlx.batch.d0.next, %tlx.batch.d0.body ]
; CHECK: %[[PA:.*]] = getelementptr inbounds float, ptr %a, i64 %{{.*}}
; CHECK: %[[TA:.*]] = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %[[PA]], <2 x i32> <i32 3, i32 5>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 5>)
; CHECK: %[[TB:.*]] = call token @llvm.tensor.load{{.*}}(ptr elementtype(float) %{{.*}}, <2 x i32> <i32 5, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 4>)
; CHECK: %[[MM:.*]] = call <12 x float> @llvm.tensor.matmul{{.*}}(token %[[TA]], token %[[TB]])
; CHECK: %[[TI:.*]] = call token @llvm.tensor.typeinfo{{.*}}(<12 x float> %[[MM]], <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
; CHECK: call void @llvm.tensor.store{{.*}}(ptr elementtype(float) %{{.*}}, token %[[TI]], <2 x i32> <i32 0, i32 4>)
; CHECK: tlx.batch.d0.exit:
; CHECK-NOT: <24 x float>
; CHECK: ret void
define void @batched(ptr %a, ptr %b, ptr %c) {
  %ta = call token @llvm.tensor.load(ptr elementtype(float) %a, <3 x i32> <i32 2, i32 3, i32 5>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.load(ptr elementtype(float) %b, <3 x i32> <i32 2, i32 5, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer)
  %r = call <24 x float> @llvm.tensor.matmul.v24f32(token %ta, token %tb)
  %tr = call token @llvm.tensor.typeinfo.v24f32(<24 x float> %r, <3 x i32> <i32 2, i32 3, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  call void @llvm.tensor.store(ptr elementtype(float) %c, token %tr, <3 x i32> zeroinitializer)
  ret void
}

; op1 [2,3,4] stored <1,2,0> (batch innermost): packed by a transpose into
; a temporary first; the result, also batch-innermost, goes through a packed
; temporary that a transpose copies into %c.
; CHECK-LABEL: define void @batch_innermost(
; CHECK: %tlx.pack = alloca [24 x float]
; CHECK: %[[T:.*]] = call <24 x float> @llvm.tensor.transpose{{.*}}(token %ta, <3 x i32> <i32 0, i32 1, i32 2>)
; CHECK: call void @llvm.tensor.store{{.*}}(ptr elementtype(float) %tlx.pack,
; CHECK: tlx.batch.d0.body:
; CHECK: call <6 x float> @llvm.tensor.matmul
; CHECK: tlx.batch.d0.exit:
; CHECK: %[[C:.*]] = call <12 x float> @llvm.tensor.transpose{{.*}}(token %{{.*}}, <3 x i32> <i32 1, i32 2, i32 0>)
; CHECK: %[[CT:.*]] = call token @llvm.tensor.typeinfo{{.*}}(<12 x float> %[[C]], <3 x i32> <i32 3, i32 2, i32 2>, <3 x i32> <i32 1, i32 2, i32 0>, <3 x i32> zeroinitializer)
; CHECK: call void @llvm.tensor.store{{.*}}(ptr elementtype(float) %c, token %[[CT]], <3 x i32> zeroinitializer)
define void @batch_innermost(ptr %a, ptr %b, ptr %c) {
  %ta = call token @llvm.tensor.load(ptr elementtype(float) %a, <3 x i32> <i32 3, i32 4, i32 2>, <3 x i32> <i32 1, i32 2, i32 0>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.load(ptr elementtype(float) %b, <3 x i32> <i32 2, i32 4, i32 2>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer)
  %r = call <12 x float> @llvm.tensor.matmul.v12f32(token %ta, token %tb)
  %tr = call token @llvm.tensor.typeinfo.v12f32(<12 x float> %r, <3 x i32> <i32 3, i32 2, i32 2>, <3 x i32> <i32 1, i32 2, i32 0>, <3 x i32> zeroinitializer)
  call void @llvm.tensor.store(ptr elementtype(float) %c, token %tr, <3 x i32> zeroinitializer)
  ret void
}

declare token @llvm.tensor.load(ptr, <3 x i32>, <3 x i32>, <3 x i32>, <3 x i32>)
declare <24 x float> @llvm.tensor.matmul.v24f32(token, token)
declare <12 x float> @llvm.tensor.matmul.v12f32(token, token)
declare token @llvm.tensor.typeinfo.v24f32(<24 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v12f32(<12 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare void @llvm.tensor.store(ptr, token, <3 x i32>)
