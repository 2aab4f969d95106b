/* mlp_layer.c - one dense layer of a multi-layer perceptron in TLX:
 *   y = relu(x * W + bias)
 * x: [8 x 32] activations, W: [32 x 16] weights, bias: [16] broadcast over
 * the batch. matmul and broadcast return flattened vectors of the same
 * layout, so the bias is added with plain C vector arithmetic; relu runs on
 * the typed sum. The result is checked against the reference (libtlxrt).
 *
 *   clang-19 -O2 -fplugin=build/lib/libtlx.so -Iheaders samples/mlp_layer.c \
 *       build/lib/libtlxrt.a -lm -o mlp_layer && ./mlp_layer
 */
#include <tlx.h>
#include <tlxrt.h>

#include "sample_check.h"

#define BATCH 8
#define IN 32
#define OUT 16

typedef float act_t __attribute__((__vector_size__(BATCH * OUT * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(act_t)

static void mlp_layer(const float *x, const float *w, const float *bias,
                      float *y) {
  tlx_token_t tx = tensor_load(x, TLX_SHAPE(BATCH, IN), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tw = tensor_load(w, TLX_SHAPE(IN, OUT), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(bias, TLX_SHAPE(OUT), TLX_LAYOUT(0),
                               TLX_ZEROS(1), TLX_ZEROS(1));
  act_t xw = tensor_matmul(tx, tw);
  tensor_typeinfo(xw, TLX_SHAPE(BATCH, OUT), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  act_t b = tensor_broadcast(tb);
  tensor_typeinfo(b, TLX_SHAPE(BATCH, OUT), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  act_t z = xw + b;
  tlx_token_t tz =
      tensor_typeinfo(z, TLX_SHAPE(BATCH, OUT), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  act_t r = tensor_relu(tz);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(BATCH, OUT), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(y, tr, TLX_ZEROS(2));
}

int main(void) {
  static float x[BATCH * IN], w[IN * OUT], bias[OUT];
  static float y[BATCH * OUT], ref[BATCH * OUT], xw[BATCH * OUT],
      bb[BATCH * OUT];
  sample_fill_f32(x, BATCH * IN, 1);
  sample_fill_f32(w, IN * OUT, 2);
  sample_fill_f32(bias, OUT, 3);

  mlp_layer(x, w, bias, y);

  /* The reference: the same layer op by op. */
  tlx_tensor dx, dw, db, dxw, dbb, dref;
  tlx_tensor_init(&dx, x, TLX_F32, 2, (const int64_t[]){BATCH, IN}, 0, 0, 0);
  tlx_tensor_init(&dw, w, TLX_F32, 2, (const int64_t[]){IN, OUT}, 0, 0, 0);
  tlx_tensor_init(&db, bias, TLX_F32, 1, (const int64_t[]){OUT}, 0, 0, 0);
  tlx_tensor_init(&dxw, xw, TLX_F32, 2, (const int64_t[]){BATCH, OUT}, 0, 0, 0);
  tlx_tensor_init(&dbb, bb, TLX_F32, 2, (const int64_t[]){BATCH, OUT}, 0, 0, 0);
  tlx_tensor_init(&dref, ref, TLX_F32, 2, (const int64_t[]){BATCH, OUT}, 0, 0,
                  0);
  SAMPLE_CHECK_REF(tlx_ref_matmul(&dx, &dw, &dxw));
  SAMPLE_CHECK_REF(tlx_ref_broadcast(&db, &dbb));
  for (int i = 0; i < BATCH * OUT; i++)
    xw[i] += bb[i];
  SAMPLE_CHECK_REF(tlx_ref_unary(TLX_RELU, &dxw, &dref));

  sample_print_f32("y = relu(x * W + bias)", y, BATCH, OUT, OUT);
  return sample_result("mlp_layer",
                       sample_compare_f32("y", y, ref, BATCH * OUT, 0, 0));
}
