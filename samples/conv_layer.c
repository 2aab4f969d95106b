/* conv_layer.c - a convolution layer: conv2d + relu.
 * input NCHW [2 x 3 x 9 x 9], kernel OIHW [4 x 3 x 3 x 3], stride 2 in both
 * spatial dims, no dilation: output [2 x 4 x 4 x 4], then relu. A second
 * convolution uses kernel dilation 2 at stride 1 (input dilation written 0,
 * which reads as 1): the kernel covers 5x5, output [2 x 4 x 5 x 5].
 * No implicit padding (use tensor_pad for "same" convolutions). */
#include <tlx.h>
#include <tlxrt.h>

#include "sample_check.h"

#define NB 2
#define CI 3
#define HW 9
#define CO 4
#define KS 3
/* stride 2: (9 - 3) / 2 + 1 = 4 */
#define OHW 4
/* kernel dilation 2 -> effective kernel 5, stride 1: 9 - 5 + 1 = 5 */
#define DHW 5

typedef float o128_t __attribute__((__vector_size__(NB * CO * OHW * OHW * sizeof(float))));
typedef float o200_t __attribute__((__vector_size__(NB * CO * DHW * DHW * sizeof(float))));
TLX_DECLARE_TENSOR_OPS_AS(o128_t, s2)
TLX_DECLARE_TENSOR_OPS_AS(o200_t, d2)

static void conv(const float *x, const float *w, float *y, float *yd) {
  tlx_token_t tx = tensor_load(x, TLX_SHAPE(NB, CI, HW, HW),
                               TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                               TLX_ZEROS(4));
  tlx_token_t tw = tensor_load(w, TLX_SHAPE(CO, CI, KS, KS),
                               TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                               TLX_ZEROS(4));
  o128_t c = tensor_convolution_s2(tx, tw, TLX_DIMS(2, 2), TLX_DIMS(1, 1),
                                   TLX_DIMS(1, 1));
  tlx_token_t tc = tensor_typeinfo(c, TLX_SHAPE(NB, CO, OHW, OHW),
                                   TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4));
  o128_t r = tensor_relu_s2(tc);
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(NB, CO, OHW, OHW),
                                   TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4));
  tensor_store(y, tr, TLX_ZEROS(4));

  o200_t d = tensor_convolution_d2(tx, tw, TLX_DIMS(1, 1), TLX_DIMS(0, 0),
                                   TLX_DIMS(2, 2));
  tlx_token_t td = tensor_typeinfo(d, TLX_SHAPE(NB, CO, DHW, DHW),
                                   TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4));
  tensor_store(yd, td, TLX_ZEROS(4));
}

int main(void) {
  static float x[NB * CI * HW * HW], w[CO * CI * KS * KS];
  static float y[NB * CO * OHW * OHW], ref[NB * CO * OHW * OHW],
      tmp[NB * CO * OHW * OHW];
  static float yd[NB * CO * DHW * DHW], refd[NB * CO * DHW * DHW];
  sample_fill_f32(x, sizeof x / sizeof *x, 21);
  sample_fill_f32(w, sizeof w / sizeof *w, 22);
  conv(x, w, y, yd);

  tlx_tensor dx, dw, dtmp, dref, drefd;
  tlx_tensor_init(&dx, x, TLX_F32, 4, (const int64_t[]){NB, CI, HW, HW}, 0, 0,
                  0);
  tlx_tensor_init(&dw, w, TLX_F32, 4, (const int64_t[]){CO, CI, KS, KS}, 0, 0,
                  0);
  tlx_tensor_init(&dtmp, tmp, TLX_F32, 4,
                  (const int64_t[]){NB, CO, OHW, OHW}, 0, 0, 0);
  tlx_tensor_init(&dref, ref, TLX_F32, 4,
                  (const int64_t[]){NB, CO, OHW, OHW}, 0, 0, 0);
  tlx_tensor_init(&drefd, refd, TLX_F32, 4,
                  (const int64_t[]){NB, CO, DHW, DHW}, 0, 0, 0);
  SAMPLE_CHECK_REF(tlx_ref_convolution(&dx, &dw, (const int64_t[]){2, 2},
                                       NULL, NULL, &dtmp));
  SAMPLE_CHECK_REF(tlx_ref_unary(TLX_RELU, &dtmp, &dref));
  SAMPLE_CHECK_REF(tlx_ref_convolution(&dx, &dw, NULL, NULL,
                                       (const int64_t[]){2, 2}, &drefd));

  sample_print_f32("relu(conv stride 2): image 0, channel 0", y, OHW, OHW,
                   OHW);
  sample_print_f32("conv dilation 2: image 0, channel 0", yd, DHW, DHW, DHW);
  int bad = sample_compare_f32("conv", y, ref, sizeof y / sizeof *y, 0, 0) +
            sample_compare_f32("dilated", yd, refd, sizeof yd / sizeof *yd, 0,
                               0);
  return sample_result("conv_layer", bad);
}
