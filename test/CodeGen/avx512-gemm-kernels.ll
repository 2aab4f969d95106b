; The AVX-512 vector kernels: the inner k loop is pure zmm dot-product
; instructions with broadcast A operands - 28 vfmadd231ps (14 x 32 f32),
; 28 vpdpbusd (u8 x s8 and s8 x s8 with the +128 bias), 28 vdpbf16ps
; (M = 1024: several A blocks, so MR stays 14) - on AMD Zen 5 the int8 block
; is 6 x 64 (24 vpdpbusd, four B loads per k group), on Sapphire and Emerald
; Rapids bf16 takes 28 vfmadd231ps; in the first MR iterations
; a side block prefetches one row of the C block (the loop's layout puts
; the dot products first, then the k.body test; it exits to gemm.k.exit, or
; straight to the C block's stores, gemm.if.else, as LLVM 19 lays it out).
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' %s -S | %llc -O2 -o - | FileCheck %s
; RUN: %opt_tlx -passes=tlx-test-gemm %s -S | %llc -O0 -o - | FileCheck %s --check-prefix=O0

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

; f32: 6 | 6 << 4 | 6 << 8
define void @gemm_f32(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 1638,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

; u8 x s8 -> i32: 0 | 0 << 4 | 2 << 8 | 1 << 13 (A unsigned)
define void @gemm_u8s8(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 8704,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

; s8 x s8 -> i32: 2 << 8
define void @gemm_s8s8(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 512,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

; bf16 x bf16 -> f32: 5 | 5 << 4 | 6 << 8
define void @gemm_bf16(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 1621,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

; The same s8 x s8 GEMM tuned for Zen 5 (-mtune=znver5).
define void @gemm_s8s8_znver5(ptr %a, ptr %b, ptr %c) #1 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 512,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

; The bf16 GEMM on a CPU that issues vdpbf16ps at half the FMA's rate
; (-march/-mtune=sapphirerapids or emeraldrapids): the multiply-add kernel
; on f32, the operands converted while packed.
define void @gemm_bf16_spr(ptr %a, ptr %b, ptr %c) #2 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 1621,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

define void @gemm_bf16_emr(ptr %a, ptr %b, ptr %c) #3 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 1621,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

; Without prefer-vector-width=512 the emitter must still get zmm registers
; (it raises min-legal-vector-width).
attributes #0 = { nounwind "target-cpu"="znver4" "target-features"="+avx512f,+avx512bw,+avx512vl,+avx512dq,+avx512vnni,+avx512bf16,+evex512" "prefer-vector-width"="256" }
attributes #1 = { nounwind "target-cpu"="znver4" "target-features"="+avx512f,+avx512bw,+avx512vl,+avx512dq,+avx512vnni,+avx512bf16,+evex512" "prefer-vector-width"="256" "tune-cpu"="znver5" }
attributes #2 = { nounwind "target-cpu"="sapphirerapids" }
attributes #3 = { nounwind "target-cpu"="x86-64-v4" "target-features"="+avx512vnni,+avx512bf16" "tune-cpu"="emeraldrapids" }

; CHECK-LABEL: gemm_f32:
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-28: vfmadd231ps {{.*}}%zmm
; CHECK-NOT: {{Spill|Reload}}
; CHECK: # %gemm.k.body
; CHECK-NOT: {{Spill|Reload}}
; CHECK: prefetchw
; CHECK-NOT: {{Spill|Reload}}
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}

; CHECK-LABEL: gemm_u8s8:
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-28: vpdpbusd {{.*}}%zmm
; CHECK-NOT: {{Spill|Reload}}
; CHECK: # %gemm.k.body
; CHECK-NOT: {{Spill|Reload}}
; CHECK: prefetchw
; CHECK-NOT: {{Spill|Reload}}
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}

; s8 x s8: the column sums (vpdpbusd on 0x80 bytes) are computed per packed
; B panel, and the kernel starts from their negation.
; CHECK-LABEL: gemm_s8s8:
; CHECK: # %gemm.colsum.body
; CHECK: vpdpbusd
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-28: vpdpbusd {{.*}}%zmm
; CHECK-NOT: {{Spill|Reload}}
; CHECK: # %gemm.k.body
; CHECK-NOT: {{Spill|Reload}}
; CHECK: prefetchw
; CHECK-NOT: {{Spill|Reload}}
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}

; CHECK-LABEL: gemm_bf16:
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-28: vdpbf16ps {{.*}}%zmm
; CHECK-NOT: {{Spill|Reload}}
; CHECK: # %gemm.k.body
; CHECK-NOT: {{Spill|Reload}}
; CHECK: prefetchw
; CHECK-NOT: {{Spill|Reload}}
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}

; CHECK-LABEL: gemm_s8s8_znver5:
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-24: vpdpbusd {{.*}}%zmm
; CHECK-NOT: vpdpbusd
; CHECK-NOT: {{Spill|Reload}}
; CHECK: # %gemm.k.body
; CHECK-NOT: {{Spill|Reload}}
; CHECK: prefetchw
; CHECK-NOT: {{Spill|Reload}}
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}

; CHECK-LABEL: gemm_bf16_spr:
; CHECK-NOT: vdpbf16ps
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-28: vfmadd231ps {{.*}}%zmm
; CHECK-NOT: vdpbf16ps
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}
; CHECK-NOT: vdpbf16ps
; CHECK-LABEL: gemm_bf16_emr:
; CHECK-NOT: vdpbf16ps
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-28: vfmadd231ps {{.*}}%zmm
; CHECK-NOT: vdpbf16ps
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}
; CHECK-NOT: vdpbf16ps
; CHECK: .Lfunc_end

; -O0 keeps explicit vector code.
; O0-LABEL: gemm_f32:
; O0: vfmadd{{...}}ps {{.*}}%zmm
