; B packed a group of micro-panels at a time (all of M one A block): while a
; group's micro-kernels run, the next group's rows are prefetched into L2
; (prefetcht1), one line per k loop iteration, where B's row stride is a
; multiple of 1 KiB - its rows then share a few cache sets and the hardware
; prefetchers do not follow them across pages. Not for other strides, nor
; where B is packed a whole panel at a time (M beyond one A block).
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' %s -S -pass-remarks=tlx 2>%t.remarks -o %t.ll
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: %llc -O2 %t.ll -o - | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

; REMARK-DAG: gemm 64x1024x1024: avx512 fma f32 13x32 MC=65
; REMARK-DAG: gemm 64x1024x1024: vec256 fma f32 5x16 MC=65
; REMARK-DAG: gemm 64x1024x1024: avx512 u8s8s32 vpdpbusd
; REMARK-DAG: gemm 64x1100x1024: avx512 u8s8s32 vpdpbusd
; REMARK-DAG: gemm 2048x1024x1024: avx512 fma f32 14x32 MC=504

; f32: 6 | 6 << 4 | 6 << 8; rows of B 4 KiB apart.
define void @f32_aliasing(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 64, i64 1024, i64 1024, i64 1638,
                                 ptr %a, i64 1024, i64 1, ptr %b, i64 1024, i64 1,
                                 ptr %c, i64 1024, i64 1)
  ret void
}
; IR-LABEL: define void @f32_aliasing(
; IR: call void @llvm.prefetch.p0(ptr {{.*}}, i32 0, i32 2, i32 1)
; IR-LABEL: define void
; CHECK-LABEL: f32_aliasing:
; CHECK: vfmadd231ps
; CHECK: prefetcht1 (%{{[a-z0-9]+}},%{{[a-z0-9]+}})
; CHECK: .Lfunc_end

define void @f32_avx2(ptr %a, ptr %b, ptr %c) #1 {
  call void (...) @tlx_test_gemm(i64 64, i64 1024, i64 1024, i64 1638,
                                 ptr %a, i64 1024, i64 1, ptr %b, i64 1024, i64 1,
                                 ptr %c, i64 1024, i64 1)
  ret void
}
; CHECK-LABEL: f32_avx2:
; CHECK: prefetcht1
; CHECK: .Lfunc_end

; u8 x s8 -> s32 (0 | 0 << 4 | 2 << 8, A unsigned): rows of B 1 KiB apart.
define void @u8s8_aliasing(ptr %a, ptr %b, ptr %c) #2 {
  call void (...) @tlx_test_gemm(i64 64, i64 1024, i64 1024, i64 8704,
                                 ptr %a, i64 1024, i64 1, ptr %b, i64 1024, i64 1,
                                 ptr %c, i64 1024, i64 1)
  ret void
}
; CHECK-LABEL: u8s8_aliasing:
; CHECK: vpdpbusd
; CHECK: prefetcht1
; CHECK: .Lfunc_end

; 1100 bytes apart: every row in other sets.
define void @u8s8_other_stride(ptr %a, ptr %b, ptr %c) #2 {
  call void (...) @tlx_test_gemm(i64 64, i64 1100, i64 1024, i64 8704,
                                 ptr %a, i64 1024, i64 1, ptr %b, i64 1100, i64 1,
                                 ptr %c, i64 1100, i64 1)
  ret void
}
; IR-LABEL: define void @u8s8_other_stride(
; IR-NOT: i32 0, i32 2, i32 1)
; IR-LABEL: define void
; CHECK-LABEL: u8s8_other_stride:
; CHECK-NOT: prefetcht1
; CHECK: .Lfunc_end

; M beyond one A block: B is packed a K x N panel at a time.
define void @f32_whole_panels(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 2048, i64 1024, i64 1024, i64 1638,
                                 ptr %a, i64 1024, i64 1, ptr %b, i64 1024, i64 1,
                                 ptr %c, i64 1024, i64 1)
  ret void
}
; CHECK-LABEL: f32_whole_panels:
; CHECK-NOT: prefetcht1
; CHECK: .Lfunc_end

attributes #0 = { "target-cpu"="x86-64-v4" }
attributes #1 = { "target-cpu"="x86-64-v3" }
attributes #2 = { "target-cpu"="x86-64-v4" "target-features"="+avx512vnni" }
