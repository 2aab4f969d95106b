; -tlx-gemm-mr/-tlx-gemm-nv replace the register block the target and the
; shape choose (for measuring other blocks on a CPU, docs/pipeline.md):
; 6 rows x 4 vectors on AVX-512 is 24 accumulators, 4 B vectors and one
; broadcast per k step; M = 256 keeps MR 6 (the automatic choice would
; spread M over balanced panels). A block that does not fit the registers
; (16 x 2: 32 accumulators), one wider than 4 vectors or one given half is
; ignored. SSE's 16
; registers take 3 x 3 (9 accumulators, 3 B vectors, one broadcast).
; RUN: %opt_tlx -passes=tlx-test-gemm -pass-remarks=tlx-test-gemm %s -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
; RUN: %opt_tlx -passes=tlx-test-gemm -pass-remarks=tlx-test-gemm -tlx-gemm-mr=6 -tlx-gemm-nv=4 %s -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORCED
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' -tlx-gemm-mr=6 -tlx-gemm-nv=4 %s -S | %llc -O2 -o - | FileCheck %s --check-prefix=ASM
; RUN: %opt_tlx -passes=tlx-test-gemm -pass-remarks=tlx-test-gemm -tlx-gemm-mr=16 -tlx-gemm-nv=2 %s -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
; RUN: %opt_tlx -passes=tlx-test-gemm -pass-remarks=tlx-test-gemm -tlx-gemm-mr=4 -tlx-gemm-nv=6 %s -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
; RUN: %opt_tlx -passes=tlx-test-gemm -pass-remarks=tlx-test-gemm -tlx-gemm-mr=6 %s -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
; RUN: %opt_tlx -passes=tlx-test-gemm -pass-remarks=tlx-test-gemm -tlx-gemm-mr=3 -tlx-gemm-nv=3 %s -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=SSE

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

define void @gemm_f32(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 256, i64 256, i64 256, i64 1638,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

define void @gemm_f32_sse(ptr %a, ptr %b, ptr %c) #1 {
  call void (...) @tlx_test_gemm(i64 256, i64 256, i64 256, i64 1638,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

attributes #0 = { nounwind "target-cpu"="x86-64-v4" }
attributes #1 = { nounwind "target-cpu"="x86-64" }

; AUTO: gemm 256x256x256: avx512 fma f32 13x32
; FORCED: gemm 256x256x256: avx512 fma f32 6x64
; SSE: gemm 256x256x256: vec128 fma f32 3x12

; The k loop of the 6 x 4 block: six broadcasts of A (rows 1 KiB apart),
; each feeding four FMAs, then the four B vectors of the next k step.
; ASM-LABEL: gemm_f32:
; ASM:       vbroadcastss (%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vbroadcastss 1024(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vbroadcastss 2048(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vbroadcastss 3072(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vbroadcastss 4096(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vbroadcastss 5120(%r{{[0-9a-z]+}},%r{{[0-9a-z]+}},4), %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  vfmadd231ps %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
; ASM-NEXT:  incq
; ASM:       vmovups {{.*}}, %zmm
; ASM-NEXT:  vmovups {{.*}}, %zmm
; ASM-NEXT:  vmovups {{.*}}, %zmm
; ASM-NEXT:  vmovups {{.*}}, %zmm
