; Under opt, recognition errors are printed and opt exits 1; the function's
; body is dropped so no half-rewritten IR (or tensor-sized value) goes on.
; RUN: not %opt_tlx -passes=tlx-recognize -S %s -o %t.ll 2>&1 | FileCheck %s
; RUN: not %opt_tlx -passes=tlx-recognize -S %s 2>/dev/null | FileCheck %s --check-prefix=NOIR --allow-empty

; CHECK: error: {{.*}}the token operand (1st argument) of 'tensor_relu' is a function parameter; TLX tokens cannot be passed between functions (pass the tensor data instead)
; CHECK: error: {{.*}}the layout operand (3rd argument) of 'tensor_typeinfo' must be a constant integer vector
; CHECK: error: {{.*}}the padding operand (4th argument) of 'tensor_typeinfo' has 2147483647 elements; a tensor has at most 8 dimensions
; CHECK: tlx: error: 3 error(s) in TLX code; stopping
; NOIR-NOT: define

define <4 x float> @token_parameter(i32 %t) {
  %r = call <4 x float> (...) @tensor_relu(i32 %t)
  ret <4 x float> %r
}

define i32 @dynamic_layout(<4 x float> %a, <2 x i32> %shape) {
  %t = call i32 (...) @tensor_typeinfo(<4 x float> %a, <2 x i32> <i32 2, i32 2>, <2 x i32> %shape, <2 x i32> zeroinitializer)
  ret i32 0
}

; A huge constant (from fuzzed IR) is rejected at once, not read element
; by element.
define i32 @huge_padding(<4 x float> %a) {
  %t = call i32 (...) @tensor_typeinfo(<4 x float> %a, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2147483647 x i32> zeroinitializer)
  ret i32 0
}

declare i32 @tensor_typeinfo(...)
declare <4 x float> @tensor_relu(...)
