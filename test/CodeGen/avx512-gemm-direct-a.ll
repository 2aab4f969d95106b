; A read in place by the AVX-512 FMA kernel (narrow N): with A's row stride
; known when compiling, full micro-panels get a k loop of their own whose
; broadcasts address A's rows at constant offsets from one base and the k
; index - no address arithmetic per row; the partial last micro-panel (M %
; MR rows) gets a micro-kernel of that many rows, reading A in place too:
; nothing of A is packed (no gathers of its strided rows). The GEMM is a
; channels-last convolution's row-tap GEMM (tlx-nd-to-2d): the 7x7/2
; layer's 109 output pixels x 21 (7 taps x 3 channels) x 64, A rows 6
; floats apart and overlapping; 109 = 9 x 11 + 10.
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' %s -S -pass-remarks=tlx 2>%t.remarks | %llc -O2 -o %t.s
; RUN: FileCheck %s < %t.s
; RUN: FileCheck %s --check-prefix=TAIL < %t.s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; Without the tail micro-kernel the partial panel is packed, by gathers:
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' %s -S -tlx-gemm-tail-microkernels=0 | %llc -O2 -o - | FileCheck %s --check-prefix=PACKED

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
; The tail micro-kernel's 10 rows: broadcasts at the same offsets, and no
; packing of A anywhere in the function.
; TAIL-LABEL: gemm_rows_overlap:
; TAIL-NOT: vgather
; TAIL: .Lfunc_end
; PACKED-LABEL: gemm_rows_overlap:
; PACKED: vgatherqps
; PACKED: .Lfunc_end

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

; The dot-product kernels read A's k groups in place too, one 32-bit
; broadcast per row and k group (2 bf16, 4 int8): rows 72 elements apart,
; row r's group at 144*r bytes (bf16) or 72*r (u8) from one base. K = 63
; is no multiple of bf16's pairs: a pair read in place would reach past
; the row, so A is packed. (s8 x s8 flips A's sign bit as it packs:
; test/Integration/gemm-dot-direct-a.c.)
; REMARK-DAG: gemm 64x64x64: avx512 bf16 vdpbf16ps 13x32 (A in place)
; REMARK-DAG: gemm 64x64x63: avx512 bf16 vdpbf16ps 13x32 MC=
; REMARK-DAG: gemm 64x64x64: avx512 u8s8s32 vpdpbusd 13x32 (A in place)

; bf16 x bf16 -> f32: 5 | 5 << 4 | 6 << 8
define void @bf16_narrow(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 64, i64 64, i64 64, i64 1621,
                                 ptr %a, i64 72, i64 1, ptr %b, i64 64, i64 1,
                                 ptr %c, i64 64, i64 1)
  ret void
}
; 64 = 4 x 13 + 12: the first k loop may be the 12-row tail micro-kernel's,
; so the rows checked are those both have (0, 1 and 11).
; CHECK-LABEL: bf16_narrow:
; CHECK: # %gemm.k.body
; CHECK-DAG: vbroadcastss (%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vbroadcastss 144(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vbroadcastss 1584(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vdpbf16ps
; CHECK: .Lfunc_end

define void @bf16_odd_k(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 64, i64 64, i64 63, i64 1621,
                                 ptr %a, i64 72, i64 1, ptr %b, i64 64, i64 1,
                                 ptr %c, i64 64, i64 1)
  ret void
}

; u8 x s8 -> i32: 0 | 0 << 4 | 2 << 8 | 1 << 13 (A unsigned)
define void @u8s8_narrow(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 64, i64 64, i64 64, i64 8704,
                                 ptr %a, i64 72, i64 1, ptr %b, i64 64, i64 1,
                                 ptr %c, i64 64, i64 1)
  ret void
}
; CHECK-LABEL: u8s8_narrow:
; CHECK: # %gemm.k.body
; CHECK-DAG: vpbroadcastd (%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vpbroadcastd 72(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vpbroadcastd 792(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; CHECK-DAG: vpdpbusd
; CHECK: .Lfunc_end

; s8 x s8 -> i32 (0 | 0 << 4 | 2 << 8) on vpdpbusd, which multiplies
; unsigned bytes by signed ones: A read in place gets its sign bits flipped
; in each broadcast (the 32-bit lane loaded, xored with 0x80808080, then
; broadcast), where packing flips those of a packed A. With A's row stride
; known only at run time, the in-place and the packed micro-panels still
; get a k loop each, so that only the in-place one flips: packed panels'
; broadcasts come straight from memory.
; REMARK-DAG: gemm 64x64x64: avx512 s8s8s32 vpdpbusd(+128 bias) 13x32 (A in place)
; REMARK-DAG: gemm 64x64x64: avx512 s8s8s32 vpdpbusd(+128 bias) 13x32 (A in place when strides and sizes allow)
define void @s8s8_narrow(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 64, i64 64, i64 64, i64 512,
                                 ptr %a, i64 72, i64 1, ptr %b, i64 64, i64 1,
                                 ptr %c, i64 64, i64 1)
  ret void
}
; CHECK-LABEL: s8s8_narrow:
; CHECK: vmovd 72(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %xmm[[LANE:[0-9]+]]
; CHECK-NEXT: vpxor{{d?}} %xmm[[FLIP:[0-9]+]], %xmm[[LANE]], %xmm[[LANE]]
; CHECK-NEXT: vpbroadcastd %xmm[[LANE]], %zmm
; CHECK: .Lfunc_end

define void @s8s8_runtime_stride(ptr %a, ptr %b, ptr %c, i64 %lda) #0 {
  call void (...) @tlx_test_gemm(i64 64, i64 64, i64 64, i64 512,
                                 ptr %a, i64 %lda, i64 1, ptr %b, i64 64, i64 1,
                                 ptr %c, i64 64, i64 1)
  ret void
}
; CHECK-LABEL: s8s8_runtime_stride:
; CHECK: vmovd {{-?[0-9]*}}(%r{{.*}}), %xmm[[LANE:[0-9]+]]
; CHECK-NOT: vpbroadcastd
; CHECK: vpxor{{d?}} %xmm{{[0-9]+}}, %xmm[[LANE]], %xmm[[LANE]]
; CHECK-NEXT: vpbroadcastd %xmm[[LANE]], %zmm
; CHECK: # %gemm.k.body
; CHECK: vpbroadcastd 4(%r{{[0-9a-z]+}}), %zmm
; CHECK-NEXT: vpdpbusd
; CHECK: .Lfunc_end

attributes #0 = { nounwind "target-cpu"="znver4" "target-features"="+avx512f,+avx512bw,+avx512vl,+avx512dq,+avx512vnni,+avx512bf16,+evex512" "prefer-vector-width"="256" }
