; clang 20+ widens a 3-element vector for a store with an undef operand and
; lane 3 taken from it; tlx-normalize-clang-ir writes clang 19's form (a
; poison lane), which tlx-recognize reads (test/Frontend/abi-small-vectors.c
; and the Differential suite cover the whole path with clang 22). Shuffles
; with users other than stores are left alone.
; RUN: %opt_tlx -passes=tlx-normalize-clang-ir -S %s | FileCheck %s

; CHECK-LABEL: define void @vec3_store(
; CHECK: %w = shufflevector <3 x i8> %r, <3 x i8> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 poison>
; CHECK: store <4 x i8> %w, ptr %slot, align 4
define void @vec3_store(<3 x i8> %r, ptr %slot) {
  %w = shufflevector <3 x i8> %r, <3 x i8> undef, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  store <4 x i8> %w, ptr %slot, align 4
  ret void
}

; CHECK-LABEL: define <4 x i8> @not_a_store(
; CHECK: shufflevector <3 x i8> %x, <3 x i8> undef, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
define <4 x i8> @not_a_store(<3 x i8> %x) {
  %w = shufflevector <3 x i8> %x, <3 x i8> undef, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  ret <4 x i8> %w
}

; CHECK-LABEL: define void @other_lanes(
; CHECK: shufflevector <3 x i8> %x, <3 x i8> undef, <4 x i32> <i32 2, i32 1, i32 0, i32 3>
define void @other_lanes(<3 x i8> %x, ptr %p) {
  %w = shufflevector <3 x i8> %x, <3 x i8> undef, <4 x i32> <i32 2, i32 1, i32 0, i32 3>
  store <4 x i8> %w, ptr %p, align 4
  ret void
}
