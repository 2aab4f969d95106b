; Packing row-major B for vpdpbusd (4 k per i32 lane) on AVX-512 without
; VBMI (x86-64-v4 + VNNI): two 32-column micro-panels per 64-byte row load,
; interleaved by byte and word unpacks within 16-byte lanes and then whole-
; lane shuffles, stored as four zmm (two per panel); each load is a whole
; cache line, not a 128- or 256-bit piece.
; M = 64 is one A block: B is packed one 64-column group at a time right
; before its microkernels, after A (packed: its rows, 1040 bytes apart, do
; not start on cache lines), into a buffer of 64 x 1024 bytes. M = 1024
; packs the whole 1024 x 1024 B panel before the A blocks.
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' -pass-remarks=tlx-test-gemm %s -S -o %t.ll 2>%t.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: %llc -O2 %t.ll -o - | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

; u8 x s8 -> i32: 0 | 0 << 4 | 2 << 8 | 1 << 13 (A unsigned)
define void @small_m(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 64, i64 1024, i64 1024, i64 8704,
                                 ptr %a, i64 1040, i64 1, ptr %b, i64 1024, i64 1,
                                 ptr %c, i64 1024, i64 1)
  ret void
}

define void @large_m(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 1024, i64 1024, i64 1024, i64 8704,
                                 ptr %a, i64 1024, i64 1, ptr %b, i64 1024, i64 1,
                                 ptr %c, i64 1024, i64 1)
  ret void
}

attributes #0 = { nounwind "target-cpu"="x86-64-v4" "target-features"="+avx512vnni,+avx512bf16" }

; REMARK-DAG: gemm 64x1024x1024: avx512 u8s8s32 vpdpbusd 13x32 MC=65 NC=1024 KC=1024
; REMARK-DAG: gemm 1024x1024x1024: avx512 u8s8s32 vpdpbusd 14x32 MC={{[0-9]+}} NC=1024 KC=1024

; The packed B buffer (scratch slot 1): one group, or the whole panel.
; IR-LABEL: define void @small_m(
; IR: call ptr @tlxrt_scratch(i32 1, i64 65536)
; IR-LABEL: define void @large_m(
; IR: call ptr @tlxrt_scratch(i32 1, i64 1048576)

; CHECK-LABEL: small_m:
; CHECK: # %gemm.packa.t.body
; CHECK: # %gemm.packb.group.body
; CHECK: # %gemm.packb.vec.body
; CHECK-COUNT-4: vmovdqu64 {{-?[0-9]*}}(%r{{[a-z0-9]+}}), %zmm
; CHECK-COUNT-4: vpunpck{{[lh]}}bw %zmm
; CHECK-NOT: {{\(%r[a-z0-9]+\), %[xy]mm}}
; CHECK: vmovdqa64 %zmm{{[0-9]+}}, {{-?[0-9]*}}(%r
; CHECK-NEXT: vmovdqa64 %zmm{{[0-9]+}}, {{-?[0-9]*}}(%r
; CHECK-NEXT: vmovdqa64 %zmm{{[0-9]+}}, {{-?[0-9]*}}(%r
; CHECK-NEXT: vmovdqa64 %zmm{{[0-9]+}}, {{-?[0-9]*}}(%r
; CHECK-NEXT: addq $4096
; CHECK: # %gemm.k.body
; CHECK: # %gemm.jg.exit

; CHECK-LABEL: large_m:
; CHECK: # %gemm.packb.vec.body
; CHECK-COUNT-4: vmovdqu64 {{-?[0-9]*}}(%r{{[a-z0-9]+}}), %zmm
; CHECK-COUNT-4: vpunpck{{[lh]}}bw %zmm
; CHECK: # %gemm.packa.t.body
; CHECK: # %gemm.k.body
