/* activations.c - the RFC's elementwise activations relu, tanh and sigmoid
 * on a 3-D tensor [2 x 3 x 8]; tanh's result is written column-major over
 * the last two dims (layout <0, 2, 1>) to show that a result typeinfo
 * chooses the storage. */
#include <tlx.h>
#include <tlxrt.h>

#include "sample_check.h"

#define N (2 * 3 * 8)
typedef float act_t __attribute__((__vector_size__(N * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(act_t)

static void activations(const float *x, float *r, float *t, float *s) {
  tlx_token_t tx = tensor_load(x, TLX_SHAPE(2, 3, 8), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  act_t vr = tensor_relu(tx);
  tlx_token_t tr = tensor_typeinfo(vr, TLX_SHAPE(2, 3, 8), TLX_LAYOUT(0, 1, 2),
                                   TLX_ZEROS(3));
  tensor_store(r, tr, TLX_ZEROS(3));
  act_t vt = tensor_tanh(tx);
  tlx_token_t tt = tensor_typeinfo(vt, TLX_SHAPE(2, 8, 3), TLX_LAYOUT(0, 2, 1),
                                   TLX_ZEROS(3));
  tensor_store(t, tt, TLX_ZEROS(3));
  act_t vs = tensor_sigmoid(tx);
  tlx_token_t ts = tensor_typeinfo(vs, TLX_SHAPE(2, 3, 8), TLX_LAYOUT(0, 1, 2),
                                   TLX_ZEROS(3));
  tensor_store(s, ts, TLX_ZEROS(3));
}

int main(void) {
  static float x[N], r[N], t[N], s[N], rr[N], rt[N], rs[N];
  for (int i = 0; i < N; i++)
    x[i] = (float)(i - N / 2) / 8.0f;
  activations(x, r, t, s);

  const int64_t shape[] = {2, 3, 8}, tshape[] = {2, 8, 3}, tl[] = {0, 2, 1};
  tlx_tensor dx, dr, dt, ds;
  tlx_tensor_init(&dx, x, TLX_F32, 3, shape, 0, 0, 0);
  tlx_tensor_init(&dr, rr, TLX_F32, 3, shape, 0, 0, 0);
  tlx_tensor_init(&dt, rt, TLX_F32, 3, tshape, tl, 0, 0);
  tlx_tensor_init(&ds, rs, TLX_F32, 3, shape, 0, 0, 0);
  SAMPLE_CHECK_REF(tlx_ref_unary(TLX_RELU, &dx, &dr));
  SAMPLE_CHECK_REF(tlx_ref_unary(TLX_TANH, &dx, &dt));
  SAMPLE_CHECK_REF(tlx_ref_unary(TLX_SIGMOID, &dx, &ds));

  sample_print_f32("relu(x)[0]", r, 3, 8, 8);
  sample_print_f32("tanh(x)[0] (stored 8x3)", t, 8, 3, 3);
  sample_print_f32("sigmoid(x)[0]", s, 3, 8, 8);
  /* libm and vectorised code may differ by a few float ulps. */
  int bad = sample_compare_f32("relu", r, rr, N, 0, 0) +
            sample_compare_f32("tanh", t, rt, N, 1e-6f, 1e-6f) +
            sample_compare_f32("sigmoid", s, rs, N, 1e-6f, 1e-6f);
  return sample_result("activations", bad);
}
