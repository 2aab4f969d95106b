; The AMX int8 kernel at -O2: one ldtilecfg per kernel, four tdpbssd per k
; step fed by two A and two B tile loads, accumulators never stored or
; reloaded inside the k loop; and at -O0 LLVM's fast tile configuration
; accepts the kernel.
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' %s -S -o %t.o2.ll
; RUN: %llc -O2 %t.o2.ll -o - | FileCheck %s --check-prefix=O2
; clang -O0 marks functions optnone; the emitter then uses the -O0 tile form.
; RUN: sed 's/nounwind "target-cpu"/noinline nounwind optnone "target-cpu"/' %s | %opt_tlx -passes=tlx-test-gemm -S -o %t.o0.ll
; RUN: %llc -O0 %t.o0.ll -o - | FileCheck %s --check-prefix=O0

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

; s8 x s8 -> i32, 64 x 64 x 2048: one 2x2 block shape, 32 k steps.
define void @gemm_s8s8(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 64, i64 64, i64 2048, i64 33280,
                                 ptr %a, i64 2048, i64 1, ptr %b, i64 64, i64 1,
                                 ptr %c, i64 64, i64 1)
  ret void
}

attributes #0 = { nounwind "target-cpu"="x86-64-v4" }

; O2-LABEL: gemm_s8s8:
; O2: movl $1, %edi
; O2-NEXT: callq tlxrt_amx_require
; O2: {{callq|jmp}} tlx.amx.gemm

; O2-LABEL: tlx.amx.gemm:
; O2: ldtilecfg
; O2-NOT: ldtilecfg
; O2: tilezero
; O2: # %amx.k.body
; O2-NOT: {{tilestored|Spill|Reload|ldtilecfg}}
; O2-COUNT-4: tdpbssd
; O2-NOT: {{tilestored|Spill|Reload|ldtilecfg}}
; O2: # %amx.k.exit
; O2-COUNT-4: tilestored
; O2-NOT: ldtilecfg
; O2: .Lfunc_end

; O0-LABEL: tlx.amx.gemm:
; O0: ldtilecfg
; O0: tdpbssd
; O0: tilestored
