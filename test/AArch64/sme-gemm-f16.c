// f16 GEMMs on Arm SME (-march=armv9-a+sme): the widening FMOPA (2 f16 k values
// per f32 lane) on 2x2 ZA tiles in a locally streaming kernel; the body is
// Inputs/sme-gemm-half.h. Run under qemu at -O0 and -O2 and at the
// smallest and largest streaming vector lengths.
// REQUIRES: aarch64-cross
// RUN: %a64_tlx_cc -O2 -march=armv9-a+sme -S %s -o - | FileCheck %s --check-prefix=ASM
// RUN: %a64_tlx_cc -O2 -march=armv9-a+sme -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %a64_tlx_cc -w -O0 -march=armv9-a+sme %s -o %t0 && %a64_qemu %t0 | FileCheck %s
// RUN: %a64_tlx_cc -w -O2 -march=armv9-a+sme %s -o %t2 && %a64_qemu %t2 | FileCheck %s
// RUN: qemu-aarch64 -cpu max,sme-default-vector-length=16 %t2 | FileCheck %s
// RUN: qemu-aarch64 -cpu max,sme-default-vector-length=256 %t2 | FileCheck %s
// REMARK: remark: matmul: 17x33x100 (MxKxN) f16 x f16 -> f32 GEMM on SME, kernel sme f16 fmopa 2x2 tiles
// REMARK: remark: matmul: 1x1x1 (MxKxN) f16 x f16 -> f32 GEMM on SME, kernel sme f16 fmopa 2x2 tiles
// REMARK: remark: matmul: 37x29x45 (MxKxN) f16 x f16 -> f16 GEMM on SME, kernel sme f16 fmopa 2x2 tiles{{.*}}, accumulated in f32
// REMARK: remark: matmul: 33x100x17 (MxKxN) f16 x f16 -> f32 GEMM on SME, kernel sme f16 fmopa 2x2 tiles
// REMARK: remark: matmul: fused epilogue (relu) applied to C after the SME kernel stores it
// REMARK: remark: matmul: 1x4x5 (MxKxN) f16 x f16 -> f16 GEMM on SME, kernel sme f16 fmopa 2x2 tiles
// REMARK: remark: matmul: 14x3x66 (MxKxN) f16 x f16 -> f32 GEMM on SME, kernel sme f16 fmopa 2x2 tiles
// ASM-LABEL: mm_17x33x100:
// ASM: tlx.sme.gemm
// ASM-LABEL: mm_1x1x1:
// ASM: tlx.sme.gemm
// ASM-LABEL: mm_half_out:
// ASM: tlx.sme.gemm
// ASM-LABEL: mm_relu:
// ASM: tlx.sme.gemm
// ASM-LABEL: mm_small_half:
// ASM: tlx.sme.gemm
// ASM-LABEL: mm_14x3x66:
// ASM: tlx.sme.gemm
// ASM-LABEL: tlx.sme.gemm:
// ASM-DAG: smstart sm
// ASM-DAG: bl __arm_tpidr2_save
// ASM-DAG: smstart za
// ASM: fmopa za0.s, p{{[0-9]+}}/m, p{{[0-9]+}}/m, z{{[0-9]+}}.h, z{{[0-9]+}}.h
// ASM-NOT: {{^\.LBB}}
// ASM: fmopa za1.s
// ASM-NOT: {{^\.LBB}}
// ASM: fmopa za2.s
// ASM-NOT: {{^\.LBB}}
// ASM: fmopa za3.s
// ASM-NOT: {{^\.LBB}}
// ASM: b.{{[a-z]+}} .LBB
// ASM-DAG: smstop sm
// ASM-DAG: smstop za
// ASM-LABEL: tlx.sme.gemm.{{[0-9]+}}:
// CHECK: 17x33x100: ok
// CHECK: 1x1x1: ok
// CHECK: 16-bit result, transposed B: ok
// CHECK: small 16-bit result: ok
// CHECK: relu: ok
// CHECK: 14x3x66: ok
// CHECK: PASSED
#include <stdint.h>
#include <string.h>

static _Float16 toHalf(float f) { return (_Float16)f; }
static float fromHalf(_Float16 h) { return (float)h; }

#define HALF _Float16
#define TO_HALF toHalf
#define FROM_HALF fromHalf
#define HALF_REL (1.0 / 1536)
#include "Inputs/sme-gemm-half.h"
