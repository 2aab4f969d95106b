; tlx-recognize under opt, on IR any C front end produces: tokens merged by a
; select are rebuilt after it as a totensor of a select of the data (in
; logical order: a row-major typeinfo's own vector); calls through the
; variadic declaration C++ uses are recognized; the dummies go away.
; RUN: %opt_tlx -passes=tlx-recognize -S %s | FileCheck %s --implicit-check-not=@tensor_

; CHECK-LABEL: define <4 x float> @select_tokens(
; CHECK: [[TA:%.*]] = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %a, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
; CHECK: [[TB:%.*]] = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %b, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
; CHECK: [[D:%.*]] = select i1 %c, <4 x float> %a, <4 x float> %b
; CHECK-NEXT: [[T:%.*]] = call token @llvm.vector.totensor.v4f32.v2i32.v2i32.v2i32(<4 x float> [[D]], <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
; CHECK: [[R:%.*]] = call <4 x float> @llvm.tensor.relu.v4f32(token [[T]])
; CHECK: ret <4 x float> [[R]]
define <4 x float> @select_tokens(<4 x float> %a, <4 x float> %b, i1 %c) {
  %ta = call i32 (...) @tensor_typeinfo(<4 x float> %a, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call i32 (...) @tensor_typeinfo(<4 x float> %b, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %t = select i1 %c, i32 %ta, i32 %tb
  %r = call <4 x float> (...) @tensor_relu(i32 %t)
  ret <4 x float> %r
}

declare i32 @tensor_typeinfo(...)
declare <4 x float> @tensor_relu(...)
