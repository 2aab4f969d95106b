// A user-written AMX GEMM with clang's __tile1024i API: accumulators kept
// across a K loop, an accumulator passed by pointer to a helper (not inlined
// at -O0), odd edge blocks, bf16 and int8. Emulated at -O0/-O2 against plain
// C; natively on AMX machines.
// RUN: %clang_tlx -O0 -mamx-tile -mamx-int8 -mamx-bf16 -fplugin-arg-tlx-target=amx-emulate %s -o %t0 %tlx_rt
// RUN: %t0 | FileCheck %s
// RUN: %clang_tlx -O2 -mamx-tile -mamx-int8 -mamx-bf16 -fplugin-arg-tlx-target=amx-emulate %s -o %t2 %tlx_rt
// RUN: %t2 | FileCheck %s
// RUN: %if amx-hw %{ %clang_plain -O2 -mamx-tile -mamx-int8 -mamx-bf16 -DNATIVE %s -o %tn %tlx_rt %}
// RUN: %if amx-hw %{ %tn | FileCheck %s %}
// CHECK: int8 gemm 40x48x192: ok
// CHECK: bf16 gemm 40x48x96: ok

#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlxrt_amx.h>

enum { M = 40, N = 48, KI = 192, KB = 96 };

static int8_t A8[M][KI], B8[KI / 4][N * 4]; // B in VNNI layout
static int32_t C8[M][N], R8[M][N];
static uint16_t A16[M][KB], B16[KB / 2][N * 2];
static float C16[M][N], R16[M][N];

// Not inlined at -O0: the accumulator is passed through memory.
static void step_int8(__tile1024i *Acc, const int8_t *A, const int8_t *B,
                      short Rows, short Cols) {
  __tile1024i a = {Rows, 64}, b = {16, Cols};
  __tile_loadd(&a, A, KI);
  __tile_loadd(&b, B, N * 4);
  __tile_dpbssd(Acc, a, b);
}

// Shapes are parameters, so native code has them at function entry (LLVM's
// tile configuration needs every shape defined before the first tile use).
__attribute__((noinline)) static void block_int8(int I, int J, short Rows,
                                                 short Cols) {
  __tile1024i c = {Rows, Cols};
  __tile_zero(&c);
  for (int K = 0; K < KI; K += 64)
    step_int8(&c, &A8[I][K], &B8[K / 4][4 * J], Rows, Cols);
  __tile_stored(&C8[I][J], N * 4, c);
}

__attribute__((noinline)) static void block_bf16(int I, int J, short Rows,
                                                 short Cols) {
  __tile1024i c = {Rows, Cols};
  __tile_loadd(&c, &C16[I][J], N * 4);
  for (int K = 0; K < KB; K += 32) {
    __tile1024i a = {Rows, 64}, b = {16, Cols};
    __tile_loadd(&a, &A16[I][K], KB * 2);
    __tile_loadd(&b, &B16[K / 2][2 * J], N * 4);
    __tile_dpbf16ps(&c, a, b);
  }
  __tile_stored(&C16[I][J], N * 4, c);
}

static void gemm(int Bf16) {
  for (int I = 0; I < M; I += 16)
    for (int J = 0; J < N; J += 16) {
      short Rows = (short)(M - I < 16 ? M - I : 16);
      short Cols = (short)(4 * (N - J < 16 ? N - J : 16));
      if (Bf16)
        block_bf16(I, J, Rows, Cols);
      else
        block_int8(I, J, Rows, Cols);
    }
}

static float bf16(uint16_t H) {
  uint32_t U = (uint32_t)H << 16;
  float F;
  memcpy(&F, &U, 4);
  return F;
}

int main(void) {
#ifdef NATIVE
  tlxrt_amx_init();
#endif
  for (int I = 0; I < M; ++I)
    for (int K = 0; K < KI; ++K)
      A8[I][K] = (int8_t)(I * 17 + K * 29 + 3);
  for (int K = 0; K < KI; ++K)
    for (int J = 0; J < N; ++J)
      B8[K / 4][4 * J + K % 4] = (int8_t)(K * 11 - J * 7 + 128);
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      int32_t S = 0;
      for (int K = 0; K < KI; ++K)
        S += A8[I][K] * B8[K / 4][4 * J + K % 4];
      R8[I][J] = S;
    }
  gemm(0);
  printf("int8 gemm %dx%dx%d: %s\n", M, N, KI,
         memcmp(C8, R8, sizeof(C8)) ? "FAIL" : "ok");

  // Small integers (exact in bf16 and in any summation order).
  for (int I = 0; I < M; ++I)
    for (int K = 0; K < KB; ++K)
      A16[I][K] = (uint16_t)(0x3f80 + 0x80 * ((I + K) % 3)); // 1, 2, 4
  for (int K = 0; K < KB; ++K)
    for (int J = 0; J < N; ++J)
      B16[K / 2][2 * J + K % 2] = (K + J) % 2 ? 0x4000 : 0xbf80; // 2, -1
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      C16[I][J] = (float)(I - J);
      float S = C16[I][J];
      for (int K = 0; K < KB; ++K)
        S += bf16(A16[I][K]) * bf16(B16[K / 2][2 * J + K % 2]);
      R16[I][J] = S;
    }
  gemm(1);
  printf("bf16 gemm %dx%dx%d: %s\n", M, N, KB,
         memcmp(C16, R16, sizeof(C16)) ? "FAIL" : "ok");
  return 0;
}
