// Run-time-sized AMX GEMMs whose M is a constant above one kernel block
// (64 rows) while K and N are variables (issue 51): one call site of each
// kind, so IPSCCP makes its shared kernel's row range constant, and LLVM
// 19's unroller used to unroll the 32 x 32 block loops into more live
// tiles than the eight there are ("ran out of registers during register
// allocation", 18 times, no location). The block loops are never unrolled
// (llvm.loop.unroll.disable). The same kernels tuned for Zen
// (-mtune=znver5: the post-RA scheduler renames tile registers) keep every
// tile they use configured (tlx-backend-workarounds; test/tools/
// amx_tile_config.py reads the assembly). Values against plain C through
// the emulator; natively where the CPU has AMX.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -O0 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// Native tile code (LLVM 19; LLVM 22 takes vector code for run-time tile
// shapes, test/AMX/runtime-sizes.c):
// RUN: %if llvm-19 %{ %clang_tlx -std=c11 -O2 -fplugin-arg-tlx-target=amx -Rpass=tlx-tile -S %s -o %t2.s 2>&1 | FileCheck %s --check-prefix=REMARK %}
// RUN: %if llvm-19 %{ python3 %S/../tools/amx_tile_config.py %t2.s %}
// RUN: %if llvm-19 %{ %clang_tlx -std=c11 -O2 -march=sapphirerapids -mtune=znver5 -fplugin-arg-tlx-target=amx -S %s -o %tz.s %}
// RUN: %if llvm-19 %{ python3 %S/../tools/amx_tile_config.py %tz.s %}
// RUN: %if llvm-19 %{ %clang_tlx -std=c11 -O0 -fplugin-arg-tlx-target=amx -S %s -o %t0.s %}
// RUN: %if amx-hw %{ %clang_tlx -std=c11 -O2 -fplugin-arg-tlx-target=amx %s %tlx_rt -o %th && %th | FileCheck %s %}
// RUN: %if amx-hw %{ %clang_tlx -std=c11 -O2 -march=native -mtune=znver5 -fplugin-arg-tlx-target=amx %s %tlx_rt -o %thz && %thz | FileCheck %s %}
// REMARK: remark: smma: MxKxN known at run time i8 x i8 -> i32 GEMM on AMX
// REMARK: remark: matmul: MxKxN known at run time bf16 x bf16 -> f32 GEMM on AMX
// CHECK: smma 96: ok
// CHECK: bf16 130: ok
// CHECK: PASSED
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

TLX_DECLARE_TENSOR_OPS_AS(tlx_float_result_t, f32)

static int failures;

/* c = acc + a x b, M rows known when compiling, n and k at run time. */
#define SMMA_ROWS(M)                                                           \
  static void smma_##M(int n, int k, const int8_t *a, const int8_t *b,         \
                       const int32_t *acc, int32_t *c) {                       \
    TLX_STORE(c, tlx_smma(TLX_LOAD(acc, M, n), TLX_LOAD(a, M, k),              \
                          TLX_LOAD(b, k, n)));                                 \
  }
SMMA_ROWS(96)

#define BF16_ROWS(M)                                                           \
  static void bf16_##M(int n, int k, const __bf16 *a, const __bf16 *b,         \
                       float *c) {                                             \
    tlx_float_result_t r =                                                     \
        tensor_matmul_f32(TLX_LOAD(a, M, k), TLX_LOAD(b, k, n));               \
    tensor_store(c,                                                            \
                 tensor_typeinfo(r, TLX_SHAPE(M, n), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2)),                                \
                 TLX_ZEROS(2));                                                \
  }
BF16_ROWS(130)

static const int cols[] = {1, 17, 64, 100};
static const int depths[] = {1, 64, 129};

#define CHECK_SMMA(M)                                                          \
  do {                                                                         \
    int before = failures;                                                     \
    for (unsigned ni = 0; ni < sizeof cols / sizeof *cols; ++ni)               \
      for (unsigned ki = 0; ki < sizeof depths / sizeof *depths; ++ki) {       \
        int n = cols[ni], k = depths[ki];                                      \
        int8_t *a = malloc((size_t)(M) * k), *b = malloc((size_t)k * n);       \
        int32_t *acc = malloc(4 * (size_t)(M) * n);                            \
        int32_t *c = malloc(4 * (size_t)(M) * n);                              \
        for (int i = 0; i < (M) * k; ++i)                                      \
          a[i] = (int8_t)(i * 37 + 11);                                        \
        for (int i = 0; i < k * n; ++i)                                        \
          b[i] = (int8_t)(i * 53 + 7);                                         \
        for (int i = 0; i < (M) * n; ++i)                                      \
          acc[i] = i * 3 - 50;                                                 \
        smma_##M(n, k, a, b, acc, c);                                          \
        for (int i = 0; i < (M); ++i)                                          \
          for (int j = 0; j < n; ++j) {                                        \
            int32_t sum = acc[i * n + j];                                      \
            for (int p = 0; p < k; ++p)                                        \
              sum += (int32_t)a[i * k + p] * (int32_t)b[p * n + j];            \
            if (c[i * n + j] != sum && failures++ < 5)                         \
              printf("smma %dx%dx%d: c[%d][%d] = %d, expected %d\n", (M), n,   \
                     k, i, j, c[i * n + j], sum);                              \
          }                                                                    \
        free(a), free(b), free(acc), free(c);                                  \
      }                                                                        \
    printf("smma " #M ": %s\n", failures == before ? "ok" : "FAILED");         \
  } while (0)

/* Small integers: every bf16 product and f32 sum is exact in any order. */
#define CHECK_BF16(M)                                                          \
  do {                                                                         \
    int before = failures;                                                     \
    for (unsigned ni = 0; ni < sizeof cols / sizeof *cols; ++ni)               \
      for (unsigned ki = 0; ki < sizeof depths / sizeof *depths; ++ki) {       \
        int n = cols[ni], k = depths[ki];                                      \
        __bf16 *a = malloc(sizeof(__bf16) * (M) * k);                          \
        __bf16 *b = malloc(sizeof(__bf16) * k * n);                            \
        float *c = malloc(sizeof(float) * (M) * n);                            \
        for (int i = 0; i < (M) * k; ++i)                                      \
          a[i] = (__bf16)(float)(i * 7 % 17 - 8);                              \
        for (int i = 0; i < k * n; ++i)                                        \
          b[i] = (__bf16)(float)(i * 5 % 13 - 6);                              \
        bf16_##M(n, k, a, b, c);                                               \
        for (int i = 0; i < (M); ++i)                                          \
          for (int j = 0; j < n; ++j) {                                        \
            float sum = 0;                                                     \
            for (int p = 0; p < k; ++p)                                        \
              sum += (float)a[i * k + p] * (float)b[p * n + j];                \
            if (c[i * n + j] != sum && failures++ < 5)                         \
              printf("bf16 %dx%dx%d: c[%d][%d] = %g, expected %g\n", (M), n,   \
                     k, i, j, c[i * n + j], sum);                              \
          }                                                                    \
        free(a), free(b), free(c);                                             \
      }                                                                        \
    printf("bf16 " #M ": %s\n", failures == before ? "ok" : "FAILED");         \
  } while (0)

int main(void) {
  CHECK_SMMA(96);
  CHECK_BF16(130);
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}
