; tlx-tile in a module compiled with -fopenmp (clang's "openmp" module flag):
; a big vector GEMM is split over the OpenMP threads the way clang lowers
; `#pragma omp parallel` + `#pragma omp for schedule(static)`: the caller
; forks an outlined region (__kmpc_fork_call) that takes its share of the
; micro-panels (__kmpc_for_static_init_8, schedule 34) and runs the blocked
; GEMM on those rows (M >= N) or columns (M < N) only. Small GEMMs, modules
; without the flag and -tlx-threads=0 keep the GEMM on the calling thread.
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -S %s -o - | FileCheck %s
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -tlx-threads=0 -S %s -o - | FileCheck %s --check-prefix=SERIAL
; RUN: sed 's/!"openmp"/!"no-openmp"/' %s | %opt_tlx -passes=tlx-tile -tlx-target=vector -S -o - | FileCheck %s --check-prefix=SERIAL
; RUN: %opt_tlx -passes=tlx-tile -tlx-target=vector -tlx-threads-min-work=0 -S %s -o - | FileCheck %s --check-prefix=ALL

target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @rows(
; CHECK: %tlx.env = alloca { ptr, ptr, ptr }
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @{{[0-9]+}}, i32 1, ptr @tlx.par.gemm, ptr %tlx.env)
; CHECK-NEXT: ret void
; CHECK-LABEL: define void @cols(
; CHECK: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @{{[0-9]+}}, i32 1, ptr @tlx.par.gemm.{{[0-9]+}}, ptr %tlx.env)
; CHECK-LABEL: define void @small(
; CHECK-NOT: __kmpc
; CHECK: ret void
;
; The rows of @rows: 43 units of MR = 6 rows, the last one shorter.
; CHECK-LABEL: define internal void @tlx.par.gemm(ptr noalias noundef %gtid, ptr noalias noundef %btid, ptr %env)
; CHECK: %omp.gtid = load i32, ptr %gtid
; CHECK: store i64 42, ptr %omp.ub
; CHECK: call void @__kmpc_for_static_init_8(ptr @{{[0-9]+}}, i32 %omp.gtid, i32 34, ptr %omp.last, ptr %omp.lb, ptr %omp.ub, ptr %omp.stride, i64 1, i64 1)
; CHECK: %omp.first = load i64, ptr %omp.lb
; CHECK: [[UB:%[0-9]+]] = load i64, ptr %omp.ub
; CHECK: [[LAST:%[0-9]+]] = call i64 @llvm.smin.i64(i64 [[UB]], i64 42)
; CHECK: %share.begin = mul i64 %omp.first, 6
; CHECK: %share.end = call i64 @llvm.smin.i64(i64 %{{.*}}, i64 256)
; CHECK: %share.any = icmp sle i64 %omp.first, [[LAST]]
; CHECK: br i1 %share.any, label %gemm.if.then, label %gemm.if.end
; CHECK: gemm.if.end:
; CHECK-NEXT: call void @__kmpc_for_static_fini(ptr @{{[0-9]+}}, i32 %omp.gtid)
; CHECK-NEXT: ret void
; CHECK: %gemm.jc.iv = phi i64 [ 0,
; CHECK: %gemm.ic.iv = phi i64 [ %share.begin,
; CHECK: icmp slt i64 %gemm.ic.iv, %share.end
;
; The runtime's entry points as OpenMPIRBuilder declares them (the
; callback metadata lets the OpenMP optimizations see through the fork).
; CHECK: declare !callback !{{[0-9]+}} void @__kmpc_fork_call(ptr, i32, ptr, ...)
;
; The columns of @cols: the jc loop runs over this thread's share.
; CHECK-LABEL: define internal void @tlx.par.gemm.{{[0-9]+}}(
; CHECK: call void @__kmpc_for_static_init_8(
; CHECK: %share.end = call i64 @llvm.smin.i64(i64 %{{.*}}, i64 512)
; CHECK: call void @__kmpc_for_static_fini(
; CHECK: %gemm.jc.iv = phi i64 [ %share.begin,
; CHECK: icmp slt i64 %gemm.jc.iv, %share.end
; CHECK: %gemm.ic.iv = phi i64 [ 0,

; SERIAL-NOT: __kmpc
; SERIAL-NOT: tlx.par.gemm

; ALL-LABEL: define void @small(
; ALL: call void (ptr, i32, ptr, ...) @__kmpc_fork_call(

define void @rows(ptr noalias %x, ptr noalias %w, ptr noalias %y) {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 256, i32 128>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 128, i32 160>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <40960 x float> @llvm.tensor.matmul.v40960f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v40960f32(<40960 x float> %m, <2 x i32> <i32 256, i32 160>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

define void @cols(ptr noalias %x, ptr noalias %w, ptr noalias %y) {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 32, i32 128>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 128, i32 512>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <16384 x float> @llvm.tensor.matmul.v16384f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v16384f32(<16384 x float> %m, <2 x i32> <i32 32, i32 512>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

define void @small(ptr noalias %x, ptr noalias %w, ptr noalias %y) {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 40, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 40, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <1600 x float> @llvm.tensor.matmul.v1600f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v1600f32(<1600 x float> %m, <2 x i32> <i32 40, i32 40>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
declare token @llvm.tensor.typeinfo.v40960f32(<40960 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <40960 x float> @llvm.tensor.matmul.v40960f32(token, token)
declare token @llvm.tensor.typeinfo.v16384f32(<16384 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <16384 x float> @llvm.tensor.matmul.v16384f32(token, token)
declare token @llvm.tensor.typeinfo.v1600f32(<1600 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <1600 x float> @llvm.tensor.matmul.v1600f32(token, token)

!llvm.module.flags = !{!0}
!0 = !{i32 7, !"openmp", i32 51}
