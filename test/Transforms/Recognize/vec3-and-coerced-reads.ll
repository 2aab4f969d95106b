; tlx-recognize on the IR clang emits for small vectors: 3-element vectors
; written and read back as 4-element ones with shuffles ("vec3"), and
; vectors of 8 bytes or less read back from a temporary as a larger scalar
; (the x86-64 ABI's coercion). The typeinfo must name the op's result itself.
; RUN: %opt_tlx -passes=tlx-recognize -S %s | FileCheck %s --implicit-check-not=@tensor_

; A 3-element variable holding a broadcast result: its widening store and
; narrowing load become 3-element ones, the variable is promoted and the
; typeinfo names the broadcast. The rank-3 dimension vectors, stored as
; folded 4-lane constants, still fold.
; CHECK-LABEL: define void @vec3_variable(
; CHECK: [[L:%.*]] = call token @llvm.tensor.load.p0.v3i32.v3i32.v3i32.v3i32(ptr elementtype(float) %p, <3 x i32> <i32 1, i32 1, i32 1>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer)
; CHECK-NEXT: [[B:%.*]] = call <3 x float> @llvm.tensor.broadcast.v3f32(token [[L]])
; CHECK-NEXT: [[T:%.*]] = call token @llvm.tensor.typeinfo.v3f32.v3i32.v3i32.v3i32(<3 x float> [[B]], <3 x i32> <i32 1, i32 3, i32 1>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
; CHECK-NEXT: call void @llvm.tensor.store.p0.v3i32(ptr elementtype(float) %q, token [[T]], <3 x i32> zeroinitializer)
; CHECK-NEXT: ret void
define void @vec3_variable(ptr %p, ptr %q) {
  %shape = alloca <3 x i32>, align 16
  %r = alloca <3 x float>, align 16
  store <4 x i32> <i32 1, i32 1, i32 1, i32 undef>, ptr %shape, align 16
  %shape4 = load <4 x i32>, ptr %shape, align 16
  %shape3 = shufflevector <4 x i32> %shape4, <4 x i32> poison, <3 x i32> <i32 0, i32 1, i32 2>
  %t = call i32 (...) @tensor_load(ptr %p, <3 x i32> %shape3, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer, <3 x i32> zeroinitializer, <4 x float> zeroinitializer)
  %b = call <3 x float> (...) @tensor_broadcast(i32 %t)
  %b4 = shufflevector <3 x float> %b, <3 x float> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 poison>
  store <4 x float> %b4, ptr %r, align 16
  %r4 = load <4 x float>, ptr %r, align 16
  %r3 = shufflevector <4 x float> %r4, <4 x float> poison, <3 x i32> <i32 0, i32 1, i32 2>
  %tr = call i32 (...) @tensor_typeinfo(<3 x float> %r3, <3 x i32> <i32 1, i32 3, i32 1>, <3 x i32> <i32 0, i32 1, i32 2>, <3 x i32> zeroinitializer)
  call void (...) @tensor_store(ptr %q, i32 %tr, <3 x i32> zeroinitializer, <4 x float> zeroinitializer)
  ret void
}

; A <3 x i16> result returned as a double: read back as 3 lanes from its
; temporary, it is the op's result; passed on as a double through another
; temporary (padding bytes 6 and 7), it is still the same vector.
; CHECK-LABEL: define void @vec3_coerced_result(
; CHECK: [[R:%.*]] = call <3 x i16> @llvm.tensor.relu.v3i16(token
; CHECK-NEXT: [[T:%.*]] = call token @llvm.tensor.typeinfo.v3i16.v1i32.v1i32.v1i32(<3 x i16> [[R]], <1 x i32> <i32 3>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
; CHECK-NEXT: call void @llvm.tensor.store.p0.v1i32(ptr elementtype(i16) %q, token [[T]], <1 x i32> zeroinitializer)
; CHECK-NEXT: ret void
define void @vec3_coerced_result(ptr %p, ptr %q) {
  %ret.tmp = alloca <3 x i16>, align 8
  %arg.tmp = alloca <3 x i16>, align 8
  %t = call i32 (...) @tensor_load(ptr %p, <1 x i32> <i32 3>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer, <8 x i16> zeroinitializer)
  %d = call double (...) @tensor_relu(i32 %t)
  store double %d, ptr %ret.tmp, align 8
  %r4 = load <4 x i16>, ptr %ret.tmp, align 8
  %r3 = shufflevector <4 x i16> %r4, <4 x i16> poison, <3 x i32> <i32 0, i32 1, i32 2>
  %w = shufflevector <3 x i16> %r3, <3 x i16> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 poison>
  store <4 x i16> %w, ptr %arg.tmp, align 8
  %arg = load double, ptr %arg.tmp, align 8
  %tr = call i32 (...) @tensor_typeinfo(double %arg, <1 x i32> <i32 3>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  call void (...) @tensor_store(ptr %q, i32 %tr, <1 x i32> zeroinitializer, <8 x i16> zeroinitializer)
  ret void
}

; A <6 x i8> result (6 bytes, returned as a double) read back from the
; first bytes of its temporary, and passed on as a double.
; CHECK-LABEL: define void @six_bytes_coerced(
; CHECK: [[R:%.*]] = call <6 x i8> @llvm.tensor.relu.v6i8(token
; CHECK-NEXT: [[T:%.*]] = call token @llvm.tensor.typeinfo.v6i8.v2i32.v2i32.v2i32(<6 x i8> [[R]], <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
; CHECK-NEXT: call void @llvm.tensor.store.p0.v2i32(ptr elementtype(i8) %q, token [[T]], <2 x i32> zeroinitializer)
; CHECK-NEXT: ret void
define void @six_bytes_coerced(ptr %p, ptr %q) {
  %ret.tmp = alloca <6 x i8>, align 8
  %arg.tmp = alloca <6 x i8>, align 8
  %t = call i32 (...) @tensor_load(ptr %p, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer, <16 x i8> zeroinitializer)
  %d = call double (...) @tensor_relu(i32 %t)
  store double %d, ptr %ret.tmp, align 8
  %r = load <6 x i8>, ptr %ret.tmp, align 8
  store <6 x i8> %r, ptr %arg.tmp, align 8
  %arg = load double, ptr %arg.tmp, align 8
  %tr = call i32 (...) @tensor_typeinfo(double %arg, <2 x i32> <i32 2, i32 3>, <2 x i32> <i32 0, i32 1>, <2 x i32> zeroinitializer)
  call void (...) @tensor_store(ptr %q, i32 %tr, <2 x i32> zeroinitializer, <16 x i8> zeroinitializer)
  ret void
}

; A by-value 3-element parameter read as 4 lanes: read as 3, it stays in
; its memory (memory form).
; CHECK-LABEL: define <3 x double> @vec3_byval_parameter(
; CHECK: [[T:%.*]] = call token @llvm.tensor.typeinfo.p0.v1i32.v1i32.v1i32(ptr elementtype(double) %v, <1 x i32> <i32 3>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
; CHECK-NEXT: [[R:%.*]] = call <3 x double> @llvm.tensor.relu.v3f64(token [[T]])
; CHECK-NEXT: ret <3 x double> [[R]]
define <3 x double> @vec3_byval_parameter(ptr byval(<3 x double>) align 32 %v) {
  %v4 = load <4 x double>, ptr %v, align 32
  %v3 = shufflevector <4 x double> %v4, <4 x double> poison, <3 x i32> <i32 0, i32 1, i32 2>
  %t = call i32 (...) @tensor_typeinfo(<3 x double> %v3, <1 x i32> <i32 3>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %r = call <3 x double> (...) @tensor_relu(i32 %t)
  ret <3 x double> %r
}

; Memory that also gets a genuine 4-lane store is still read as 4 lanes.
; CHECK-LABEL: define <3 x float> @four_lane_store_kept(
; CHECK: store <4 x float> %x, ptr %m
; CHECK-NEXT: [[M4:%.*]] = load <4 x float>, ptr %m
; CHECK-NEXT: [[M3:%.*]] = shufflevector <4 x float> [[M4]], <4 x float> poison, <3 x i32> <i32 0, i32 1, i32 2>
; CHECK-NEXT: [[T:%.*]] = call token @llvm.tensor.typeinfo.v3f32.v1i32.v1i32.v1i32(<3 x float> [[M3]],
define <3 x float> @four_lane_store_kept(<4 x float> %x) {
  %m = alloca <3 x float>, align 16
  store <4 x float> %x, ptr %m, align 16
  %m4 = load <4 x float>, ptr %m, align 16
  %m3 = shufflevector <4 x float> %m4, <4 x float> poison, <3 x i32> <i32 0, i32 1, i32 2>
  %t = call i32 (...) @tensor_typeinfo(<3 x float> %m3, <1 x i32> <i32 3>, <1 x i32> zeroinitializer, <1 x i32> zeroinitializer)
  %r = call <3 x float> (...) @tensor_relu(i32 %t)
  ret <3 x float> %r
}

declare i32 @tensor_load(...)
declare i32 @tensor_typeinfo(...)
declare void @tensor_store(...)
declare <3 x float> @tensor_broadcast(...)
declare double @tensor_relu(...)
