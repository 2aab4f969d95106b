// Found by progs.py (seed 1, case 167): a bf16 GEMM on AMX whose result
// goes to a destination without contiguous rows (here column-major; the
// program's was a convolution with a permuted layout). The AMX kernel's
// epilogue rounded each 16-column row of the f32 sums to bf16 and stored it
// as one vector, as if the destination's rows were contiguous: most
// elements wrong. Checked against plain C at -O0 and -O2.
// RUN: %clang_tlx -std=c11 -w -O0 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: column-major bf16: ok
#include <stdio.h>
#include <tlx.h>

#define M 2
#define K 6
#define N 62
typedef __bf16 v __attribute__((ext_vector_type(M * N)));
TLX_DECLARE_TENSOR_OPS_AS(v, b)

static __bf16 x[M * K], w[K * N], y[M * N];

int main(void) {
  for (int i = 0; i < M * K; i++)
    x[i] = (__bf16)(float)(i % 5 - 2);
  for (int i = 0; i < K * N; i++)
    w[i] = (__bf16)(float)(i % 7 - 3);
  v t = tensor_matmul_b(
      tensor_load(x, TLX_SHAPE(M, K), TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                  TLX_ZEROS(2)),
      tensor_load(w, TLX_SHAPE(K, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                  TLX_ZEROS(2)));
  /* y holds the M x N result column-major: element (i, j) at j * M + i. */
  tensor_store(y,
               tensor_typeinfo(t, TLX_SHAPE(N, M), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2)),
               TLX_ZEROS(2));
  int bad = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < K; k++)
        s += (float)x[i * K + k] * (float)w[k * N + j];
      if ((float)y[j * M + i] != s && bad++ < 3)
        printf("column-major bf16: bad at (%d, %d): got %g expected %g\n", i,
               j, (float)y[j * M + i], s);
    }
  if (!bad)
    printf("column-major bf16: ok\n");
  return bad != 0;
}
