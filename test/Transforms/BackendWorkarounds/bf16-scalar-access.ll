; tlx-backend-workarounds on AArch64: LLVM 19's SelectionDAG forms
; pre-indexed stores of scalar bf16 values - a zero, an element just
; loaded - that it cannot select ("Cannot select: store<(store (s16)),
; <pre-inc>>"; llc-19 fails on this file as it is, reduced from a
; differential-test program, a bf16 matmul). With LLVM 19 the pass loads
; and stores scalar bf16 as i16; llc then compiles both functions. LLVM 22
; selects them as they are.
; RUN: %opt_tlx -passes=tlx-backend-workarounds -S %s -o - | FileCheck %s --check-prefixes=CHECK,%if llvm-19 %{I16%} %else %{KEEP%}
; RUN: %opt_tlx -passes=tlx-backend-workarounds %s -o - | llc -O2 -o /dev/null
; RUN: %opt_tlx -passes=tlx-backend-workarounds-O0 %s -o - | llc -O0 -o /dev/null

target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @zero(
; I16: store i16 0, ptr %q, align 4
; KEEP: store bfloat 0xR0000, ptr %q, align 4
define i32 @zero(ptr %p) #0 {
  %base = load ptr, ptr %p, align 8
  %q = getelementptr i8, ptr %base, i64 12
  store bfloat 0xR0000, ptr %q, align 4
  br label %loop

loop:
  %i = phi i64 [ 0, %0 ], [ %next, %loop ]
  %a = getelementptr i8, ptr %base, i64 %i
  %x = load i32, ptr %a, align 4
  %b = getelementptr i8, ptr %a, i64 12
  %y = load i32, ptr %b, align 4
  %c = getelementptr i8, ptr %a, i64 24
  %z = load i32, ptr %c, align 4
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 100
  br i1 %done, label %exit, label %loop

exit:
  ret i32 %z
}

; An element copied (and also converted): the value passes as i16 bits.
; CHECK-LABEL: define i32 @copy(
; I16: %[[B:.*]] = load i16, ptr %src, align 2
; I16-NEXT: %v = bitcast i16 %[[B]] to bfloat
; I16: %[[S:.*]] = bitcast bfloat %v to i16
; I16-NEXT: store i16 %[[S]], ptr %q, align 4
; KEEP: %v = load bfloat, ptr %src, align 2
; KEEP: store bfloat %v, ptr %q, align 4
; CHECK: fpext bfloat %v to float
define i32 @copy(ptr %p, ptr %src, ptr %f) #0 {
  %base = load ptr, ptr %p, align 8
  %q = getelementptr i8, ptr %base, i64 12
  %v = load bfloat, ptr %src, align 2
  store bfloat %v, ptr %q, align 4
  %w = fpext bfloat %v to float
  store float %w, ptr %f, align 4
  br label %loop

loop:
  %i = phi i64 [ 0, %0 ], [ %next, %loop ]
  %a = getelementptr i8, ptr %base, i64 %i
  %x = load i32, ptr %a, align 4
  %b = getelementptr i8, ptr %a, i64 12
  %y = load i32, ptr %b, align 4
  %c = getelementptr i8, ptr %a, i64 24
  %z = load i32, ptr %c, align 4
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 100
  br i1 %done, label %exit, label %loop

exit:
  ret i32 %z
}

attributes #0 = { "target-features"="+neon,+sve,+bf16" }
