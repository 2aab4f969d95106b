; tlx-backend-workarounds on x86: LLVM 19 and 22 abort type legalization
; ("Do not know how to soft promote this operator's operand") under
; +avx512bf16 on bfloat vectors whose length is not a power of two (a C
; `__bf16` ext_vector_type of 9 or 33) wherever such a vector meets a
; register boundary: a load or store (progs.py seed 602, cases 43 and 95),
; a value used in another block or merged by a phi (a tensor merged across
; C control flow: seed 204, case 124), a call's result (seed 602 case 43 at
; -O0), an element read, written or shuffled (C's v[i]). The pass makes
; each on i16 vectors - for calls through the call's function type, the
; same registers or memory in the ABI, with +avx512bf16 only - at every -O
; level, and folds the bitcast round trips that leaves; power-of-two
; lengths and other element types are left alone.
; (Arithmetic on such vectors - fadd <33 x bfloat> - aborts the same way;
; TLX computes bf16 in float, only a user's C would write it.)
; RUN: %opt_tlx -passes=tlx-backend-workarounds -S %s -o - | FileCheck %s
; RUN: %opt_tlx -passes=tlx-backend-workarounds-O0 -S %s -o - | FileCheck %s
; RUN: %opt_tlx -passes=tlx-backend-workarounds %s -o - | llc -O2 -o /dev/null
; RUN: %opt_tlx -passes=tlx-backend-workarounds-O0 %s -o - | llc -O0 -o /dev/null

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@g = global <33 x bfloat> zeroinitializer, align 128

; The round trip through bfloat folds away.
; CHECK-LABEL: define void @copy(
; CHECK-NEXT: %[[I:.*]] = load <33 x i16>, ptr @g, align 128
; CHECK-NEXT: store volatile <33 x i16> %[[I]], ptr %p, align 128
; CHECK-NEXT: load <16 x bfloat>, ptr %q
; CHECK-NEXT: store <16 x bfloat>
define void @copy(ptr %p, ptr %q) #0 {
  %v = load <33 x bfloat>, ptr @g, align 128
  store volatile <33 x bfloat> %v, ptr %p, align 128
  %x = load <16 x bfloat>, ptr %q
  store <16 x bfloat> %x, ptr %p
  ret void
}

; A merge of two loads: a phi of i16 vectors, no bfloat vector left.
; CHECK-LABEL: define void @merge(
; CHECK: then:
; CHECK-NEXT: %[[A:.*]] = load <9 x i16>, ptr %p
; CHECK: else:
; CHECK-NEXT: %[[B:.*]] = load <9 x i16>, ptr %q
; CHECK: join:
; CHECK-NEXT: %v.bits = phi <9 x i16> [ %[[A]], %then ], [ %[[B]], %else ]
; CHECK-NEXT: store <9 x i16> %v.bits, ptr %r
; CHECK-NOT: bfloat
; CHECK: ret void
define void @merge(i1 %c, ptr %p, ptr %q, ptr %r) #0 {
  br i1 %c, label %then, label %else
then:
  %a = load <9 x bfloat>, ptr %p
  br label %join
else:
  %b = load <9 x bfloat>, ptr %q
  br label %join
join:
  %v = phi <9 x bfloat> [ %a, %then ], [ %b, %else ]
  store <9 x bfloat> %v, ptr %r
  ret void
}

; A value used in a later block, and an argument used after a branch.
; CHECK-LABEL: define void @live_across(
; CHECK: %[[X:.*]] = bitcast <9 x bfloat> %arg to <9 x i16>
; CHECK: %[[V:.*]] = load <9 x i16>, ptr %p
; CHECK: next:
; CHECK-NEXT: store <9 x i16> %[[V]], ptr %q
; CHECK-NEXT: store <9 x i16> %[[X]], ptr %p
define void @live_across(<9 x bfloat> %arg, ptr %p, ptr %q) #0 {
  %v = load <9 x bfloat>, ptr %p
  br label %next
next:
  store <9 x bfloat> %v, ptr %q
  store <9 x bfloat> %arg, ptr %p
  ret void
}

declare <33 x bfloat> @make33(ptr)
declare void @take9(<9 x bfloat>)

; A call returning an odd-length bfloat vector: through an i16 function
; type (arguments are selected fine and keep their type).
; CHECK-LABEL: define void @calls(
; CHECK-NEXT: %[[R:.*]] = call <33 x i16> @make33(ptr %p)
; CHECK-NEXT: store <33 x i16> %[[R]], ptr %q
; CHECK-NEXT: load <9 x i16>, ptr %p
; (-O0, LLVM 19: as i16, the FastISel workaround for wide arguments)
; CHECK: call void @take9(<9 x {{bfloat|i16}}> %{{.*}})
define void @calls(ptr %p, ptr %q) #0 {
  %r = call <33 x bfloat> @make33(ptr %p)
  store <33 x bfloat> %r, ptr %q
  %a = load <9 x bfloat>, ptr %p
  call void @take9(<9 x bfloat> %a)
  ret void
}

; Without +avx512bf16 LLVM passes bfloat vectors otherwise (and does not
; abort): calls keep their types.
; CHECK-LABEL: define void @calls_avx2(
; CHECK-NEXT: %r = call <33 x bfloat> @make33(ptr %p)
define void @calls_avx2(ptr %p, ptr %q) #1 {
  %r = call <33 x bfloat> @make33(ptr %p)
  store <33 x bfloat> %r, ptr %q
  ret void
}

; v[i] read and written, a shuffle: on i16 lanes.
; CHECK-LABEL: define float @lanes(
; CHECK: %[[V:.*]] = load <9 x i16>, ptr %p
; CHECK-NEXT: %[[E:.*]] = extractelement <9 x i16> %[[V]], i64 %i
; CHECK-NEXT: %e = bitcast i16 %[[E]] to bfloat
; CHECK: insertelement <9 x i16> %[[V]], i16 %{{.*}}, i64 3
; CHECK: shufflevector <9 x i16>
; CHECK: store <9 x i16>
; CHECK-NOT: <9 x bfloat>
; CHECK: ret float
define float @lanes(ptr %p, i64 %i, bfloat %s) #0 {
  %v = load <9 x bfloat>, ptr %p
  %e = extractelement <9 x bfloat> %v, i64 %i
  %w = insertelement <9 x bfloat> %v, bfloat %s, i64 3
  %r = shufflevector <9 x bfloat> %w, <9 x bfloat> poison, <9 x i32> <i32 8, i32 7, i32 6, i32 5, i32 4, i32 3, i32 2, i32 1, i32 0>
  store <9 x bfloat> %r, ptr %p
  %f = fpext bfloat %e to float
  ret float %f
}

attributes #0 = { "target-cpu"="znver4" }
attributes #1 = { "target-cpu"="x86-64-v3" }
