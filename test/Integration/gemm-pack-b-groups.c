// B's packing in the vector GEMM (GemmVector.cpp): row-major B of the
// dot-product kernels (s8 x s8 with the +128 bias and its column sums, u8 x
// s8, bf16) is interleaved a group of micro-panels at a time (two 32-column
// panels per 64-byte row on AVX-512 int8), the columns past the last whole
// group one panel at a time, the panels of a K block with a k tail (K not a
// multiple of the k group) element by element; when all of M is one A
// block, B is packed one group at a time right before its microkernels
// (decided when compiling, or at run time for run-time sizes), else the
// whole B panel before the A blocks. f32 with B rows 2 KiB apart (not read
// in place) takes the same two orders. Sizes on both sides: N = 200 (three
// 64-column groups and 8 columns), 160 (two groups, one lone panel), 37,
// K = 128, 130 (k tail), 1030 (two K blocks, the second with a tail), M =
// 33 (one A block) and 520 (more than one); every GEMM with its sizes known
// when compiling and read at run time, against plain C loops.
// RUN: %clang_tlx -std=c11 -w -O2 %march_native %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O0 %march_native %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// Dispatched, at every x86 level the CPU has (SSE, AVX2's vpmaddwd, AVX-512
// without VNNI: multiply-adds on widened operands; VNNI; BF16's vdpbf16ps).
// RUN: %clang_tlx -std=c11 -w -O2 -march=x86-64 %s %tlx_rt -o %td
// RUN: env TLX_ISA_LEVEL_MAX=0 %td | FileCheck %s
// RUN: env TLX_ISA_LEVEL_MAX=1 %td | FileCheck %s
// RUN: env TLX_ISA_LEVEL_MAX=2 %td | FileCheck %s
// RUN: env TLX_ISA_LEVEL_MAX=3 %td | FileCheck %s
// RUN: env TLX_ISA_LEVEL_MAX=4 %td | FileCheck %s
// Threads splitting the rows or columns of C.
// RUN: %if openmp %{ %clang_tlx -std=c11 -w -O2 -fopenmp -mllvm -tlx-threads-min-work=0 %s %tlx_rt -lpthread -o %tp %}
// RUN: %if openmp %{ env OMP_NUM_THREADS=3 %tp | FileCheck %s %}
// CHECK: 33x200x128: ok
// CHECK: 33x160x130: ok
// CHECK: 33x37x128: ok
// CHECK: 40x72x1030: ok
// CHECK: 520x72x100: ok
// CHECK: 520x200x128: ok
// CHECK: f32 33x512x70: ok
// CHECK: f32 520x512x40: ok
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

#define MMAX 520
#define NMAX 512
#define KMAX 1030

static int8_t SA[MMAX * KMAX], SB[KMAX * NMAX];
static uint8_t UA[MMAX * KMAX];
static __bf16 HA[MMAX * KMAX], HB[KMAX * NMAX];
static float FA[MMAX * KMAX], FB[KMAX * NMAX];
static int32_t Acc[MMAX * NMAX], C[MMAX * NMAX], Want[MMAX * NMAX];
static float FC[MMAX * NMAX], FWant[MMAX * NMAX];

static unsigned Seed = 4321;
static int next(int Range) { // in [-Range, Range]
  Seed = Seed * 1103515245u + 12345u;
  return (int)((Seed >> 16) % (2u * Range + 1)) - Range;
}

static void fill(void) {
  for (int I = 0; I < MMAX * KMAX; ++I) {
    SA[I] = (int8_t)next(127);
    UA[I] = (uint8_t)(next(127) + 128);
    FA[I] = (float)next(4);
    HA[I] = (__bf16)FA[I];
  }
  SA[0] = -128; // the bias flip's edge: 0x80 -> 0x00
  for (int I = 0; I < KMAX * NMAX; ++I) {
    SB[I] = (int8_t)next(127);
    FB[I] = (float)next(4);
    HB[I] = (__bf16)FB[I];
  }
  SB[0] = -128;
  for (int I = 0; I < MMAX * NMAX; ++I)
    Acc[I] = next(100000);
}

/* Want = Acc + A x SB (A: SA, or UA when Unsigned); FWant = FA x FB, exact
 * in float (small integers). */
static void reference(int M, int N, int K, int Unsigned) {
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      int32_t S = Acc[I * N + J];
      float F = 0;
      for (int P = 0; P < K; ++P) {
        S += (Unsigned ? UA[I * K + P] : SA[I * K + P]) * SB[P * N + J];
        F += FA[I * K + P] * FB[P * N + J];
      }
      Want[I * N + J] = S;
      FWant[I * N + J] = F;
    }
}

static int wrongInts(int M, int N) {
  int Bad = 0;
  for (int I = 0; I < M * N; ++I)
    Bad += C[I] != Want[I];
  return Bad;
}

static int wrongFloats(int M, int N) {
  int Bad = 0;
  for (int I = 0; I < M * N; ++I)
    Bad += FC[I] != FWant[I];
  return Bad;
}

typedef float rt_f __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS_AS(rt_f, rtf)

/* The run-time-sized forms. */
static void s8s8_rt(int M, int N, int K) {
  TLX_STORE(C, tlx_smma(TLX_LOAD(Acc, M, N), TLX_LOAD(SA, M, K),
                        TLX_LOAD(SB, K, N)));
}
static void u8s8_rt(int M, int N, int K) {
  TLX_STORE(C, tlx_usmma(TLX_LOAD(Acc, M, N), TLX_LOAD(UA, M, K),
                         TLX_LOAD(SB, K, N)));
}
static void bf16_rt(int M, int N, int K) {
  rt_f R = tensor_matmul_rtf(TLX_LOAD(HA, M, K), TLX_LOAD(HB, K, N));
  tensor_store(FC,
               tensor_typeinfo(R, TLX_SHAPE(M, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2)),
               TLX_ZEROS(2));
}
static void f32_rt(int M, int N, int K) {
  TLX_STORE(FC, tlx_matmul(TLX_LOAD(FA, M, K), TLX_LOAD(FB, K, N)));
}

/* The same GEMMs with sizes known when compiling. */
#define DOT_GEMMS(M, N, K)                                                     \
  static void s8s8_##M##_##N##_##K(void) {                                     \
    TLX_STORE(C, tlx_smma(TLX_LOAD(Acc, M, N), TLX_LOAD(SA, M, K),             \
                          TLX_LOAD(SB, K, N)));                                \
  }                                                                            \
  static void u8s8_##M##_##N##_##K(void) {                                     \
    TLX_STORE(C, tlx_usmma(TLX_LOAD(Acc, M, N), TLX_LOAD(UA, M, K),            \
                           TLX_LOAD(SB, K, N)));                               \
  }                                                                            \
  typedef float vf_##M##_##N##_##K                                             \
      __attribute__((__vector_size__(M * N * sizeof(float))));                 \
  TLX_DECLARE_TENSOR_OPS_AS(vf_##M##_##N##_##K, f_##M##_##N##_##K)             \
  static void bf16_##M##_##N##_##K(void) {                                     \
    vf_##M##_##N##_##K R = tensor_matmul_f_##M##_##N##_##K(                    \
        TLX_LOAD(HA, M, K), TLX_LOAD(HB, K, N));                               \
    tensor_store(FC,                                                           \
                 tensor_typeinfo(R, TLX_SHAPE(M, N), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2)),                                \
                 TLX_ZEROS(2));                                                \
  }

#define F32_GEMM(M, N, K)                                                      \
  static void f32_##M##_##N##_##K(void) {                                      \
    TLX_STORE(FC, tlx_matmul(TLX_LOAD(FA, M, K), TLX_LOAD(FB, K, N)));         \
  }

DOT_GEMMS(33, 200, 128)
DOT_GEMMS(33, 160, 130)
DOT_GEMMS(33, 37, 128)
DOT_GEMMS(40, 72, 1030)
DOT_GEMMS(520, 72, 100)
DOT_GEMMS(520, 200, 128)
F32_GEMM(33, 512, 70)
F32_GEMM(520, 512, 40)

static int failures;

static void report(const char *What, int M, int N, int K, int Bad) {
  if (Bad) {
    printf("%s %dx%dx%d: %d wrong elements\n", What, M, N, K, Bad);
    ++failures;
  }
}

static void checkDots(int M, int N, int K, void (*S8)(void), void (*U8)(void),
                      void (*Bf16)(void)) {
  int Before = failures;
  reference(M, N, K, 0);
  S8();
  report("s8s8", M, N, K, wrongInts(M, N));
  s8s8_rt(M, N, K);
  report("s8s8 run-time sizes", M, N, K, wrongInts(M, N));
  Bf16();
  report("bf16", M, N, K, wrongFloats(M, N));
  bf16_rt(M, N, K);
  report("bf16 run-time sizes", M, N, K, wrongFloats(M, N));
  reference(M, N, K, 1);
  U8();
  report("u8s8", M, N, K, wrongInts(M, N));
  u8s8_rt(M, N, K);
  report("u8s8 run-time sizes", M, N, K, wrongInts(M, N));
  printf("%dx%dx%d: %s\n", M, N, K, failures == Before ? "ok" : "FAILED");
}

static void checkF32(int M, int N, int K, void (*F32)(void)) {
  int Before = failures;
  reference(M, N, K, 0);
  F32();
  report("f32", M, N, K, wrongFloats(M, N));
  f32_rt(M, N, K);
  report("f32 run-time sizes", M, N, K, wrongFloats(M, N));
  printf("f32 %dx%dx%d: %s\n", M, N, K, failures == Before ? "ok" : "FAILED");
}

#define CHECK_DOTS(M, N, K)                                                    \
  checkDots(M, N, K, s8s8_##M##_##N##_##K, u8s8_##M##_##N##_##K,               \
            bf16_##M##_##N##_##K)

int main(void) {
  fill();
  CHECK_DOTS(33, 200, 128);
  CHECK_DOTS(33, 160, 130);
  CHECK_DOTS(33, 37, 128);
  CHECK_DOTS(40, 72, 1030);
  CHECK_DOTS(520, 72, 100);
  CHECK_DOTS(520, 200, 128);
  checkF32(33, 512, 70, f32_33_512_70);
  checkF32(520, 512, 40, f32_520_512_40);
  return failures != 0;
}
