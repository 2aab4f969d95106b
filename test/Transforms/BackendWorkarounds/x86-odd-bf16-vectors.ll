; tlx-backend-workarounds on x86: LLVM 19 and 22 abort type legalization
; ("Do not know how to soft promote this operator's operand") on a load or
; store of a bfloat vector whose length is not a power of two under
; +avx512bf16 (a C `__bf16` ext_vector_type of 33: progs.py seed 602,
; cases 43 and 95). The pass makes such accesses on i16 vectors, at every
; -O level; power-of-two lengths and other element types are left alone.
; (Arithmetic on such vectors - fadd <33 x bfloat> - aborts the same way;
; TLX computes bf16 in float, only a user's C would write it.)
; RUN: %opt_tlx -passes=tlx-backend-workarounds -S %s -o - | FileCheck %s
; RUN: %opt_tlx -passes=tlx-backend-workarounds-O0 -S %s -o - | FileCheck %s
; RUN: %opt_tlx -passes=tlx-backend-workarounds %s -o - | llc -O2 -o /dev/null
; RUN: %opt_tlx -passes=tlx-backend-workarounds-O0 %s -o - | llc -O0 -o /dev/null

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@g = global <33 x bfloat> zeroinitializer, align 128

; CHECK-LABEL: define void @copy_add(
; CHECK: %[[I:.*]] = load <33 x i16>, ptr @g, align 128
; CHECK-NEXT: %v = bitcast <33 x i16> %[[I]] to <33 x bfloat>
; CHECK: %[[O:.*]] = bitcast <33 x bfloat> %v to <33 x i16>
; CHECK-NEXT: store volatile <33 x i16> %[[O]], ptr %p, align 128
; CHECK: load <16 x bfloat>, ptr %q
; CHECK: store <16 x bfloat>
define void @copy_add(ptr %p, ptr %q) #0 {
  %v = load <33 x bfloat>, ptr @g, align 128
  store volatile <33 x bfloat> %v, ptr %p, align 128
  %x = load <16 x bfloat>, ptr %q
  store <16 x bfloat> %x, ptr %p
  ret void
}

attributes #0 = { "target-cpu"="znver4" }
