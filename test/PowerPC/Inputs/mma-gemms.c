/* GEMMs for the Power10 MMA selection tests (mma-dispatch.test,
 * mma-target.test): f32 (xvf32gerpp), s8 x s8 (xvi8ger4pp on B + 128),
 * s8 x u8 (xvi8ger4pp), both from a non-zero C, and i64, which MMA has no
 * outer product for. Prints the ISA level tlxrt_isa_level() reports, then each
 * GEMM's result against plain C loops (exact: sums of products of k/8
 * values and integers). */
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>
#define RM TLX_LAYOUT(0, 1)
#define LOAD2(p, m, n) tensor_load(p, TLX_SHAPE(m, n), RM, TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO2(v, m, n) tensor_typeinfo(v, TLX_SHAPE(m, n), RM, TLX_ZEROS(2))
enum { M = 45, K = 67, N = 37 };
typedef float vf __attribute__((ext_vector_type(M * N)));
typedef int32_t vi __attribute__((ext_vector_type(M * N)));
typedef int64_t vl __attribute__((ext_vector_type(M * N)));
TLX_DECLARE_TENSOR_OPS_AS(vf, f)
TLX_DECLARE_TENSOR_OPS_AS(vi, i)
TLX_DECLARE_TENSOR_OPS_AS(vl, l)
int32_t tlxrt_isa_level(void);
static float fa[M * K], fb[K * N], fc[M * N];
static int8_t sa[M * K], sb[K * N];
static uint8_t ub[K * N];
static int32_t ic0[M * N], ic[2][M * N];
static int64_t la[M * K], lb[K * N], lc[M * N];
__attribute__((noinline)) void f32(void) {
  vf r = tensor_matmul_f(LOAD2(fa, M, K), LOAD2(fb, K, N));
  tensor_store(fc, INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void s8s8(void) {
  vi r = tensor_smma_i(LOAD2(ic0, M, N), LOAD2(sa, M, K), LOAD2(sb, K, N));
  tensor_store(ic[0], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void s8u8(void) {
  vi r = tensor_summa_i(LOAD2(ic0, M, N), LOAD2(sa, M, K), LOAD2(ub, K, N));
  tensor_store(ic[1], INFO2(r, M, N), TLX_ZEROS(2));
}
__attribute__((noinline)) void i64(void) {
  vl r = tensor_matmul_l(LOAD2(la, M, K), LOAD2(lb, K, N));
  tensor_store(lc, INFO2(r, M, N), TLX_ZEROS(2));
}
int main(void) {
  printf("level %d\n", (int)tlxrt_isa_level());
  for (int i = 0; i < M * K; i++)
    fa[i] = (float)(i % 17 - 8) / 8, sa[i] = (int8_t)((i * 37) % 255 - 127),
    la[i] = i % 1001 - 500;
  for (int i = 0; i < K * N; i++)
    fb[i] = (float)(i % 13 - 6) / 8, sb[i] = (int8_t)((i * 53) % 251 - 125),
    ub[i] = (uint8_t)((i * 29) % 256), lb[i] = (int64_t)(i % 997) * 100003;
  for (int i = 0; i < M * N; i++)
    ic0[i] = 3 * i - 999;
  f32(); s8s8(); s8u8(); i64();
  int bf = 0, bs = 0, bu = 0, bl = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float f = 0;
      int32_t s = ic0[i * N + j], u = s;
      int64_t l = 0;
      for (int k = 0; k < K; k++) {
        f += fa[i * K + k] * fb[k * N + j];
        s += sa[i * K + k] * sb[k * N + j];
        u += sa[i * K + k] * ub[k * N + j];
        l += la[i * K + k] * lb[k * N + j];
      }
      bf += f != fc[i * N + j];
      bs += s != ic[0][i * N + j];
      bu += u != ic[1][i * N + j];
      bl += l != lc[i * N + j];
    }
  printf("f32: %s\ns8s8: %s\ns8u8: %s\ni64: %s\n", bf ? "bad" : "ok",
         bs ? "bad" : "ok", bu ? "bad" : "ok", bl ? "bad" : "ok");
  return 0;
}
