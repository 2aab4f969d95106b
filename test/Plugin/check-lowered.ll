; A TLX op that reaches the end of the pipeline unlowered is an error with the
; op's source location, never a backend crash.
; RUN: not %opt_tlx -passes=tlx-check-lowered -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: check-lowered.c:7:11: in function leftover {{.*}}: TLX op 'matmul' was not lowered
; CHECK-NOT: PLEASE submit
; CHECK: error: {{.*}}1 error(s) in TLX code; stopping

define <9 x float> @leftover(<12 x float> %a, <12 x float> %b) !dbg !5 {
  %ta = call token @llvm.tensor.typeinfo(<12 x float> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %c = call <9 x float> @llvm.tensor.matmul(token %ta, token %ta), !dbg !8
  ret <9 x float> %c
}

declare token @llvm.tensor.typeinfo(<12 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <9 x float> @llvm.tensor.matmul(token, token)

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_C11, file: !2, emissionKind: LineTablesOnly)
!2 = !DIFile(filename: "check-lowered.c", directory: "/tmp")
!5 = distinct !DISubprogram(name: "leftover", scope: !2, file: !2, line: 5, type: !6, unit: !1, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 7, column: 11, scope: !5)
