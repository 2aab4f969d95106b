/* matmul_layouts.c - matmul with row-major and column-major operands.
 * layout <1, 0> on a 2-D tensor means column-major storage: storage dim 0
 * holds logical dim 1. The logical product is the same whatever the
 * storage; the result's typeinfo decides how it is written (here both
 * row-major C and column-major Ct are produced). */
#include <tlx.h>
#include <tlxrt.h>

#include "sample_check.h"

#define M 6
#define K 10
#define N 7

typedef float mat_t __attribute__((__vector_size__(M * N * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(mat_t)

/* A row-major [M x K]; Bt holds B [K x N] column-major (N rows of K). */
static void mm_rowcol(const float *a, const float *bt, float *c, float *ct) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(M, K), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(bt, TLX_SHAPE(N, K), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  mat_t r = tensor_matmul(ta, tb);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(M, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(c, tr, TLX_ZEROS(2));
  /* The same product written column-major. */
  mat_t r2 = tensor_matmul(ta, tb);
  tlx_token_t tr2 =
      tensor_typeinfo(r2, TLX_SHAPE(N, M), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
  tensor_store(ct, tr2, TLX_ZEROS(2));
}

int main(void) {
  static float a[M * K], bt[N * K], c[M * N], ct[M * N], ref[M * N],
      reft[M * N];
  sample_fill_f32(a, M * K, 11);
  sample_fill_f32(bt, N * K, 12);
  mm_rowcol(a, bt, c, ct);

  tlx_tensor da, db, dc, dct;
  tlx_tensor_init(&da, a, TLX_F32, 2, (const int64_t[]){M, K}, 0, 0, 0);
  tlx_tensor_init(&db, bt, TLX_F32, 2, (const int64_t[]){N, K},
                  (const int64_t[]){1, 0}, 0, 0);
  tlx_tensor_init(&dc, ref, TLX_F32, 2, (const int64_t[]){M, N}, 0, 0, 0);
  tlx_tensor_init(&dct, reft, TLX_F32, 2, (const int64_t[]){N, M},
                  (const int64_t[]){1, 0}, 0, 0);
  SAMPLE_CHECK_REF(tlx_ref_matmul(&da, &db, &dc));
  SAMPLE_CHECK_REF(tlx_ref_matmul(&da, &db, &dct));

  sample_print_f32("C = A * B (row-major)", c, M, N, N);
  sample_print_f32("C^T as stored column-major", ct, N, M, M);
  int bad = sample_compare_f32("C", c, ref, M * N, 0, 0) +
            sample_compare_f32("Ct", ct, reft, M * N, 0, 0);
  return sample_result("matmul_layouts", bad);
}
