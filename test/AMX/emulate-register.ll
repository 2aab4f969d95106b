; tlx-amx-emulate on the register-number intrinsics (_tile_loadd(0, ...) and
; friends): calls into the runtime's per-thread tile registers.
; RUN: %opt_tlx -passes=tlx-amx-emulate -S %s | FileCheck %s
; RUN: %opt_tlx -passes=tlx-amx-emulate -pass-remarks=tlx -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; REMARK: remark: {{.*}}AMX emulated: 13 AMX intrinsic call(s) in 'registers' replaced by calls into libtlxrt's AMX emulator

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @registers(
; CHECK-NEXT:  call void @tlxrt_amx_emu_ldtilecfg(ptr %cfg)
; CHECK-NEXT:  call void @tlxrt_amx_emu_tilezero(i32 0)
; CHECK-NEXT:  call void @tlxrt_amx_emu_tileloadd(i32 1, ptr %a, i64 %lda)
; CHECK-NEXT:  call void @tlxrt_amx_emu_tileloadd(i32 2, ptr %b, i64 64)
; CHECK-NEXT:  call void @tlxrt_amx_emu_tdp(i32 0, i32 0, i32 1, i32 2)
; CHECK-NEXT:  call void @tlxrt_amx_emu_tdp(i32 1, i32 0, i32 1, i32 2)
; CHECK-NEXT:  call void @tlxrt_amx_emu_tdp(i32 2, i32 0, i32 1, i32 2)
; CHECK-NEXT:  call void @tlxrt_amx_emu_tdp(i32 3, i32 0, i32 1, i32 2)
; CHECK-NEXT:  call void @tlxrt_amx_emu_tdp(i32 4, i32 3, i32 1, i32 2)
; CHECK-NEXT:  call void @tlxrt_amx_emu_tdp(i32 5, i32 3, i32 1, i32 2)
; CHECK-NEXT:  call void @tlxrt_amx_emu_tilestored(i32 0, ptr %c, i64 64)
; CHECK-NEXT:  call void @tlxrt_amx_emu_sttilecfg(ptr %cfg)
; CHECK-NEXT:  call void @tlxrt_amx_emu_tilerelease()
; CHECK-NEXT:  ret void
define void @registers(ptr %cfg, ptr %a, ptr %b, ptr %c, i64 %lda) #0 {
  call void @llvm.x86.ldtilecfg(ptr %cfg)
  call void @llvm.x86.tilezero(i8 0)
  call void @llvm.x86.tileloadd64(i8 1, ptr %a, i64 %lda)
  call void @llvm.x86.tileloaddt164(i8 2, ptr %b, i64 64)
  call void @llvm.x86.tdpbssd(i8 0, i8 1, i8 2)
  call void @llvm.x86.tdpbsud(i8 0, i8 1, i8 2)
  call void @llvm.x86.tdpbusd(i8 0, i8 1, i8 2)
  call void @llvm.x86.tdpbuud(i8 0, i8 1, i8 2)
  call void @llvm.x86.tdpbf16ps(i8 3, i8 1, i8 2)
  call void @llvm.x86.tdpfp16ps(i8 3, i8 1, i8 2)
  call void @llvm.x86.tilestored64(i8 0, ptr %c, i64 64)
  call void @llvm.x86.sttilecfg(ptr %cfg)
  call void @llvm.x86.tilerelease()
  ret void
}

; CHECK: declare void @tlxrt_amx_emu_ldtilecfg(ptr) #[[NU:[0-9]+]]
; CHECK-NOT: declare {{.*}}@llvm.x86
; CHECK: attributes #0 = { "target-features"="+sse2" }
; CHECK: attributes #[[NU]] = { nounwind }

declare void @llvm.x86.ldtilecfg(ptr)
declare void @llvm.x86.sttilecfg(ptr)
declare void @llvm.x86.tilerelease()
declare void @llvm.x86.tilezero(i8)
declare void @llvm.x86.tileloadd64(i8, ptr, i64)
declare void @llvm.x86.tileloaddt164(i8, ptr, i64)
declare void @llvm.x86.tilestored64(i8, ptr, i64)
declare void @llvm.x86.tdpbssd(i8, i8, i8)
declare void @llvm.x86.tdpbsud(i8, i8, i8)
declare void @llvm.x86.tdpbusd(i8, i8, i8)
declare void @llvm.x86.tdpbuud(i8, i8, i8)
declare void @llvm.x86.tdpbf16ps(i8, i8, i8)
declare void @llvm.x86.tdpfp16ps(i8, i8, i8)

attributes #0 = { "target-features"="+amx-tile,+sse2,+amx-int8,+amx-bf16,+amx-fp16" }
