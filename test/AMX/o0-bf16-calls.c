// A -O0 module with native AMX GEMMs (one of run-time size) whose optnone
// code passes and returns bf16 vectors of more than four elements in calls.
// With LLVM 19 such a module keeps -O0 code generation
// (compat::OptNoneBF16VectorCallsCrashRaisedCodeGen), where LLVM's -O0
// tile code crashed on the optimized AMX kernels (undef tiles and phis of
// phis in x86_amx phis: progs.py seed 4, cases 61 and 199). Its static
// GEMM's tile kernels now take the -O0 tile form (optnone); the run-time
// one uses vector code, as with -fplugin-arg-tlx-optimize-kernels=off
// (whose optimized-form AMX kernels crashed instruction selection): in
// the -O0 tile form, run-time tile shapes computed wrong results on AMX
// hardware (found on a Xeon with AMX; the emulator got them right). LLVM
// 22 raises code generation and optimizes the static GEMM's tile kernels.
// RUN: %clang_tlx -std=c11 -w -O0 -fplugin-arg-tlx-target=amx -Rpass-missed=tlx-tile -S -emit-llvm %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=IR-%llvm_major < %t.ll
// RUN: %clang_tlx -std=c11 -w -O0 -fplugin-arg-tlx-target=amx -c %s -o %t.o
// RUN: %clang_tlx -std=c11 -w -O0 -fplugin-arg-tlx-target=amx -fplugin-arg-tlx-optimize-kernels=off -Rpass-missed=tlx-tile -c %s -o %t.off.o 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %if amx-hw %{ %clang_tlx -std=c11 -w -O0 -fplugin-arg-tlx-target=amx %s %tlx_rt -o %t && %t | FileCheck %s %}
// RUN: %if amx-hw %{ %clang_tlx -std=c11 -w -O0 -fplugin-arg-tlx-target=amx -fplugin-arg-tlx-optimize-kernels=off %s %tlx_rt -o %t.off && %t.off | FileCheck %s %}
// The same module through the emulator.
// RUN: %clang_tlx -std=c11 -w -O0 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %te && %te | FileCheck %s
// REMARK: o0-bf16-calls.c:[[#@LINE+29]]:16: remark: smma: AMX cannot do this GEMM ({{.*}}); using vector code
// REMARK-NOT: remark
// IR-19: define internal void @tlx.amx.gemm({{.*}} #[[ATTR:[0-9]+]]
// IR-19: attributes #[[ATTR]] = { {{.*}}optnone
// IR-22: define internal void @tlx.amx.gemm({{.*}} #[[ATTR:[0-9]+]]
// IR-22-NOT: attributes #[[ATTR]] = { {{.*}}optnone
// CHECK: bf16 through calls: 1 2 3 4 5 6 7 8
// CHECK: static: ok
// CHECK: run-time: ok
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tlx.h>

typedef __bf16 b8 __attribute__((__vector_size__(8 * sizeof(__bf16))));

__attribute__((noinline)) static b8 make(void) {
  static const unsigned short bits[8] = {0x3f80, 0x4000, 0x4040, 0x4080,
                                         0x40a0, 0x40c0, 0x40e0, 0x4100};
  b8 v;
  memcpy(&v, bits, sizeof v);
  return v;
}

__attribute__((noinline)) static b8 twice(b8 v) { return v; }

static void smma_rt(int m, int n, int k, const int8_t *a, const int8_t *b,
                    int32_t *c) {
  TLX_STORE(c, tlx_smma(TLX_LOAD(c, m, n), TLX_LOAD(a, m, k),
                        TLX_LOAD(b, k, n)));
}

static int8_t sa[64][128], sb[128][48];
static int32_t sc[64][48];

static int check(int m, int n, int k, const int8_t *a, const int8_t *b,
                 const int32_t *c) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      int32_t sum = 0;
      for (int p = 0; p < k; ++p)
        sum += (int32_t)a[i * k + p] * b[p * n + j];
      if (c[i * n + j] != sum)
        return 0;
    }
  return 1;
}

int main(void) {
  b8 v = twice(make());
  unsigned short bits[8];
  memcpy(bits, &v, sizeof bits);
  printf("bf16 through calls:");
  for (int i = 0; i < 8; ++i) {
    uint32_t f = (uint32_t)bits[i] << 16;
    float x;
    memcpy(&x, &f, 4);
    printf(" %g", x);
  }
  printf("\n");
  for (int i = 0; i < 64; ++i)
    for (int p = 0; p < 128; ++p)
      sa[i][p] = (int8_t)(i * 7 + p * 3 - 50);
  for (int p = 0; p < 128; ++p)
    for (int j = 0; j < 48; ++j)
      sb[p][j] = (int8_t)(p * 5 - j * 11 + 3);
  TLX_STORE(sc, tlx_smma(TLX_LOAD(sc, 64, 48), TLX_LOAD(sa, 64, 128),
                         TLX_LOAD(sb, 128, 48)));
  printf("static: %s\n", check(64, 48, 128, &sa[0][0], &sb[0][0], &sc[0][0])
                             ? "ok" : "wrong");
  /* Run-time sizes: M and N tails, K not whole tile steps, k loops of
   * several trip counts. */
  int ok = 1;
  static const int ks[] = {1, 64, 65, 200, 333};
  for (int t = 0; t < 5; ++t) {
    int m = 37 + t, n = 21 + 3 * t, k = ks[t];
    int8_t *a = malloc((size_t)m * k), *b = malloc((size_t)k * n);
    int32_t *c = calloc((size_t)m * n, 4);
    for (int i = 0; i < m * k; ++i)
      a[i] = (int8_t)(i * 37 + 11);
    for (int i = 0; i < k * n; ++i)
      b[i] = (int8_t)(i * 53 + 7);
    smma_rt(m, n, k, a, b, c);
    ok &= check(m, n, k, a, b, c);
    free(a), free(b), free(c);
  }
  printf("run-time: %s\n", ok ? "ok" : "wrong");
  return 0;
}
