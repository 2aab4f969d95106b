; tlx-vector-ops on vectors wider than 256 bytes in C code: copies become
; memcpy (memmove when the places may overlap), constant stores memset /
; a vectorized fill loop / a copy of a private constant, element reads and
; read-modify-writes of one element become scalar accesses, and returns
; become sret - definitions, declarations and calls alike (rewritten
; functions move to the end of the module).
; RUN: %opt_tlx -passes=tlx-vector-ops -S %s -o - | FileCheck %s

; CHECK-LABEL: define void @copies(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %tmp, ptr align 4 %p, i64 512, i1 false)
; CHECK: call void @llvm.memmove.p0.p0.i64(ptr align 4 %q, ptr align 4 %p, i64 512, i1 false)
; CHECK-NOT: <128 x i32> %
; CHECK: ret void
define void @copies(ptr %p, ptr %q) {
  %tmp = alloca <128 x i32>, align 4
  %v = load <128 x i32>, ptr %p, align 4
  store <128 x i32> %v, ptr %tmp, align 4
  %w = load <128 x i32>, ptr %p, align 4
  store <128 x i32> %w, ptr %q, align 4
  ret void
}

; CHECK-LABEL: define void @constants(
; CHECK: call void @llvm.memset.p0.i64(ptr align 4 %p, i8 0, i64 512, i1 false)
; CHECK: tlx.vec.body:
; CHECK: store <{{[0-9]+}} x float> <float 2.500000e-01
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %r, ptr align {{[0-9]+}} @tlx.const, i64 512, i1 false)
; CHECK-NOT: store <128 x
; CHECK: ret void
define void @constants(ptr %p, ptr %q, ptr %r) {
  store <128 x i32> zeroinitializer, ptr %p, align 4
  store <128 x float> <float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25, float 0.25>, ptr %q, align 4
  store <128 x float> <float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 9.0>, ptr %r, align 4
  ret void
}

; t[i] = t[j] + 1 on a variable in memory.
; CHECK-LABEL: define void @elements(
; CHECK: %[[A:.*]] = getelementptr i32, ptr %t, i64 %j
; CHECK: %[[X:.*]] = load i32, ptr %[[A]], align 4
; CHECK: %[[Y:.*]] = add i32 %[[X]], 1
; CHECK: %[[B:.*]] = getelementptr i32, ptr %t, i64 %i
; CHECK: store i32 %[[Y]], ptr %[[B]], align 4
; CHECK-NEXT: ret void
define void @elements(ptr %t, i64 %i, i64 %j) {
  %v = load <128 x i32>, ptr %t, align 4
  %x = extractelement <128 x i32> %v, i64 %j
  %y = add i32 %x, 1
  %w = load <128 x i32>, ptr %t, align 4
  %u = insertelement <128 x i32> %w, i32 %y, i64 %i
  store <128 x i32> %u, ptr %t, align 4
  ret void
}

define <128 x float> @make(ptr %p) {
  %v = load <128 x float>, ptr %p, align 4
  ret <128 x float> %v
}

; The results are read where each call returns them (before the next call).
; CHECK-LABEL: define float @use(
; CHECK: call void @make(ptr noalias sret(<128 x float>) %[[R1:.*]], ptr %p)
; CHECK: %[[E:.*]] = getelementptr float, ptr %[[R1]], i64 3
; CHECK: load float, ptr %[[E]]
; CHECK: call void @external(ptr noalias sret(<128 x float>) %[[R2:.*]])
; CHECK: %[[F:.*]] = getelementptr float, ptr %[[R2]], i64 5
; CHECK: load float, ptr %[[F]]
; CHECK-NOT: <128 x float> %
; CHECK: ret float
define float @use(ptr %p) {
  %v = call <128 x float> @make(ptr %p)
  %w = call <128 x float> @external()
  %e = extractelement <128 x float> %v, i64 3
  %f = extractelement <128 x float> %w, i64 5
  %s = fadd float %e, %f
  ret float %s
}

; The sret pointer may alias %p: memmove.
; CHECK-LABEL: define void @make(ptr noalias sret(<128 x float>) %tlx.sret, ptr %p)
; CHECK-NEXT: call void @llvm.memmove.p0.p0.i64(ptr align 1 %tlx.sret, ptr align 4 %p, i64 512, i1 false)
; CHECK-NEXT: ret void

; CHECK: declare void @external(ptr sret(<128 x float>))
declare <128 x float> @external()
