; int8 B packing on a CPU with VBMI: four 64-byte rows of B become four
; VNNI tile rows through two 128-bit lane shuffles per row pair and one
; vpermt2b (or vpermi2b) per tile row, the byte-interleave masks loaded from
; an externally_initialized global so the optimizer keeps the two-level
; form (with constant masks it folds them into one four-source shuffle and
; the backend emits xmm unpack trees). With M <= 64, B is packed one
; 64-column panel at a time, right before the kernels that use it.
; Without VBMI (x86-64-v4) int8 keeps the interleaving shuffles and the
; whole-B packing.
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' %s -S -o %t.ll
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: %llc -O2 %t.ll -o - | FileCheck %s
; RUN: sed 's/"sapphirerapids"/"x86-64-v4"/' %s | %opt_tlx -passes='tlx-test-gemm,default<O2>' -S | %llc -O2 -o - | FileCheck %s --check-prefix=NOVBMI
; RUN: sed 's/nounwind "target-cpu"/noinline nounwind optnone "target-cpu"/' %s | %opt_tlx -passes=tlx-test-gemm -S | %llc -O0 -o /dev/null

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

; s8 x s8 -> i32, 64 x 1024 x 256 (flags 0 | 0 << 4 | 2 << 8 | 1 << 15).
define void @gemm_s8s8_small_m(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 64, i64 1024, i64 256, i64 33280,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 1024, i64 1,
                                 ptr %c, i64 1024, i64 1)
  ret void
}

attributes #0 = { nounwind "target-cpu"="sapphirerapids" }

; IR: @tlx.amx.vnni4.perm{{.*}} = internal {{.*}}externally_initialized global
; The packing loop inside the panel loop, before the kernel's call (the
; optimizer's block order and unrolling differ between LLVM versions).
; IR-LABEL: define void @gemm_s8s8_small_m(
; IR: amx.panel.body:
; IR-DAG: call {{.*}}void @tlx.amx.gemm(
; IR-DAG: call <64 x i8> @llvm.x86.avx512.vpermi2var.qi.512(
; IR-DAG: call <64 x i8> @llvm.x86.avx512.vpermi2var.qi.512(
; IR-DAG: call <64 x i8> @llvm.x86.avx512.vpermi2var.qi.512(
; IR-DAG: call <64 x i8> @llvm.x86.avx512.vpermi2var.qi.512(
; IR: define internal {{.*}}@tlx.amx.gemm(

; CHECK-LABEL: gemm_s8s8_small_m:
; CHECK: callq tlxrt_amx_require
; CHECK: vmovdqa64 tlx.amx.vnni4.perm
; CHECK: # %amx.packb.j.{{body|header.preheader}}
; CHECK-NOT: vpunpck
; CHECK-COUNT-4: vperm{{[ti]}}2b
; CHECK-NOT: vpunpck
; CHECK: callq tlx.amx.gemm
; CHECK: .Lfunc_end

; NOVBMI-LABEL: gemm_s8s8_small_m:
; NOVBMI-NOT: vperm{{[ti]}}2b
; NOVBMI: vpunpcklbw
; NOVBMI-NOT: vperm{{[ti]}}2b
; NOVBMI: .Lfunc_end
