// GEMMs whose A is read in place (narrow N, as a convolution's pixels x
// taps) and whose M is no multiple of the register block: the partial last
// micro-panel of M % MR rows gets a micro-kernel of its own rows, reading A
// in place too, rather than a packed copy (VectorGemmEmitter::
// emitMicrokernels). M takes values around every register block TLX picks
// (AVX2 6, AVX-512 and NEON 11-14) and spans several A blocks (1201); A's
// rows end in NaN (f32, bf16) or 0xff (u8) past K, which a tail read past
// its rows or past K would show. Matmul, u8 x s8 accumulating into C, a
// fused relu
// and a 7x7 stride-2 convolution on channels-last data (its row GEMMs
// read overlapping pixel rows, 17 per output row); f32, f64, bf16 and u8 x
// s8. Every element against a plain C loop (the convolution: the runtime's
// reference); products and sums are exact. With the tail kernels off (the
// packed partial panel) the values are the same. M a C variable (the
// shared run-time kernel: a partial panel of up to half of MR rows is
// computed by a k loop of that many rows from its packed copy, a larger
// one as MR rows) for the same shapes.
// RUN: %clang_tlx -std=c11 -w -O2 %march_native %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O0 %march_native %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %td && %td | FileCheck %s
// RUN: %if cpu-avx2 %{ %clang_tlx -std=c11 -w -O2 -march=x86-64-v3 %s %tlx_rt -o %t3 && %t3 | FileCheck %s %}
// RUN: %clang_tlx -std=c11 -w -O2 %march_native -mllvm -tlx-gemm-tail-microkernels=0 %s %tlx_rt -o %tp && %tp | FileCheck %s
// CHECK: 7x7/2 rgb, 17 pixels per row: ok
// CHECK: pixels 1: ok
// CHECK: pixels 5: ok
// CHECK: pixels 10: ok
// CHECK: pixels 12: ok
// CHECK: pixels 23: ok
// CHECK: pixels 37: ok
// CHECK: pixels 109: ok
// CHECK: pixels 1201: ok
// CHECK: pixels relu 109: ok
// CHECK: narrow 13: ok
// CHECK: narrow 29: ok
// CHECK: narrow 1201: ok
// CHECK: wide 13: ok
// CHECK: wide 45: ok
// CHECK: wide 1201: ok
// CHECK: f64 7: ok
// CHECK: f64 45: ok
// CHECK: bf16 17: ok
// CHECK: bf16 45: ok
// CHECK: bf16 wide 45: ok
// CHECK: u8s8 17: ok
// CHECK: u8s8 45: ok
// CHECK: u8s8 wide 45: ok
// CHECK: s8s8 17: ok
// CHECK: s8s8 wide 45: ok
// CHECK: run-time M: ok
#include "Inputs/conv_case.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define MMAX 1201
#define PIX_K 21    /* 7 taps x 3 channels */
#define PIX_STEP 24 /* PIX_K data, then NaN */
#define PIX_N 64
#define NAR_K 50
#define NAR_N 37
#define WIDE_N 200 /* A packed (unless one A block of aligned rows) */
#define LDA 56 /* NAR_K data, then NaN / 0xff */
#define DOT_K 64
#define DOT_LDA 80
#define F64_K 16
#define F64_N 24

static float Pix[MMAX * PIX_STEP], PixB[PIX_K * PIX_N];
static float FA[MMAX * LDA], FB[NAR_K * WIDE_N];
static double DA[64 * F64_K], DB[F64_K * F64_N], DC[64 * F64_N];
static __bf16 HA[64 * DOT_LDA], HB[DOT_K * WIDE_N];
static uint8_t UA[64 * DOT_LDA];
static int8_t SA[64 * DOT_LDA], SB[DOT_K * WIDE_N];
static float FC[MMAX * WIDE_N];
static int32_t C[64 * WIDE_N], CStart[64 * WIDE_N];

static unsigned Seed = 2026;
static int next(int Range) { // in [-Range, Range]
  Seed = Seed * 1103515245u + 12345u;
  return (int)((Seed >> 16) % (2u * Range + 1)) - Range;
}

static void fill(void) {
  for (int I = 0; I < MMAX * PIX_STEP; ++I)
    Pix[I] = I % PIX_STEP < PIX_K ? (float)next(8) : NAN;
  for (int I = 0; I < PIX_K * PIX_N; ++I)
    PixB[I] = (float)next(8);
  for (int I = 0; I < MMAX * LDA; ++I)
    FA[I] = I % LDA < NAR_K ? (float)next(8) : NAN;
  for (int I = 0; I < NAR_K * WIDE_N; ++I)
    FB[I] = (float)next(8);
  for (int I = 0; I < 64 * F64_K; ++I)
    DA[I] = next(8);
  for (int I = 0; I < F64_K * F64_N; ++I)
    DB[I] = next(8);
  for (int I = 0; I < 64 * DOT_LDA; ++I) {
    int In = I % DOT_LDA < DOT_K;
    HA[I] = In ? (__bf16)(float)next(8) : (__bf16)NAN;
    UA[I] = In ? (uint8_t)(next(127) + 128) : 0xff;
    SA[I] = In ? (int8_t)next(127) : -1;
  }
  for (int I = 0; I < DOT_K * WIDE_N; ++I) {
    HB[I] = (__bf16)(float)next(8);
    SB[I] = (int8_t)next(127);
  }
  for (int I = 0; I < 64 * WIDE_N; ++I)
    CStart[I] = next(100000);
}

static void report(const char *What, int M, int Bad) {
  printf("%s %d: %s\n", What, M, Bad ? "FAILED" : "ok");
}

/* FC[M x N] against sum_k A[i*Lda + k] * B[k*N + j] (then relu). */
static int checkFloats(const float *A, int Lda, const float *B, int M, int N,
                       int K, int Relu) {
  int Bad = 0;
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      float S = 0;
      for (int P = 0; P < K; ++P)
        S += A[I * Lda + P] * B[P * N + J];
      if (Relu && S < 0)
        S = 0;
      Bad += FC[I * N + J] != S;
    }
  return Bad;
}

#define A_VIEW(ptr, M, K, Lda)                                                 \
  tensor_load(ptr, TLX_SHAPE(M, K), TLX_LAYOUT(0, 1), TLX_ZEROS(2),            \
              TLX_STRIDES(0, Lda))

#define PIXELS(M)                                                              \
  static int pixels_##M(void) {                                                \
    TLX_STORE(FC, tlx_matmul(A_VIEW(Pix, M, PIX_K, PIX_STEP),                  \
                             TLX_LOAD(PixB, PIX_K, PIX_N)));                   \
    return checkFloats(Pix, PIX_STEP, PixB, M, PIX_N, PIX_K, 0);            \
  }
PIXELS(1)
PIXELS(5)
PIXELS(10)
PIXELS(12)
PIXELS(23)
PIXELS(37)
PIXELS(109)
PIXELS(1201)

static int pixelsRelu109(void) {
  TLX_STORE(FC, tlx_relu(tlx_matmul(A_VIEW(Pix, 109, PIX_K, PIX_STEP),
                                    TLX_LOAD(PixB, PIX_K, PIX_N))));
  return checkFloats(Pix, PIX_STEP, PixB, 109, PIX_N, PIX_K, 1);
}

#define FLOATS(NAME, M, N)                                                     \
  static int NAME##_##M(void) {                                                \
    TLX_STORE(FC, tlx_matmul(A_VIEW(FA, M, NAR_K, LDA),                        \
                             TLX_LOAD(FB, NAR_K, N)));                         \
    return checkFloats(FA, LDA, FB, M, N, NAR_K, 0);                           \
  }
FLOATS(narrow, 13, NAR_N)
FLOATS(narrow, 29, NAR_N)
FLOATS(narrow, 1201, NAR_N)
FLOATS(wide, 13, WIDE_N)
FLOATS(wide, 45, WIDE_N)
FLOATS(wide, 1201, WIDE_N)

#define F64(M)                                                                 \
  static int f64_##M(void) {                                                   \
    TLX_STORE(DC, tlx_matmul(TLX_LOAD(DA, M, F64_K),                           \
                             TLX_LOAD(DB, F64_K, F64_N)));                     \
    int Bad = 0;                                                               \
    for (int I = 0; I < M; ++I)                                                \
      for (int J = 0; J < F64_N; ++J) {                                        \
        double S = 0;                                                          \
        for (int P = 0; P < F64_K; ++P)                                        \
          S += DA[I * F64_K + P] * DB[P * F64_N + J];                          \
        Bad += DC[I * F64_N + J] != S;                                         \
      }                                                                        \
    return Bad;                                                                \
  }
F64(7)
F64(45)

#define BF16(NAME, M, N)                                                       \
  typedef float vf_##NAME##M __attribute__((__vector_size__(M * N * 4)));      \
  TLX_DECLARE_TENSOR_OPS_AS(vf_##NAME##M, f_##NAME##M)                         \
  static int NAME##_##M(void) {                                                \
    vf_##NAME##M R = tensor_matmul_f_##NAME##M(A_VIEW(HA, M, DOT_K, DOT_LDA),  \
                                               TLX_LOAD(HB, DOT_K, N));        \
    tensor_store(FC,                                                           \
                 tensor_typeinfo(R, TLX_SHAPE(M, N), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2)),                                \
                 TLX_ZEROS(2));                                                \
    int Bad = 0;                                                               \
    for (int I = 0; I < M; ++I)                                                \
      for (int J = 0; J < N; ++J) {                                            \
        float S = 0;                                                           \
        for (int P = 0; P < DOT_K; ++P)                                        \
          S += (float)HA[I * DOT_LDA + P] * (float)HB[P * N + J];              \
        Bad += FC[I * N + J] != S;                                             \
      }                                                                        \
    return Bad;                                                                \
  }
BF16(bf16, 17, NAR_N)
BF16(bf16, 45, NAR_N)
BF16(bf16_wide, 45, WIDE_N)

/* C = CStart + A x SB, A unsigned (u8, tlx_usmma) or signed (tlx_smma). */
#define INT8(NAME, OP, AP, M, N)                                               \
  static int NAME##_##M(void) {                                                \
    TLX_STORE(C, OP(TLX_LOAD(CStart, M, N), A_VIEW(AP, M, DOT_K, DOT_LDA),     \
                    TLX_LOAD(SB, DOT_K, N)));                                  \
    int Bad = 0;                                                               \
    for (int I = 0; I < M; ++I)                                                \
      for (int J = 0; J < N; ++J) {                                            \
        int32_t S = CStart[I * N + J];                                         \
        for (int P = 0; P < DOT_K; ++P)                                        \
          S += AP[I * DOT_LDA + P] * SB[P * N + J];                            \
        Bad += C[I * N + J] != S;                                              \
      }                                                                        \
    return Bad;                                                                \
  }
INT8(u8s8, tlx_usmma, UA, 17, NAR_N)
INT8(u8s8, tlx_usmma, UA, 45, NAR_N)
INT8(u8s8_wide, tlx_usmma, UA, 45, WIDE_N)
INT8(s8s8, tlx_smma, SA, 17, NAR_N)
INT8(s8s8_wide, tlx_smma, SA, 45, WIDE_N)

typedef float v816f __attribute__((__vector_size__(816 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(v816f, f816)

/* M a C variable (N and K too, for the kernel shared by call sites). */
static int floatsRuntime(int M, int N) {
  TLX_STORE(FC, tlx_matmul(A_VIEW(FA, M, NAR_K, LDA), TLX_LOAD(FB, NAR_K, N)));
  return checkFloats(FA, LDA, FB, M, N, NAR_K, 0);
}

static int u8s8Runtime(int M, int N) {
  TLX_STORE(C, tlx_usmma(TLX_LOAD(CStart, M, N), A_VIEW(UA, M, DOT_K, DOT_LDA),
                         TLX_LOAD(SB, DOT_K, N)));
  int Bad = 0;
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      int32_t S = CStart[I * N + J];
      for (int P = 0; P < DOT_K; ++P)
        S += UA[I * DOT_LDA + P] * SB[P * N + J];
      Bad += C[I * N + J] != S;
    }
  return Bad;
}

static void runtimeSizes(void) {
  static const int Ms[] = {1, 4, 7, 8, 13, 15, 22, 45, 64, 256, 1201};
  int Bad = 0;
  for (unsigned I = 0; I < sizeof(Ms) / sizeof(Ms[0]); ++I) {
    volatile int Narrow = NAR_N, Wide = WIDE_N;
    Bad += floatsRuntime(Ms[I], Narrow) + floatsRuntime(Ms[I], Wide);
    if (Ms[I] <= 64)
      Bad += u8s8Runtime(Ms[I], Narrow) + u8s8Runtime(Ms[I], Wide);
  }
  printf("run-time M: %s\n", Bad ? "FAILED" : "ok");
}

int main(void) {
  // NHWC data, HWIO kernel: 17 output pixels per row, GEMMs of 17x21x16.
  CONV_CASE("7x7/2 rgb, 17 pixels per row", float, float, TLX_F32, TLX_F32,
            f816, 4, 2, (1, 11, 39, 3), (0, 2, 3, 1), (7, 7, 3, 16),
            (2, 3, 1, 0), (1, 3, 17, 16), (0, 2, 3, 1), (2, 2), (1, 1))
  fill();
  report("pixels", 1, pixels_1());
  report("pixels", 5, pixels_5());
  report("pixels", 10, pixels_10());
  report("pixels", 12, pixels_12());
  report("pixels", 23, pixels_23());
  report("pixels", 37, pixels_37());
  report("pixels", 109, pixels_109());
  report("pixels", 1201, pixels_1201());
  report("pixels relu", 109, pixelsRelu109());
  report("narrow", 13, narrow_13());
  report("narrow", 29, narrow_29());
  report("narrow", 1201, narrow_1201());
  report("wide", 13, wide_13());
  report("wide", 45, wide_45());
  report("wide", 1201, wide_1201());
  report("f64", 7, f64_7());
  report("f64", 45, f64_45());
  report("bf16", 17, bf16_17());
  report("bf16", 45, bf16_45());
  report("bf16 wide", 45, bf16_wide_45());
  report("u8s8", 17, u8s8_17());
  report("u8s8", 45, u8s8_45());
  report("u8s8 wide", 45, u8s8_wide_45());
  report("s8s8", 17, s8s8_17());
  report("s8s8 wide", 45, s8s8_wide_45());
  runtimeSizes();
  return 0;
}
