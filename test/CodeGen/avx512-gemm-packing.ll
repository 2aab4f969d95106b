; Packing A (row-major, full micro-panels): a 16 x 16 vector transpose per
; 16 k values, 13 lanes of each column stored with a masked store. The dot
; product kernels transpose 32-bit k groups the same way (4 bytes for
; vpdpbusd, 2 bf16 for vdpbf16ps); s8s8s32 flips each A byte's sign bit
; (+128 bias) with one vpxord per row.
; When all of M is one A block, the FMA kernel reads full-width B
; micro-panels in place (no B packing; only a partial last panel is packed)
; unless B's row stride would map the panel's rows onto few L1 sets.
; Shape: one tap of the benchmark's 3x3 convolution (M = 64 output
; channels, N = 54 * 56 - 2 output pixels, K = 64 input channels, B = the
; input image at row stride 56 * 56).
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' -pass-remarks=tlx-test-gemm %s -S -o %t.ll 2>%t.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: %llc -O2 %t.ll -o - | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

; f32: 6 | 6 << 4 | 6 << 8, accumulate (1 << 12); A = weights (column
; stride 9), B = input (row stride 3136), C row stride 3024.
define void @conv_tap(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 64, i64 3022, i64 64, i64 5734,
                                 ptr %a, i64 576, i64 9, ptr %b, i64 3136, i64 1,
                                 ptr %c, i64 3024, i64 1)
  ret void
}

; Row stride 1024 f32 (4 KiB): B is packed. A's rows, 260 f32 apart, do not
; start on cache lines: A is packed too (N is wider than four micro-panels).
; The first store of a k group is to the 64-byte aligned scratch panel:
; LLVM 22 proves that and writes it as vmovaps.
define void @stride_4k(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 64, i64 1024, i64 256, i64 1638,
                                 ptr %a, i64 260, i64 1, ptr %b, i64 1024, i64 1,
                                 ptr %c, i64 1024, i64 1)
  ret void
}

; 256^3 (one A block, 1 KiB rows): MR 13 pads M to 260 rows (MR 14: 266);
; B in place, and A, whose rows start on cache lines.
define void @gemm_256(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 256, i64 256, i64 256, i64 1638,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

; u8 x s8 -> i32: 0 | 0 << 4 | 2 << 8 | 1 << 13 (A unsigned); M = 1024
; (several A blocks: A packed).
define void @pack_u8s8(ptr %a, ptr %b, ptr %c) #1 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 8704,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

; s8 x s8 -> i32: 2 << 8
define void @pack_s8s8(ptr %a, ptr %b, ptr %c) #1 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 512,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

; bf16 x bf16 -> f32: 5 | 5 << 4 | 6 << 8
define void @pack_bf16(ptr %a, ptr %b, ptr %c) #1 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 1621,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

; 512^3: A blocks take half of L2, which LLVM's cost model puts at 256 KiB
; on every x86 (TLX assumes at least 1 MiB for AVX-512: 504 rows, two A
; blocks); Sapphire Rapids' 2 MiB makes all 512 rows one A block.
define void @gemm_512(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 512, i64 512, i64 512, i64 1638,
                                 ptr %a, i64 512, i64 1, ptr %b, i64 512, i64 1,
                                 ptr %c, i64 512, i64 1)
  ret void
}

define void @gemm_512_spr(ptr %a, ptr %b, ptr %c) #2 {
  call void (...) @tlx_test_gemm(i64 512, i64 512, i64 512, i64 1638,
                                 ptr %a, i64 512, i64 1, ptr %b, i64 512, i64 1,
                                 ptr %c, i64 512, i64 1)
  ret void
}

attributes #0 = { nounwind "target-cpu"="x86-64-v4" }
attributes #1 = { nounwind "target-cpu"="x86-64-v4" "target-features"="+avx512vnni,+avx512bf16" }
attributes #2 = { nounwind "target-cpu"="sapphirerapids" }

; REMARK-DAG: gemm 64x3022x64: avx512 fma f32 13x32 (B in place)
; REMARK-DAG: gemm 64x1024x256: avx512 fma f32 13x32 MC=
; REMARK-DAG: gemm 256x256x256: avx512 fma f32 13x32 (A and B in place) MC=260
; REMARK-DAG: gemm 512x512x512: avx512 fma f32 14x32 MC=504 NC=512
; REMARK-DAG: gemm 512x512x512: avx512 fma f32 12x32 MC=516 NC=512
; The k loop: 26 FMAs (13 rows x 2 vectors), two B loads, no packing.
; CHECK-LABEL: conv_tap:
; CHECK: # %gemm.k.body
; CHECK-COUNT-26: vfmadd231ps
; CHECK: .Lfunc_end

; CHECK-LABEL: stride_4k:
; CHECK: # %gemm.packa.t.body
; CHECK-COUNT-16: vmov{{[au]}}ps %zmm{{[0-9]+}}, {{.*}} {%k{{[0-7]}}}
; CHECK: # %gemm.k.body
; CHECK: .Lfunc_end

; The transpose's k loop: 64 two-source shuffles of 32-bit lanes (four
; stages of 16), 14 rows' lanes stored per k group; no byte-by-byte copy.
; REMARK-DAG: gemm 1024x256x256: avx512 u8s8s32 vpdpbusd 14x32 MC=
; REMARK-DAG: gemm 1024x256x256: avx512 s8s8s32 vpdpbusd(+128 bias) 14x32 MC=
; REMARK-DAG: gemm 1024x256x256: avx512 bf16 vdpbf16ps 14x32 MC=
; CHECK-LABEL: pack_u8s8:
; CHECK: # %gemm.packa.t.body
; CHECK-NOT: vpxord
; CHECK-COUNT-16: vmovdq{{[au]}}32 %zmm{{[0-9]+}}, {{.*}} {%k{{[0-7]}}}
; CHECK: # %gemm.k.body
; CHECK: .Lfunc_end

; CHECK-LABEL: pack_s8s8:
; CHECK: # %gemm.packa.t.body
; CHECK-COUNT-14: vpxord {{.*}}%zmm
; CHECK-COUNT-16: vmovdq{{[au]}}32 %zmm{{[0-9]+}}, {{.*}} {%k{{[0-7]}}}
; CHECK: # %gemm.k.body
; CHECK: .Lfunc_end

; CHECK-LABEL: pack_bf16:
; CHECK: # %gemm.packa.t.body
; CHECK-COUNT-16: vmovdq{{[au]}}32 %zmm{{[0-9]+}}, {{.*}} {%k{{[0-7]}}}
; CHECK: # %gemm.k.body
; CHECK: .Lfunc_end
