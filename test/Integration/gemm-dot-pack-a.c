// The dot-product kernels' A packing (s8 x s8 with the +128 bias, u8 x s8,
// bf16) at sizes on both sides of its steps: full micro-panels of A are
// packed by a vector transpose of 32-bit k groups (64 int8 or 32 bf16 k
// values at a time on AVX-512), partial micro-panels and the last k values
// element by element. M = 33 (two micro-panels of 14 and a partial one),
// K = 64 (one transpose step for int8, two for bf16), 135 (two, then 7 k
// values, not a multiple of the 4-byte group) and 200; checked against
// plain C loops. The CPU decides which kernel runs (AVX-512 VNNI/BF16 here,
// AVX2 or AVX-VNNI elsewhere): the answers are the same. -mtune=znver5 takes
// the int8 kernel's 6 x 64 register block (Zen 5's) on any AVX512-VNNI CPU.
// RUN: %clang_tlx -std=c11 -w -O2 %march_native %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O0 %march_native %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %td && %td | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %march_native -mtune=znver5 %s %tlx_rt -o %tz && %tz | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O0 -mtune=znver5 %s %tlx_rt -o %tz0 && %tz0 | FileCheck %s
// CHECK: s8s8 K=64: ok
// CHECK: u8s8 K=64: ok
// CHECK: bf16 K=64: ok
// CHECK: s8s8 K=135: ok
// CHECK: u8s8 K=135: ok
// CHECK: bf16 K=135: ok
// CHECK: s8s8 K=200: ok
// CHECK: u8s8 K=200: ok
// CHECK: bf16 K=200: ok
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

#define M 33
#define N 37
#define KMAX 200

typedef float vf __attribute__((__vector_size__(M * N * sizeof(float))));
TLX_DECLARE_TENSOR_OPS_AS(vf, f)

static int8_t SA[M * KMAX], SB[KMAX * N];
static uint8_t UA[M * KMAX];
static __bf16 HA[M * KMAX], HB[KMAX * N];
static float FA[M * KMAX], FB[KMAX * N];
static int32_t Acc[M * N], C[M * N], Want[M * N];
static float FC[M * N], FWant[M * N];

static unsigned Seed = 12345;
static int next(int Range) { // in [-Range, Range]
  Seed = Seed * 1103515245u + 12345u;
  return (int)((Seed >> 16) % (2u * Range + 1)) - Range;
}

static void fill(void) {
  for (int I = 0; I < M * KMAX; ++I) {
    SA[I] = (int8_t)next(127);
    UA[I] = (uint8_t)(next(127) + 128);
    FA[I] = (float)next(8);
    HA[I] = (__bf16)FA[I];
  }
  SA[0] = -128; // the bias flip's edge: 0x80 -> 0x00
  for (int I = 0; I < KMAX * N; ++I) {
    SB[I] = (int8_t)next(127);
    FB[I] = (float)next(8);
    HB[I] = (__bf16)FB[I];
  }
  for (int I = 0; I < M * N; ++I)
    Acc[I] = next(100000);
}

static void report(const char *What, int K, int Bad) {
  printf("%s K=%d: %s\n", What, K, Bad ? "FAILED" : "ok");
  if (Bad)
    printf("  %d wrong elements\n", Bad);
}

static int compareInts(void) {
  int Bad = 0;
  for (int I = 0; I < M * N; ++I)
    Bad += C[I] != Want[I];
  return Bad;
}

#define GEMMS(K)                                                               \
  static void s8s8_##K(void) {                                                 \
    TLX_STORE(C, tlx_smma(TLX_LOAD(Acc, M, N), TLX_LOAD(SA, M, K),             \
                          TLX_LOAD(SB, K, N)));                                \
  }                                                                            \
  static void u8s8_##K(void) {                                                 \
    TLX_STORE(C, tlx_usmma(TLX_LOAD(Acc, M, N), TLX_LOAD(UA, M, K),            \
                           TLX_LOAD(SB, K, N)));                               \
  }                                                                            \
  static void bf16_##K(void) {                                                 \
    vf R = tensor_matmul_f(TLX_LOAD(HA, M, K), TLX_LOAD(HB, K, N));            \
    tensor_store(FC,                                                           \
                 tensor_typeinfo(R, TLX_SHAPE(M, N), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2)),                                \
                 TLX_ZEROS(2));                                                \
  }

GEMMS(64)
GEMMS(135)
GEMMS(200)

/* Want = Acc + A x SB, A the signed bytes SA, or the unsigned UA. */
static void referenceInts(int K, int Unsigned) {
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      int32_t S = Acc[I * N + J];
      for (int P = 0; P < K; ++P)
        S += (Unsigned ? UA[I * K + P] : SA[I * K + P]) * SB[P * N + J];
      Want[I * N + J] = S;
    }
}

static void check(int K, void (*S8)(void), void (*U8)(void),
                  void (*Bf16)(void)) {
  referenceInts(K, 0);
  S8();
  report("s8s8", K, compareInts());
  referenceInts(K, 1);
  U8();
  report("u8s8", K, compareInts());
  // Small integers: every product and sum is exact in float.
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      float S = 0;
      for (int P = 0; P < K; ++P)
        S += FA[I * K + P] * FB[P * N + J];
      FWant[I * N + J] = S;
    }
  Bf16();
  int Bad = 0;
  for (int I = 0; I < M * N; ++I)
    Bad += FC[I] != FWant[I];
  report("bf16", K, Bad);
}

int main(void) {
  fill();
  check(64, s8s8_64, u8s8_64, bf16_64);
  check(135, s8s8_135, u8s8_135, bf16_135);
  check(200, s8s8_200, u8s8_200, bf16_200);
  return 0;
}
