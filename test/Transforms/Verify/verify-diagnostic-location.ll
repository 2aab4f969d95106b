; Errors carry the call's source location (file:line:col from !dbg), and
; every error of the module is reported before opt exits with status 1.
; RUN: not %opt_tlx -passes=tlx-verify -disable-output %s 2>&1 | FileCheck %s --implicit-check-not="error:"

; CHECK: error: matmul.c:12:7: in function bad_matmul {{.*}}: llvm.tensor.matmul: inner dimensions differ: op1 is 3x4 (M=3, K=4), op2 is 5x3 (K=5, N=3)
; CHECK: error: matmul.c:14:3: in function bad_matmul {{.*}}: llvm.tensor.store: strides[1] = 2 is less than the span of storage dimension 1 (4 elements): elements would share addresses
; CHECK: error: matmul.c:21:9: in function bad_layout {{.*}}: llvm.tensor.typeinfo: layout <1, 1> is not a permutation of 0..1
; CHECK: tlx: error: 3 error(s) in TLX code; stopping
; No crash after the last error:
; CHECK-NOT: PLEASE submit
; CHECK-NOT: Stack dump

define void @bad_matmul(<12 x float> %a, <15 x float> %b, ptr %p) !dbg !5 {
  %ta = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer), !dbg !8
  %tb = call token @llvm.tensor.typeinfo.v15f32.v2i32.v2i32.v2i32(<15 x float> %b, <2 x i32> <i32 5, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer), !dbg !9
  %r = call <9 x float> @llvm.tensor.matmul.v9f32(token %ta, token %tb), !dbg !10
  call void @llvm.tensor.store.p0.v2i32(ptr elementtype(float) %p, token %ta, <2 x i32> <i32 0, i32 2>), !dbg !11
  ret void, !dbg !12
}

define void @bad_layout(<4 x float> %a) !dbg !13 {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %a, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 1, i32 1>, <2 x i32> zeroinitializer), !dbg !14
  ret void, !dbg !15
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "matmul.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "bad_matmul", scope: !1, file: !1, line: 9, type: !6, scopeLine: 9, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 10, column: 14, scope: !5)
!9 = !DILocation(line: 11, column: 14, scope: !5)
!10 = !DILocation(line: 12, column: 7, scope: !5)
!11 = !DILocation(line: 14, column: 3, scope: !5)
!12 = !DILocation(line: 15, column: 1, scope: !5)
!13 = distinct !DISubprogram(name: "bad_layout", scope: !1, file: !1, line: 20, type: !6, scopeLine: 20, spFlags: DISPFlagDefinition, unit: !0)
!14 = !DILocation(line: 21, column: 9, scope: !13)
!15 = !DILocation(line: 22, column: 1, scope: !13)

; --- declarations ---
declare <9 x float> @llvm.tensor.matmul.v9f32(token, token)
declare void @llvm.tensor.store.p0.v2i32(ptr, token, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v15f32.v2i32.v2i32.v2i32(<15 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
