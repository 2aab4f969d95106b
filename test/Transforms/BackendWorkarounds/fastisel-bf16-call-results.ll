; tlx-backend-workarounds on x86: LLVM 19's FastISel (the -O0 instruction
; selector, also used for optnone functions) loses a call's bfloat vector
; result that is used in another block - it reloads the returned registers
; from a stack slot they were never spilled to (progs.py seed 600, case
; 713), and one passed straight to another call (seed 700, case 887). The
; pass stores such a result to a stack slot right after the call and loads
; it at its uses; results only stored in their own block, other element
; types, and LLVM 22 (which gets them right) are left alone. The -O2
; pipeline runs the pass too, for optnone functions only.
; RUN: %opt_tlx -passes=tlx-backend-workarounds-O0 -S %s -o - | FileCheck %s --check-prefixes=CHECK,%if llvm-19 %{SPILL%} %else %{KEEP%}
; RUN: %opt_tlx -passes=tlx-backend-workarounds -S %s -o - | FileCheck %s --check-prefixes=CHECK,O2-%llvm_major
; RUN: %opt_tlx -passes=tlx-backend-workarounds-O0 %s -o - | llc -O0 -o - | FileCheck %s --check-prefix=ASM

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare <16 x bfloat> @make16()
declare <8 x float> @make8f()
declare <8 x bfloat> @make8()
declare void @take8(<8 x bfloat>)

; CHECK-LABEL: define void @live_out(
; SPILL: %[[SLOT:.*]] = alloca <16 x bfloat>
; SPILL: %r = call <16 x bfloat> @make16()
; SPILL-NEXT: store <16 x bfloat> %r, ptr %[[SLOT]]
; SPILL: then:
; SPILL-NEXT: %[[R:.*]] = load <16 x bfloat>, ptr %[[SLOT]]
; SPILL-NEXT: store <16 x bfloat> %[[R]], ptr %q
; KEEP: %r = call <16 x bfloat> @make16()
; KEEP: store <16 x bfloat> %r, ptr %q
; ASM-LABEL: live_out:
; ASM: callq make16
; ASM: movaps %xmm0, [[S0:[0-9]+]](%rsp)
; ASM: # %then
; ASM: [[S0]](%rsp)
define void @live_out(ptr %q, i1 %c) {
  %r = call <16 x bfloat> @make16()
  br i1 %c, label %then, label %done
then:
  store <16 x bfloat> %r, ptr %q
  br label %done
done:
  ret void
}

; A phi reads the result at the end of the call's block (FastISel gets
; that one right, but only a store is known safe): through the slot too.
; CHECK-LABEL: define <16 x bfloat> @phi_use(
; SPILL: store <16 x bfloat> %r, ptr
; SPILL: %[[R:.*]] = load <16 x bfloat>, ptr
; SPILL-NEXT: br label %done
; SPILL: phi <16 x bfloat> [ %[[R]], %call ]
; KEEP: phi <16 x bfloat> [ %r, %call ]
define <16 x bfloat> @phi_use(i1 %c, <16 x bfloat> %x) {
entry:
  br i1 %c, label %call, label %done
call:
  %r = call <16 x bfloat> @make16()
  br label %done
done:
  %m = phi <16 x bfloat> [ %r, %call ], [ %x, %entry ]
  ret <16 x bfloat> %m
}

; Passed straight to another call: lost too (seed 700, case 887).
; CHECK-LABEL: define void @passed_on(
; SPILL: %[[SLOT:.*]] = alloca <8 x bfloat>
; SPILL: %r = call <8 x bfloat> @make8()
; SPILL-NEXT: store <8 x bfloat> %r, ptr %[[SLOT]]
; SPILL-NEXT: %[[R:.*]] = load <8 x bfloat>, ptr %[[SLOT]]
; SPILL-NEXT: call void @take8(<8 x bfloat> %[[R]])
; KEEP: call void @take8(<8 x bfloat> %r)
define void @passed_on() {
  %r = call <8 x bfloat> @make8()
  call void @take8(<8 x bfloat> %r)
  ret void
}

; CHECK-LABEL: define void @same_block(
; CHECK-NOT: alloca
; CHECK: %r = call <16 x bfloat> @make16()
; CHECK-NEXT: store <16 x bfloat> %r, ptr %q
define void @same_block(ptr %q) {
  %r = call <16 x bfloat> @make16()
  store <16 x bfloat> %r, ptr %q
  ret void
}

; CHECK-LABEL: define void @float_result(
; CHECK-NOT: alloca
define void @float_result(ptr %q, i1 %c) {
  %r = call <8 x float> @make8f()
  br i1 %c, label %then, label %done
then:
  store <8 x float> %r, ptr %q
  br label %done
done:
  ret void
}

; In an -O2 module only optnone functions are selected by FastISel.
; CHECK-LABEL: define void @optnone_live_out(
; SPILL: alloca <16 x bfloat>
; O2-19: alloca <16 x bfloat>
; O2-22-NOT: alloca
; O2-22: ret void
define void @optnone_live_out(ptr %q, i1 %c) noinline optnone {
  %r = call <16 x bfloat> @make16()
  br i1 %c, label %then, label %done
then:
  store <16 x bfloat> %r, ptr %q
  br label %done
done:
  ret void
}
