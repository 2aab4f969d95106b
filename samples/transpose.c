/* transpose.c - the RFC's transpose example and the research prototype's
 * one-operand transpose.
 *  1. A 16x5x3 tensor with padding <3,2,1> transposed to layout <2,0,1>:
 *     the logical tensor is unchanged, its storage becomes 3x16x5 with
 *     padding <1,3,2> (exactly the RFC's typeinfo on the result).
 *  2. transpose(t): the logical transpose of the last two dims of a
 *     [2 x 4 x 6] tensor, giving [2 x 6 x 4] stored row-major. */
#include <tlx.h>
#include <tlxrt.h>

#include "sample_check.h"

typedef float t240_t __attribute__((__vector_size__(240 * sizeof(float))));
typedef float t48_t __attribute__((__vector_size__(48 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS_AS(t240_t, 240)
TLX_DECLARE_TENSOR_OPS_AS(t48_t, 48)

static void rfc_transpose(t240_t tensor, float *out) {
  tlx_token_t in = tensor_typeinfo(tensor, TLX_SHAPE(16, 5, 3),
                                   TLX_LAYOUT(0, 1, 2), TLX_PADDING(3, 2, 1));
  t240_t o = tensor_transpose_240(in, TLX_LAYOUT(2, 0, 1));
  tlx_token_t typed = tensor_typeinfo(o, TLX_SHAPE(3, 16, 5),
                                      TLX_LAYOUT(2, 0, 1), TLX_PADDING(1, 3, 2));
  tensor_store(out, typed, TLX_ZEROS(3));
}

static void last_two(const float *x, float *out) {
  tlx_token_t t = tensor_load(x, TLX_SHAPE(2, 4, 6), TLX_LAYOUT(0, 1, 2),
                              TLX_ZEROS(3), TLX_ZEROS(3));
  t48_t o = tensor_transpose_48(t);
  tlx_token_t typed = tensor_typeinfo(o, TLX_SHAPE(2, 6, 4),
                                      TLX_LAYOUT(0, 1, 2), TLX_ZEROS(3));
  tensor_store(out, typed, TLX_ZEROS(3));
}

int main(void) {
  static float a[240], out[240], ref[240], x[48], out2[48], ref2[48];
  t240_t v;
  for (int i = 0; i < 240; i++)
    a[i] = (float)i;
  memcpy(&v, a, sizeof v);
  for (int i = 0; i < 48; i++)
    x[i] = (float)i;
  rfc_transpose(v, out);
  last_two(x, out2);

  tlx_tensor da, dout, dx, dout2;
  tlx_tensor_init(&da, a, TLX_F32, 3, (const int64_t[]){16, 5, 3}, 0,
                  (const int64_t[]){3, 2, 1}, 0);
  tlx_tensor_init(&dout, ref, TLX_F32, 3, (const int64_t[]){3, 16, 5},
                  (const int64_t[]){2, 0, 1}, (const int64_t[]){1, 3, 2}, 0);
  SAMPLE_CHECK_REF(tlx_ref_transpose(&da, (const int64_t[]){2, 0, 1}, &dout));
  tlx_tensor_init(&dx, x, TLX_F32, 3, (const int64_t[]){2, 4, 6}, 0, 0, 0);
  tlx_tensor_init(&dout2, ref2, TLX_F32, 3, (const int64_t[]){2, 6, 4}, 0, 0,
                  0);
  SAMPLE_CHECK_REF(tlx_ref_transpose(&dx, NULL, &dout2));

  sample_print_f32("storage row 0 of the 3x16x5 result", out, 16, 5, 5);
  sample_print_f32("transpose(t)[0]: 6x4", out2, 6, 4, 4);
  int bad = sample_compare_f32("rfc", out, ref, 240, 0, 0) +
            sample_compare_f32("last-two", out2, ref2, 48, 0, 0);
  return sample_result("transpose", bad);
}
