; clang 22 starts a by-value temporary's lifetime between the load of the
; value and its store into the temporary (clang 19: before the load).
; tlx-normalize-clang-ir moves the start above the load - repeatedly, since
; clang loads every argument before storing the first - so tlx-vector-ops
; turns each tensor-sized load/store pair into a memcpy. (LLVM 22's
; lifetime markers have no size operand: this IR is LLVM 22's.)
; REQUIRES: llvm-22
; RUN: %opt_tlx -passes=tlx-normalize-clang-ir -S %s | FileCheck %s --check-prefix=NORM
; RUN: %opt_tlx -passes=tlx-normalize-clang-ir,tlx-recognize,tlx-vector-ops -S %s | FileCheck %s

declare void @consume(ptr byval(<6400000 x i32>), ptr byval(<6400000 x i32>))

; NORM-LABEL: define void @two_arguments(
; NORM: call void @llvm.lifetime.start.p0(ptr %ta)
; NORM-NEXT: call void @llvm.lifetime.start.p0(ptr %tb)
; NORM-NEXT: %a = load <6400000 x i32>, ptr %pa
; NORM-NEXT: %b = load <6400000 x i32>, ptr %pb
; NORM-NEXT: store <6400000 x i32> %a, ptr %ta
; NORM-NEXT: store <6400000 x i32> %b, ptr %tb
; CHECK-LABEL: define void @two_arguments(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 64 %ta, ptr align 64 %pa, i64 25600000, i1 false)
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 64 %tb, ptr align 64 %pb, i64 25600000, i1 false)
; CHECK-NOT: load <6400000
define void @two_arguments(ptr %pa, ptr %pb) {
  %ta = alloca <6400000 x i32>, align 64
  %tb = alloca <6400000 x i32>, align 64
  %a = load <6400000 x i32>, ptr %pa, align 64
  %b = load <6400000 x i32>, ptr %pb, align 64
  call void @llvm.lifetime.start.p0(ptr %ta)
  store <6400000 x i32> %a, ptr %ta, align 64
  call void @llvm.lifetime.start.p0(ptr %tb)
  store <6400000 x i32> %b, ptr %tb, align 64
  call void @consume(ptr byval(<6400000 x i32>) %ta, ptr byval(<6400000 x i32>) %tb)
  ret void
}
