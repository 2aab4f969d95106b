/* dense_layer.c - a dense layer at a realistic size, written the way C
 * programmers write vector code: y = relu(alpha * (x W) + b) with the
 * scale and the bias add as C vector operators on the tensor values.
 * x: [256 x 512], W: [512 x 512], b: [512] broadcast over the batch.
 * tlx-vector-ops makes the operators TLX ops, so nothing tensor-sized
 * reaches the backend (this compiles in about a second at -O0). Checked
 * against the reference (libtlxrt).
 *
 *   tlx-cc -O2 samples/dense_layer.c -o dense_layer && ./dense_layer
 */
#include <tlx.h>
#include <tlxrt.h>

#include "sample_check.h"

#define BATCH 256
#define IN 512
#define OUT 512

typedef float act_t
    __attribute__((__vector_size__(BATCH * OUT * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(act_t)

#define ACT TLX_SHAPE(BATCH, OUT), TLX_LAYOUT(0, 1), TLX_ZEROS(2)

static void dense_layer(const float *x, const float *w, const float *bias,
                        float alpha, float *y) {
  tlx_token_t tx = tensor_load(x, TLX_SHAPE(BATCH, IN), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tw = tensor_load(w, TLX_SHAPE(IN, OUT), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(bias, TLX_SHAPE(OUT), TLX_LAYOUT(0),
                               TLX_ZEROS(1), TLX_ZEROS(1));
  act_t xw = tensor_matmul(tx, tw);
  tensor_typeinfo(xw, ACT);
  act_t b = tensor_broadcast(tb);
  tensor_typeinfo(b, ACT);
  act_t z = xw * alpha + b;
  act_t r = tensor_relu(tensor_typeinfo(z, ACT));
  tensor_store(y, tensor_typeinfo(r, ACT), TLX_ZEROS(2));
}

int main(void) {
  static float x[BATCH * IN], w[IN * OUT], bias[OUT], y[BATCH * OUT],
      ref[BATCH * OUT], xw[BATCH * OUT], bb[BATCH * OUT];
  const float alpha = 0.5f;
  sample_fill_f32(x, BATCH * IN, 1);
  sample_fill_f32(w, IN * OUT, 2);
  sample_fill_f32(bias, OUT, 3);

  dense_layer(x, w, bias, alpha, y);

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
    xw[i] = xw[i] * alpha + bb[i];
  SAMPLE_CHECK_REF(tlx_ref_unary(TLX_RELU, &dxw, &dref));

  return sample_result("dense_layer",
                       sample_compare_f32("y", y, ref, BATCH * OUT, 0, 0));
}
