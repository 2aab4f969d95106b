; The pass plugin loads into opt and its passes are known by name.
; RUN: %opt_tlx -passes='tlx-recognize,tlx-verify' -S %s | FileCheck %s

; CHECK-LABEL: define <9 x float> @matmul(
; CHECK: call <9 x float> @llvm.tensor.matmul
define <9 x float> @matmul(<12 x float> %a, <12 x float> %b) {
  %ta = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %a, <2 x i32> <i32 3, i32 4>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %tb = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %b, <2 x i32> <i32 4, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %c = call <9 x float> @llvm.tensor.matmul.v9f32(token %ta, token %tb)
  %tc = call token @llvm.tensor.typeinfo.v9f32.v2i32.v2i32.v2i32(<9 x float> %c, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret <9 x float> %c
}

declare token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <9 x float> @llvm.tensor.matmul.v9f32(token, token)
declare token @llvm.tensor.typeinfo.v9f32.v2i32.v2i32.v2i32(<9 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
