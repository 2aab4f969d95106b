; C's edge blocks under lane masks (storeMaskedRows): where the target loads
; and stores vectors under masks (AVX2's vmaskmovps, AVX-512's {k} moves),
; the blocks at the 67 x 45 GEMM's row and column edges are written
; straight from the accumulators, with no stack buffer; SSE2 has no masked
; stores and keeps the edge buffer with its scalar copies.
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' %s -S -pass-remarks=tlx 2>%t.remarks -o %t.ll
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: %llc -O2 %t.ll -o - | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

; REMARK-DAG: gemm 67x45x53: avx512 fma f32 14x32
; REMARK-DAG: gemm 67x45x53: vec256 fma f32 5x16
; REMARK-DAG: gemm 67x45x53: vec128 fma f32 6x8

; f32: 6 | 6 << 4 | 6 << 8
define void @avx512(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 67, i64 45, i64 53, i64 1638,
                                 ptr %a, i64 53, i64 1, ptr %b, i64 45, i64 1,
                                 ptr %c, i64 45, i64 1)
  ret void
}
; IR-LABEL: define void @avx512(
; IR-NOT: alloca
; IR: call void @llvm.masked.store.v16f32.p0(
; IR-NOT: alloca
; CHECK-LABEL: avx512:
; CHECK-NOT: {{(32|64)}}-byte Spill
; CHECK: vmovups %zmm{{[0-9]+}}, {{.*}} {%k{{[1-7]}}}
; CHECK-NOT: {{(32|64)}}-byte Spill
; CHECK: .Lfunc_end

define void @avx2(ptr %a, ptr %b, ptr %c) #1 {
  call void (...) @tlx_test_gemm(i64 67, i64 45, i64 53, i64 1638,
                                 ptr %a, i64 53, i64 1, ptr %b, i64 45, i64 1,
                                 ptr %c, i64 45, i64 1)
  ret void
}
; IR-LABEL: define void @avx2(
; IR-NOT: alloca
; IR: call void @llvm.masked.store.v8f32.p0(
; IR-NOT: alloca
; The columns' masks: one i32 compare of a splat of the block's columns.
; CHECK-LABEL: avx2:
; CHECK-NOT: {{(32|64)}}-byte Spill
; CHECK: vpcmpgtd
; CHECK: vmaskmovps %ymm{{[0-9]+}}, %ymm{{[0-9]+}}, {{.*}}(
; CHECK-NOT: {{(32|64)}}-byte Spill
; CHECK: .Lfunc_end

define void @sse2(ptr %a, ptr %b, ptr %c) #2 {
  call void (...) @tlx_test_gemm(i64 67, i64 45, i64 53, i64 1638,
                                 ptr %a, i64 53, i64 1, ptr %b, i64 45, i64 1,
                                 ptr %c, i64 45, i64 1)
  ret void
}
; IR-LABEL: define void @sse2(
; IR: alloca [48 x float]
; IR-NOT: call void @llvm.masked.store
; CHECK-LABEL: sse2:
; CHECK-NOT: maskmov
; CHECK: .Lfunc_end

attributes #0 = { "target-cpu"="x86-64-v4" }
attributes #1 = { "target-cpu"="x86-64-v3" }
attributes #2 = { "target-cpu"="x86-64" }
