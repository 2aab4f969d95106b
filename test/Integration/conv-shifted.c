// Convolutions computed as one GEMM per kernel tap over the input in place
// (tlx-nd-to-2d, "shifted GEMMs"): the output pixels as one strided dim
// of wide pixels, rows padded to the input's pitch; channels-last data as
// pixels x channels (the kernel read in place when it is HWIO) - when the
// input's receptive-field rows are runs, only with
// -tlx-conv-row-taps-min-run=0 (else: one GEMM per output row and kernel
// row, conv-row-taps.c); NCHW data as kernel x pixels (the OIHW kernel
// packed first). A batch of 2, 1-D with a stride (no padding pixels), f64,
// int8 -> int32, 3-D; each against the runtime's reference convolution,
// at -O0 and -O2, and with any amount of padding allowed (strides, kernel
// dilations, small images), and with the im2col path forced, as the same
// results.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -w -O2 -mllvm -tlx-conv-shifted-max-padding=100000 %s %tlx_rt -o %tp && %tp | FileCheck %s
// RUN: %clang_tlx -w -O2 -mllvm -tlx-conv-shifted-min-channels=100000 %s %tlx_rt -o %ti && %ti | FileCheck %s
// RUN: %clang_tlx -w -O0 -mllvm -tlx-conv-row-taps-min-run=0 %s %tlx_rt -o %tt0 && %tt0 | FileCheck %s
// RUN: %clang_tlx -w -O2 -mllvm -tlx-conv-row-taps-min-run=0 %s %tlx_rt -o %tt2 && %tt2 | FileCheck %s
// RUN: %clang_tlx -w -O2 -c %s -o /dev/null -Rpass=tlx-nd-to-2d 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang_tlx -w -O2 -c %s -o /dev/null -Rpass=tlx-nd-to-2d -mllvm -tlx-conv-shifted-max-padding=100000 2>&1 | FileCheck %s --check-prefix=ANYPAD
// RUN: %clang_tlx -w -O2 -c %s -o /dev/null -Rpass=tlx-nd-to-2d -mllvm -tlx-conv-row-taps-min-run=0 2>&1 | FileCheck %s --check-prefix=PERTAP
// CHECK-NOT: FAIL
// CHECK: nchw batch 2: ok
// CHECK: nhwc batch 2: ok
// CHECK: nhwc strided dilated: ok
// CHECK: nwc f64 stride 3: ok
// CHECK: nhwc i8 -> i32: ok
// CHECK: ncdhw 3-D: ok
// CHECK: f16 result: ok
// CHECK: 8 channels: ok
// CHECK: PASSED
//
// REMARK: remark: convolution: 2x16x8x20 * 5x16x3x3 -> 2x5x6x18 as 9 GEMMs of 5x16x118 (MxKxN) per image, one per kernel tap, reading the input in place; 10 padding pixels of 118, no im2col; kernel packed first
// REMARK: remark: convolution: 2x16x8x20 * 5x16x3x3 -> 2x5x6x18 as 3 18x48x5 (MxKxN) 2-D matmuls per output row, one per kernel row, reading the input in place (channels last), no im2col [-Rpass
// REMARK: remark: convolution: 1x16x9x34 * 4x16x3x3 -> 1x4x4x15 as im2col
// REMARK: remark: convolution: 1x16x40 * 3x16x5 -> 1x3x12 as 1 12x80x3 (MxKxN) 2-D matmuls per output row, one per kernel row
// REMARK: remark: convolution: 1x16x6x24 * 4x16x2x3 -> 1x4x5x22 as 2 22x48x4 (MxKxN) 2-D matmuls per output row
// REMARK: remark: convolution: 1x16x3x4x30 * 2x16x2x2x3 -> 1x2x2x3x28 as im2col
// REMARK: remark: convolution: 1x16x4x20 * 3x16x2x2 -> 1x3x3x19 as im2col
// REMARK: remark: convolution: 1x8x4x40 * 3x8x2x2 -> 1x3x3x39 as 2 39x16x3 (MxKxN) 2-D matmuls per output row, one per kernel row
// ANYPAD: 1x16x9x34 * 4x16x3x3 -> 1x4x4x15 as 9 GEMMs of 117x16x4
// ANYPAD: 1x16x3x4x30 * 2x16x2x2x3 -> 1x2x2x3x28 as 12 GEMMs of 2x16x208
// PERTAP: remark: convolution: 2x16x8x20 * 5x16x3x3 -> 2x5x6x18 as 9 GEMMs of 118x16x5 (MxKxN) per image, one per kernel tap, reading the input in place (channels last: pixels x channels); 10 padding pixels of 118, no im2col [-Rpass
// PERTAP: remark: convolution: 1x16x40 * 3x16x5 -> 1x3x12 as 5 GEMMs of 12x16x3 (MxKxN) per image, one per kernel tap
// PERTAP: remark: convolution: 1x16x6x24 * 4x16x2x3 -> 1x4x5x22 as 6 GEMMs of 118x16x4 (MxKxN) per image, one per kernel tap
// PERTAP-NOT: per output row, one per kernel row
#include "Inputs/conv_case.h"

typedef float v1080f __attribute__((__vector_size__(1080 * 4)));
typedef float v240f __attribute__((__vector_size__(240 * 4)));
typedef double v36d __attribute__((__vector_size__(36 * 8)));
typedef int32_t v440i __attribute__((__vector_size__(440 * 4)));
typedef float v336f __attribute__((__vector_size__(336 * 4)));
typedef _Float16 v171h __attribute__((__vector_size__(171 * 2)));
typedef float v351f __attribute__((__vector_size__(351 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(v1080f, f1080)
TLX_DECLARE_TENSOR_OPS_AS(v240f, f240)
TLX_DECLARE_TENSOR_OPS_AS(v36d, d36)
TLX_DECLARE_TENSOR_OPS_AS(v440i, i440)
TLX_DECLARE_TENSOR_OPS_AS(v336f, f336)
TLX_DECLARE_TENSOR_OPS_AS(v171h, h171)
TLX_DECLARE_TENSOR_OPS_AS(v351f, f351)

int main(void) {
  // NCHW, OIHW kernel (packed into taps of [O, C]): kernel x pixels.
  CONV_CASE("nchw batch 2", float, float, TLX_F32, TLX_F32, f1080, 4, 2,
            (2, 16, 8, 20), (0, 1, 2, 3), (5, 16, 3, 3), (0, 1, 2, 3),
            (2, 5, 6, 18), (0, 1, 2, 3), (1, 1), (1, 1))
  // NHWC, HWIO kernel (read in place): pixels x channels.
  CONV_CASE("nhwc batch 2", float, float, TLX_F32, TLX_F32, f1080, 4, 2,
            (2, 8, 20, 16), (0, 2, 3, 1), (3, 3, 16, 5), (2, 3, 1, 0),
            (2, 6, 18, 5), (0, 2, 3, 1), (1, 1), (1, 1))
  // Strides 2 and a kernel dilation: too much padding (im2col) unless
  // allowed; OHWI kernel (packed into taps of [C, O]).
  CONV_CASE("nhwc strided dilated", float, float, TLX_F32, TLX_F32, f240, 4, 2,
            (1, 9, 34, 16), (0, 2, 3, 1), (4, 3, 3, 16), (0, 2, 3, 1),
            (1, 4, 15, 4), (0, 2, 3, 1), (2, 2), (1, 2))
  // 1-D channels last with stride 3: wide pixels 3 input pixels apart.
  CONV_CASE("nwc f64 stride 3", double, double, TLX_F64, TLX_F64, d36, 3, 1,
            (1, 40, 16), (0, 2, 1), (5, 16, 3), (2, 1, 0), (1, 12, 3),
            (0, 2, 1), (3), (1))
  CONV_CASE("nhwc i8 -> i32", int8_t, int32_t, TLX_I8, TLX_I32, i440, 4, 2,
            (1, 6, 24, 16), (0, 2, 3, 1), (2, 3, 16, 4), (2, 3, 1, 0),
            (1, 5, 22, 4), (0, 2, 3, 1), (1, 1), (1, 1))
  CONV_CASE("ncdhw 3-D", float, float, TLX_F32, TLX_F32, f336, 5, 3,
            (1, 16, 3, 4, 30), (0, 1, 2, 3, 4), (2, 16, 2, 2, 3),
            (0, 1, 2, 3, 4), (1, 2, 2, 3, 28), (0, 1, 2, 3, 4), (1, 1, 1),
            (1, 1, 1))
  // Kept on im2col: an f16 result (rounded once, not after every tap).
  // Fewer than 16 channels: a GEMM per kernel row (conv-row-taps.c).
  CONV_CASE("f16 result", _Float16, _Float16, TLX_F16, TLX_F16, h171, 4, 2,
            (1, 4, 20, 16), (0, 2, 3, 1), (2, 2, 16, 3), (2, 3, 1, 0),
            (1, 3, 19, 3), (0, 2, 3, 1), (1, 1), (1, 1))
  CONV_CASE("8 channels", float, float, TLX_F32, TLX_F32, f351, 4, 2,
            (1, 4, 40, 8), (0, 2, 3, 1), (2, 2, 8, 3), (2, 3, 1, 0),
            (1, 3, 39, 3), (0, 2, 3, 1), (1, 1), (1, 1))
  return finish();
}
