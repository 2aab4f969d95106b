/* bench/amx_kernels.c - the GEMMs whose AMX inner loops bench/amx_mca.py
 * analyses: 1024^3 row-major matmul/mma as a user writes them with tlx.h,
 * compiled by tlx-cc (the whole pipeline, no test marker). */
#include <stdint.h>
#include <tlx.h>

#define N 1024

typedef int32_t acc_i32 __attribute__((__vector_size__(N * N * 4)));
typedef float acc_f32 __attribute__((__vector_size__(N * N * 4)));
TLX_DECLARE_TENSOR_OPS_AS(acc_i32, i32)
TLX_DECLARE_TENSOR_OPS_AS(acc_f32, f32)

#define ROW_MAJOR(ptr)                                                         \
  tensor_load(ptr, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2),            \
              TLX_ZEROS(2))
#define STORE(dst, value)                                                      \
  tensor_store(dst,                                                            \
               tensor_typeinfo(value, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),       \
                               TLX_ZEROS(2)),                                  \
               TLX_ZEROS(2))

/* s8 x s8 -> s32: tdpbssd. */
void gemm_s8s8s32(const int8_t *a, const int8_t *b, int32_t *c) {
  acc_i32 r = tensor_matmul_i32(ROW_MAJOR(a), ROW_MAJOR(b));
  STORE(c, r);
}

/* u8 x s8 -> s32 accumulating into c: tdpbusd. */
void gemm_u8s8s32(const uint8_t *a, const int8_t *b, int32_t *c) {
  acc_i32 r = tensor_usmma_i32(ROW_MAJOR(c), ROW_MAJOR(a), ROW_MAJOR(b));
  STORE(c, r);
}

/* bf16 x bf16 -> f32: tdpbf16ps. */
void gemm_bf16(const __bf16 *a, const __bf16 *b, float *c) {
  acc_f32 r = tensor_matmul_f32(ROW_MAJOR(a), ROW_MAJOR(b));
  STORE(c, r);
}
