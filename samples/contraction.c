/* contraction.c - tensor contraction (XLA dot-general without batch dims).
 * The result holds the free dims of the first operand, then the free dims
 * of the second, each in order.
 *  1. The RFC's operands: two 2x2x2 tensors contracted over axes {0, 2} of
 *     the first and {0, 1} of the second -> [2 x 2] (the RFC's typeinfo
 *     says 2x2x2, which does not match its own axes; docs/ops.md).
 *  2. A [3 x 4 x 5] tensor times a [5 x 6] matrix over the 5s -> [3 x 4 x 6]
 *     (a batched matmul written as a contraction). */
#include <tlx.h>
#include <tlxrt.h>

#include "sample_check.h"

typedef float c4_t __attribute__((__vector_size__(4 * sizeof(float))));
typedef float c72_t __attribute__((__vector_size__(72 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS_AS(c4_t, 4)
TLX_DECLARE_TENSOR_OPS_AS(c72_t, 72)

static void rfc_contract(const float *a, const float *b, float *out) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(2, 2, 2), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(2, 2, 2), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  c4_t r = tensor_contract_4(ta, tb, TLX_DIMS(0, 2), TLX_DIMS(0, 1));
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(2, 2), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(out, tr, TLX_ZEROS(2));
}

static void ttm(const float *a, const float *m, float *out) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(3, 4, 5), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  tlx_token_t tm = tensor_load(m, TLX_SHAPE(5, 6), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  c72_t r = tensor_contract_72(ta, tm, TLX_DIMS(2), TLX_DIMS(0));
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(3, 4, 6), TLX_LAYOUT(0, 1, 2),
                                   TLX_ZEROS(3));
  tensor_store(out, tr, TLX_ZEROS(3));
}

int main(void) {
  static float a[8], b[8], o1[4], r1[4], x[60], m[30], o2[72], r2[72];
  for (int i = 0; i < 8; i++) {
    a[i] = (float)(i + 1);
    b[i] = (float)(8 - i);
  }
  sample_fill_f32(x, 60, 31);
  sample_fill_f32(m, 30, 32);
  rfc_contract(a, b, o1);
  ttm(x, m, o2);

  tlx_tensor da, db, d1, dx, dm, d2;
  tlx_tensor_init(&da, a, TLX_F32, 3, (const int64_t[]){2, 2, 2}, 0, 0, 0);
  tlx_tensor_init(&db, b, TLX_F32, 3, (const int64_t[]){2, 2, 2}, 0, 0, 0);
  tlx_tensor_init(&d1, r1, TLX_F32, 2, (const int64_t[]){2, 2}, 0, 0, 0);
  SAMPLE_CHECK_REF(tlx_ref_contract(&da, &db, 2, (const int64_t[]){0, 2},
                                    (const int64_t[]){0, 1}, &d1));
  tlx_tensor_init(&dx, x, TLX_F32, 3, (const int64_t[]){3, 4, 5}, 0, 0, 0);
  tlx_tensor_init(&dm, m, TLX_F32, 2, (const int64_t[]){5, 6}, 0, 0, 0);
  tlx_tensor_init(&d2, r2, TLX_F32, 3, (const int64_t[]){3, 4, 6}, 0, 0, 0);
  SAMPLE_CHECK_REF(tlx_ref_contract(&dx, &dm, 1, (const int64_t[]){2},
                                    (const int64_t[]){0}, &d2));

  sample_print_f32("RFC contraction", o1, 2, 2, 2);
  sample_print_f32("tensor x matrix, slice 0", o2, 4, 6, 6);
  int bad = sample_compare_f32("rfc", o1, r1, 4, 0, 0) +
            sample_compare_f32("ttm", o2, r2, 72, 0, 0);
  return sample_result("contraction", bad);
}
