; tlx-bufferize: a chain of ops whose last result nothing reads is not
; computed at all - the last op, then each op only the erased ones read,
; across blocks - while an op the program stores stays.
; RUN: %opt_tlx -passes=tlx-bufferize -pass-remarks=tlx -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem

; REMARK-DAG: remark: <unknown>:0:0: exp: result unused, not computed
; REMARK-DAG: remark: <unknown>:0:0: matmul: result unused, not computed
; REMARK-DAG: remark: <unknown>:0:0: relu: result unused, not computed
; REMARK-NOT: fabs: result unused

; CHECK-LABEL: define void @chain(
; CHECK-NOT: @llvm.tensor.relu
; CHECK-NOT: @llvm.tensor.matmul
; CHECK-NOT: @llvm.tensor.exp
; CHECK: %w = call <4 x float> @llvm.tensor.fabs(token %ta)
; CHECK: call void @llvm.tensor.store(ptr elementtype(float) %c,
; CHECK-NOT: @llvm.tensor.exp
; CHECK: ret void
define void @chain(ptr %a, ptr %c, i1 %f) {
  %ta = call token @llvm.tensor.load(ptr elementtype(float) %a, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %x = call <4 x float> @llvm.tensor.relu(token %ta)
  %tx = call token @llvm.tensor.typeinfo(<4 x float> %x, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %y = call <4 x float> @llvm.tensor.matmul(token %tx, token %tx)
  %ty = call token @llvm.tensor.typeinfo(<4 x float> %y, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %w = call <4 x float> @llvm.tensor.fabs(token %ta)
  %tw = call token @llvm.tensor.typeinfo(<4 x float> %w, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store(ptr elementtype(float) %c, token %tw, <2 x i32> zeroinitializer)
  br i1 %f, label %then, label %done

then:
  %z = call <4 x float> @llvm.tensor.exp(token %ty)
  %tz = call token @llvm.tensor.typeinfo(<4 x float> %z, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  br label %done

done:
  ret void
}

declare token @llvm.tensor.load(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo(<4 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <4 x float> @llvm.tensor.relu(token)
declare <4 x float> @llvm.tensor.fabs(token)
declare <4 x float> @llvm.tensor.exp(token)
declare <4 x float> @llvm.tensor.matmul(token, token)
declare void @llvm.tensor.store(ptr, token, <2 x i32>)
