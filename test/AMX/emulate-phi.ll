; x86_amx phis and selects (TLX's K loop keeps its accumulator in a phi):
; each phi has its own buffer, filled by copies at the end of its incoming
; blocks; critical edges are split first; phis that read each other are a
; parallel copy. The driver runs the result against a C computation.
; RUN: %opt_tlx -passes=tlx-amx-emulate -S %s | FileCheck %s
; RUN: %opt_tlx -passes=tlx-amx-emulate %s -o %t.bc
; RUN: %clang_plain -O1 %t.bc %S/Inputs/phi-driver.c -o %t %tlx_rt
; RUN: %t | FileCheck %s --check-prefix=OUT
; RUN: %opt_tlx -passes='default<O2>,tlx-amx-emulate' %s -o %t2.bc
; RUN: %clang_plain -O1 %t2.bc %S/Inputs/phi-driver.c -o %t2 %tlx_rt
; RUN: %t2 | FileCheck %s --check-prefix=OUT

; OUT-DAG: kloop: ok
; OUT-DAG: swap 0: ok
; OUT-DAG: swap 3: ok
; OUT-DAG: swap 4: ok
; OUT-DAG: select 0: ok
; OUT-DAG: select 1: ok

target triple = "x86_64-pc-linux-gnu"

; C[16x16 i32] = sum over K steps of A[:, 64k..64k+63] x B[16k..16k+15, :]
; CHECK-LABEL: define void @kloop(
; CHECK:       entry:
; CHECK-DAG:   %[[ACC:acc.tile]] = alloca [1088 x i8], align 64
; CHECK-DAG:   %[[NEXT:next.tile]] = alloca [1088 x i8], align 64
; CHECK-DAG:   %[[Z:z.tile]] = alloca [1088 x i8], align 64
; CHECK:       call void @tlxrt_amx_emu_tilezero_internal(ptr %[[Z]]
; CHECK-NEXT:  call void @llvm.memcpy.p0.p0.i64(ptr align 64 %[[ACC]], ptr align 64 %[[Z]], i64 1088, i1 false)
; CHECK-NEXT:  br label %loop
; CHECK:       loop:
; CHECK:       call void @tlxrt_amx_emu_tdp_internal(i32 0, i32 16, i32 64, i32 64, ptr %[[NEXT]], ptr %[[ACC]],
; CHECK:       br i1 %done, label %exit, label %[[SPLIT:.*]]
; CHECK:       [[SPLIT]]:
; CHECK-NEXT:  call void @llvm.memcpy.p0.p0.i64(ptr align 64 %[[ACC]], ptr align 64 %[[NEXT]], i64 1088, i1 false)
; CHECK-NEXT:  br label %loop
; CHECK:       exit:
; CHECK:       call void @tlxrt_amx_emu_tilestored_internal(ptr %[[NEXT]]
define void @kloop(ptr %a, ptr %b, ptr %c, i64 %ksteps) {
entry:
  %lda = mul i64 %ksteps, 64
  %z = call x86_amx @llvm.x86.tilezero.internal(i16 16, i16 64)
  br label %loop
loop:
  %acc = phi x86_amx [ %z, %entry ], [ %next, %loop ]
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %aoff = mul i64 %i, 64
  %pa = getelementptr i8, ptr %a, i64 %aoff
  %boff = mul i64 %i, 1024
  %pb = getelementptr i8, ptr %b, i64 %boff
  %ta = call x86_amx @llvm.x86.tileloadd64.internal(i16 16, i16 64, ptr %pa, i64 %lda)
  %tb = call x86_amx @llvm.x86.tileloadd64.internal(i16 16, i16 64, ptr %pb, i64 64)
  %next = call x86_amx @llvm.x86.tdpbssd.internal(i16 16, i16 64, i16 64, x86_amx %acc, x86_amx %ta, x86_amx %tb)
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, %ksteps
  br i1 %done, label %exit, label %loop
exit:
  call void @llvm.x86.tilestored64.internal(i16 16, i16 64, ptr %c, i64 64, x86_amx %next)
  ret void
}

; Two phis that swap every iteration: the copies on the back edge read both
; old values before writing either.
; CHECK-LABEL: define void @swap(
; CHECK:       loop.loop_crit_edge:
; CHECK-NEXT:  call void @llvm.memcpy.p0.p0.i64(ptr align 64 %[[T0:amx.phi.tmp[0-9]*]], ptr align 64 %v.tile
; CHECK-NEXT:  call void @llvm.memcpy.p0.p0.i64(ptr align 64 %[[T1:amx.phi.tmp[0-9]*]], ptr align 64 %u.tile
; CHECK-NEXT:  call void @llvm.memcpy.p0.p0.i64(ptr align 64 %u.tile, ptr align 64 %[[T0]]
; CHECK-NEXT:  call void @llvm.memcpy.p0.p0.i64(ptr align 64 %v.tile, ptr align 64 %[[T1]]
; CHECK-NEXT:  br label %loop
define void @swap(ptr %p, ptr %q, i32 %n) {
entry:
  %x = call x86_amx @llvm.x86.tileloadd64.internal(i16 4, i16 16, ptr %p, i64 16)
  %y = call x86_amx @llvm.x86.tileloadd64.internal(i16 4, i16 16, ptr %q, i64 16)
  %empty = icmp eq i32 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %u = phi x86_amx [ %x, %entry ], [ %v, %loop ]
  %v = phi x86_amx [ %y, %entry ], [ %u, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  %ru = phi x86_amx [ %x, %entry ], [ %v, %loop ]
  %rv = phi x86_amx [ %y, %entry ], [ %u, %loop ]
  call void @llvm.x86.tilestored64.internal(i16 4, i16 16, ptr %p, i64 16, x86_amx %ru)
  call void @llvm.x86.tilestored64.internal(i16 4, i16 16, ptr %q, i64 16, x86_amx %rv)
  ret void
}

; CHECK-LABEL: define void @pick(
; CHECK:       %[[P:.*]] = select i1 %first, ptr %x.tile, ptr %y.tile
; CHECK-NEXT:  call void @llvm.memcpy.p0.p0.i64(ptr align 64 %s.tile, ptr align 64 %[[P]], i64 1088, i1 false)
; CHECK:       call void @tlxrt_amx_emu_tilestored_internal(ptr %s.tile,
define void @pick(ptr %p, ptr %q, ptr %out, i1 %first) {
  %x = call x86_amx @llvm.x86.tileloadd64.internal(i16 2, i16 8, ptr %p, i64 8)
  %y = call x86_amx @llvm.x86.tileloadd64.internal(i16 2, i16 8, ptr %q, i64 8)
  %s = select i1 %first, x86_amx %x, x86_amx %y
  call void @llvm.x86.tilestored64.internal(i16 2, i16 8, ptr %out, i64 8, x86_amx %s)
  ret void
}

declare x86_amx @llvm.x86.tileloadd64.internal(i16, i16, ptr, i64)
declare x86_amx @llvm.x86.tilezero.internal(i16, i16)
declare x86_amx @llvm.x86.tdpbssd.internal(i16, i16, i16, x86_amx, x86_amx, x86_amx)
declare void @llvm.x86.tilestored64.internal(i16, i16, ptr, i64, x86_amx)
