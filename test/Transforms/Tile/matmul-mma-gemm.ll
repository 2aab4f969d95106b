; tlx-tile: 2-D matmul / mma in destination-passing form become GEMM code
; (GemmEmitter.h) through the operands' strides; mma accumulates in place
; when its accumulator is the destination, else copies it there first. With
; -tlx-target=amx an f64 GEMM falls back to vector code with a missed remark.
; RUN: %opt_tlx -passes=tlx-tile -pass-remarks=tlx -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=amx -pass-remarks-missed=tlx -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMX

; REMARK: matmul: 5x7x6 (MxKxN) f32 x f32 -> f32 GEMM on vectors, kernel {{.*}}
; REMARK: smma: 4x8x4 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel {{.*}}, accumulating in place
; REMARK: umma: 4x8x4 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel {{.*}}, accumulator copied into the destination first
; REMARK: matmul: 3x3x3 (MxKxN) f64 x f64 -> f64 GEMM on vectors

; AMX: remark: <unknown>:0:0: matmul: AMX cannot do this GEMM ({{.*}}); using vector code

; A column-major 5x7 operand and a result written with leading dim 8.
; CHECK-LABEL: define void @matmul(
; CHECK-NOT: call {{.*}}@llvm.tensor.matmul
; CHECK-NOT: call {{.*}}@llvm.tensor.store
; CHECK: ret void
define void @matmul(ptr %a, ptr %b, ptr %c) {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 7, i32 5>, <2 x i32> <i32 1, i32 0>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.load.a(ptr elementtype(float) %b, <2 x i32> <i32 7, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <30 x float> @llvm.tensor.matmul.v30f32(token %ta, token %tb)
  %tr = call token @llvm.tensor.typeinfo.v30f32(<30 x float> %r, <2 x i32> <i32 5, i32 6>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %tr, <2 x i32> <i32 0, i32 8>)
  ret void
}

; CHECK-LABEL: define void @smma_in_place(
; CHECK-NOT: call {{.*}}@llvm.tensor.smma
; CHECK: ret void
define void @smma_in_place(ptr %a, ptr %b, ptr %c) {
  %tc = call token @llvm.tensor.load.a(ptr elementtype(i32) %c, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %ta = call token @llvm.tensor.load.a(ptr elementtype(i8) %a, <2 x i32> <i32 4, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.load.a(ptr elementtype(i8) %b, <2 x i32> <i32 8, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <16 x i32> @llvm.tensor.smma.v16i32(token %tc, token %ta, token %tb)
  %tr = call token @llvm.tensor.typeinfo.v16i32(<16 x i32> %r, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i32) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; The accumulator comes from %acc: copied into %c (a vector loop), then the
; GEMM accumulates.
; CHECK-LABEL: define void @umma_copy(
; CHECK: tlx.el.d0.body:
; CHECK: load <4 x i32>, ptr
; CHECK: store <4 x i32>
; CHECK-NOT: call {{.*}}@llvm.tensor.umma
; CHECK: ret void
define void @umma_copy(ptr %acc, ptr %a, ptr %b, ptr %c) {
  %tc = call token @llvm.tensor.load.a(ptr elementtype(i32) %acc, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %ta = call token @llvm.tensor.load.a(ptr elementtype(i8) %a, <2 x i32> <i32 4, i32 8>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.load.a(ptr elementtype(i8) %b, <2 x i32> <i32 8, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <16 x i32> @llvm.tensor.umma.v16i32(token %tc, token %ta, token %tb)
  %tr = call token @llvm.tensor.typeinfo.v16i32(<16 x i32> %r, <2 x i32> <i32 4, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i32) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

; CHECK-LABEL: define void @f64(
; CHECK-NOT: call {{.*}}@llvm.tensor.matmul
define void @f64(ptr %a, ptr %c) {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(double) %a, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <9 x double> @llvm.tensor.matmul.v9f64(token %ta, token %ta)
  %tr = call token @llvm.tensor.typeinfo.v9f64(<9 x double> %r, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(double) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <30 x float> @llvm.tensor.matmul.v30f32(token, token)
declare <9 x double> @llvm.tensor.matmul.v9f64(token, token)
declare <16 x i32> @llvm.tensor.smma.v16i32(token, token, token)
declare <16 x i32> @llvm.tensor.umma.v16i32(token, token, token)
declare token @llvm.tensor.typeinfo.v30f32(<30 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v16i32(<16 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v9f64(<9 x double>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
