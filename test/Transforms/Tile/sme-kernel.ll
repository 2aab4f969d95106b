; tlx-tile on an AArch64 function whose target has +sme (target auto): the
; GEMM packs A and B (tlxrt_scratch) and calls an internal kernel that is
; locally streaming with a new ZA ("aarch64_pstate_sm_body",
; "aarch64_new_za") - the caller keeps its ordinary interface - and whose
; k loop does one outer product per ZA tile of the 2x2 block: FMOPA
; (llvm.aarch64.sme.mopa) for f32, SUMOPA for s8 x u8 (summa). Without
; +sme the GEMM stays on vectors. llc (of the LLVM TLX is built with)
; accepts the attributes: streaming mode and ZA around the kernel's body,
; the lazy-save commit, FMOPA in a loop.
; RUN: %opt_tlx -passes=tlx-tile -S %s -o - | FileCheck %s
; RUN: %opt_tlx -passes=tlx-tile %s -o - | llc -O2 -o - | FileCheck %s --check-prefix=ASM

target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-unknown-linux-gnu"

; CHECK-LABEL: define void @mm_f32(
; CHECK: call {{.*}}ptr @tlxrt_scratch(i32 0,
; CHECK: call {{.*}}ptr @tlxrt_scratch(i32 1,
; CHECK: call void @tlxrt_sme_require()
; CHECK-NEXT: call void @tlx.sme.gemm(ptr
; CHECK-LABEL: define void @summa_s8u8(
; CHECK: call void @tlx.sme.gemm.1(ptr
; CHECK-LABEL: define void @no_sme(
; CHECK-NOT: tlx.sme
; CHECK: ret void

; CHECK-LABEL: define internal void @tlx.sme.gemm(ptr %a, ptr %b, ptr %c, i64 %ldc, i64 %m, i64 %n, i64 %ksteps)
; CHECK-SAME: [[KERNEL:#[0-9]+]]
; CHECK: %sme.tr = mul i64 %{{.*}}, 4
; CHECK: sme.k.body:
; CHECK: call <vscale x 4 x float> @llvm.masked.load.nxv4f32.p0(
; CHECK: call void @llvm.aarch64.sme.mopa.nxv4f32(i32 0, <vscale x 4 x i1> {{.*}}, <vscale x 4 x float> %{{.*}}, <vscale x 4 x float> %{{.*}})
; CHECK-NEXT: call void @llvm.aarch64.sme.mopa.nxv4f32(i32 1,
; CHECK-NEXT: call void @llvm.aarch64.sme.mopa.nxv4f32(i32 2,
; CHECK-NEXT: call void @llvm.aarch64.sme.mopa.nxv4f32(i32 3,
; CHECK-NEXT: %sme.k.next = add
; CHECK-NEXT: br label %sme.k.header
; CHECK: call void @llvm.aarch64.sme.st1w.horiz(<vscale x 4 x i1> %{{.*}}, ptr %{{.*}}, i32 0, i32 %{{.*}})

; CHECK-LABEL: define internal void @tlx.sme.gemm.1(
; The accumulator is loaded into the tiles (ld1w horizontal slices).
; CHECK: call void @llvm.aarch64.sme.ld1w.horiz(
; CHECK: sme.k.body:
; CHECK: call void @llvm.aarch64.sme.sumopa.wide.nxv16i8(i32 0, <vscale x 16 x i1> {{.*}}, <vscale x 16 x i8> %{{.*}}, <vscale x 16 x i8> %{{.*}})

; CHECK: attributes [[KERNEL]] = { noinline nounwind "aarch64_new_za" "aarch64_pstate_sm_body" "frame-pointer"="all" "target-features"="+sve,+sme,+sme" }

; ASM-LABEL: mm_f32:
; ASM: bl tlx.sme.gemm
; (LLVM 19 turns streaming mode on first, 22 ZA.)
; ASM-LABEL: tlx.sme.gemm:
; ASM-DAG: smstart sm
; ASM-DAG: bl __arm_tpidr2_save
; ASM-DAG: smstart za
; ASM: fmopa za0.s, p{{[0-9]+}}/m, p{{[0-9]+}}/m, z{{[0-9]+}}.s, z{{[0-9]+}}.s
; ASM-NOT: {{^\.LBB}}
; ASM: fmopa za1.s
; ASM-NOT: {{^\.LBB}}
; ASM: fmopa za2.s
; ASM-NOT: {{^\.LBB}}
; ASM: fmopa za3.s
; ASM-NOT: {{^\.LBB}}
; ASM: b.{{[a-z]+}} .LBB
; ASM-DAG: smstop sm
; ASM-DAG: smstop za
; ASM-LABEL: tlx.sme.gemm.1:

define void @mm_f32(ptr noalias %x, ptr noalias %w, ptr noalias %y) #0 {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 40, i32 30>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 30, i32 20>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <800 x float> @llvm.tensor.matmul.v800f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v800f32(<800 x float> %m, <2 x i32> <i32 40, i32 20>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

define void @summa_s8u8(ptr noalias %c, ptr noalias %x, ptr noalias %w) #0 {
  %tc = call token @llvm.tensor.load.a(ptr elementtype(i32) %c, <2 x i32> <i32 40, i32 20>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tx = call token @llvm.tensor.load.a(ptr elementtype(i8) %x, <2 x i32> <i32 40, i32 30>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(i8) %w, <2 x i32> <i32 30, i32 20>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <800 x i32> @llvm.tensor.summa.v800i32(token %tc, token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v800i32(<800 x i32> %m, <2 x i32> <i32 40, i32 20>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(i32) %c, token %tm, <2 x i32> zeroinitializer)
  ret void
}

define void @no_sme(ptr noalias %x, ptr noalias %w, ptr noalias %y) {
  %tx = call token @llvm.tensor.load.a(ptr elementtype(float) %x, <2 x i32> <i32 40, i32 30>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %tw = call token @llvm.tensor.load.a(ptr elementtype(float) %w, <2 x i32> <i32 30, i32 20>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %m = call <800 x float> @llvm.tensor.matmul.v800f32(token %tx, token %tw)
  %tm = call token @llvm.tensor.typeinfo.v800f32(<800 x float> %m, <2 x i32> <i32 40, i32 20>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %y, token %tm, <2 x i32> zeroinitializer)
  ret void
}

attributes #0 = { "target-features"="+sve,+sme" }

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)
declare token @llvm.tensor.typeinfo.v800f32(<800 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <800 x float> @llvm.tensor.matmul.v800f32(token, token)
declare token @llvm.tensor.typeinfo.v800i32(<800 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <800 x i32> @llvm.tensor.summa.v800i32(token, token, token)
