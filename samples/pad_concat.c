/* pad_concat.c - pad and concat on int32 tensors.
 *  pad: X [3 x 4], low <1, 2>, high <1, 0>, value -1 -> [5 x 6]
 *  concat: X [3 x 4] and Y [2 x 4] along dim 0 -> [5 x 4]; then X and
 *          Y' [3 x 1] along dim 1 -> [3 x 5]. */
#include <tlx.h>
#include <tlxrt.h>

#include "sample_check.h"

typedef int32_t p30_t __attribute__((__vector_size__(30 * sizeof(int32_t))));
typedef int32_t p20_t __attribute__((__vector_size__(20 * sizeof(int32_t))));
typedef int32_t p15_t __attribute__((__vector_size__(15 * sizeof(int32_t))));
TLX_DECLARE_TENSOR_OPS_AS(p30_t, 30)
TLX_DECLARE_TENSOR_OPS_AS(p20_t, 20)
TLX_DECLARE_TENSOR_OPS_AS(p15_t, 15)

static void pad_concat(const int32_t *x, const int32_t *y, const int32_t *z,
                       int32_t *padded, int32_t *rows, int32_t *cols) {
  tlx_token_t tx = tensor_load(x, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t ty = tensor_load(y, TLX_SHAPE(2, 4), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tz = tensor_load(z, TLX_SHAPE(3, 1), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  p30_t p = tensor_pad_30(tx, TLX_DIMS(1, 2), TLX_DIMS(1, 0), (int32_t)-1);
  tlx_token_t tp =
      tensor_typeinfo(p, TLX_SHAPE(5, 6), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(padded, tp, TLX_ZEROS(2));
  p20_t r = tensor_concat_20(tx, ty, 0);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(5, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(rows, tr, TLX_ZEROS(2));
  p15_t c = tensor_concat_15(tx, tz, 1);
  tlx_token_t tc =
      tensor_typeinfo(c, TLX_SHAPE(3, 5), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(cols, tc, TLX_ZEROS(2));
}

static void print_i32(const char *name, const int32_t *p, int r, int c) {
  printf("%s (%dx%d):\n", name, r, c);
  for (int i = 0; i < r; i++) {
    for (int j = 0; j < c; j++)
      printf(" %4d", p[i * c + j]);
    printf("\n");
  }
}

int main(void) {
  static int32_t x[12], y[8], z[3], padded[30], rows[20], cols[15];
  static int32_t rp[30], rr[20], rc[15];
  for (int i = 0; i < 12; i++)
    x[i] = i + 1;
  for (int i = 0; i < 8; i++)
    y[i] = 100 + i;
  for (int i = 0; i < 3; i++)
    z[i] = 50 + i;
  pad_concat(x, y, z, padded, rows, cols);

  tlx_tensor dx, dy, dz, dp, dr, dc;
  tlx_tensor_init(&dx, x, TLX_I32, 2, (const int64_t[]){3, 4}, 0, 0, 0);
  tlx_tensor_init(&dy, y, TLX_I32, 2, (const int64_t[]){2, 4}, 0, 0, 0);
  tlx_tensor_init(&dz, z, TLX_I32, 2, (const int64_t[]){3, 1}, 0, 0, 0);
  tlx_tensor_init(&dp, rp, TLX_I32, 2, (const int64_t[]){5, 6}, 0, 0, 0);
  tlx_tensor_init(&dr, rr, TLX_I32, 2, (const int64_t[]){5, 4}, 0, 0, 0);
  tlx_tensor_init(&dc, rc, TLX_I32, 2, (const int64_t[]){3, 5}, 0, 0, 0);
  SAMPLE_CHECK_REF(tlx_ref_pad(&dx, (const int64_t[]){1, 2},
                               (const int64_t[]){1, 0}, -1.0, &dp));
  SAMPLE_CHECK_REF(tlx_ref_concat(&dx, &dy, 0, &dr));
  SAMPLE_CHECK_REF(tlx_ref_concat(&dx, &dz, 1, &dc));

  print_i32("pad", padded, 5, 6);
  print_i32("concat dim 0", rows, 5, 4);
  print_i32("concat dim 1", cols, 3, 5);
  int bad = sample_compare_i32("pad", padded, rp, 30) +
            sample_compare_i32("concat0", rows, rr, 20) +
            sample_compare_i32("concat1", cols, rc, 15);
  return sample_result("pad_concat", bad);
}
