; int8 GEMMs without VNNI: AVX2 (x86-64-v3) runs every signedness
; combination on the exact vpmaddwd kernel - A and B widened to i16 while
; packed, two k values per i32 lane, 6 x 16 (12 ymm accumulators) - and
; never on vpmaddubsw, whose i16 pair sums saturate. The k loop does two k
; pairs per iteration: 24 vpmaddwd + 24 vpaddd, no spills. AVX-512BW
; without VNNI (skylake-avx512) gets the zmm form (14 x 32); AVX-VNNI
; (alderlake: ymm only) runs s8 x s8 on `{vex} vpdpbusd` (+128 bias, 12 per
; k group) and u8 x u8 on `{vex} vpdpwssd` (pmaddwd and add in one, 12
; per k pair); AVX512-VNNI (icelake-server) runs s8 x u8 on zmm vpdpwssd.
; (The loop's layout puts the dot products first, then the k.body test;
; it exits to gemm.k.exit, or straight to the C block's stores,
; gemm.if.else, as LLVM 19 lays it out.)
; RUN: %opt_tlx -passes=tlx-test-gemm -pass-remarks=tlx-test-gemm %s -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' %s -S | %llc -O2 -o - | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

; Flags: A i8 | B i8 << 4 | C i32 (2 << 8) | A unsigned 1 << 13 | B unsigned 1 << 14.
define void @avx2_s8s8(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 512,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

define void @avx2_u8s8(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 8704,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

define void @avx2_s8u8(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 16896,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

define void @avx2_u8u8(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 25088,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

define void @avx512bw_s8s8(ptr %a, ptr %b, ptr %c) #1 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 512,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

define void @avxvnni_s8s8(ptr %a, ptr %b, ptr %c) #2 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 512,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

define void @avxvnni_u8u8(ptr %a, ptr %b, ptr %c) #2 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 25088,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

define void @avx512vnni_s8u8(ptr %a, ptr %b, ptr %c) #3 {
  call void (...) @tlx_test_gemm(i64 1024, i64 256, i64 256, i64 16896,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 256, i64 1,
                                 ptr %c, i64 256, i64 1)
  ret void
}

attributes #0 = { nounwind "target-cpu"="x86-64-v3" }
attributes #1 = { nounwind "target-cpu"="skylake-avx512" }
attributes #2 = { nounwind "target-cpu"="alderlake" }
attributes #3 = { nounwind "target-cpu"="icelake-server" }

; REMARK-DAG: gemm 1024x256x256: vec256 s8s8s32 vpmaddwd 6x16
; REMARK-DAG: gemm 1024x256x256: vec256 u8s8s32 vpmaddwd 6x16
; REMARK-DAG: gemm 1024x256x256: vec256 s8u8s32 vpmaddwd 6x16
; REMARK-DAG: gemm 1024x256x256: avx512 s8s8s32 vpmaddwd 14x32
; REMARK-DAG: gemm 1024x256x256: vec256 s8s8s32 vpdpbusd(+128 bias) 6x16
; REMARK-DAG: gemm 1024x256x256: vec256 u8u8s32 vpdpwssd 6x16
; REMARK-DAG: gemm 1024x256x256: avx512 s8u8s32 vpdpwssd 14x32
; REMARK-DAG: gemm 1024x256x256: vec256 u8u8s32 vpmaddwd 6x16

; CHECK-NOT: vpmaddubsw
; CHECK-LABEL: avx2_s8s8:
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-24: vpmaddwd {{.*}}%ymm
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.k.body
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}

; CHECK-LABEL: avx2_u8s8:
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-24: vpmaddwd {{.*}}%ymm
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.k.body
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}

; CHECK-LABEL: avx2_s8u8:
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-24: vpmaddwd {{.*}}%ymm
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.k.body
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}

; CHECK-LABEL: avx2_u8u8:
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-24: vpmaddwd {{.*}}%ymm
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.k.body
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}

; CHECK-LABEL: avx512bw_s8s8:
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-56: vpmaddwd {{.*}}%zmm
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.k.body
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}

; CHECK-LABEL: avxvnni_s8s8:
; CHECK: # %gemm.colsum.body
; CHECK: {vex} vpdpbusd
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-12: {vex} vpdpbusd {{.*}}%ymm
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.k.body
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}

; CHECK-LABEL: avxvnni_u8u8:
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-12: {vex} vpdpwssd {{.*}}%ymm
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.k.body
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}

; CHECK-LABEL: avx512vnni_s8u8:
; CHECK: # %gemm.if.end{{[0-9]+}}
; CHECK-COUNT-28: vpdpwssd {{.*}}%zmm
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.k.body
; CHECK-NOT: {{Spill|Reload|vpmaddubsw|vpmaddwd|vpdpbusd|vpdpwssd}}
; CHECK: # %gemm.{{k\.exit|if\.else[0-9]*}}{{$}}
