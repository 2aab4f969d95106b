/* tlx_convolution.c - the benchmark convolution layer (conv_common.h: 3x3,
 * 64 -> 64 channels, 56x56 input, batch 1, no padding) written with tlx.h:
 * one tensor_convolution of an NCHW input [1,64,56,56] with an OIHW kernel
 * [64,64,3,3] into [1,64,54,54], compiled by tlx-cc (bench/run: -O2
 * -march=native, -O2, -O0 -march=native). tlx-tile lowers it to GEMMs
 * (lib/Transforms/Tile.cpp); bench/tlx_conv.c is the hand-decomposed form
 * through the emitter's test marker, kept for emitter work.
 * -D: NAME (the row's name). Prints "NAME conv 64x56x56 3x3x64 GFLOPS". */
#define _POSIX_C_SOURCE 200809L
#include <tlx.h>

#include "conv_common.h"

#ifndef NAME
#define NAME "tlx"
#endif

typedef float out_t
    __attribute__((__vector_size__(CONV_O * CONV_OH * CONV_OW * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(out_t)

static void conv(const float *restrict in, const float *restrict wei,
                 float *restrict out) {
  tlx_token_t ti = tensor_load(in, TLX_SHAPE(1, CONV_C, CONV_H, CONV_W),
                               TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                               TLX_ZEROS(4));
  tlx_token_t tk = tensor_load(wei, TLX_SHAPE(CONV_O, CONV_C, CONV_R, CONV_R),
                               TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                               TLX_ZEROS(4));
  out_t r = tensor_convolution(ti, tk);
  tensor_store(out,
               tensor_typeinfo(r, TLX_SHAPE(1, CONV_O, CONV_OH, CONV_OW),
                               TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4)),
               TLX_ZEROS(4));
}

int main(void) {
  float *in, *wei, *out;
  conv_alloc(&in, &wei, &out);
  conv(in, wei, out);
  if (conv_check(in, wei, out)) {
    printf("%s conv 64x56x56 3x3x64 FAILED\n", NAME);
    return 1;
  }
  double best = 1e30;
  for (int r = 0; r < 20; ++r) {
    double t0 = bench_now();
    conv(in, wei, out);
    double t = bench_now() - t0;
    best = t < best ? t : best;
  }
  printf("%s conv 64x56x56 3x3x64 %.1f\n", NAME, conv_flops() / best * 1e-9);
  return 0;
}
