; tlx-backend-workarounds on AArch64 at every -O level: LLVM 19 cannot
; select fptrunc to or fpext from scalable bf16 vectors (with or without
; +bf16), LLVM 22 fptrunc from f64; the pass rewrites them as integer
; operations on the bits, which llc then compiles. LLVM 22 selects the
; others itself: they stay.
; RUN: %opt_tlx -passes=tlx-backend-workarounds -S %s -o - | FileCheck %s --check-prefixes=CHECK,%if llvm-19 %{BITS%} %else %{KEEP%}
; RUN: %opt_tlx -passes=tlx-backend-workarounds %s -o - | llc -O2 -o /dev/null
; RUN: %opt_tlx -passes=tlx-backend-workarounds-O0 %s -o - | llc -O0 -o /dev/null

target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-unknown-linux-gnu"

; f32 -> bf16: round to nearest even, NaNs quieted.
; CHECK-LABEL: define void @f32_to_bf16(
; BITS: %[[B:.*]] = bitcast <vscale x 4 x float> %v to <vscale x 4 x i32>
; BITS: lshr <vscale x 4 x i32> %[[B]], {{.*}}i32 16
; BITS: add <vscale x 4 x i32> %[[B]], {{.*}}i32 32767
; BITS: fcmp uno <vscale x 4 x float> %v, %v
; BITS: trunc <vscale x 4 x i32> {{.*}} to <vscale x 4 x i16>
; BITS: bitcast <vscale x 4 x i16> {{.*}} to <vscale x 4 x bfloat>
; BITS-NOT: fptrunc
; KEEP: fptrunc <vscale x 4 x float> %v to <vscale x 4 x bfloat>
define void @f32_to_bf16(ptr %p, ptr %q) #0 {
  %v = load <vscale x 4 x float>, ptr %p
  %t = fptrunc <vscale x 4 x float> %v to <vscale x 4 x bfloat>
  store <vscale x 4 x bfloat> %t, ptr %q
  ret void
}

; f64 -> bf16: to f32 rounded to odd, then as above.
; CHECK-LABEL: define void @f64_to_bf16(
; CHECK: %[[N:.*]] = fptrunc <vscale x 2 x double> %v to <vscale x 2 x float>
; CHECK: fpext <vscale x 2 x float> %[[N]] to <vscale x 2 x double>
; CHECK: fcmp une <vscale x 2 x double>
; CHECK: bitcast <vscale x 2 x i16> {{.*}} to <vscale x 2 x bfloat>
; CHECK-NOT: to <vscale x 2 x bfloat>
define void @f64_to_bf16(ptr %p, ptr %q) #1 {
  %v = load <vscale x 2 x double>, ptr %p
  %t = fptrunc <vscale x 2 x double> %v to <vscale x 2 x bfloat>
  store <vscale x 2 x bfloat> %t, ptr %q
  ret void
}

; bf16 -> f32 / f64: the bits shifted into the upper half.
; CHECK-LABEL: define void @bf16_to_f32(
; BITS: %[[H:.*]] = bitcast <vscale x 8 x bfloat> %v to <vscale x 8 x i16>
; BITS: %[[W:.*]] = zext <vscale x 8 x i16> %[[H]] to <vscale x 8 x i32>
; BITS: %[[S:.*]] = shl <vscale x 8 x i32> %[[W]], {{.*}}i32 16
; BITS: bitcast <vscale x 8 x i32> %[[S]] to <vscale x 8 x float>
; KEEP: fpext <vscale x 8 x bfloat> %v to <vscale x 8 x float>
define void @bf16_to_f32(ptr %p, ptr %q) #0 {
  %v = load <vscale x 8 x bfloat>, ptr %p
  %t = fpext <vscale x 8 x bfloat> %v to <vscale x 8 x float>
  store <vscale x 8 x float> %t, ptr %q
  ret void
}

; CHECK-LABEL: define void @bf16_to_f64(
; BITS: %[[F:.*]] = bitcast <vscale x 2 x i32> {{.*}} to <vscale x 2 x float>
; BITS: fpext <vscale x 2 x float> %[[F]] to <vscale x 2 x double>
; KEEP: fpext <vscale x 2 x bfloat> %v to <vscale x 2 x double>
define void @bf16_to_f64(ptr %p, ptr %q) #1 {
  %v = load <vscale x 2 x bfloat>, ptr %p
  %t = fpext <vscale x 2 x bfloat> %v to <vscale x 2 x double>
  store <vscale x 2 x double> %t, ptr %q
  ret void
}

; Fixed-width bf16 vectors (NEON) are selected fine: untouched.
; CHECK-LABEL: define void @fixed(
; CHECK: fptrunc <4 x float> %v to <4 x bfloat>
define void @fixed(ptr %p, ptr %q) #0 {
  %v = load <4 x float>, ptr %p
  %t = fptrunc <4 x float> %v to <4 x bfloat>
  store <4 x bfloat> %t, ptr %q
  ret void
}

attributes #0 = { "target-features"="+neon,+sve,+bf16" }
attributes #1 = { "target-features"="+neon,+sve" }
