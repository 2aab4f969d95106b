; load/store strides are BLAS-style leading dimensions: strides[i] (i >= 1)
; is the element distance between consecutive indices of storage dim i-1,
; strides[0] is unused, 0 means packed. A leading dimension smaller than
; the span of the dims inside it would give two elements one address.
; RUN: not %opt_tlx -passes=tlx-verify -disable-output %s 2>&1 | FileCheck %s --implicit-check-not="error:"

; CHECK: error: {{.*}}in function load_strides_rank {{.*}}: llvm.tensor.load: strides has 2 entries, but the tensor has rank 3
; CHECK: error: {{.*}}in function store_strides_rank {{.*}}: llvm.tensor.store: strides has 3 entries, but the tensor has rank 2
define void @load_strides_rank(ptr %p) {
  %t = call token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v2i32(ptr elementtype(float) %p, <3 x i32> <i32 2, i32 3, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <2 x i32> zeroinitializer)
  ret void
}
define void @store_strides_rank(<6 x float> %v, ptr %p) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.p0.v3i32(ptr elementtype(float) %p, token %t, <3 x i32> zeroinitializer)
  ret void
}

; CHECK: error: {{.*}}in function negative_stride {{.*}}: llvm.tensor.load: strides entry -8 of dimension 1 must be >= 0
; CHECK: error: {{.*}}in function unused_stride_set {{.*}}: llvm.tensor.store: strides[0] is unused and must be 0, not 100
define void @negative_stride(ptr %p) {
  %t = call token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr elementtype(float) %p, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> <i32 0, i32 -8>)
  ret void
}
define void @unused_stride_set(<6 x float> %v, ptr %p) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.p0.v2i32(ptr elementtype(float) %p, token %t, <2 x i32> <i32 100, i32 3>)
  ret void
}

; Rows of 4 elements cannot be 3 apart; slices of 6 rows 10 apart span
; 5 * 10 + 4 = 54 elements, so 12 (the RFC's store example) makes slices
; overlap.
; CHECK: error: {{.*}}in function rows_overlap_load {{.*}}: llvm.tensor.load: strides[2] = 3 is less than the span of storage dimension 2 (4 elements): elements would share addresses
; CHECK: error: {{.*}}in function rfc_store_slices_overlap {{.*}}: llvm.tensor.store: strides[1] = 12 is less than the span of storage dimension 1 (54 elements): elements would share addresses
; CHECK: error: {{.*}}in function packed_rows_overlap {{.*}}: llvm.tensor.store: strides[1] = 20 is less than the span of storage dimension 1 (24 elements): elements would share addresses
define void @rows_overlap_load(ptr %p) {
  %t = call token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v3i32(ptr elementtype(i8) %p, <3 x i32> <i32 16, i32 6, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> <i32 0, i32 0, i32 3>)
  ret void
}
define void @rfc_store_slices_overlap(<384 x float> %data, ptr %mem_ptr) {
  %tensor = call token @llvm.tensor.typeinfo.v384f32.v3i32.v3i32.v3i32(<384 x float> %data, <3 x i32> <i32 16, i32 6, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> <i32 0, i32 0, i32 0>)
  call void @llvm.tensor.store.p0.v3i32(ptr elementtype(float) %mem_ptr, token %tensor, <3 x i32> <i32 0, i32 12, i32 10>)
  ret void
}
; Packed rows (0) of 4 elements: a slice of 6 rows spans 24.
define void @packed_rows_overlap(<384 x float> %data, ptr %p) {
  %tensor = call token @llvm.tensor.typeinfo.v384f32.v3i32.v3i32.v3i32(<384 x float> %data, <3 x i32> <i32 16, i32 6, i32 4>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> <i32 0, i32 0, i32 0>)
  call void @llvm.tensor.store.p0.v3i32(ptr elementtype(float) %p, token %tensor, <3 x i32> <i32 0, i32 20, i32 0>)
  ret void
}

; Leading dimensions that address beyond 64 bits.
; CHECK: error: {{.*}}in function strides_overflow {{.*}}: llvm.tensor.load: strides address more elements than fit in 64 bits
define void @strides_overflow(ptr %p) {
  %t = call token @llvm.tensor.load.p0.v4i32.v4i32.v4i32.v4i32(ptr elementtype(i8) %p, <4 x i32> <i32 1, i32 2147483647, i32 2147483647, i32 1>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> zeroinitializer, <4 x i32> <i32 0, i32 0, i32 0, i32 2147483647>)
  ret void
}

; The pointer's elementtype() is the stored tensor's element type.
; CHECK: error: {{.*}}in function store_element_mismatch {{.*}}: llvm.tensor.store: pointer element type i32 differs from the stored tensor's f32
define void @store_element_mismatch(<6 x float> %v, ptr %p) {
  %t = call token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float> %v, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void @llvm.tensor.store.p0.v2i32(ptr elementtype(i32) %p, token %t, <2 x i32> zeroinitializer)
  ret void
}

; CHECK: tlx: error: 9 error(s) in TLX code; stopping
; No crash after the last error:
; CHECK-NOT: PLEASE submit
; CHECK-NOT: Stack dump

; --- declarations ---
declare token @llvm.tensor.load.p0.v2i32.v2i32.v2i32.v2i32(ptr, <2 x i32>, <2 x i32>, <2 x i32>, <2 x i32>)
declare token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v2i32(ptr, <3 x i32>, <3 x i32>, <3 x i32>, <2 x i32>)
declare token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v3i32(ptr, <3 x i32>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.load.p0.v4i32.v4i32.v4i32.v4i32(ptr, <4 x i32>, <4 x i32>, <4 x i32>, <4 x i32>)
declare void @llvm.tensor.store.p0.v2i32(ptr, token, <2 x i32>)
declare void @llvm.tensor.store.p0.v3i32(ptr, token, <3 x i32>)
declare token @llvm.tensor.typeinfo.v384f32.v3i32.v3i32.v3i32(<384 x float>, <3 x i32>, <3 x i32>, <3 x i32>)
declare token @llvm.tensor.typeinfo.v6f32.v2i32.v2i32.v2i32(<6 x float>, <2 x i32>, <2 x i32>, <2 x i32>)
