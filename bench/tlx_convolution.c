/* tlx_convolution.c - a benchmark convolution layer (conv_common.h; by
 * default 3x3, 64 -> 64 channels, 56x56 input, batch 1, no padding)
 * written with tlx.h: one tensor_convolution of an NCHW input [1,C,H,W]
 * with an OIHW kernel [O,C,R,R] into [1,O,OH,OW] - or, with
 * -DCONV_NHWC=1, of channels-last data (layout <0,2,3,1>, kernel HWIO:
 * layout <2,3,1,0>) - compiled by tlx-cc (bench/run: -O2 -march=native,
 * -O2, -O0 -march=native). tlx-nd-to-2d lowers it to GEMMs
 * (lib/Transforms/LowerNDTo2D.cpp); bench/tlx_conv.c is the
 * hand-decomposed form through the emitter's test marker, kept for
 * emitter work. -D: NAME (the row's name). Prints "NAME CONV_LABEL
 * GFLOPS". */
#define _POSIX_C_SOURCE 200809L
#include <tlx.h>

#include "conv_common.h"

#ifndef NAME
#define NAME "tlx"
#endif

typedef float out_t
    __attribute__((__vector_size__(CONV_O * CONV_OH * CONV_OW * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(out_t)

/* Shapes are written in storage order (the layout lists the logical dims
 * N, C, H, W - or O, C, R, R - outermost first). */
#if CONV_NHWC
#define DATA_LAYOUT TLX_LAYOUT(0, 2, 3, 1)
#define KERNEL_LAYOUT TLX_LAYOUT(2, 3, 1, 0)
#define IN_SHAPE TLX_SHAPE(1, CONV_H, CONV_W, CONV_C)
#define KERNEL_SHAPE TLX_SHAPE(CONV_R, CONV_R, CONV_C, CONV_O)
#define OUT_SHAPE TLX_SHAPE(1, CONV_OH, CONV_OW, CONV_O)
#else
#define DATA_LAYOUT TLX_LAYOUT(0, 1, 2, 3)
#define KERNEL_LAYOUT TLX_LAYOUT(0, 1, 2, 3)
#define IN_SHAPE TLX_SHAPE(1, CONV_C, CONV_H, CONV_W)
#define KERNEL_SHAPE TLX_SHAPE(CONV_O, CONV_C, CONV_R, CONV_R)
#define OUT_SHAPE TLX_SHAPE(1, CONV_O, CONV_OH, CONV_OW)
#endif

static void conv(const float *restrict in, const float *restrict wei,
                 float *restrict out) {
  tlx_token_t ti = tensor_load(in, IN_SHAPE, DATA_LAYOUT, TLX_ZEROS(4),
                               TLX_ZEROS(4));
  tlx_token_t tk = tensor_load(wei, KERNEL_SHAPE, KERNEL_LAYOUT,
                               TLX_ZEROS(4), TLX_ZEROS(4));
  out_t r = tensor_convolution(ti, tk, TLX_STRIDES(CONV_S, CONV_S),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tensor_store(out,
               tensor_typeinfo(r, OUT_SHAPE, DATA_LAYOUT, TLX_ZEROS(4)),
               TLX_ZEROS(4));
}

int main(void) {
  float *in, *wei, *out;
  conv_alloc(&in, &wei, &out);
  conv(in, wei, out);
  if (conv_check(in, wei, out)) {
    printf("%s " CONV_LABEL " FAILED\n", NAME);
    return 1;
  }
  double best = 1e30;
  for (int r = 0; r < 20; ++r) {
    double t0 = bench_now();
    conv(in, wei, out);
    double t = bench_now() - t0;
    best = t < best ? t : best;
  }
  printf("%s " CONV_LABEL " %.1f\n", NAME, conv_flops() / best * 1e-9);
  return 0;
}
