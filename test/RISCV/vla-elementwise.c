// Vector-length agnostic element-wise loops on RISC-V V. There, TLX leaves
// the innermost loop of an element-wise loop nest scalar and asks LLVM's
// loop vectorizer for vectors of vscale x N elements (LMUL 4) with the tail
// folded in (llvm.loop.vectorize.width/.scalable.enable/.predicate.enable;
// IndexMap.h, getElementwiseWidth): one binary uses the whole register at
// every VLEN, where fixed-length vectors were 256-bit groups
// (`vsetivli zero, 8, e32, m2`) whatever the VLEN. The loops: a contiguous
// relu, a 2-D nest with a broadcast row, a transpose (strided loads), a
// chain of exp, sigmoid, subtract and multiply over three operands, f64,
// int8, f16 and bf16 elements (converted in vectors with Zvfhmin and
// Zvfbfmin), 3 elements (less than any vector), a store with
// run-time extents, and at -O0 a loop nest large enough to be outlined and
// optimized (OptimizeKernels.cpp). Runs at VLEN 128, 256, 512 and 1024 at
// -O0 and -O2 (and -O1, where LLVM's vectorizer leaves them scalar),
// against plain C.
// REQUIRES: riscv64-cross
// RUN: %rv_tlx_cc -march=rv64gcv -O2 -S %s -o - | FileCheck %s
// RUN: %rv_tlx_cc -march=rv64gcv -O0 -S %s -o - | FileCheck %s --check-prefix=O0
// RUN: %rv_tlx_cc -march=rv64gcv -O2 -Rpass=tlx-legalize -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %rv_tlx_cc -march=rv64gcv -O0 %s -o %t0
// RUN: %rv_tlx_cc -march=rv64gcv -O1 %s -o %t1
// RUN: %rv_tlx_cc -march=rv64gcv -O2 %s -o %t2
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=128 %t0 | FileCheck %s --check-prefix=OUT
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=128 %t2 | FileCheck %s --check-prefix=OUT
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=256 %t1 | FileCheck %s --check-prefix=OUT
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=256 %t2 | FileCheck %s --check-prefix=OUT
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=512 %t0 | FileCheck %s --check-prefix=OUT
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=512 %t2 | FileCheck %s --check-prefix=OUT
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=1024 %t0 | FileCheck %s --check-prefix=OUT
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=1024 %t2 | FileCheck %s --check-prefix=OUT
// RUN: %rv_tlx_cc -march=rv64gcv_zvfhmin_zvfbfmin -O2 %s -o %th
// RUN: qemu-riscv64 -cpu rv64,v=true,vlen=256,zvfhmin=true,zvfbfmin=true %th | FileCheck %s --check-prefix=OUT
//
// Every loop is vectorized in register groups of LMUL 4 with a vector
// length from vsetvli (VLMAX or the elements left), never a constant one.
// CHECK-LABEL: relu_1000:
// CHECK-NOT: vsetivli
// CHECK: vsetvli {{.*}}, e32, m4
// CHECK-NOT: vsetivli
// CHECK-LABEL: bias_2d:
// CHECK-NOT: vsetivli
// CHECK: vsetvli {{.*}}, e32, m4
// CHECK-NOT: vsetivli
// CHECK-LABEL: transpose_2d:
// CHECK-NOT: vsetivli
// CHECK: vlse32.v
// CHECK-NOT: vsetivli
// CHECK-LABEL: chain:
// CHECK-NOT: vsetivli
// CHECK: vsetvli {{.*}}, e32, m4
// CHECK-NOT: vsetivli
// CHECK-LABEL: f64_abs_sqrt:
// CHECK-NOT: vsetivli
// CHECK: vfsqrt.v
// CHECK-NOT: vsetivli
// CHECK-LABEL: i8_max:
// CHECK-NOT: vsetivli
// CHECK: vsetvli {{.*}}, e8, m4
// CHECK-NOT: vsetivli
// CHECK-LABEL: f16_relu:
// CHECK-LABEL: runtime:
// CHECK-NOT: vsetivli
// CHECK: vsetvli {{.*}}, e32, m4
// CHECK-NOT: vsetivli
// CHECK-LABEL: main:
//
// At -O0 only the outlined kernel (4096 element steps or more) is
// optimized: vectorized as at -O2.
// O0-LABEL: tlx.loop.big_o0.0:
// O0: vsetvli {{.*}}, e32, m4
// O0-NOT: vsetivli
//
// REMARK: relu: 1000 f32 loop nest, its innermost loop scalar for LLVM's loop vectorizer, in vectors of vscale x 8 (any vector length)
// REMARK: fadd: 37x53 f32 loop nest, its innermost loop scalar for LLVM's loop vectorizer, in vectors of vscale x 8 (any vector length), fused with fmul, broadcast
// REMARK: transpose: 53x37 f32 loop nest, its innermost loop scalar for LLVM's loop vectorizer, in vectors of vscale x 8
// REMARK: f64 loop nest, its innermost loop scalar for LLVM's loop vectorizer, in vectors of vscale x 4
// REMARK: i8 loop nest, its innermost loop scalar for LLVM's loop vectorizer, in vectors of vscale x 32
// REMARK: relu with run-time extents, in one loop nest, its innermost loop scalar for LLVM's loop vectorizer, in vectors of vscale x 8 (any vector length)
//
// OUT: relu_1000: ok
// OUT: bias_2d: ok
// OUT: transpose_2d: ok
// OUT: chain: ok
// OUT: f64_abs_sqrt: ok
// OUT: i8_max: ok
// OUT: f16_relu: ok
// OUT: bf16_add: ok
// OUT: tiny: ok
// OUT: runtime: ok
// OUT: big_o0: ok
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

enum { N1 = 1000, R = 37, C = 53, BR = 64, BC = 80 };
static float x[3][N1], y[N1], a2[R][C], b2[C], y2[R][C], t2[C][R];
static double d[999], dy[999];
static int8_t i8a[1001], i8b[1001], i8y[1001];
static _Float16 h[1003], hy[1003];
static __bf16 bh[1003], bhy[1003];
static float big[BR][BC], bigy[BR][BC];

__attribute__((noinline)) void relu_1000(void) {
  TLX_STORE(y, tlx_relu(TLX_LOAD(x[0], N1)));
}
__attribute__((noinline)) void bias_2d(void) {
  TLX_STORE(y2, tlx_add(tlx_mul(TLX_LOAD(a2, R, C), 2.0f), TLX_LOAD(b2, C)));
}
__attribute__((noinline)) void transpose_2d(void) {
  TLX_STORE(t2, tlx_transpose(TLX_LOAD(a2, R, C)));
}
__attribute__((noinline)) void chain(void) {
  TLX_STORE(y, tlx_add(tlx_mul(tlx_exp(tlx_sub(TLX_LOAD(x[0], N1), 3.0f)),
                               TLX_LOAD(x[1], N1)),
                       tlx_sigmoid(TLX_LOAD(x[2], N1))));
}
__attribute__((noinline)) void f64_abs_sqrt(void) {
  TLX_STORE(dy, tlx_sqrt(tlx_fabs(TLX_LOAD(d, 999))));
}
__attribute__((noinline)) void i8_max(void) {
  TLX_STORE(i8y, tlx_max(TLX_LOAD(i8a, 1001), TLX_LOAD(i8b, 1001)));
}
__attribute__((noinline)) void f16_relu(void) {
  TLX_STORE(hy, tlx_relu(TLX_LOAD(h, 1003)));
}
__attribute__((noinline)) void bf16_add(void) {
  TLX_STORE(bhy, tlx_add(TLX_LOAD(bh, 1003), 0.5f));
}
__attribute__((noinline)) void tiny(float *restrict out, const float *restrict in) {
  TLX_STORE(out, tlx_relu(TLX_LOAD(in, 3)));
}
/* Extents from the caller: a relu of x + a broadcast row. */
__attribute__((noinline)) void runtime(int m, int n, const float *restrict in,
                                       const float *restrict row,
                                       float *restrict out) {
  TLX_STORE(out, tlx_relu(tlx_add(TLX_LOAD(in, m, n), TLX_LOAD(row, 1, n))));
}
__attribute__((noinline)) void big_o0(void) {
  TLX_STORE(bigy, tlx_relu(tlx_sub(TLX_LOAD(big, BR, BC), 1.0f)));
}

static void report(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "bad" : "ok");
}
static int near(float got, float want) {
  return fabsf(got - want) <= 1e-5f * fmaxf(1.0f, fabsf(want));
}
static float relu(float v) { return v < 0 ? 0 : v; }

int main(void) {
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < N1; i++)
      x[k][i] = (float)((i * (k + 3)) % 41 - 20) / 8;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      a2[i][j] = (float)((i * C + j) % 29 - 14) / 4;
  for (int j = 0; j < C; j++)
    b2[j] = (float)(j % 7) - 3;
  for (int i = 0; i < 999; i++)
    d[i] = (double)(i % 31 - 15) * 1.25;
  for (int i = 0; i < 1001; i++)
    i8a[i] = (int8_t)((i * 37) % 255 - 127), i8b[i] = (int8_t)((i * 53) % 251 - 125);
#pragma clang loop vectorize(disable)
  for (int i = 0; i < 1003; i++)
    h[i] = (_Float16)((float)(i % 19 - 9) / 4),
    bh[i] = (__bf16)((float)(i % 23 - 11) / 4);
  for (int i = 0; i < BR; i++)
    for (int j = 0; j < BC; j++)
      big[i][j] = (float)((i + 3 * j) % 11) - 5;

  int bad = 0;
  relu_1000();
  for (int i = 0; i < N1; i++)
    bad += y[i] != relu(x[0][i]);
  report("relu_1000", bad);

  bias_2d();
  bad = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      bad += y2[i][j] != a2[i][j] * 2.0f + b2[j];
  report("bias_2d", bad);

  transpose_2d();
  bad = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      bad += t2[j][i] != a2[i][j];
  report("transpose_2d", bad);

  chain();
  bad = 0;
  for (int i = 0; i < N1; i++)
    bad += !near(y[i], expf(x[0][i] - 3.0f) * x[1][i] +
                           1.0f / (1.0f + expf(-x[2][i])));
  report("chain", bad);

  f64_abs_sqrt();
  bad = 0;
  for (int i = 0; i < 999; i++)
    bad += dy[i] != sqrt(fabs(d[i]));
  report("f64_abs_sqrt", bad);

  i8_max();
  bad = 0;
  for (int i = 0; i < 1001; i++)
    bad += i8y[i] != (i8a[i] > i8b[i] ? i8a[i] : i8b[i]);
  report("i8_max", bad);

  f16_relu();
  bad = 0;
  /* (LLVM 19 cannot select vectorized conversions of plain C's here) */
#pragma clang loop vectorize(disable)
  for (int i = 0; i < 1003; i++)
    bad += (float)hy[i] != relu((float)h[i]);
  report("f16_relu", bad);

  bf16_add();
  bad = 0;
#pragma clang loop vectorize(disable)
  for (int i = 0; i < 1003; i++)
    bad += (float)bhy[i] != (float)(__bf16)((float)bh[i] + 0.5f);
  report("bf16_add", bad);

  float in3[3] = {-1, 2, -3}, out3[4] = {9, 9, 9, 9};
  tiny(out3, in3);
  report("tiny", out3[0] != 0 || out3[1] != 2 || out3[2] != 0 || out3[3] != 9);

  /* run-time extents on both sides of every vector length */
  bad = 0;
  static const int sizes[][2] = {{1, 1}, {3, 7}, {5, 64}, {2, 257}, {9, 1000}};
  for (int s = 0; s < 5; s++) {
    int m = sizes[s][0], n = sizes[s][1];
    float *in = malloc(sizeof(float) * m * n), *row = malloc(sizeof(float) * n),
          *out = malloc(sizeof(float) * (m * n + 1));
    for (int i = 0; i < m * n; i++)
      in[i] = (float)(i % 13 - 6) / 2;
    for (int j = 0; j < n; j++)
      row[j] = (float)(j % 5 - 2);
    out[m * n] = 42;
    runtime(m, n, in, row, out);
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++)
        bad += out[i * n + j] != relu(in[i * n + j] + row[j]);
    bad += out[m * n] != 42;
    free(in);
    free(row);
    free(out);
  }
  report("runtime", bad);

  big_o0();
  bad = 0;
  for (int i = 0; i < BR; i++)
    for (int j = 0; j < BC; j++)
      bad += bigy[i][j] != relu(big[i][j] - 1.0f);
  report("big_o0", bad);
  return 0;
}
