// The int8 kernels TLX picks for AVX-VNNI (ymm vpdpbusd / vpdpwssd, no
// AVX-512), run on an AVX512-VNNI CPU: mma-int8-avx2.c is lowered for
// x86-64-v3 + avxvnni, then the same IR is compiled with the AVX-512 VNNI
// features instead of avxvnni, so the backend encodes the ymm dot products
// with EVEX (this CPU, and QEMU 7.2, lack the VEX forms).
// REQUIRES: cpu-avx512-vnni
// RUN: %clang_tlx -w -O2 -march=x86-64-v3 -mavxvnni -Rpass=tlx-tile -S -emit-llvm %S/mma-int8-avx2.c -o %t.ll 2>&1 | FileCheck %s
// RUN: sed -e 's/+avxvnni/-avxvnni/g' -e 's/"target-features"="\([^"]*\)"/"target-features"="\1,+avx512f,+avx512vl,+avx512bw,+avx512vnni"/' %t.ll > %t.evex.ll
// RUN: %clang_plain -O2 %t.evex.ll %tlx_rt -o %t && %t | FileCheck %S/mma-int8-avx2.c
// CHECK: remark: umma: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel vec256 u8u8s32 vpdpwssd {{[0-9]+}}x16
// CHECK: remark: smma: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel vec256 s8s8s32 vpdpbusd(+128 bias) {{[0-9]+}}x16
// CHECK: remark: usmma: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel vec256 u8s8s32 vpdpbusd {{[0-9]+}}x16
// CHECK: remark: summa: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel vec256 s8u8s32 vpdpwssd {{[0-9]+}}x16
// CHECK: remark: smma: 37x29x45 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel vec256 s8s8s32 vpdpbusd(+128 bias)
// CHECK: remark: umma: 7x1001x9 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel streamed axpy i8->i32
