; Tiles and vectors: cast intrinsics go through the 1024-byte register image;
; a tile -> vector -> tile round trip is folded (the tile keeps its buffer and
; its shape); loads and stores of x86_amx read and write the image in memory.
; RUN: %opt_tlx -passes=tlx-amx-emulate -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define <256 x i32> @casts(
; CHECK-DAG:   %[[T:t.tile]] = alloca [1088 x i8], align 64
; CHECK-DAG:   %[[U:u.tile]] = alloca [1088 x i8], align 64
; CHECK-DAG:   %[[S:amx.vec]] = alloca [1024 x i8], align 64
; CHECK:       store <256 x i32> %v, ptr %[[S]], align 64
; CHECK-NEXT:  call void @tlxrt_amx_emu_tile_from_vector(ptr %[[T]], ptr %[[S]])
; CHECK-NEXT:  call void @tlxrt_amx_emu_tdp_internal(i32 0, i32 16, i32 64, i32 64, ptr %[[U]], ptr %[[T]], ptr %[[T]], ptr %[[T]])
; CHECK-NEXT:  call void @tlxrt_amx_emu_tile_to_vector(ptr %[[S]], ptr %[[U]])
; CHECK-NEXT:  %w = load <256 x i32>, ptr %[[S]], align 64
; CHECK-NEXT:  ret <256 x i32> %w
define <256 x i32> @casts(<256 x i32> %v) {
  %t = call x86_amx @llvm.x86.cast.vector.to.tile.v256i32(<256 x i32> %v)
  %u = call x86_amx @llvm.x86.tdpbssd.internal(i16 16, i16 64, i16 64, x86_amx %t, x86_amx %t, x86_amx %t)
  %w = call <256 x i32> @llvm.x86.cast.tile.to.vector.v256i32(x86_amx %u)
  ret <256 x i32> %w
}

; clang's __tile1024i code: every use of a tile goes tile -> vector -> tile.
; CHECK-LABEL: define void @round_trip(
; CHECK:       call void @tlxrt_amx_emu_tileloadd_internal(ptr %[[A:a.tile]], i32 8, i32 32,
; CHECK-NEXT:  call void @tlxrt_amx_emu_tilestored_internal(ptr %[[A]], i32 8, i32 32,
; CHECK-NOT:   tile_to_vector
; CHECK-NOT:   tile_from_vector
; CHECK:       ret void
define void @round_trip(ptr %p) {
  %a = call x86_amx @llvm.x86.tileloadd64.internal(i16 8, i16 32, ptr %p, i64 64)
  %v = call <256 x i32> @llvm.x86.cast.tile.to.vector.v256i32(x86_amx %a)
  %b = call x86_amx @llvm.x86.cast.vector.to.tile.v256i32(<256 x i32> %v)
  call void @llvm.x86.tilestored64.internal(i16 8, i16 32, ptr %p, i64 64, x86_amx %b)
  ret void
}

; Other 1024-byte vector types work the same way.
; CHECK-LABEL: define <512 x i16> @bf16_vector(
; CHECK:       store <512 x i16> %v, ptr %[[S:amx.vec]], align 64
; CHECK:       call void @tlxrt_amx_emu_tile_from_vector(ptr %t.tile, ptr %[[S]])
; CHECK:       call void @tlxrt_amx_emu_tile_to_vector(ptr %[[S]], ptr %u.tile)
; CHECK-NEXT:  %w = load <512 x i16>, ptr %[[S]], align 64
define <512 x i16> @bf16_vector(<512 x i16> %v) {
  %t = call x86_amx @llvm.x86.cast.vector.to.tile.v512i16(<512 x i16> %v)
  %u = call x86_amx @llvm.x86.tdpbf16ps.internal(i16 16, i16 64, i16 64, x86_amx %t, x86_amx %t, x86_amx %t)
  %w = call <512 x i16> @llvm.x86.cast.tile.to.vector.v512i16(x86_amx %u)
  ret <512 x i16> %w
}

; CHECK-LABEL: define void @memory(
; CHECK:       call void @tlxrt_amx_emu_tile_from_vector(ptr %t.tile, ptr %src)
; CHECK-NEXT:  call void @tlxrt_amx_emu_tile_to_vector(ptr %dst, ptr %t.tile)
; CHECK-NEXT:  ret void
define void @memory(ptr %src, ptr %dst) {
  %t = load x86_amx, ptr %src, align 64
  store x86_amx %t, ptr %dst, align 64
  ret void
}

; CHECK-LABEL: define void @frozen(
; CHECK:       call void @llvm.memcpy.p0.p0.i64(ptr align 64 %f.tile, ptr align 64 %t.tile, i64 1088, i1 false)
; CHECK-NEXT:  call void @tlxrt_amx_emu_tile_to_vector(ptr %dst, ptr %f.tile)
define void @frozen(ptr %src, ptr %dst) {
  %t = load x86_amx, ptr %src, align 64
  %f = freeze x86_amx %t
  store x86_amx %f, ptr %dst, align 64
  ret void
}

declare x86_amx @llvm.x86.cast.vector.to.tile.v256i32(<256 x i32>)
declare <256 x i32> @llvm.x86.cast.tile.to.vector.v256i32(x86_amx)
declare x86_amx @llvm.x86.cast.vector.to.tile.v512i16(<512 x i16>)
declare <512 x i16> @llvm.x86.cast.tile.to.vector.v512i16(x86_amx)
declare x86_amx @llvm.x86.tileloadd64.internal(i16, i16, ptr, i64)
declare x86_amx @llvm.x86.tdpbssd.internal(i16, i16, i16, x86_amx, x86_amx, x86_amx)
declare x86_amx @llvm.x86.tdpbf16ps.internal(i16, i16, i16, x86_amx, x86_amx, x86_amx)
declare void @llvm.x86.tilestored64.internal(i16, i16, ptr, i64, x86_amx)
