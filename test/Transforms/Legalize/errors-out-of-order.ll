; tlx-legalize run on IR that skipped the earlier stages reports the op it
; cannot lower, at its location, instead of crashing.
; RUN: not %opt_tlx -passes=tlx-legalize -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}errors-out-of-order.c:3:7: {{.*}}TLX op 'matmul' reached tlx-legalize: contractions are lowered by tlx-tile
; CHECK: error: {{.*}}errors-out-of-order.c:9:7: {{.*}}tensor.store of vector data that tlx-bufferize did not place in memory

define void @matmul(ptr %a, ptr %c) !dbg !5 {
  %ta = call token @llvm.tensor.load.a(ptr elementtype(float) %a, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %r = call <4 x float> @llvm.tensor.matmul.v4f32(token %ta, token %ta), !dbg !8
  %tr = call token @llvm.tensor.typeinfo.v4f32(<4 x float> %r, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %tr, <2 x i32> zeroinitializer)
  ret void
}

define void @byvalue(<4 x float> %v, ptr %c) !dbg !9 {
  %t = call token @llvm.tensor.typeinfo.v4f32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.a(ptr elementtype(float) %c, token %t, <2 x i32> zeroinitializer), !dbg !10
  ret void
}

declare token @llvm.tensor.load.a(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <4 x float> @llvm.tensor.matmul.v4f32(token, token)
declare token @llvm.tensor.typeinfo.v4f32(<4 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store.a(ptr, token, <2 x i32>)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "errors-out-of-order.c", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "matmul", scope: !1, file: !1, line: 1, type: !4, unit: !0)
!8 = !DILocation(line: 3, column: 7, scope: !5)
!9 = distinct !DISubprogram(name: "byvalue", scope: !1, file: !1, line: 8, type: !4, unit: !0)
!10 = !DILocation(line: 9, column: 7, scope: !9)
