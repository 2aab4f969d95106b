/* amx_int8_gemm.c - int8 GEMM with int32 accumulation, the shape of Intel
 * AMX's tdpbssd/tdpbusd: C += A x B with A [32 x 64] and B [64 x 48].
 *   smma:  signed x signed     (tdpbssd)
 *   usmma: unsigned x signed   (tdpbusd)
 * Built for AMX: -fplugin-arg-tlx-target=amx where the CPU has amx_tile
 * (Sapphire Rapids and later), -fplugin-arg-tlx-target=amx-emulate
 * elsewhere (the same AMX code, each tile instruction executed by the
 * runtime's emulator). Any target computes the same result. */
#include <tlx.h>
#include <tlxrt.h>

#include "sample_check.h"

#define M 32
#define K 64
#define N 48

typedef int32_t acc_t __attribute__((__vector_size__(M * N * sizeof(int32_t))));
TLX_DECLARE_TENSOR_OPS(acc_t)

static void gemm_s8s8(const int32_t *c, const int8_t *a, const int8_t *b,
                      int32_t *out) {
  tlx_token_t tc = tensor_load(c, TLX_SHAPE(M, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(M, K), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(K, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  acc_t r = tensor_smma(tc, ta, tb);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(M, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(out, tr, TLX_ZEROS(2));
}

static void gemm_u8s8(const int32_t *c, const uint8_t *a, const int8_t *b,
                      int32_t *out) {
  tlx_token_t tc = tensor_load(c, TLX_SHAPE(M, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(M, K), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(K, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  acc_t r = tensor_usmma(tc, ta, tb);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(M, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(out, tr, TLX_ZEROS(2));
}

int main(void) {
  static int8_t a[M * K], b[K * N];
  static uint8_t ua[M * K];
  static int32_t c[M * N], o1[M * N], o2[M * N], r1[M * N], r2[M * N];
  sample_fill_i8(a, M * K, 61);
  sample_fill_i8(b, K * N, 62);
  sample_fill_i8((int8_t *)ua, M * K, 63);
  sample_fill_i32(c, M * N, 64);
  gemm_s8s8(c, a, b, o1);
  gemm_u8s8(c, ua, b, o2);

  tlx_tensor dc, da, dua, db, d1, d2;
  tlx_tensor_init(&dc, c, TLX_I32, 2, (const int64_t[]){M, N}, 0, 0, 0);
  tlx_tensor_init(&da, a, TLX_I8, 2, (const int64_t[]){M, K}, 0, 0, 0);
  tlx_tensor_init(&dua, ua, TLX_I8, 2, (const int64_t[]){M, K}, 0, 0, 0);
  tlx_tensor_init(&db, b, TLX_I8, 2, (const int64_t[]){K, N}, 0, 0, 0);
  tlx_tensor_init(&d1, r1, TLX_I32, 2, (const int64_t[]){M, N}, 0, 0, 0);
  tlx_tensor_init(&d2, r2, TLX_I32, 2, (const int64_t[]){M, N}, 0, 0, 0);
  SAMPLE_CHECK_REF(tlx_ref_mma(TLX_SMMA, &dc, &da, &db, &d1));
  SAMPLE_CHECK_REF(tlx_ref_mma(TLX_USMMA, &dc, &dua, &db, &d2));

  printf("smma  C[0][0..5]: %d %d %d %d %d %d\n", o1[0], o1[1], o1[2], o1[3],
         o1[4], o1[5]);
  printf("usmma C[0][0..5]: %d %d %d %d %d %d\n", o2[0], o2[1], o2[2], o2[3],
         o2[4], o2[5]);
  int bad = sample_compare_i32("smma", o1, r1, M * N) +
            sample_compare_i32("usmma", o2, r2, M * N);
  return sample_result("amx_int8_gemm", bad);
}
