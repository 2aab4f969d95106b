; tlx-amx-emulate on the shape-carrying intrinsics: each x86_amx value gets
; an entry-block tile buffer; the intrinsics become emulator calls; the AMX
; target features are dropped; tlxrt_amx_init/tlxrt_amx_require (native
; enablement) go away.
; RUN: %opt_tlx -passes=tlx-amx-emulate -S %s | FileCheck %s
; RUN: %opt_tlx -passes=tlx-amx-emulate %s | %llc -O0 -o - | FileCheck %s --check-prefix=ASM
; ASM-NOT: {{%tmm|ldtilecfg}}

target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @gemm_tile(
; CHECK-SAME: #[[ATTR:[0-9]+]]
; CHECK-DAG:  %[[A:.*]] = alloca [1088 x i8], align 64
; CHECK-DAG:  %[[B:.*]] = alloca [1088 x i8], align 64
; CHECK-DAG:  %[[C:.*]] = alloca [1088 x i8], align 64
; CHECK-DAG:  %[[D:.*]] = alloca [1088 x i8], align 64
; CHECK-NOT:  tlxrt_amx_{{init|require}}
; CHECK:      %[[M:.*]] = sext i16 %m to i32
; CHECK:      %[[K:.*]] = sext i16 %k to i32
; CHECK:      call void @tlxrt_amx_emu_tileloadd_internal(ptr %[[A]], i32 %[[M]], i32 %[[K]], ptr %pa, i64 %lda)
; CHECK:      call void @tlxrt_amx_emu_tileloadd_internal(ptr %[[B]], i32 {{.*}}, ptr %pb, i64 64)
; CHECK:      call void @tlxrt_amx_emu_tilezero_internal(ptr %[[C]], i32 {{.*}}, i32 {{.*}})
; CHECK:      call void @tlxrt_amx_emu_tdp_internal(i32 0, i32 {{.*}}, i32 {{.*}}, i32 {{.*}}, ptr %[[D]], ptr %[[C]], ptr %[[A]], ptr %[[B]])
; CHECK:      call void @tlxrt_amx_emu_tilestored_internal(ptr %[[D]], i32 {{.*}}, i32 {{.*}}, ptr %pc, i64 64)
; CHECK-NOT:  llvm.x86
; CHECK:      ret void
define void @gemm_tile(ptr %pa, ptr %pb, ptr %pc, i16 %m, i16 %n, i16 %k, i64 %lda) #0 {
entry:
  call void @tlxrt_amx_init()
  call void @tlxrt_amx_require(i32 1)
  %kr = udiv i16 %k, 4
  %a = call x86_amx @llvm.x86.tileloadd64.internal(i16 %m, i16 %k, ptr %pa, i64 %lda)
  %b = call x86_amx @llvm.x86.tileloaddt164.internal(i16 %kr, i16 %n, ptr %pb, i64 64)
  %c = call x86_amx @llvm.x86.tilezero.internal(i16 %m, i16 %n)
  %d = call x86_amx @llvm.x86.tdpbssd.internal(i16 %m, i16 %n, i16 %k, x86_amx %c, x86_amx %a, x86_amx %b)
  call void @llvm.x86.tilestored64.internal(i16 %m, i16 %n, ptr %pc, i64 64, x86_amx %d)
  ret void
}

; Every dot product maps to its tlxrt_amx_dp kind.
; CHECK-LABEL: define void @all_dot_products(
; CHECK: call void @tlxrt_amx_emu_tdp_internal(i32 1,
; CHECK: call void @tlxrt_amx_emu_tdp_internal(i32 2,
; CHECK: call void @tlxrt_amx_emu_tdp_internal(i32 3,
; CHECK: call void @tlxrt_amx_emu_tdp_internal(i32 4,
; CHECK: call void @tlxrt_amx_emu_tdp_internal(i32 5,
; CHECK-NOT: llvm.x86
define void @all_dot_products(ptr %p) #0 {
  %a = call x86_amx @llvm.x86.tileloadd64.internal(i16 16, i16 64, ptr %p, i64 64)
  %c1 = call x86_amx @llvm.x86.tdpbsud.internal(i16 16, i16 64, i16 64, x86_amx %a, x86_amx %a, x86_amx %a)
  %c2 = call x86_amx @llvm.x86.tdpbusd.internal(i16 16, i16 64, i16 64, x86_amx %c1, x86_amx %a, x86_amx %a)
  %c3 = call x86_amx @llvm.x86.tdpbuud.internal(i16 16, i16 64, i16 64, x86_amx %c2, x86_amx %a, x86_amx %a)
  %c4 = call x86_amx @llvm.x86.tdpbf16ps.internal(i16 16, i16 64, i16 64, x86_amx %c3, x86_amx %a, x86_amx %a)
  %c5 = call x86_amx @llvm.x86.tdpfp16ps.internal(i16 16, i16 64, i16 64, x86_amx %c4, x86_amx %a, x86_amx %a)
  call void @llvm.x86.tilestored64.internal(i16 16, i16 64, ptr %p, i64 64, x86_amx %c5)
  ret void
}

; A function without AMX code loses its AMX features too.
; CHECK-LABEL: define i32 @no_amx(
; CHECK-SAME: #[[ATTR]]
define i32 @no_amx(i32 %x) #0 {
  ret i32 %x
}

; CHECK-NOT: declare {{.*}}@llvm.x86.t
; CHECK: attributes #[[ATTR]] = { {{.*}}"target-features"="+avx2,+sse2"
; CHECK-NOT: amx

declare void @tlxrt_amx_init()
declare void @tlxrt_amx_require(i32)
declare x86_amx @llvm.x86.tileloadd64.internal(i16, i16, ptr, i64)
declare x86_amx @llvm.x86.tileloaddt164.internal(i16, i16, ptr, i64)
declare x86_amx @llvm.x86.tilezero.internal(i16, i16)
declare x86_amx @llvm.x86.tdpbssd.internal(i16, i16, i16, x86_amx, x86_amx, x86_amx)
declare x86_amx @llvm.x86.tdpbsud.internal(i16, i16, i16, x86_amx, x86_amx, x86_amx)
declare x86_amx @llvm.x86.tdpbusd.internal(i16, i16, i16, x86_amx, x86_amx, x86_amx)
declare x86_amx @llvm.x86.tdpbuud.internal(i16, i16, i16, x86_amx, x86_amx, x86_amx)
declare x86_amx @llvm.x86.tdpbf16ps.internal(i16, i16, i16, x86_amx, x86_amx, x86_amx)
declare x86_amx @llvm.x86.tdpfp16ps.internal(i16, i16, i16, x86_amx, x86_amx, x86_amx)
declare void @llvm.x86.tilestored64.internal(i16, i16, ptr, i64, x86_amx)

attributes #0 = { nounwind "target-features"="+amx-bf16,+amx-int8,+avx2,+amx-tile,+sse2,+amx-fp16" }
