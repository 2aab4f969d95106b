; B read in place (all of M one A block, the FMA kernel): while one
; micro-panel's micro-kernels run, the next micro-panel's rows are
; prefetched into L2 (prefetcht1), one line per k loop iteration, where B's
; rows are more than 2 KiB apart - farther than Intel's L1 stride
; prefetcher follows. The 1x1 NCHW convolution's GEMM (B the input image,
; rows 3136 f32 apart) gets them; rows 109 f32 apart (an im2col buffer) and
; -tlx-gemm-prefetch-inplace-b=0 do not.
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' %s -S -pass-remarks=tlx 2>%t.remarks -o %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: %llc -O2 %t.ll -o - | FileCheck %s
; RUN: %opt_tlx -passes='tlx-test-gemm,default<O2>' -tlx-gemm-prefetch-inplace-b=0 %s -S | %llc -O2 -o - | FileCheck %s --check-prefix=OFF

target triple = "x86_64-unknown-linux-gnu"

declare void @tlx_test_gemm(...)

; REMARK-DAG: gemm 64x3136x256: avx512 fma f32 13x32 (A and B in place)
; REMARK-DAG: gemm 64x109x147: avx512 fma f32 13x32 (A and B in place)
; REMARK-DAG: gemm 128x754x128: avx512 fma f32 {{.*}}B in place

; f32: 6 | 6 << 4 | 6 << 8; B 256 x 3136 (12.5 KB rows).
define void @conv1x1(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 64, i64 3136, i64 256, i64 1638,
                                 ptr %a, i64 256, i64 1, ptr %b, i64 3136, i64 1,
                                 ptr %c, i64 3136, i64 1)
  ret void
}
; CHECK-LABEL: conv1x1:
; CHECK:       prefetcht1 (%{{[a-z0-9]+}})
; CHECK-NEXT:  prefetcht0
; CHECK-NEXT:  vbroadcastss
; CHECK:       .Lfunc_end
; OFF-LABEL:   conv1x1:
; OFF-NOT:     prefetcht1
; OFF:         .Lfunc_end

; B 147 x 109 (436-byte rows): the hardware follows them.
define void @im2col(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 64, i64 109, i64 147, i64 1638,
                                 ptr %a, i64 147, i64 1, ptr %b, i64 109, i64 1,
                                 ptr %c, i64 109, i64 1)
  ret void
}
; CHECK-LABEL: im2col:
; CHECK-NOT:   prefetcht1
; CHECK:       .Lfunc_end

; M = 128: the first of ten micro-kernels waits for the panel's lines.
define void @many_rows(ptr %a, ptr %b, ptr %c) #0 {
  call void (...) @tlx_test_gemm(i64 128, i64 754, i64 128, i64 1638,
                                 ptr %a, i64 128, i64 1, ptr %b, i64 784, i64 1,
                                 ptr %c, i64 754, i64 1)
  ret void
}
; CHECK-LABEL: many_rows:
; CHECK-NOT:   prefetcht1
; CHECK:       .Lfunc_end

attributes #0 = { nounwind "target-cpu"="x86-64-v4" }
