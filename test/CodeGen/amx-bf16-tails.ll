; bf16 -> f32 on AMX with M, N and K tails (37 x 45 x 70): each block shape
; is its own kernel with its own single ldtilecfg; tails use narrower tiles
; (45 = 32 + 13 columns: 13 * 4 = 52-byte accumulator rows) and the K tail
; reads a zero-padded copy of A's last columns. Also f32 on AMX falls back.
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' -pass-remarks-missed=tlx-test-gemm %s -S -o %t.ll 2>%t.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: %llc -O2 %t.ll -o - | FileCheck %s
; RUN: sed 's/nounwind "target-cpu"/noinline nounwind optnone "target-cpu"/' %s | %opt_tlx -passes=tlx-test-gemm -S | %llc -O0 -o /dev/null

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

; flags: bf16 (5) x bf16 (5) -> f32 (6), AMX (bit 15): 5 | 5 << 4 | 6 << 8 | 1 << 15
define void @gemm_bf16(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 37, i64 45, i64 70, i64 34389,
                                 ptr %a, i64 70, i64 1, ptr %b, i64 45, i64 1,
                                 ptr %c, i64 45, i64 1)
  ret void
}

; flags: f32 x f32 -> f32 asking for AMX: 6 | 6 << 4 | 6 << 8 | 1 << 15
define void @gemm_f32(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 8, i64 8, i64 8, i64 34406,
                                 ptr %a, i64 8, i64 1, ptr %b, i64 8, i64 1,
                                 ptr %c, i64 8, i64 1)
  ret void
}

attributes #0 = { nounwind "target-cpu"="x86-64-v4" }

; REMARK: AMX cannot do this GEMM: AMX multiplies only i8 x i8 -> i32, bf16 x bf16 -> f32 and f16 x f16 -> f32

; M <= 64: B is packed 64 columns at a time right before the kernels for
; those columns run; N = 45 is one panel: full rows (32 columns, then the
; 13-column tail), then the 5-row tail (the same two).
; CHECK-LABEL: gemm_bf16:
; CHECK: movl $2, %edi
; CHECK-NEXT: callq tlxrt_amx_require
; CHECK: callq tlx.amx.gemm
; CHECK: callq tlx.amx.gemm.1
; CHECK: callq tlx.amx.gemm.2
; CHECK: {{callq|jmp}} tlx.amx.gemm.3
; (8 x 8 x 8 is skinny: streamed on vectors, docs/pipeline.md "Skinny
; products".)
; CHECK-LABEL: gemm_f32:
; CHECK-NOT: tlx.amx.gemm
; CHECK: {{callq|jmp}} tlx.stream.dot.f32.f32.x4
; CHECK: .Lfunc_end

; Full 32 x 32 blocks.
; CHECK-LABEL: tlx.amx.gemm:
; CHECK: ldtilecfg
; CHECK-NOT: ldtilecfg
; CHECK: tdpbf16ps
; CHECK: .Lfunc_end
; 32 rows x 13-column tail: accumulator rows of 52 bytes.
; CHECK-LABEL: tlx.amx.gemm.1:
; CHECK: movw $52
; CHECK: ldtilecfg
; CHECK-NOT: ldtilecfg
; CHECK: tdpbf16ps
; CHECK: .Lfunc_end
; 5-row tail (37 = 32 + 5).
; CHECK-LABEL: tlx.amx.gemm.2:
; CHECK: movb $5
; CHECK: ldtilecfg
; CHECK-NOT: ldtilecfg
; CHECK: tdpbf16ps
; CHECK-LABEL: tlx.amx.gemm.3:
; CHECK: ldtilecfg
; CHECK-NOT: ldtilecfg
; CHECK: tdpbf16ps
