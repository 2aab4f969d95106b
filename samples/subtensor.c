/* subtensor.c - loads and stores of sub-tensors of larger arrays.
 * Load/store strides are BLAS-style leading dimensions (docs): strides[i]
 * (i >= 1) is the element distance between consecutive indices of storage
 * dim i-1; strides[0] is unused; 0 means packed.
 *  1. A 4x5 block at row 2, column 3 of a 10x12 matrix (leading dim 12) is
 *     loaded, relu'd and stored at row 1, column 2 of an 8x16 matrix
 *     (leading dim 16); everything else in the destination stays as it was.
 *  2. A 2x3x4 block of a 5x6x7 array (strides <0, 42, 7>: planes 42 and
 *     rows 7 elements apart) is copied into a packed 2x3x4 buffer. */
#include <tlx.h>
#include <tlxrt.h>

#include "sample_check.h"

typedef float s20_t __attribute__((__vector_size__(20 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(s20_t)

static void block_relu(const float *big, float *dst) {
  tlx_token_t t = tensor_load(big + 2 * 12 + 3, TLX_SHAPE(4, 5),
                              TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                              TLX_STRIDES(0, 12));
  s20_t r = tensor_relu(t);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(4, 5), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(dst + 1 * 16 + 2, tr, TLX_STRIDES(0, 16));
}

static void block_copy(const float *cube, float *dst) {
  tlx_token_t t = tensor_load(cube + 1 * 42 + 2 * 7 + 3, TLX_SHAPE(2, 3, 4),
                              TLX_LAYOUT(0, 1, 2), TLX_ZEROS(3),
                              TLX_STRIDES(0, 42, 7));
  tensor_store(dst, t, TLX_ZEROS(3));
}

int main(void) {
  static float big[120], dst[128], ref[128], cube[210], blk[24], rblk[24];
  sample_fill_f32(big, 120, 41);
  for (int i = 0; i < 128; i++)
    dst[i] = ref[i] = 100.0f + (float)i; /* must survive outside the block */
  for (int i = 0; i < 210; i++)
    cube[i] = (float)i;
  block_relu(big, dst);
  block_copy(cube, blk);

  tlx_tensor din, dout, dc, db;
  tlx_tensor_init(&din, big + 2 * 12 + 3, TLX_F32, 2, (const int64_t[]){4, 5},
                  0, 0, (const int64_t[]){12, 1});
  tlx_tensor_init(&dout, ref + 1 * 16 + 2, TLX_F32, 2, (const int64_t[]){4, 5},
                  0, 0, (const int64_t[]){16, 1});
  SAMPLE_CHECK_REF(tlx_ref_unary(TLX_RELU, &din, &dout));
  tlx_tensor_init(&dc, cube + 1 * 42 + 2 * 7 + 3, TLX_F32, 3,
                  (const int64_t[]){2, 3, 4}, 0, 0,
                  (const int64_t[]){42, 7, 1});
  tlx_tensor_init(&db, rblk, TLX_F32, 3, (const int64_t[]){2, 3, 4}, 0, 0, 0);
  SAMPLE_CHECK_REF(tlx_ref_copy(&dc, &db));

  sample_print_f32("destination rows 0-5", dst, 6, 8, 16);
  sample_print_f32("copied block, plane 0", blk, 3, 4, 4);
  int bad = sample_compare_f32("block_relu", dst, ref, 128, 0, 0) +
            sample_compare_f32("block_copy", blk, rblk, 24, 0, 0);
  return sample_result("subtensor", bad);
}
