; A read in place by the AVX-512 FMA kernel (narrow N): with A's row stride
; known when compiling, full micro-panels get a k loop of their own whose
; broadcasts address A's rows at constant offsets from one base and the k
; index - no address arithmetic per row; the partial last micro-panel comes
; from its packed copy in a second k loop. The GEMM is a channels-last
; convolution's row-tap GEMM (tlx-nd-to-2d): the 7x7/2 layer's 109 output
; pixels x 21 (7 taps x 3 channels) x 64, A rows 6 floats apart and
; overlapping.
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' %s -S -pass-remarks=tlx 2>%t.remarks | %llc -O2 -o - | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

; REMARK-DAG: gemm 109x64x21: avx512 fma f32 11x32 (A and B in place)

; f32: 6 | 6 << 4 | 6 << 8
define void @gemm_rows_overlap(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 109, i64 64, i64 21, i64 1638,
                                 ptr %a, i64 6, i64 1, ptr %b, i64 64, i64 1,
                                 ptr %c, i64 64, i64 1)
  ret void
}
; CHECK-LABEL: gemm_rows_overlap:
; The in-place k loop: row r's broadcast at 24*r bytes from one base, indexed
; by k (in whatever order the scheduler puts them).
; CHECK-DAG: vbroadcastss (%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vbroadcastss 24(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vbroadcastss 48(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vbroadcastss 72(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vbroadcastss 96(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vbroadcastss 120(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vbroadcastss 144(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vbroadcastss 168(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vbroadcastss 192(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vbroadcastss 216(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vbroadcastss 240(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK: .Lfunc_end

; Wider N: A in place when all of M is one A block and A's rows start on
; cache lines (256 f32: 1 KiB); packed when they do not (300 f32, 1200
; bytes) or M spans several A blocks.
; REMARK-DAG: gemm 256x320x256: avx512 fma f32 13x32 (A and B in place)
; REMARK-DAG: gemm 255x320x256: avx512 fma f32 {{[0-9]+}}x32 (B in place)
; REMARK-DAG: gemm 1024x320x256: avx512 fma f32 14x32 MC=
define void @one_block_aligned(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 256, i64 320, i64 256, i64 1638,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 320, i64 1,
                                 ptr %c, i64 320, i64 1)
  ret void
}

define void @one_block_unaligned(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 255, i64 320, i64 256, i64 1638,
                                 ptr %a, i64 300, i64 1, ptr %b, i64 320, i64 1,
                                 ptr %c, i64 320, i64 1)
  ret void
}

define void @two_blocks(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 1024, i64 320, i64 256, i64 1638,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 320, i64 1,
                                 ptr %c, i64 320, i64 1)
  ret void
}

attributes #0 = { nounwind "target-cpu"="znver4" "target-features"="+avx512f,+avx512bw,+avx512vl,+avx512dq,+avx512vnni,+avx512bf16,+evex512" "prefer-vector-width"="256" }
