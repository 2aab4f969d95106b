; tlx-backend-workarounds on x86: LLVM 19's FastISel (-O0, optnone
; functions) with +avx512bf16 puts a vzeroupper between the load of a call's
; bfloat vector argument wider than 128 bits and the call, so the callee
; gets its low 8 elements only (plain C too: a __bf16 vector of 32 passed by
; value; progs.py seed 601, case 32). The pass passes such arguments as i16
; vectors of the same size - the same registers - through the call's
; function type; 128-bit ones, other element types and LLVM 22 (right) are
; left alone.
; RUN: %opt_tlx -passes=tlx-backend-workarounds-O0 -S %s -o - | FileCheck %s --check-prefixes=CHECK,%if llvm-19 %{I16%} %else %{KEEP%}
; RUN: %opt_tlx -passes=tlx-backend-workarounds-O0 %s -o - | llc -O0 -o - | FileCheck %s --check-prefix=ASM

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @take32(<32 x bfloat>, ptr)
declare void @take8(<8 x bfloat>)
declare void @take16f(<16 x float>)

; CHECK-LABEL: define void @wide(
; I16: %[[B:.*]] = bitcast <32 x bfloat> %v to <32 x i16>
; I16-NEXT: call void @take32(<32 x i16> %[[B]], ptr %q)
; KEEP: call void @take32(<32 x bfloat> %v, ptr %q)
; ASM-LABEL: wide:
; ASM: vmovaps {{.*}}, %zmm0
; ASM-NOT: vzeroupper
; ASM: callq take32
define void @wide(ptr %p, ptr %q) #0 {
  %v = load <32 x bfloat>, ptr %p
  call void @take32(<32 x bfloat> %v, ptr %q)
  ret void
}

; CHECK-LABEL: define void @narrow_and_float(
; CHECK: call void @take8(<8 x bfloat> %v)
; CHECK: call void @take16f(<16 x float> %f)
define void @narrow_and_float(ptr %p, ptr %pf) #0 {
  %v = load <8 x bfloat>, ptr %p
  call void @take8(<8 x bfloat> %v)
  %f = load <16 x float>, ptr %pf
  call void @take16f(<16 x float> %f)
  ret void
}

attributes #0 = { "target-cpu"="x86-64-v4" "target-features"="+avx512bf16" }
