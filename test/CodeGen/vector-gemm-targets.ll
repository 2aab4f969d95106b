; The vector kernel's blocking follows the target (TTI register width and
; count): AVX2 gets the classic 6 x 16 FMA kernel (16 ymm registers), NEON
; 14 x 8 on 32 q registers, AVX-512 14 x 32, SVE (scalable registers) 12
; rows x 2 vectors; each reported in a remark.
; RUN: %opt_tlx -passes=tlx-test-gemm -pass-remarks=tlx-test-gemm %s -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: sed 's/x86_64-unknown-linux-gnu/aarch64-unknown-linux-gnu/; s/"target-cpu"="[a-z0-9-]*"/"target-cpu"="neoverse-n1"/' %s \
; RUN:   | %opt_tlx -passes='tlx-test-gemm,default<O2>' -pass-remarks=tlx-test-gemm -S -o %t.arm.ll 2>&1 | FileCheck %s --check-prefix=NEON
; RUN: %llc -O2 %t.arm.ll -o - | FileCheck %s --check-prefix=NEON-ASM
; RUN: sed 's/x86_64-unknown-linux-gnu/aarch64-unknown-linux-gnu/; s/"target-cpu"="[a-z0-9-]*"/"target-cpu"="neoverse-v1"/' %s \
; RUN:   | %opt_tlx -passes='tlx-test-gemm,default<O2>' -pass-remarks=tlx-test-gemm -S -o %t.sve.ll 2>&1 | FileCheck %s --check-prefix=SVE
; RUN: %llc -O2 %t.sve.ll -o - | FileCheck %s --check-prefix=SVE-ASM
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' %s -S | %llc -O2 -o - | FileCheck %s --check-prefix=AVX2

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

define void @gemm_f32(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 1638,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

; i16 x i16 -> i32: vpmaddwd on k pairs (test/CodeGen/avx2-int8-gemm.ll).
define void @gemm_i16(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 30, i64 30, i64 30, i64 529,
                                 ptr %a, i64 30, i64 1, ptr %b, i64 30, i64 1,
                                 ptr %c, i64 30, i64 1)
  ret void
}

; i32 x i32 -> i32: the i32 mul-add kernel.
define void @gemm_i32(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 30, i64 30, i64 30, i64 546,
                                 ptr %a, i64 30, i64 1, ptr %b, i64 30, i64 1,
                                 ptr %c, i64 30, i64 1)
  ret void
}

; f16 accumulator: no vector kernel, the scalar loops.
define void @gemm_f16(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 4, i64 4, i64 4, i64 1092,
                                 ptr %a, i64 4, i64 1, ptr %b, i64 4, i64 1,
                                 ptr %c, i64 4, i64 1)
  ret void
}

; AVX-512 in the same module: the per-function features decide.
define void @gemm_f32_avx512(ptr %a, ptr %b, ptr %c) #1 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 1638,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

attributes #0 = { nounwind "target-cpu"="haswell" }
attributes #1 = { nounwind "target-cpu"="skylake-avx512" }

; REMARK-DAG: gemm 1024x256x256: vec256 fma f32 6x16
; REMARK-DAG: gemm 30x30x30: vec256 s16s16s32 vpmaddwd 6x16
; REMARK-DAG: gemm 30x30x30: vec256 mul-add i32 6x16
; REMARK-DAG: gemm 4x4x4: scalar (no vector kernel accumulates in this element type)
; REMARK-DAG: gemm 1024x256x256: avx512 fma f32 14x32

; NEON-COUNT-2: gemm 1024x256x256: vec128 fma f32 14x8
; NEON-ASM-LABEL: gemm_f32:
; NEON-ASM: %gemm.k.body
; NEON-ASM-COUNT-28: fmla v{{[0-9]+}}.4s

; SVE-COUNT-2: gemm 1024x256x256: sve fma f32 12x2VL
; SVE-ASM-LABEL: gemm_f32:
; SVE-ASM: %gemm.k.body
; SVE-ASM-NOT: {{Spill|Reload|sp}}
; SVE-ASM-COUNT-24: fmla z{{[0-9]+}}.s, p{{[0-9]+}}/m, z{{[0-9]+}}.s, z{{[0-9]+}}.s
; SVE-ASM-NOT: {{Spill|Reload|sp}}
; SVE-ASM: %gemm.k.exit

; AVX2-LABEL: gemm_f32:
; AVX2: # %gemm.if.end{{[0-9]+}}
; AVX2-COUNT-12: vfmadd231ps {{.*}}%ymm
; AVX2-NOT: {{Spill|Reload}}
; AVX2: # %gemm.k.body
; AVX2-NOT: {{Spill|Reload}}
; AVX2: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}
