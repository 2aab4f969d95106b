; tlx-backend-workarounds on AArch64: LLVM 19's GlobalISel (the -O0
; instruction selector) selects a vector fptrunc to f16 as BFCVTN (a
; conversion to bf16) in functions with +bf16; the pass converts such
; vectors lane by lane there. Without +bf16, and with LLVM 22 (which
; selects FCVTN), it changes nothing. clang's pipeline adds it at -O0 only.
; RUN: %opt_tlx -passes=tlx-backend-workarounds-O0 -S %s -o - | FileCheck %s --check-prefixes=CHECK,%if llvm-19 %{LANES%} %else %{KEEP%}
; RUN: %opt_tlx -passes=tlx-backend-workarounds-O0 %s -o - | llc -O0 -o - | FileCheck %s --check-prefix=ASM

target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-unknown-linux-gnu"

; CHECK-LABEL: define void @f32_to_f16(
; LANES: %[[L0:.*]] = extractelement <4 x float> %v, i64 0
; LANES: fptrunc float %[[L0]] to half
; LANES-COUNT-3: fptrunc float
; LANES-NOT: fptrunc <4 x float>
; KEEP: fptrunc <4 x float> %v to <4 x half>
; CHECK: store <4 x half> %t
; ASM-LABEL: f32_to_f16:
; ASM-NOT: bfcvt
; ASM: fcvt{{n?}} {{[hv]}}
; ASM: ret
define void @f32_to_f16(ptr %p, ptr %q) #0 {
  %v = load <4 x float>, ptr %p
  %t = fptrunc <4 x float> %v to <4 x half>
  store <4 x half> %t, ptr %q
  ret void
}

; CHECK-LABEL: define void @f64_to_f16(
; LANES-COUNT-2: fptrunc double
; KEEP: fptrunc <2 x double> %v to <2 x half>
; ASM-LABEL: f64_to_f16:
; ASM-NOT: bfcvt
; ASM: ret
define void @f64_to_f16(ptr %p, ptr %q) #0 {
  %v = load <2 x double>, ptr %p
  %t = fptrunc <2 x double> %v to <2 x half>
  store <2 x half> %t, ptr %q
  ret void
}

; To bf16 the conversion is meant: untouched.
; CHECK-LABEL: define void @f32_to_bf16(
; CHECK: fptrunc <4 x float> %v to <4 x bfloat>
; ASM-LABEL: f32_to_bf16:
; ASM: bfcvtn
define void @f32_to_bf16(ptr %p, ptr %q) #0 {
  %v = load <4 x float>, ptr %p
  %t = fptrunc <4 x float> %v to <4 x bfloat>
  store <4 x bfloat> %t, ptr %q
  ret void
}

; No +bf16: GlobalISel selects FCVTN.
; CHECK-LABEL: define void @no_bf16(
; CHECK: fptrunc <4 x float> %v to <4 x half>
; ASM-LABEL: no_bf16:
; ASM-NOT: bfcvt
; ASM: fcvtn v{{[0-9]+}}.4h
define void @no_bf16(ptr %p, ptr %q) #1 {
  %v = load <4 x float>, ptr %p
  %t = fptrunc <4 x float> %v to <4 x half>
  store <4 x half> %t, ptr %q
  ret void
}

attributes #0 = { "target-features"="+neon,+bf16" }
attributes #1 = { "target-features"="+neon" }
