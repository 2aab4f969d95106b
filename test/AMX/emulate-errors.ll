; What the emulator cannot take is an error at the source location, never a
; crash: an x86_amx value used by an instruction the emulator does not know,
; AMX-COMPLEX.
; RUN: not %opt_tlx -passes=tlx-amx-emulate -disable-output %s 2>&1 | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK: error: {{.*}}tlx-amx-emulate: cannot emulate this use of an x86_amx value (only AMX intrinsics, phi, select, freeze, load, store and bitcast are supported)
define void @aggregate(ptr %p) {
  %t = call x86_amx @llvm.x86.tileloadd64.internal(i16 4, i16 4, ptr %p, i64 4)
  %s = insertvalue { x86_amx } poison, x86_amx %t, 0
  store { x86_amx } %s, ptr %p
  ret void
}

; CHECK: error: {{.*}}tlx-amx-emulate: the AMX emulator does not support 'llvm.x86.tcmmimfp16ps'
define void @complex() {
  call void @llvm.x86.tcmmimfp16ps(i8 0, i8 1, i8 2)
  ret void
}

declare void @llvm.x86.tcmmimfp16ps(i8, i8, i8)
declare x86_amx @llvm.x86.tileloadd64.internal(i16, i16, ptr, i64)
declare void @llvm.x86.tilestored64.internal(i16, i16, ptr, i64, x86_amx)
