; The IR examples of the TLX RFC (llvm-dev, 2021-11-12) verify clean, each
; as its own module. Differences from the RFC text, all corrections of typos
; or of pre-opaque-pointer syntax:
;  - typed pointers (i8*, float*, <N x i32>*) are written `ptr`, with the
;    element type in elementtype(...) or byval(...);
;  - an op called with two signatures in one module gets LLVM-style mangled
;    names (LLVM's verifier rejects an intrinsic called with two signatures);
;  - each example's own inconsistencies are corrected where it appears.
;
; Each must exit 0 and print nothing.
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt_tlx -passes=tlx-verify -disable-output %t/typeinfo-transpose.ll 2>&1 | count 0
; RUN: %opt_tlx -passes=tlx-verify -disable-output %t/load.ll 2>&1 | count 0
; RUN: %opt_tlx -passes=tlx-verify -disable-output %t/store.ll 2>&1 | count 0
; RUN: %opt_tlx -passes=tlx-verify -disable-output %t/matmul.ll 2>&1 | count 0
; RUN: %opt_tlx -passes=tlx-verify -disable-output %t/contract.ll 2>&1 | count 0
; RUN: %opt_tlx -passes=tlx-verify -disable-output %t/mma.ll 2>&1 | count 0
; RUN: %opt_tlx -passes=tlx-verify -disable-output %t/testing-section.ll 2>&1 | count 0
; RUN: %opt_tlx -passes=tlx-verify -disable-output %t/lowering-stage1.ll 2>&1 | count 0
; RUN: %opt_tlx -passes=tlx-verify -disable-output %t/lowering-stage2.ll 2>&1 | count 0

;--- typeinfo-transpose.ll
; "llvm.tensor.typeinfo" and "llvm.tensor.transpose" examples, verbatim:
; 16x5x3 holds 240 elements (padding is an allocation hint), and the
; transposed result is the same logical tensor stored with layout <2, 0, 1>.
define void @typeinfo_transpose(<240 x float> %tensor) {
  %input = call token @llvm.tensor.typeinfo(<240 x float> %tensor,
      <3 x i32> <i32 16, i32 5, i32 3>, <3 x i32> <i32 0, i32 1, i32 2>,
      <3 x i32> <i32 3, i32 2, i32 1>)
  %output = call <240 x float> @llvm.tensor.transpose(token %input,
      <3 x i32> <i32 2, i32 0, i32 1>)
  %typed_output = call token @llvm.tensor.typeinfo(<240 x float> %output,
      <3 x i32> <i32 3, i32 16, i32 5>, <3 x i32> <i32 2, i32 0, i32 1>,
      <3 x i32> <i32 1, i32 3, i32 2>)
  ret void
}
declare token @llvm.tensor.typeinfo(<240 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare <240 x float> @llvm.tensor.transpose(token, <3 x i32>)

;--- load.ll
; "llvm.tensor.load" example. Corrected: the layout is <3 x i32> (the RFC
; writes <2 x i32> <i32 0, i32 1, i32 2>). Strides <0, 0, 8>: rows 8
; elements apart, the 6 rows of a slice packed.
define void @load(ptr %mem_ptr) {
  %tensor = call token @llvm.tensor.load(ptr elementtype(i8) %mem_ptr,
      <3 x i32> <i32 16, i32 6, i32 4>,
      <3 x i32> <i32 0, i32 1, i32 2>,
      <3 x i32> <i32 0, i32 0, i32 0>,
      <3 x i32> <i32 0, i32 0, i32 8>)
  ret void
}
declare token @llvm.tensor.load(ptr, <3 x i32>, <3 x i32>, <3 x i32>, <3 x i32>)

;--- store.ll
; "llvm.tensor.store" example. Corrected: shape 16x6x4 holds 384 elements,
; not 240; the typeinfo cannot take its own result (%tensor) as data; and
; strides[1] = 12 would place consecutive 6x4 slices 12 elements apart while
; a slice of 6 rows 10 apart spans 5 * 10 + 4 = 54 elements, so the store
; would write some addresses twice: slices are 60 apart here (rows 10 apart
; as in the RFC).
define void @store(<384 x float> %data, ptr %mem_ptr) {
  %tensor = call token @llvm.tensor.typeinfo(<384 x float> %data,
      <3 x i32> <i32 16, i32 6, i32 4>,
      <3 x i32> <i32 0, i32 1, i32 2>,
      <3 x i32> <i32 0, i32 0, i32 0>)
  call void @llvm.tensor.store(ptr elementtype(float) %mem_ptr, token %tensor,
      <3 x i32> <i32 0, i32 60, i32 10>)
  ret void
}
declare token @llvm.tensor.typeinfo(<384 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare void @llvm.tensor.store(ptr, token, <3 x i32>)

;--- matmul.ll
; "llvm.tensor.matmul" example: 3x4 x 4x3 -> 3x3.
define void @matmul(<12 x float> %tensor1, <12 x float> %tensor2) {
  %input1 = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %tensor1,
      <2 x i32> <i32 3, i32 4>,
      <2 x i32> <i32 0, i32 1>,
      <2 x i32> <i32 0, i32 0>)
  %input2 = call token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float> %tensor2,
      <2 x i32> <i32 4, i32 3>,
      <2 x i32> <i32 0, i32 1>,
      <2 x i32> <i32 0, i32 0>)
  %output = call <9 x float> @llvm.tensor.matmul(token %input1,
      token %input2)
  %typed_output = call token @llvm.tensor.typeinfo.v9f32.v2i32.v2i32.v2i32(<9 x float> %output,
      <2 x i32> <i32 3, i32 3>,
      <2 x i32> <i32 0, i32 1>,
      <2 x i32> <i32 0, i32 0>)
  ret void
}
declare token @llvm.tensor.typeinfo.v12f32.v2i32.v2i32.v2i32(<12 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v9f32.v2i32.v2i32.v2i32(<9 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <9 x float> @llvm.tensor.matmul(token, token)

;--- contract.ll
; "llvm.tensor.contract" example. Corrected: contracting axes {0, 2} of one
; 2x2x2 tensor with axes {0, 1} of another leaves one free dim of each, a
; 2x2 result of 4 elements (the RFC types it <8 x float>, 2x2x2).
define void @contract(<8 x float> %tensor1, <8 x float> %tensor2) {
  %input1 = call token @llvm.tensor.typeinfo.v8f32.v3i32.v3i32.v3i32(<8 x float> %tensor1,
      <3 x i32> <i32 2, i32 2, i32 2>,
      <3 x i32> <i32 0, i32 1, i32 2>,
      <3 x i32> <i32 0, i32 0, i32 0>)
  %input2 = call token @llvm.tensor.typeinfo.v8f32.v3i32.v3i32.v3i32(<8 x float> %tensor2,
      <3 x i32> <i32 2, i32 2, i32 2>,
      <3 x i32> <i32 0, i32 1, i32 2>,
      <3 x i32> <i32 0, i32 0, i32 0>)
  %output = call <4 x float> @llvm.tensor.contract(token %input1, token %input2,
      <2 x i32> <i32 0, i32 2>,
      <2 x i32> <i32 0, i32 1>)
  %typed_output = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %output,
      <2 x i32> <i32 2, i32 2>,
      <2 x i32> <i32 0, i32 1>,
      <2 x i32> <i32 0, i32 0>)
  ret void
}
declare token @llvm.tensor.typeinfo.v8f32.v3i32.v3i32.v3i32(<8 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <4 x float> @llvm.tensor.contract(token, token, <2 x i32>, <2 x i32>)

;--- mma.ll
; The umma, smma, usmma and summa examples: acc 3x3 + 3x4 x 4x3, all i32.
define void @mma(<9 x i32> %acc_tensor, <12 x i32> %tensor1, <12 x i32> %tensor2) {
  %acc = call token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32> %acc_tensor,
      <2 x i32> <i32 3, i32 3>,
      <2 x i32> <i32 0, i32 1>,
      <2 x i32> <i32 0, i32 0>)
  %op1 = call token @llvm.tensor.typeinfo.v12i32.v2i32.v2i32.v2i32(<12 x i32> %tensor1,
      <2 x i32> <i32 3, i32 4>,
      <2 x i32> <i32 0, i32 1>,
      <2 x i32> <i32 0, i32 0>)
  %op2 = call token @llvm.tensor.typeinfo.v12i32.v2i32.v2i32.v2i32(<12 x i32> %tensor2,
      <2 x i32> <i32 4, i32 3>,
      <2 x i32> <i32 0, i32 1>,
      <2 x i32> <i32 0, i32 0>)
  %umma = call <9 x i32> @llvm.tensor.umma(token %acc, token %op1, token %op2)
  %smma = call <9 x i32> @llvm.tensor.smma(token %acc, token %op1, token %op2)
  %usmma = call <9 x i32> @llvm.tensor.usmma(token %acc,
      token %op1, token %op2)
  %summa = call <9 x i32> @llvm.tensor.summa(token %acc, token %op1,
      token %op2)
  ret void
}
declare token @llvm.tensor.typeinfo.v9i32.v2i32.v2i32.v2i32(<9 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v12i32.v2i32.v2i32.v2i32(<12 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <9 x i32> @llvm.tensor.umma(token, token, token)
declare <9 x i32> @llvm.tensor.smma(token, token, token)
declare <9 x i32> @llvm.tensor.usmma(token, token, token)
declare <9 x i32> @llvm.tensor.summa(token, token, token)

;--- testing-section.ll
; "Current testing support": the 1x10x800x800 matmul on byval tensors.
; Corrected: 1x10x800x800 is 6400000 elements (the RFC's lowering example
; writes 640000); and the RFC's matmul returns a vector that the next
; typeinfo reads as a byval pointer: here the result is in memory form
; (a pointer), which is what that typeinfo describes.
define void @example(ptr byval(<6400000 x i32>) %tensor1,
                     ptr byval(<6400000 x i32>) %tensor2) {
  %tensor1_token = call token @llvm.tensor.typeinfo(
      ptr byval(<6400000 x i32>) %tensor1,
      <4 x i32> <i32 1, i32 10, i32 800, i32 800>,
      <4 x i32> <i32 0, i32 1, i32 2, i32 3>,
      <4 x i32> <i32 0, i32 0, i32 0, i32 0>)
  %tensor2_token = call token @llvm.tensor.typeinfo(
      ptr byval(<6400000 x i32>) %tensor2,
      <4 x i32> <i32 1, i32 10, i32 800, i32 800>,
      <4 x i32> <i32 0, i32 1, i32 2, i32 3>,
      <4 x i32> <i32 0, i32 0, i32 0, i32 0>)
  %tensor3 = call ptr @llvm.tensor.matmul(
      token %tensor1_token,
      token %tensor2_token)
  ; The C version's padding {0, 0, 0, 1} (one extra element per row).
  %tensor3_token = call token @llvm.tensor.typeinfo(
      ptr byval(<6400000 x i32>) %tensor3,
      <4 x i32> <i32 1, i32 10, i32 800, i32 800>,
      <4 x i32> <i32 0, i32 1, i32 2, i32 3>,
      <4 x i32> <i32 0, i32 0, i32 0, i32 1>)
  ret void
}
declare token @llvm.tensor.typeinfo(ptr, <4 x i32>, <4 x i32>, <4 x i32>)
declare ptr @llvm.tensor.matmul(token, token)

;--- lowering-stage1.ll
; "Lowering example", first stage: one 800x800 matrix of each batch loaded
; and multiplied. The RFC elides the loads' layout, padding and strides
; ("...."): identity, none, packed here; and its result typeinfo's shape
; reads "<32 800, i32 800>".
define void @stage1(ptr %matrix_ptr1, ptr %matrix_ptr2, ptr %tensor_ptr3) {
  %matrix1_token = call token @llvm.tensor.load(ptr elementtype(i32) %matrix_ptr1,
      <2 x i32> <i32 800, i32 800>, <2 x i32> <i32 0, i32 1>,
      <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %matrix2_token = call token @llvm.tensor.load(ptr elementtype(i32) %matrix_ptr2,
      <2 x i32> <i32 800, i32 800>, <2 x i32> <i32 0, i32 1>,
      <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  %matrix3 = call <640000 x i32> @llvm.tensor.matmul(token %matrix1_token,
      token %matrix2_token)
  %matrix3_token = call token @llvm.tensor.typeinfo(<640000 x i32> %matrix3,
      <2 x i32> <i32 800, i32 800>,
      <2 x i32> <i32 0, i32 1>,
      <2 x i32> <i32 0, i32 0>)
  call void @llvm.tensor.store(ptr elementtype(i32) %tensor_ptr3, token %matrix3_token,
      <2 x i32> zeroinitializer)
  ret void
}
declare token @llvm.tensor.load(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <640000 x i32> @llvm.tensor.matmul(token, token)
declare token @llvm.tensor.typeinfo(<640000 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store(ptr, token, <2 x i32>)

;--- lowering-stage2.ll
; "Lowering example", second stage: 16x16 tiles of the 800x800 matrices
; (rows 800 elements apart) multiplied and accumulated with smma. The RFC
; names the accumulator's token %tile2_token twice: %acc_token here.
define void @stage2(ptr %tile_ptr1, ptr %tile_ptr2, ptr %acc_ptr) {
  %tile1_token = call token @llvm.tensor.load(ptr elementtype(i32) %tile_ptr1,
      <2 x i32> <i32 16, i32 16>, <2 x i32> <i32 0, i32 1>,
      <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 800>)
  %tile2_token = call token @llvm.tensor.load(ptr elementtype(i32) %tile_ptr2,
      <2 x i32> <i32 16, i32 16>, <2 x i32> <i32 0, i32 1>,
      <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 800>)
  %acc_token = call token @llvm.tensor.load(ptr elementtype(i32) %acc_ptr,
      <2 x i32> <i32 16, i32 16>, <2 x i32> <i32 0, i32 1>,
      <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 800>)
  %acc = call <256 x i32> @llvm.tensor.smma(token %acc_token,
      token %tile1_token,
      token %tile2_token)
  %new_acc_token = call token @llvm.tensor.typeinfo(<256 x i32> %acc,
      <2 x i32> <i32 16, i32 16>, <2 x i32> <i32 0, i32 1>,
      <2 x i32> zeroinitializer)
  call void @llvm.tensor.store(ptr elementtype(i32) %acc_ptr, token %new_acc_token,
      <2 x i32> <i32 0, i32 800>)
  ret void
}
declare token @llvm.tensor.load(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare <256 x i32> @llvm.tensor.smma(token, token, token)
declare token @llvm.tensor.typeinfo(<256 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare void @llvm.tensor.store(ptr, token, <2 x i32>)
