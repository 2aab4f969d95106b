/* pooling.c - pooling layers as reduce-window ops (the RFC maps
 * llvm.tensor.reduce.* to XLA reduce-window and NVDLA pooling).
 * Input NCHW [1 x 3 x 8 x 8]:
 *  - 2x2 max pooling, stride 2: window <1,1,2,2>, strides <1,1,2,2>
 *    -> [1 x 3 x 4 x 4];
 *  - 3x3 sum pooling, stride 1 (an average pool before the division)
 *    -> [1 x 3 x 6 x 6]. */
#include <tlx.h>
#include <tlxrt.h>

#include "sample_check.h"

typedef float p48_t __attribute__((__vector_size__(48 * sizeof(float))));
typedef float p108_t __attribute__((__vector_size__(108 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS_AS(p48_t, 48)
TLX_DECLARE_TENSOR_OPS_AS(p108_t, 108)

static void pool(const float *x, float *maxp, float *avgp) {
  tlx_token_t t = tensor_load(x, TLX_SHAPE(1, 3, 8, 8), TLX_LAYOUT(0, 1, 2, 3),
                              TLX_ZEROS(4), TLX_ZEROS(4));
  p48_t m = tensor_reduce_max_48(t, TLX_DIMS(1, 1, 2, 2), TLX_DIMS(1, 1, 2, 2));
  tlx_token_t tm = tensor_typeinfo(m, TLX_SHAPE(1, 3, 4, 4),
                                   TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4));
  tensor_store(maxp, tm, TLX_ZEROS(4));
  p108_t s = tensor_reduce_add_108(t, TLX_DIMS(1, 1, 3, 3), TLX_DIMS(1, 1, 1, 1));
  tensor_typeinfo(s, TLX_SHAPE(1, 3, 6, 6), TLX_LAYOUT(0, 1, 2, 3),
                  TLX_ZEROS(4));
  s = s / 9.0f; /* plain vector arithmetic on the flattened result */
  tlx_token_t ts = tensor_typeinfo(s, TLX_SHAPE(1, 3, 6, 6),
                                   TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4));
  tensor_store(avgp, ts, TLX_ZEROS(4));
}

int main(void) {
  static float x[192], maxp[48], avgp[108], rmax[48], ravg[108];
  sample_fill_f32(x, 192, 5);
  pool(x, maxp, avgp);

  tlx_tensor dx, dm, da;
  tlx_tensor_init(&dx, x, TLX_F32, 4, (const int64_t[]){1, 3, 8, 8}, 0, 0, 0);
  tlx_tensor_init(&dm, rmax, TLX_F32, 4, (const int64_t[]){1, 3, 4, 4}, 0, 0,
                  0);
  tlx_tensor_init(&da, ravg, TLX_F32, 4, (const int64_t[]){1, 3, 6, 6}, 0, 0,
                  0);
  SAMPLE_CHECK_REF(tlx_ref_reduce(TLX_REDUCE_MAX, &dx,
                                  (const int64_t[]){1, 1, 2, 2},
                                  (const int64_t[]){1, 1, 2, 2}, &dm));
  SAMPLE_CHECK_REF(tlx_ref_reduce(TLX_REDUCE_ADD, &dx,
                                  (const int64_t[]){1, 1, 3, 3},
                                  (const int64_t[]){1, 1, 1, 1}, &da));
  for (int i = 0; i < 108; i++)
    ravg[i] /= 9.0f;

  sample_print_f32("max pool, channel 0", maxp, 4, 4, 4);
  sample_print_f32("3x3 average pool, channel 0", avgp, 6, 6, 6);
  int bad = sample_compare_f32("max", maxp, rmax, 48, 0, 0) +
            sample_compare_f32("avg", avgp, ravg, 108, 0, 0);
  return sample_result("pooling", bad);
}
