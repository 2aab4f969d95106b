// A broadcast of memory that only feeds matmul / mma gets no buffer
// (tlx-bufferize tryViewIntoGemm): as a matmul operand the GEMM's packing
// reads it through stride 0 along the repeated dims; as an mma's
// accumulator (a dense layer's bias) the GEMM reads its first sums through
// those strides (GemmDesc::Init) - no M x N copy. When the bias may overlap
// the destination (plain pointers) it is copied first; a bias that is the
// destination's own first row must still give the old row's values. On
// vector and AMX (emulated) code, at -O0 and -O2, checked against plain C.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -fsanitize=address %s %tlx_rt -o %ta && %ta | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O0 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %te0 && %te0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %te && %te | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -Rpass='tlx-(bufferize|tile)' -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// CHECK: rows of x w: ok
// CHECK: x broadcast(w): ok
// CHECK: bias restrict: ok
// CHECK: bias may alias: ok
// CHECK: bias is row 0 of y: ok
// CHECK-NOT: bad
// REMARK-COUNT-4: broadcast: no buffer, the GEMM reads its operand through stride 0 along the repeated dims
// REMARK-DAG: smma: 21x70x37 (MxKxN) {{.*}}, initial sums read through the accumulator's strides
// REMARK-DAG: smma: 21x70x37 (MxKxN) {{.*}}, accumulator copied first
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlx.h>

#define RM TLX_LAYOUT(0, 1)
#define LOAD1(p, n) tensor_load(p, TLX_SHAPE(n), TLX_LAYOUT(0), TLX_ZEROS(1), TLX_ZEROS(1))
#define LOAD2(p, m, n) tensor_load(p, TLX_SHAPE(m, n), RM, TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO2(v, m, n) tensor_typeinfo(v, TLX_SHAPE(m, n), RM, TLX_ZEROS(2))

#define M 21
#define K 70
#define N 37
typedef float vf_mk __attribute__((ext_vector_type(M * K)));
typedef float vf_kn __attribute__((ext_vector_type(K * N)));
typedef float vf_mn __attribute__((ext_vector_type(M * N)));
typedef int32_t vi_mn __attribute__((ext_vector_type(M * N)));
TLX_DECLARE_TENSOR_OPS_AS(vf_mk, mk)
TLX_DECLARE_TENSOR_OPS_AS(vf_kn, kn)
TLX_DECLARE_TENSOR_OPS_AS(vf_mn, mn)
TLX_DECLARE_TENSOR_OPS_AS(vi_mn, imn)

static int failures;
static void report(const char *what, const float *got, const float *want,
                   int count) {
  for (int i = 0; i < count; i++)
    if (got[i] != want[i]) {
      printf("%s: bad at %d: got %g expected %g\n", what, i, got[i], want[i]);
      failures++;
      return;
    }
  printf("%s: ok\n", what);
}

/* Every row of the matmul's A is the vector x (K). */
static void rows_of_xw(const float *x, const float *w, float *y) {
  vf_mk xs = tensor_broadcast_mk(LOAD1(x, K));
  vf_mn r = tensor_matmul_mn(INFO2(xs, M, K), LOAD2(w, K, N));
  tensor_store(y, INFO2(r, M, N), TLX_ZEROS(2));
}

/* B is one row (1 x N) repeated K times. */
static void x_broadcast_w(const float *x, const float *w1, float *y) {
  vf_kn ws = tensor_broadcast_kn(LOAD2(w1, 1, N));
  vf_mn r = tensor_matmul_mn(LOAD2(x, M, K), INFO2(ws, K, N));
  tensor_store(y, INFO2(r, M, N), TLX_ZEROS(2));
}

/* y = b + x w on s8 x s8 -> s32, bias broadcast over the rows. */
#define DENSE(NAME, QUAL)                                                      \
  __attribute__((noinline)) static void NAME(                                  \
      const int8_t *QUAL x, const int8_t *QUAL w, const int32_t *QUAL b,       \
      int32_t *QUAL y) {                                                       \
    vi_mn bias = tensor_broadcast_imn(LOAD1(b, N));                            \
    vi_mn s = tensor_smma_imn(INFO2(bias, M, N), LOAD2(x, M, K),               \
                              LOAD2(w, K, N));                                 \
    tensor_store(y, INFO2(s, M, N), TLX_ZEROS(2));                             \
  }
DENSE(dense_restrict, restrict)
DENSE(dense_plain, )

static float xf[M * K], wf[K * N], got[M * N], want[M * N];
static int8_t x8[M * K], w8[K * N];
static int32_t b[N], yi[M * N];

static void dense_want(const int32_t *bias) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      int32_t s = bias[j];
      for (int p = 0; p < K; p++)
        s += x8[i * K + p] * w8[p * N + j];
      want[i * N + j] = (float)s;
    }
}

static void dense_got(void) {
  for (int i = 0; i < M * N; i++)
    got[i] = (float)yi[i];
}

int main(void) {
  for (int i = 0; i < M * K; i++) {
    xf[i] = (float)((i * 7) % 9 - 4);
    x8[i] = (int8_t)((i * 37) % 255 - 127);
  }
  for (int i = 0; i < K * N; i++) {
    wf[i] = (float)((i * 5) % 7 - 3);
    w8[i] = (int8_t)((i * 53) % 251 - 125);
  }
  for (int j = 0; j < N; j++)
    b[j] = (j % 11 - 5) * 1000;

  rows_of_xw(xf, wf, got);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int p = 0; p < K; p++)
        s += xf[p] * wf[p * N + j];
      want[i * N + j] = s;
    }
  report("rows of x w", got, want, M * N);

  x_broadcast_w(xf, wf, got);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int p = 0; p < K; p++)
        s += xf[i * K + p] * wf[j];
      want[i * N + j] = s;
    }
  report("x broadcast(w)", got, want, M * N);

  dense_want(b);
  dense_restrict(x8, w8, b, yi);
  dense_got();
  report("bias restrict", got, want, M * N);
  memset(yi, 0, sizeof yi);
  dense_plain(x8, w8, b, yi);
  dense_got();
  report("bias may alias", got, want, M * N);

  /* The bias is y's own first row: every row starts from its old values. */
  int32_t row0[N];
  for (int j = 0; j < N; j++)
    yi[j] = row0[j] = (j % 7 - 3) * 500;
  dense_want(row0);
  dense_plain(x8, w8, yi, yi);
  dense_got();
  report("bias is row 0 of y", got, want, M * N);
  return failures != 0;
}
