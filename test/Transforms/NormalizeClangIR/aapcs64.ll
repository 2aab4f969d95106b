; AAPCS64's ways of passing and returning vectors, rewritten into the
; x86-64 forms tlx-recognize reads (calls to tlx.h's dummies only):
; an sret result becomes a returned value stored where sret pointed; a
; by-value vector passed as a pointer to the caller's copy becomes byval; a
; 3-element vector widened to 4 lanes through a slot is passed as itself;
; a memcpy of a small vector into its coercion slot becomes a store.
; RUN: %opt_tlx -passes=tlx-normalize-clang-ir -S %s -o - | FileCheck %s

target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-gnu"

; CHECK-LABEL: define void @sret_result(
; CHECK: %[[V:.*]] = call <24 x float> @tensor_matmul(i32 noundef %a, i32 noundef %b)
; CHECK-NEXT: store <24 x float> %[[V]], ptr %r, align 16
; CHECK-NOT: sret
define void @sret_result(i32 %a, i32 %b) {
  %r = alloca <24 x float>, align 16
  call void @tensor_matmul(ptr dead_on_unwind writable sret(<24 x float>) align 16 %r, i32 noundef %a, i32 noundef %b)
  ret void
}

; CHECK-LABEL: define i32 @indirect_argument(
; CHECK: call i32 @tensor_typeinfo(ptr noundef byval(<24 x float>) align 16 %copy,
define i32 @indirect_argument(<24 x float> %v, <2 x i32> %s) {
  %copy = alloca <24 x float>, align 16
  store <24 x float> %v, ptr %copy, align 16
  %t = call i32 @tensor_typeinfo(ptr noundef %copy, <2 x i32> noundef %s, <2 x i32> noundef %s, <2 x i32> noundef %s)
  ret i32 %t
}

; A pointer the program itself reads afterwards is not a by-value copy.
; CHECK-LABEL: define i32 @user_pointer(
; CHECK: call i32 @tensor_typeinfo(ptr noundef %mem,
define i32 @user_pointer(<24 x float> %v, <2 x i32> %s) {
  %mem = alloca <24 x float>, align 16
  store <24 x float> %v, ptr %mem, align 16
  %t = call i32 @tensor_typeinfo(ptr noundef %mem, <2 x i32> noundef %s, <2 x i32> noundef %s, <2 x i32> noundef %s)
  call void @use(ptr %mem)
  ret i32 %t
}

; CHECK-LABEL: define i32 @vec3_shape(
; CHECK: call i32 @tensor_load(ptr %p, <3 x i32> %shape, <3 x i32> %shape, <4 x float> %tag)
define i32 @vec3_shape(ptr %p, <3 x i32> %shape, <4 x float> %tag) {
  %slot = alloca <3 x i32>, align 16
  %wide = shufflevector <3 x i32> %shape, <3 x i32> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 poison>
  store <4 x i32> %wide, ptr %slot, align 16
  %w = load <4 x i32>, ptr %slot, align 16
  %t = call i32 @tensor_load(ptr %p, <4 x i32> %w, <4 x i32> %w, <4 x float> %tag)
  ret i32 %t
}

; CHECK-LABEL: define i32 @memcpy_coercion(
; CHECK: store <1 x half> %v, ptr %slot, align 4
; CHECK-NOT: memcpy
; CHECK: %c = load i32, ptr %slot
define i32 @memcpy_coercion(<1 x half> %v, i32 %s) {
  %tmp = alloca <1 x half>, align 2
  %slot = alloca i32, align 4
  store <1 x half> %v, ptr %tmp, align 2
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %slot, ptr align 2 %tmp, i64 2, i1 false)
  %c = load i32, ptr %slot, align 4
  %t = call i32 @tensor_typeinfo(i32 %c, i32 %s, i32 %s, i32 %s)
  ret i32 %t
}

declare void @tensor_matmul(ptr, ...)
declare i32 @tensor_typeinfo(...)
declare i32 @tensor_load(...)
declare void @use(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
