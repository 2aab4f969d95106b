// Channels-last convolutions whose receptive-field rows are runs of the
// input (dense pixels, no dilation along the last dim) of at least 16
// elements (kernel width x channels): whatever their strides and channel
// counts, tlx-nd-to-2d computes each output row as one GEMM per kernel row
// over the input read in place - rows stride*C apart, overlapping when the
// stride is below the kernel width - summed into the output row; no
// im2col, no padding pixels. The 7x7/2 first layer with 3 channels,
// batches, kernels packed first (OIHW) or read in place (HWIO, OHWI), an
// outer kernel dilation, 1-D and 3-D, f64, int8 -> int32, an output row
// wider than a register block with a ragged tail; runs too
// short, f16 results and input dilations (holes: zeros, which an input
// row does not hold) stay on im2col. Each against the runtime's
// reference convolution at -O0 and -O2, and with im2col forced, as the
// same results.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -w -O2 -mllvm -tlx-conv-row-taps-min-run=0 -mllvm -tlx-conv-shifted-min-channels=100000 %s %tlx_rt -o %ti && %ti | FileCheck %s
// RUN: %clang_tlx -w -O2 -c %s -o /dev/null -Rpass=tlx-nd-to-2d 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang_tlx -w -O2 -c %s -o /dev/null -Rpass=tlx-nd-to-2d -mllvm -tlx-conv-row-taps-min-run=0 -mllvm -tlx-conv-shifted-min-channels=100000 2>&1 | FileCheck %s --check-prefix=IM2COL
// CHECK-NOT: FAIL
// CHECK: 7x7/2 rgb: ok
// CHECK: 3x3/2 16 channels batch 2: ok
// CHECK: outer kernel dilation: ok
// CHECK: nwc stride 2: ok
// CHECK: ndhwc 3-D: ok
// CHECK: i8 -> i32: ok
// CHECK: f64: ok
// CHECK: wide rows: ok
// CHECK: short runs: ok
// CHECK: f16 result: ok
// CHECK: outer input dilation: ok
// CHECK: PASSED
//
// REMARK: remark: convolution: 1x3x23x29 * 8x3x7x7 -> 1x8x9x12 as 7 12x21x8 (MxKxN) 2-D matmuls per output row, one per kernel row, reading the input in place (channels last), no im2col
// REMARK: remark: convolution: 2x16x9x17 * 5x16x3x3 -> 2x5x4x8 as 3 8x48x5 (MxKxN) 2-D matmuls per output row, one per kernel row, reading the input in place (channels last), no im2col; kernel packed first
// REMARK: remark: convolution: 1x4x11x20 * 6x4x3x4 -> 1x6x7x9 as 3 9x16x6 (MxKxN) 2-D matmuls per output row, one per kernel row
// REMARK: remark: convolution: 2x8x30 * 5x8x3 -> 2x5x14 as 1 14x24x5 (MxKxN) 2-D matmuls per output row, one per kernel row
// REMARK: remark: convolution: 1x4x4x6x13 * 3x4x2x2x5 -> 1x3x3x3x5 as 4 5x20x3
// REMARK: remark: convolution: 1x6x9x21 * 7x6x3x3 -> 1x7x4x10 as 3 10x18x7
// REMARK: remark: convolution: 1x5x8x15 * 3x5x2x4 -> 1x3x4x4 as 2 4x20x3
// REMARK: remark: convolution: 1x3x8x70 * 40x3x7x7 -> 1x40x2x32 as 7 32x21x40 (MxKxN) 2-D matmuls per output row, one per kernel row
// REMARK: remark: convolution: 1x3x9x11 * 4x3x3x3 -> 1x4x4x5 as im2col
// REMARK: remark: convolution: 1x4x7x12 * 3x4x2x5 -> 1x3x3x4 as im2col
// REMARK: remark: convolution: 1x6x5x13 * 4x6x3x3 -> 1x4x7x6 as im2col
// IM2COL-NOT: per kernel row
#include "Inputs/conv_case.h"

typedef float v864f __attribute__((__vector_size__(864 * 4)));
typedef float v320f __attribute__((__vector_size__(320 * 4)));
typedef float v378f __attribute__((__vector_size__(378 * 4)));
typedef float v140f __attribute__((__vector_size__(140 * 4)));
typedef float v135f __attribute__((__vector_size__(135 * 4)));
typedef int32_t v280i __attribute__((__vector_size__(280 * 4)));
typedef double v48d __attribute__((__vector_size__(48 * 8)));
typedef float v2560f __attribute__((__vector_size__(2560 * 4)));
typedef float v80f __attribute__((__vector_size__(80 * 4)));
typedef _Float16 v36h __attribute__((__vector_size__(36 * 2)));
typedef float v168f __attribute__((__vector_size__(168 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(v864f, f864)
TLX_DECLARE_TENSOR_OPS_AS(v320f, f320)
TLX_DECLARE_TENSOR_OPS_AS(v378f, f378)
TLX_DECLARE_TENSOR_OPS_AS(v140f, f140)
TLX_DECLARE_TENSOR_OPS_AS(v135f, f135)
TLX_DECLARE_TENSOR_OPS_AS(v280i, i280)
TLX_DECLARE_TENSOR_OPS_AS(v48d, d48)
TLX_DECLARE_TENSOR_OPS_AS(v2560f, f2560)
TLX_DECLARE_TENSOR_OPS_AS(v80f, f80)
TLX_DECLARE_TENSOR_OPS_AS(v36h, h36)
TLX_DECLARE_TENSOR_OPS_AS(v168f, f168)

int main(void) {
  // NHWC data, HWIO kernel (read in place): rows of 7 pixels x 3 channels
  // 6 elements apart.
  CONV_CASE("7x7/2 rgb", float, float, TLX_F32, TLX_F32, f864, 4, 2,
            (1, 23, 29, 3), (0, 2, 3, 1), (7, 7, 3, 8), (2, 3, 1, 0),
            (1, 9, 12, 8), (0, 2, 3, 1), (2, 2), (1, 1))
  // OIHW kernel, packed first into [(kh, kw, C), O].
  CONV_CASE("3x3/2 16 channels batch 2", float, float, TLX_F32, TLX_F32, f320,
            4, 2, (2, 9, 17, 16), (0, 2, 3, 1), (5, 16, 3, 3), (0, 1, 2, 3),
            (2, 4, 8, 5), (0, 2, 3, 1), (2, 2), (1, 1))
  // Kernel rows 2 input rows apart; width stride 2. OHWI kernel: read in
  // place as [(kh, kw, C), O] with O strided.
  CONV_CASE("outer kernel dilation", float, float, TLX_F32, TLX_F32, f378, 4,
            2, (1, 11, 20, 4), (0, 2, 3, 1), (6, 3, 4, 4), (0, 2, 3, 1),
            (1, 7, 9, 6), (0, 2, 3, 1), (1, 2), (2, 1))
  // 1-D: one GEMM per output row (the kernel has no outer dims).
  CONV_CASE("nwc stride 2", float, float, TLX_F32, TLX_F32, f140, 3, 1,
            (2, 30, 8), (0, 2, 1), (3, 8, 5), (2, 1, 0), (2, 14, 5), (0, 2, 1),
            (2), (1))
  // 3-D: four GEMMs per output row (kernel depth x height).
  CONV_CASE("ndhwc 3-D", float, float, TLX_F32, TLX_F32, f135, 5, 3,
            (1, 4, 6, 13, 4), (0, 2, 3, 4, 1), (2, 2, 5, 4, 3),
            (2, 3, 4, 1, 0), (1, 3, 3, 5, 3), (0, 2, 3, 4, 1), (1, 2, 2),
            (1, 1, 1))
  CONV_CASE("i8 -> i32", int8_t, int32_t, TLX_I8, TLX_I32, i280, 4, 2,
            (1, 9, 21, 6), (0, 2, 3, 1), (3, 3, 6, 7), (2, 3, 1, 0),
            (1, 4, 10, 7), (0, 2, 3, 1), (2, 2), (1, 1))
  CONV_CASE("f64", double, double, TLX_F64, TLX_F64, d48, 4, 2, (1, 8, 15, 5),
            (0, 2, 3, 1), (2, 4, 5, 3), (2, 3, 1, 0), (1, 4, 4, 3),
            (0, 2, 3, 1), (2, 3), (1, 1))
  // 32 pixels x 40 channels: full and partial register blocks.
  CONV_CASE("wide rows", float, float, TLX_F32, TLX_F32, f2560, 4, 2,
            (1, 8, 70, 3), (0, 2, 3, 1), (7, 7, 3, 40), (2, 3, 1, 0),
            (1, 2, 32, 40), (0, 2, 3, 1), (1, 2), (1, 1))
  // Kept on im2col: runs of 9 elements, and an f16 result (rounded once,
  // not after every kernel row).
  CONV_CASE("short runs", float, float, TLX_F32, TLX_F32, f80, 4, 2,
            (1, 9, 11, 3), (0, 2, 3, 1), (3, 3, 3, 4), (2, 3, 1, 0),
            (1, 4, 5, 4), (0, 2, 3, 1), (2, 2), (1, 1))
  CONV_CASE("f16 result", _Float16, _Float16, TLX_F16, TLX_F16, h36, 4, 2,
            (1, 7, 12, 4), (0, 2, 3, 1), (2, 5, 4, 3), (2, 3, 1, 0),
            (1, 3, 4, 3), (0, 2, 3, 1), (2, 2), (1, 1))
  // Input rows 2 apart in the dilated input: the element-by-element
  // im2col (its contiguous-run copy once ignored the outer dilation).
  CONV_CASE_DIL("outer input dilation", float, float, TLX_F32, TLX_F32, f168,
                4, 2, (1, 5, 13, 6), (0, 2, 3, 1), (3, 3, 6, 4), (2, 3, 1, 0),
                (1, 7, 6, 4), (0, 2, 3, 1), (1, 2), (2, 1), TLX_DIMS(2, 1),
                (1, 1))
  return finish();
}
