/* amx_bf16_mlp.c - a bf16 dense layer with float accumulation, the shape
 * of Intel AMX's tdpbf16ps: y = relu(x * W + bias) with x [16 x 64] and
 * W [64 x 32] in bf16, y and bias in float.
 * Built for AMX: -fplugin-arg-tlx-target=amx where the CPU has amx_tile,
 * -fplugin-arg-tlx-target=amx-emulate elsewhere. */
#include <tlx.h>
#include <tlxrt.h>

#include "sample_check.h"

#define B 16
#define IN 64
#define OUT 32

typedef float act_t __attribute__((__vector_size__(B * OUT * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(act_t)

static void layer(const __bf16 *x, const __bf16 *w, const float *bias,
                  float *y) {
  tlx_token_t tx = tensor_load(x, TLX_SHAPE(B, IN), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tw = tensor_load(w, TLX_SHAPE(IN, OUT), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(bias, TLX_SHAPE(OUT), TLX_LAYOUT(0),
                               TLX_ZEROS(1), TLX_ZEROS(1));
  act_t xw = tensor_matmul(tx, tw); /* bf16 x bf16 -> f32 */
  tensor_typeinfo(xw, TLX_SHAPE(B, OUT), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  act_t bb = tensor_broadcast(tb);
  tensor_typeinfo(bb, TLX_SHAPE(B, OUT), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  act_t z = xw + bb;
  tlx_token_t tz =
      tensor_typeinfo(z, TLX_SHAPE(B, OUT), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  act_t r = tensor_relu(tz);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(B, OUT), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(y, tr, TLX_ZEROS(2));
}

int main(void) {
  static float xf[B * IN], wf[IN * OUT], bias[OUT];
  static __bf16 x[B * IN], w[IN * OUT];
  static float y[B * OUT], ref[B * OUT], xw[B * OUT], bb[B * OUT];
  sample_fill_f32(xf, B * IN, 71);
  sample_fill_f32(wf, IN * OUT, 72);
  sample_fill_f32(bias, OUT, 73);
  /* k/8 values are exact in bf16. */
  for (int i = 0; i < B * IN; i++) {
    uint16_t h = tlx_f32_to_bf16(xf[i]);
    memcpy(&x[i], &h, 2);
  }
  for (int i = 0; i < IN * OUT; i++) {
    uint16_t h = tlx_f32_to_bf16(wf[i]);
    memcpy(&w[i], &h, 2);
  }
  layer(x, w, bias, y);

  tlx_tensor dx, dw, db, dxw, dbb, dref;
  tlx_tensor_init(&dx, x, TLX_BF16, 2, (const int64_t[]){B, IN}, 0, 0, 0);
  tlx_tensor_init(&dw, w, TLX_BF16, 2, (const int64_t[]){IN, OUT}, 0, 0, 0);
  tlx_tensor_init(&db, bias, TLX_F32, 1, (const int64_t[]){OUT}, 0, 0, 0);
  tlx_tensor_init(&dxw, xw, TLX_F32, 2, (const int64_t[]){B, OUT}, 0, 0, 0);
  tlx_tensor_init(&dbb, bb, TLX_F32, 2, (const int64_t[]){B, OUT}, 0, 0, 0);
  tlx_tensor_init(&dref, ref, TLX_F32, 2, (const int64_t[]){B, OUT}, 0, 0, 0);
  SAMPLE_CHECK_REF(tlx_ref_matmul(&dx, &dw, &dxw));
  SAMPLE_CHECK_REF(tlx_ref_broadcast(&db, &dbb));
  for (int i = 0; i < B * OUT; i++)
    xw[i] += bb[i];
  SAMPLE_CHECK_REF(tlx_ref_unary(TLX_RELU, &dxw, &dref));

  sample_print_f32("y (first 4 rows, 8 columns)", y, 4, 8, OUT);
  /* Products of k/8 values summed over 64 terms are exact in float. */
  return sample_result("amx_bf16_mlp",
                       sample_compare_f32("y", y, ref, B * OUT, 0, 0));
}
