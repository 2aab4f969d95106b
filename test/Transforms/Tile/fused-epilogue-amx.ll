; tlx-tile on AMX: an elementwise chain after an int8 mma is applied inside
; each outlined AMX kernel, to every 32x32 block of C right after its
; tilestored (read back while in L1). The chain's operands from the caller
; (here %y, the destination) reach the kernel through an environment struct; a
; chain ending in i8 stores through GemmDesc::Out.
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=amx -pass-remarks=tlx-tile -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem

; REMARK: smma: fused epilogue (relu, trunc) applied to each C block as the AMX kernel stores it (read back from L1); the sums pass block by block through an i32 temporary

target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @requantize(
; CHECK: %tlx.env = alloca { ptr }
; The accumulator %acc is copied into C (AMX loads accumulators from C).
; CHECK: gemm.init.i.header:
; CHECK: store ptr %y, ptr %{{.*}}
; CHECK: call void @tlx.amx.gemm(ptr %x, i64 {{.*}}, i64 0, ptr %tlx.env)
; CHECK-NOT: call void @llvm.tensor.store
; CHECK-LABEL: define internal void @tlx.amx.gemm(
; CHECK-SAME: i64 %c.col0, ptr %env)
; CHECK: %[[F:.*]] = getelementptr inbounds {{(nuw )?}}{ ptr }, ptr %env, i32 0, i32 0
; CHECK-NEXT: load ptr, ptr %[[F]]
; CHECK: call void @llvm.x86.tilestored64.internal
; CHECK: load <16 x i32>
; CHECK: trunc <16 x i32> %{{.*}} to <16 x i8>
; CHECK: store <16 x i8>
define void @requantize(ptr noalias %x, ptr noalias %w, ptr noalias %acc, ptr noalias %y) {
  %tmp = alloca [1024 x i32], align 64
  %tx = call token @llvm.tensor.load.a(ptr elementtype(i8) %x, <2 x i32> <i32 32, i32 64>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(i8) %w, <2 x i32> <i32 64, i32 32>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tz = call token @llvm.tensor.load.a(ptr elementtype(i32) %acc, <2 x i32> <i32 32, i32 32>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <1024 x i32> @llvm.tensor.smma.v1024i32(token %tz, token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v1024i32(<1024 x i32> %m, <2 x i32> <i32 32, i32 32>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i32) %tmp, token %tm, <2 x i32> zeroinitializer)
  %rd = call token @llvm.tensor.load.a(ptr elementtype(i32) %tmp, <2 x i32> <i32 32, i32 32>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <1024 x i32> @llvm.tensor.relu.v1024i32(token %rd)
  %tr = call token @llvm.tensor.typeinfo.v1024i32(<1024 x i32> %r, <2 x i32> <i32 32, i32 32>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %q = call <1024 x i8> @llvm.tensor.trunc.v1024i8(token %tr)
  %tq = call token @llvm.tensor.typeinfo.v1024i8(<1024 x i8> %q, <2 x i32> <i32 32, i32 32>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i8) %y, token %tq, <2 x i32> zeroinitializer)
  ret void
}

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
declare token @llvm.tensor.typeinfo.v1024i32(<1024 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v1024i8(<1024 x i8>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <1024 x i32> @llvm.tensor.smma.v1024i32(token, token, token)
declare <1024 x i32> @llvm.tensor.relu.v1024i32(token)
declare <1024 x i8> @llvm.tensor.trunc.v1024i8(token)
