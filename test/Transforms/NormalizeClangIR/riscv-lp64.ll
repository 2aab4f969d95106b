; RISC-V LP64 returns a vector of up to 16 bytes as an integer (i128, or
; an i64 truncated to the vector's size) that the caller stores into a
; temporary and reads back as the vector; it becomes the x86-64 form
; tlx-recognize reads: the call returns the 16-byte vector (<3 x T> for a
; 3-element one), or a scalar of the smaller vector's size, stored there.
; Wider vectors use sret and pointers to copies, as on AArch64
; (aapcs64.ll); an i128 result read back as two types, or as a scalar, is
; left alone.
; RUN: %opt_tlx -passes=tlx-normalize-clang-ir -S %s -o - | FileCheck %s

target datalayout = "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128"
target triple = "riscv64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @i128_result(
; CHECK: %[[V:.*]] = call <4 x i32> @tensor_matmul_tlx_inferred(i32 noundef signext %a, i32 noundef signext %b)
; CHECK-NEXT: store <4 x i32> %[[V]], ptr %tmp, align 16
; CHECK-NEXT: %v = load <4 x i32>, ptr %tmp, align 16
define i32 @i128_result(i32 %a, i32 %b) {
  %tmp = alloca <4 x i32>, align 16
  %copy = alloca <4 x i32>, align 16
  %r = call i128 @tensor_matmul_tlx_inferred(i32 noundef signext %a, i32 noundef signext %b)
  store i128 %r, ptr %tmp, align 16
  %v = load <4 x i32>, ptr %tmp, align 16
  store <4 x i32> %v, ptr %copy, align 16
  %arg = load i128, ptr %copy, align 16
  %t = call signext i32 @tensor_typeinfo(i128 noundef %arg)
  ret i32 %t
}

; CHECK-LABEL: define <2 x i8> @truncated_i64_result(
; CHECK: %[[V:.*]] = call i16 @tensor_relu(i32 %a)
; CHECK-NEXT: store i16 %[[V]], ptr %tmp, align 2
; CHECK-NOT: trunc
define <2 x i8> @truncated_i64_result(i32 %a) {
  %tmp = alloca <2 x i8>, align 2
  %r = call i64 @tensor_relu(i32 %a)
  %n = trunc i64 %r to i16
  store i16 %n, ptr %tmp, align 2
  %v = load <2 x i8>, ptr %tmp, align 2
  ret <2 x i8> %v
}

; CHECK-LABEL: define <3 x float> @vec3_result(
; CHECK: %[[V:.*]] = call <3 x float> @tensor_relu(i32 %a)
; CHECK-NEXT: store <3 x float> %[[V]], ptr %tmp, align 16
define <3 x float> @vec3_result(i32 %a) {
  %tmp = alloca <3 x float>, align 16
  %r = call i128 @tensor_relu(i32 %a)
  store i128 %r, ptr %tmp, align 16
  %w = load <4 x float>, ptr %tmp, align 16
  %v = shufflevector <4 x float> %w, <4 x float> poison, <3 x i32> <i32 0, i32 1, i32 2>
  ret <3 x float> %v
}

; x86-64's form of a small result (a scalar of the vector's size, stored
; as it is) is tlx-recognize's to read.
; CHECK-LABEL: define <2 x float> @x86_small_result(
; CHECK: %r = call double @tensor_relu(i32 %a)
define <2 x float> @x86_small_result(i32 %a) {
  %tmp = alloca <2 x float>, align 8
  %r = call double @tensor_relu(i32 %a)
  store double %r, ptr %tmp, align 8
  %v = load <2 x float>, ptr %tmp, align 8
  ret <2 x float> %v
}

; CHECK-LABEL: define i128 @read_as_scalar(
; CHECK: %r = call i128 @tensor_matmul(i32 %a, i32 %b)
define i128 @read_as_scalar(i32 %a, i32 %b) {
  %tmp = alloca <4 x i32>, align 16
  %r = call i128 @tensor_matmul(i32 %a, i32 %b)
  store i128 %r, ptr %tmp, align 16
  %s = load i128, ptr %tmp, align 16
  ret i128 %s
}

; CHECK-LABEL: define <4 x i32> @read_as_two_types(
; CHECK: %r = call i128 @tensor_matmul(i32 %a, i32 %b)
define <4 x i32> @read_as_two_types(i32 %a, i32 %b) {
  %tmp = alloca <4 x i32>, align 16
  %r = call i128 @tensor_matmul(i32 %a, i32 %b)
  store i128 %r, ptr %tmp, align 16
  %f = load <4 x float>, ptr %tmp, align 16
  %v = load <4 x i32>, ptr %tmp, align 16
  %g = bitcast <4 x float> %f to <4 x i32>
  %s = add <4 x i32> %v, %g
  ret <4 x i32> %s
}

declare i128 @tensor_matmul_tlx_inferred(...)
declare i128 @tensor_matmul(...)
declare i64 @tensor_relu(...)
declare i32 @tensor_typeinfo(...)
