// f32 GEMMs on Power10's matrix-multiply assist: the vector GEMM driver's
// MMA kernel keeps an 8 x 16 block of C in the eight 512-bit accumulators
// (xvf32gerpp outer products of 4 rows of A by 4 columns of B), and
// disassembles them into rows once per block (xxmfacc). Power9 has no MMA:
// the same source gets the VSX FMA kernel. Run at -O0 and -O2 under qemu
// against plain C loops: odd sizes (tails in M, N and K) and a fused relu.
// With LLVM 19 the module is compiled without subregister liveness
// tracking (tlx-backend-workarounds,
// compat::PPCSubRegLivenessBreaksAccumulators), as a remark says.
// REQUIRES: ppc64le-cross
// RUN: %ppc_tlx_cc -mcpu=power10 -O2 -S %s -o - | FileCheck %s
// RUN: %ppc_tlx_cc -mcpu=power10 -O2 -Rpass=tlx-tile -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ppc_tlx_cc -mcpu=power9 -fplugin-arg-tlx-dispatch=off -O2 -Rpass=tlx-tile -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=POWER9
// RUN: %ppc_tlx_cc -mcpu=power10 -O2 -Rpass=tlx-backend-workarounds -S %s -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=SUBREG-%llvm_major
// RUN: %ppc_tlx_cc -mcpu=power10 -O0 %s -o %t0 && %ppc_qemu %t0 | FileCheck %s --check-prefix=OUT
// RUN: %ppc_tlx_cc -mcpu=power10 -O2 %s -o %t2 && %ppc_qemu %t2 | FileCheck %s --check-prefix=OUT
// REMARK: remark: matmul: 37x29x45 (MxKxN) f32 x f32 -> f32 GEMM on vectors, kernel vec128 f32 mma xvf32gerpp 8x16
// SUBREG-19: remark: MMA accumulators: compiled without subregister liveness tracking, with which LLVM 19 overwrites rows of them
// SUBREG-22-NOT: remark: MMA accumulators
// POWER9: remark: matmul: 37x29x45 (MxKxN) f32 x f32 -> f32 GEMM on vectors, kernel vec128 fma f32
// CHECK: xxsetaccz
// CHECK: xvf32gerpp
// CHECK: xxmfacc
// OUT: ok: odd
// OUT: ok: relu
#include <tlx.h>
#include <math.h>
#include <stdio.h>

#define M 37
#define K 29
#define N 45
typedef float out_t __attribute__((ext_vector_type(M * N)));
TLX_DECLARE_TENSOR_OPS(out_t)

static float a[M][K], b[K][N], c[M][N], want[M][N];

__attribute__((noinline)) static void odd(void) {
  out_t r = tensor_matmul(
      tensor_load(&a[0][0], TLX_SHAPE(M, K), TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                  TLX_ZEROS(2)),
      tensor_load(&b[0][0], TLX_SHAPE(K, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                  TLX_ZEROS(2)));
  tensor_store(&c[0][0],
               tensor_typeinfo(r, TLX_SHAPE(M, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

__attribute__((noinline)) static void relu(void) {
  out_t r = tensor_relu(tensor_typeinfo(
      tensor_matmul(tensor_load(&a[0][0], TLX_SHAPE(M, K), TLX_LAYOUT(0, 1),
                                TLX_ZEROS(2), TLX_ZEROS(2)),
                    tensor_load(&b[0][0], TLX_SHAPE(K, N), TLX_LAYOUT(0, 1),
                                TLX_ZEROS(2), TLX_ZEROS(2))),
      TLX_SHAPE(M, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2)));
  tensor_store(&c[0][0],
               tensor_typeinfo(r, TLX_SHAPE(M, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

static void reference(int apply_relu) {
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < K; k++)
        s += a[i][k] * b[k][j];
      want[i][j] = apply_relu && s < 0 ? 0 : s;
    }
}

/* Sums of products of k/8 values are exact in float: compare exactly. */
static void check(const char *what) {
  int bad = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      if (c[i][j] != want[i][j] && bad++ < 3)
        printf("%s: c[%d][%d] = %g, expected %g\n", what, i, j, c[i][j],
               want[i][j]);
  printf("%s: %s\n", bad ? "bad" : "ok", what);
}

int main(void) {
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++)
      a[i][k] = (float)((i * 7 + k * 3) % 17 - 8) / 8;
  for (int k = 0; k < K; k++)
    for (int j = 0; j < N; j++)
      b[k][j] = (float)((k * 5 + j * 11) % 13 - 6) / 8;
  odd();
  reference(0);
  check("odd");
  relu();
  reference(1);
  check("relu");
  return 0;
}
