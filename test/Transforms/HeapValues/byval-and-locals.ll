; tlx-heap-values: values above 64 KiB (here <32768 x float>, 128 KiB) never
; live on the stack. Their allocas become entry-block tlxrt_temp_alloc buffers
; freed before every return; by-value parameters above the limit are passed
; by pointer to a copy the caller owns (byval dropped on definitions,
; declarations, direct and indirect calls); a callee's spill of such a
; parameter uses the caller's copy; an argument that is not a temporary of
; its call is copied first. Values at the limit or below stay as they were.
; RUN: %opt_tlx -passes=tlx-heap-values -S %s -o - | FileCheck %s

; CHECK-LABEL: define float @callee(ptr noalias noundef align 64 dereferenceable(131072) %v)
; CHECK-NOT: alloca <32768 x float>
; CHECK-NOT: memcpy
; CHECK: getelementptr float, ptr %v, i32 5
; CHECK: load float, ptr {{.*}}, align 4
; CHECK-NOT: free
; CHECK: ret float
define float @callee(ptr noundef byval(<32768 x float>) align 131072 %v) {
  %local = alloca <32768 x float>, align 131072
  call void @llvm.lifetime.start.p0(i64 131072, ptr %local)
  call void @llvm.memcpy.p0.p0.i64(ptr align 131072 %local, ptr align 131072 %v, i64 131072, i1 false)
  %p = getelementptr float, ptr %local, i32 5
  %e = load float, ptr %p, align 4
  call void @llvm.lifetime.end.p0(i64 131072, ptr %local)
  ret float %e
}

; The parameter is read in place (no spill): only its alignment changes.
; CHECK-LABEL: define float @reader(ptr noalias noundef align 64 dereferenceable(131072) %v)
; CHECK: load <4 x float>, ptr %v, align 64
define float @reader(ptr noundef byval(<32768 x float>) align 131072 %v) {
  %w = load <4 x float>, ptr %v, align 131072
  %e = extractelement <4 x float> %w, i32 1
  ret float %e
}

; CHECK-LABEL: declare float @external(ptr noalias noundef align 64 dereferenceable(131072))
declare float @external(ptr noundef byval(<32768 x float>) align 131072)

; Two returns, a loop: one buffer per slot, allocated once at entry and
; freed on both ways out; the byval temporary is passed as it is.
; CHECK-LABEL: define float @caller(ptr %src, i1 %c)
; CHECK-NEXT: entry:
; CHECK-NEXT: %tmp = call align 64 dereferenceable(131072) ptr @tlxrt_temp_alloc(i64 131072)
; CHECK-NEXT: %small = alloca <16384 x float>, align 64
; CHECK-NOT: lifetime
; CHECK: loop:
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 64 %tmp, ptr align 4 %src, i64 131072, i1 false)
; CHECK-NEXT: %r = call float @callee(ptr noundef align 64 %tmp)
; CHECK: early:
; CHECK-NEXT: call void @tlxrt_temp_free(ptr %tmp)
; CHECK-NEXT: ret float 0.0
; CHECK: done:
; CHECK-NEXT: call void @tlxrt_temp_free(ptr %tmp)
; CHECK-NEXT: ret float %r
define float @caller(ptr %src, i1 %c) {
entry:
  %tmp = alloca <32768 x float>, align 131072
  %small = alloca <16384 x float>, align 64
  br i1 %c, label %early, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %n, %loop ]
  call void @llvm.lifetime.start.p0(i64 131072, ptr %tmp)
  call void @llvm.memcpy.p0.p0.i64(ptr align 131072 %tmp, ptr align 4 %src, i64 131072, i1 false)
  %r = call float @callee(ptr noundef byval(<32768 x float>) align 131072 %tmp)
  call void @llvm.lifetime.end.p0(i64 131072, ptr %tmp)
  %n = add i32 %i, 1
  %more = icmp ult i32 %n, 10
  br i1 %more, label %loop, label %done
early:
  ret float 0.0
done:
  ret float %r
}

; An argument that is not a temporary of its call alone (here two calls
; read it) is copied for each call into a heap temporary. Indirect calls
; and declarations get the same ABI.
; CHECK-LABEL: define float @shared(ptr %fp)
; CHECK-NEXT: %[[COPY2:.*]] = call align 64 dereferenceable(131072) ptr @tlxrt_temp_alloc(i64 131072)
; CHECK-NEXT: %[[COPY1:.*]] = call align 64 dereferenceable(131072) ptr @tlxrt_temp_alloc(i64 131072)
; CHECK-NEXT: %v = call align 64 dereferenceable(131072) ptr @tlxrt_temp_alloc(i64 131072)
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 64 %[[COPY1]], ptr align 64 %v, i64 131072, i1 false)
; CHECK-NEXT: %a = call float %fp(ptr noundef align 64 %[[COPY1]])
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 64 %[[COPY2]], ptr align 64 %v, i64 131072, i1 false)
; CHECK-NEXT: %b = call float @external(ptr noundef align 64 %[[COPY2]])
; CHECK: call void @tlxrt_temp_free(ptr %[[COPY2]])
; CHECK-NEXT: call void @tlxrt_temp_free(ptr %[[COPY1]])
; CHECK-NEXT: call void @tlxrt_temp_free(ptr %v)
; CHECK-NEXT: ret float
define float @shared(ptr %fp) {
  %v = alloca <32768 x float>, align 131072
  store <32768 x float> zeroinitializer, ptr %v, align 131072
  %a = call float %fp(ptr noundef byval(<32768 x float>) align 131072 %v)
  %b = call float @external(ptr noundef byval(<32768 x float>) align 131072 %v)
  %s = fadd float %a, %b
  ret float %s
}

; 64 KiB: on the stack as before.
; CHECK-LABEL: define float @at_limit(ptr noundef byval(<16384 x float>) align 65536 %v)
; CHECK: %l = alloca <16384 x float>
define float @at_limit(ptr noundef byval(<16384 x float>) align 65536 %v) {
  %l = alloca <16384 x float>, align 65536
  call void @llvm.memcpy.p0.p0.i64(ptr align 65536 %l, ptr align 65536 %v, i64 65536, i1 false)
  %e = load float, ptr %l, align 4
  ret float %e
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
