// target=auto picks AMX per GEMM from the function's target: tiles alone
// are not enough, the element types' tile product must be there too.
// Sapphire Rapids has AMX-INT8 and AMX-BF16 but no AMX-FP16, so its f16
// GEMM stays on vectors (with a remark) instead of faulting on tdpfp16ps;
// Granite Rapids has all three. The native code asks the runtime for the
// product it uses.
// RUN: %clang_tlx -std=c11 -O2 -march=sapphirerapids -Rpass=tlx-tile -Rpass-missed=tlx-tile -S %s -o %t.spr.s 2>&1 | FileCheck %s --check-prefix=SPR-REMARK
// RUN: FileCheck %s --check-prefix=SPR < %t.spr.s
// RUN: %clang_tlx -std=c11 -O2 -march=graniterapids -S %s -o - | FileCheck %s --check-prefix=GNR
// RUN: %clang_tlx -std=c11 -O2 -march=skylake-avx512 -S %s -o - | FileCheck %s --check-prefix=NOAMX

// SPR-REMARK: remark: matmul: 16x64x48 (MxKxN) i8 x i8 -> i32 GEMM on AMX, kernel amx tdpbssd
// SPR-REMARK: remark: matmul: 16x64x48 (MxKxN) bf16 x bf16 -> f32 GEMM on AMX, kernel amx tdpbf16ps
// SPR-REMARK: remark: matmul: the function's target has AMX tiles but no amx-fp16; using vector code
// SPR-REMARK: remark: matmul: 16x64x48 (MxKxN) f16 x f16 -> f32 GEMM on vectors

// SPR-LABEL: mm_i8:
// SPR: movl $1, %edi
// SPR-NEXT: callq tlxrt_amx_require
// SPR-LABEL: mm_bf16:
// SPR: movl $2, %edi
// SPR-NEXT: callq tlxrt_amx_require
// SPR-LABEL: mm_f16:
// SPR-NOT: tlxrt_amx_require
// SPR: vfmadd
// SPR-LABEL: .Lfunc_end2:
// SPR-NOT: tdpfp16ps

// GNR-LABEL: mm_f16:
// GNR: movl $4, %edi
// GNR-NEXT: callq tlxrt_amx_require
// GNR: tdpfp16ps

// NOAMX-NOT: tlxrt_amx_require
// NOAMX-NOT: tdp

#include <stdint.h>
#include <tlx.h>

typedef int32_t acc_i32 __attribute__((__vector_size__(16 * 48 * 4)));
typedef float acc_f32 __attribute__((__vector_size__(16 * 48 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(acc_i32, i32)
TLX_DECLARE_TENSOR_OPS_AS(acc_f32, f32)

#define MATMUL(NAME, ELEM, ACC, OUT, SFX)                                     \
  void NAME(const ELEM *a, const ELEM *b, OUT *c) {                           \
    tlx_token_t ta = tensor_load(a, TLX_SHAPE(16, 64), TLX_LAYOUT(0, 1),      \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                 \
    tlx_token_t tb = tensor_load(b, TLX_SHAPE(64, 48), TLX_LAYOUT(0, 1),      \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                 \
    ACC r = tensor_matmul_##SFX(ta, tb);                                      \
    tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(16, 48), TLX_LAYOUT(0, 1),  \
                                     TLX_ZEROS(2));                           \
    tensor_store(c, tr, TLX_ZEROS(2));                                        \
  }

MATMUL(mm_i8, int8_t, acc_i32, int32_t, i32)
MATMUL(mm_bf16, __bf16, acc_f32, float, f32)
MATMUL(mm_f16, _Float16, acc_f32, float, f32)
