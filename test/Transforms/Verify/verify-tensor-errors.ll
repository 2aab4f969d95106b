; What typeinfo, load and totensor describe: element type, shape, layout,
; padding and data must form a valid tensor. A call using an invalid
; tensor is not reported again: one mistake, one error.
; RUN: not %opt_tlx -passes=tlx-verify -disable-output %s 2>&1 | FileCheck %s --implicit-check-not="error:"

; CHECK: error: {{.*}}in function unsupported_element {{.*}}: llvm.tensor.typeinfo: element type i1 is not supported (i8, i16, i32, i64, f16, bf16, f32, f64)
; CHECK: error: {{.*}}in function unsupported_pointer_element {{.*}}: llvm.tensor.load: element type i128 is not supported (i8, i16, i32, i64, f16, bf16, f32, f64)
; CHECK: error: {{.*}}in function unsupported_fp_element {{.*}}: llvm.vector.totensor: element type x86_fp80 is not supported (i8, i16, i32, i64, f16, bf16, f32, f64)
define void @unsupported_element(<4 x i1> %v) {
  %t = call token @llvm.tensor.typeinfo.v4i1.v1i32.v1i32.v1i32(<4 x i1> %v, <1 x i32> <i32 4>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  ret void
}
define void @unsupported_pointer_element(ptr %p) {
  %t = call token @llvm.tensor.load.p0.v1i32.v1i32.v1i32.v1i32(ptr elementtype(i128) %p, <1 x i32> <i32 4>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  ret void
}
define void @unsupported_fp_element(<2 x x86_fp80> %v) {
  %t = call token @llvm.vector.totensor.v2f80.v1i32.v1i32.v1i32(<2 x x86_fp80> %v, <1 x i32> <i32 2>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  ret void
}

; Shape, layout and padding have one entry per dimension. (The RFC's load
; example writes a <2 x i32> layout for its rank-3 tensor.)
; CHECK: error: {{.*}}in function rfc_load_layout_typo {{.*}}: llvm.tensor.load: layout has 2 entries, but shape has 3
; CHECK: error: {{.*}}in function padding_too_long {{.*}}: llvm.tensor.typeinfo: padding has 3 entries, but shape has 2
define void @rfc_load_layout_typo(ptr %mem_ptr) {
  %tensor = call token @llvm.tensor.load.p0.v3i32.v2i32.v3i32.v3i32(ptr elementtype(i8) %mem_ptr, <3 x i32> <i32 16, i32 6, i32 4>, <2 x i32> <i32 0, i32 1>, <3 x i32> <i32 0, i32 0, i32 0>, <3 x i32> <i32 0, i32 0, i32 8>)
  ret void
}
define void @padding_too_long(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v3i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <3 x i32> zeroinitializer)
  ret void
}

; CHECK: error: {{.*}}in function rank_nine {{.*}}: llvm.tensor.typeinfo: rank 9 exceeds the maximum of 8
define void @rank_nine(<2 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v2f32.v9i32.v9i32.v9i32(<2 x float> %v, <9 x i32> <i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 2>, <9 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8>, <9 x i32> zeroinitializer)
  ret void
}

; CHECK: error: {{.*}}in function zero_extent {{.*}}: llvm.tensor.typeinfo: shape extent 0 of dimension 1 must be >= 1
; CHECK: error: {{.*}}in function negative_extent {{.*}}: llvm.vector.totensor: shape extent -4 of dimension 0 must be >= 1
; CHECK: error: {{.*}}in function too_many_elements {{.*}}: llvm.tensor.load: shape 2147483647x2147483647x2147483647 has too many elements
define void @zero_extent(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 4, i32 0>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}
define void @negative_extent(<4 x float> %v) {
  %t = call token @llvm.vector.totensor.v4f32.v1i32.v1i32.v1i32(<4 x float> %v, <1 x i32> <i32 -4>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  ret void
}
define void @too_many_elements(ptr %p) {
  %t = call token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v3i32(ptr elementtype(float) %p, <3 x i32> <i32 2147483647, i32 2147483647, i32 2147483647>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer)
  ret void
}

; The layout is a permutation of 0..rank-1.
; CHECK: error: {{.*}}in function layout_repeats {{.*}}: llvm.tensor.typeinfo: layout <0, 0, 2> is not a permutation of 0..2
; CHECK: error: {{.*}}in function layout_out_of_range {{.*}}: llvm.tensor.typeinfo: layout <1, 2> is not a permutation of 0..1
; CHECK: error: {{.*}}in function layout_negative {{.*}}: llvm.tensor.load: layout <-1, 0> is not a permutation of 0..1
define void @layout_repeats(<8 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v8f32.v3i32.v3i32.v3i32(<8 x float> %v, <3 x i32> <i32 2, i32 2, i32 2>, <3 x i32> <i32 0, i32 0, i32 2>, <3 x i32> zeroinitializer)
  ret void
}
define void @layout_out_of_range(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 1, i32 2>, <2 x i32> zeroinitializer)
  ret void
}
define void @layout_negative(ptr %p) {
  %t = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) %p, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 -1, i32 0>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  ret void
}

; CHECK: error: {{.*}}in function negative_padding {{.*}}: llvm.tensor.typeinfo: padding -1 of dimension 1 must be >= 0
define void @negative_padding(<4 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> <i32 0, i32 -1>)
  ret void
}

; The data holds product(shape) elements. (The RFC's store example types a
; 16x6x4 tensor <240 x float>; its lowering example's 1x10x800x800 byval
; tensors <640000 x i32>.)
; CHECK: error: {{.*}}in function rfc_store_count_typo {{.*}}: llvm.tensor.typeinfo: data has 240 elements, but shape 16x6x4 holds 384
; CHECK: error: {{.*}}in function rfc_byval_count_typo {{.*}}: llvm.tensor.typeinfo: data points to 640000 elements, but shape 1x10x800x800 holds 6400000
; CHECK: error: {{.*}}in function elementtype_vector_count {{.*}}: llvm.tensor.typeinfo: data points to 8 elements, but shape 3x3 holds 9
; CHECK: error: {{.*}}in function load_vector_elementtype {{.*}}: llvm.tensor.load: pointer needs elementtype() of the scalar element type, not of a vector
define void @rfc_store_count_typo(<240 x float> %data) {
  %tensor = call token @llvm.tensor.typeinfo.v240f32.v3i32.v3i32.v3i32(<240 x float> %data, <3 x i32> <i32 16, i32 6, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> <i32 0, i32 0, i32 0>)
  ret void
}
define void @rfc_byval_count_typo(ptr byval(<640000 x i32>) %tensor1) {
  %tensor1_token = call token @llvm.tensor.typeinfo.p0.v4i32.v4i32.v4i32(ptr byval(<640000 x i32>) %tensor1, <4 x i32> <i32 1, i32 10, i32 800, i32 800>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> <i32 0, i32 0, i32 0, i32 0>)
  ret void
}
define void @elementtype_vector_count(ptr %p) {
  %t = call token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr elementtype(<8 x float>) %p, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  ret void
}
define void @load_vector_elementtype(ptr %p) {
  %t = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(<9 x float>) %p, <2 x i32> <i32 3, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  ret void
}

; Uses of an invalid tensor report nothing more (the implicit check rejects
; any other error line); a valid op reading it is not checked.
; CHECK: error: {{.*}}in function use_of_invalid_tensor {{.*}}: llvm.tensor.typeinfo: data has 5 elements, but shape 2x2 holds 4
; CHECK: error: {{.*}}in function invalid_result_typeinfo {{.*}}: llvm.tensor.typeinfo: layout <0, 0> is not a permutation of 0..1
define void @use_of_invalid_tensor(<5 x float> %v, ptr %p) {
  %t = call token @llvm.tensor.typeinfo.v5f32.v2i32.v2i32.v2i32(<5 x float> %v, <2 x i32> <i32 2, i32 2>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  %m = call <4 x float> @llvm.tensor.matmul.v4f32(token %t, token %t)
  %r = call <4 x float> @llvm.tensor.tanh.v4f32(token %t)
  call void @llvm.tensor.store.p0.v2i32(ptr elementtype(float) %p, token %t, <2 x i32> zeroinitializer)
  ret void
}
define void @invalid_result_typeinfo(<3 x float> %v) {
  %t = call token @llvm.tensor.typeinfo.v3f32.v1i32.v1i32.v1i32(<3 x float> %v, <1 x i32> <i32 3>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %b = call <6 x float> @llvm.tensor.broadcast.v6f32(token %t)
  %tb = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %b, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 0>, <2 x i32> zeroinitializer)
  ret void
}

; CHECK: tlx: error: 19 error(s) in TLX code; stopping
; No crash after the last error:
; CHECK-NOT: PLEASE submit
; CHECK-NOT: Stack dump

; --- declarations ---
declare <6 x float> @llvm.tensor.broadcast.v6f32(token)
declare token @llvm.tensor.load.p0.v1i32.v1i32.v1i32.v1i32(ptr, <1 x i32>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.load.p0.v3i32.v2i32.v3i32.v3i32(ptr, <3 x i32>, <2 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v3i32(ptr, <3 x i32>, <3 x i32>, <3 x i32>, <3 x i32>)
declare <4 x float> @llvm.tensor.matmul.v4f32(token, token)
declare void @llvm.tensor.store.p0.v2i32(ptr, token, <2 x i32>)
declare <4 x float> @llvm.tensor.tanh.v4f32(token)
declare token @llvm.tensor.typeinfo.p0.v2i32.v2i32.v2i32(ptr, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.p0.v4i32.v4i32.v4i32(ptr, <4 x i32>, <4 x i32>, <4 x i32>)
declare token @llvm.tensor.typeinfo.v240f32.v3i32.v3i32.v3i32(<240 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v2f32.v9i32.v9i32.v9i32(<2 x float>, <9 x i32>, <9 x i32>, <9 x i32>)
declare token @llvm.tensor.typeinfo.v3f32.v1i32.v1i32.v1i32(<3 x float>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v3i32(<4 x float>, <2 x i32>, <2 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v4i1.v1i32.v1i32.v1i32(<4 x i1>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.tensor.typeinfo.v5f32.v2i32.v2i32.v2i32(<5 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.typeinfo.v8f32.v3i32.v3i32.v3i32(<8 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.vector.totensor.v2f80.v1i32.v1i32.v1i32(<2 x x86_fp80>, <1 x i32>, <1 x i32>, <1 x i32>)
declare token @llvm.vector.totensor.v4f32.v1i32.v1i32.v1i32(<4 x float>, <1 x i32>, <1 x i32>, <1 x i32>)
