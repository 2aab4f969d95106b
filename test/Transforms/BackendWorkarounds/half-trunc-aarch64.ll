; tlx-backend-workarounds on AArch64: LLVM 19's GlobalISel (the -O0
; instruction selector) selects a vector fptrunc to f16 as BFCVTN (a
; conversion to bf16) in functions with +bf16, and so every f16 vector op
; it computes through f32; the pass makes such ops one per lane there. Without +bf16, and with LLVM 22 (which
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

; Without +fullfp16 GlobalISel computes f16 vector arithmetic in f32 and
; narrows it the same way (BFCVTN): what the -O2 pipeline makes of TLX's
; f16 loops (fpext, floor, fptrunc -> floor on half) in kernels optimized
; at -O0. One scalar op per lane.
; CHECK-LABEL: define void @arithmetic(
; LANES: %[[A0:.*]] = extractelement <8 x half> %a, i64 0
; LANES: %[[B0:.*]] = extractelement <8 x half> %b, i64 0
; LANES: fadd nnan half %[[A0]], %[[B0]]
; LANES-COUNT-7: fadd nnan half
; LANES-NOT: fadd nnan <8 x half>
; LANES-COUNT-8: fneg half
; LANES-COUNT-8: call half @llvm.floor.f16(half
; LANES-COUNT-8: call half @llvm.fma.f16(half
; LANES-COUNT-8: sitofp i32 {{.*}} to half
; KEEP: fadd nnan <8 x half> %a, %b
; KEEP: call <8 x half> @llvm.floor.v8f16(
; CHECK: select <8 x i1> %c, <8 x half> %fma, <8 x half> %i
; ASM-LABEL: arithmetic:
; ASM-NOT: bfcvt
; ASM: ret
define void @arithmetic(ptr %p, ptr %q, <8 x i32> %n, <8 x i1> %c) #0 {
  %a = load <8 x half>, ptr %p
  %b = load <8 x half>, ptr %q
  %s = fadd nnan <8 x half> %a, %b
  %ng = fneg <8 x half> %s
  %f = call <8 x half> @llvm.floor.v8f16(<8 x half> %ng)
  %fma = call <8 x half> @llvm.fma.v8f16(<8 x half> %f, <8 x half> %a, <8 x half> %b)
  %i = sitofp <8 x i32> %n to <8 x half>
  %r = select <8 x i1> %c, <8 x half> %fma, <8 x half> %i
  store <8 x half> %r, ptr %q
  ret void
}

; With +fullfp16 the arithmetic is native (FADD, FRINTM on .8h); only the
; conversion from i32 still goes through f32.
; CHECK-LABEL: define void @fullfp16(
; CHECK: fadd <8 x half> %a, %b
; CHECK: call <8 x half> @llvm.floor.v8f16(
; LANES-COUNT-8: sitofp i32 {{.*}} to half
; KEEP: sitofp <8 x i32> %n to <8 x half>
; ASM-LABEL: fullfp16:
; ASM-NOT: bfcvt
; ASM: fadd v{{[0-9]+}}.8h
; ASM: ret
define void @fullfp16(ptr %p, ptr %q, <8 x i32> %n) #2 {
  %a = load <8 x half>, ptr %p
  %b = load <8 x half>, ptr %q
  %s = fadd <8 x half> %a, %b
  %f = call <8 x half> @llvm.floor.v8f16(<8 x half> %s)
  %i = sitofp <8 x i32> %n to <8 x half>
  %r = fadd <8 x half> %f, %i
  store <8 x half> %r, ptr %q
  ret void
}

declare <8 x half> @llvm.floor.v8f16(<8 x half>)
declare <8 x half> @llvm.fma.v8f16(<8 x half>, <8 x half>, <8 x half>)

attributes #0 = { "target-features"="+neon,+bf16" }
attributes #1 = { "target-features"="+neon" }
attributes #2 = { "target-features"="+neon,+bf16,+fullfp16" }
