// The dot-product kernels (x86's vpdpbusd and vdpbf16ps, NEON's sdot and
// bfdot) read A's k groups (4 int8, 2 bf16) in place, as one broadcast
// lane, when K is a multiple of the group: narrow N (37), or all of M one
// A block whose rows start on cache lines (N = 200). A is the first K
// columns of a wider matrix whose other columns hold NaN (bf16) or 0xff
// bytes, so a k group read past a row's end would show in the bf16 results
// (NaN times B's zero padding); K = 63 (bf16) and 66 (u8) are no multiple
// of the group and take the packed copy, also with K a C variable (checked
// at run time). s8 x s8 on vpdpbusd flips A's sign bits: in the broadcasts
// of what it reads in place, while packing what it packs (its partial row
// panels, K = 66; with a run-time K the kernel has a k loop for each).
// Every element against a plain C loop; products and sums are exact.
// RUN: %clang_tlx -std=c11 -w -O2 %march_native %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %march_native -fplugin-arg-tlx-share-kernels=never %s %tlx_rt -o %tn && %tn | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O0 %march_native %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %td && %td | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %march_native -mtune=znver5 %s %tlx_rt -o %tz && %tz | FileCheck %s
// The kernels each GEMM gets on an AVX-512 VNNI and BF16 CPU, the shared
// kernels off (the run-time K's decide when they run):
// RUN: %clang_tlx -std=c11 -w -O2 -march=znver4 -fplugin-arg-tlx-share-kernels=never -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: matmul: 33x64x37 (MxKxN) bf16 x bf16 -> f32 GEMM on vectors, kernel avx512 bf16 vdpbf16ps {{[0-9]+}}x32 (A in place),
// REMARK-DAG: remark: matmul: 33x63x37 (MxKxN) bf16 x bf16 -> f32 GEMM on vectors, kernel avx512 bf16 vdpbf16ps {{[0-9]+}}x32,
// REMARK-DAG: remark: matmul: 64x64x200 (MxKxN) bf16 x bf16 -> f32 GEMM on vectors, kernel avx512 bf16 vdpbf16ps {{[0-9]+}}x32 (A in place),
// REMARK-DAG: remark: matmul: MxKxN known at run time bf16 x bf16 -> f32 GEMM on vectors, kernel avx512 bf16 vdpbf16ps {{[0-9]+}}x32 (A in place when strides and sizes allow),
// REMARK-DAG: remark: usmma: MxKxN known at run time i8 x i8 -> i32 GEMM on vectors, kernel avx512 u8s8s32 vpdpbusd {{[0-9]+}}x{{32|64}} (A in place when strides and sizes allow),
// REMARK-DAG: remark: usmma: 33x64x37 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel avx512 u8s8s32 vpdpbusd {{[0-9]+}}x{{32|64}} (A in place),
// REMARK-DAG: remark: usmma: 33x66x37 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel avx512 u8s8s32 vpdpbusd {{[0-9]+}}x{{32|64}},
// REMARK-DAG: remark: usmma: 64x128x200 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel avx512 u8s8s32 vpdpbusd {{[0-9]+}}x{{32|64}} (A in place),
// REMARK-DAG: remark: smma: 33x64x37 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel avx512 s8s8s32 vpdpbusd(+128 bias) {{[0-9]+}}x{{32|64}} (A in place),
// REMARK-DAG: remark: smma: 33x66x37 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel avx512 s8s8s32 vpdpbusd(+128 bias) {{[0-9]+}}x{{32|64}},
// REMARK-DAG: remark: smma: 64x128x200 (MxKxN) i8 x i8 -> i32 GEMM on vectors, kernel avx512 s8s8s32 vpdpbusd(+128 bias) {{[0-9]+}}x{{32|64}} (A in place),
// REMARK-DAG: remark: smma: MxKxN known at run time i8 x i8 -> i32 GEMM on vectors, kernel avx512 s8s8s32 vpdpbusd(+128 bias) {{[0-9]+}}x{{32|64}} (A in place when strides and sizes allow),
// CHECK: bf16 33x37x64: ok
// CHECK: bf16 33x37x63: ok
// CHECK: bf16 64x200x64: ok
// CHECK: bf16 run-time K=64: ok
// CHECK: bf16 run-time K=63: ok
// CHECK: u8s8 33x37x64: ok
// CHECK: u8s8 33x37x66: ok
// CHECK: u8s8 64x200x128: ok
// CHECK: s8s8 33x37x64: ok
// CHECK: s8s8 33x37x66: ok
// CHECK: s8s8 64x200x128: ok
// CHECK: u8s8 run-time K=64: ok
// CHECK: u8s8 run-time K=66: ok
// CHECK: s8s8 run-time K=64: ok
// CHECK: s8s8 run-time K=66: ok
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

#define MMAX 64
#define NMAX 200
#define LDA 160 /* bf16: 320-byte rows, u8: 160 (N = 200: 96 and 192) */
#define KMAX 128
#define LDMAX 192

static __bf16 HA[MMAX * LDMAX], HB[KMAX * NMAX];
static float FA[MMAX * LDMAX], FB[KMAX * NMAX];
static float FC[MMAX * NMAX];
static uint8_t UA[MMAX * LDMAX];
static int8_t SA[MMAX * LDMAX], SB[KMAX * NMAX];
static int32_t C[MMAX * NMAX], Zero[MMAX * NMAX];

static unsigned Seed = 2026;
static int next(int Range) { // in [-Range, Range]
  Seed = Seed * 1103515245u + 12345u;
  return (int)((Seed >> 16) % (2u * Range + 1)) - Range;
}

/* A's first K columns are data; the rest of each lda-long row is NaN or
 * 0xff, which only a read past K sees. */
static void fillA(int K, int Lda) {
  for (int I = 0; I < MMAX; ++I)
    for (int P = 0; P < Lda; ++P) {
      int In = P < K;
      FA[I * Lda + P] = In ? (float)next(8) : NAN;
      HA[I * Lda + P] = (__bf16)FA[I * Lda + P];
      UA[I * Lda + P] = In ? (uint8_t)(next(127) + 128) : 0xff;
      SA[I * Lda + P] = In ? (int8_t)next(127) : -1;
    }
}

static void fillB(void) {
  for (int I = 0; I < KMAX * NMAX; ++I) {
    FB[I] = (float)next(8);
    HB[I] = (__bf16)FB[I];
    SB[I] = (int8_t)next(127);
  }
}

static void report(const char *What, int M, int N, int K, int Bad) {
  printf("%s %dx%dx%d: %s\n", What, M, N, K, Bad ? "FAILED" : "ok");
}

static void reportRuntime(const char *What, int K, int Bad) {
  printf("%s run-time K=%d: %s\n", What, K, Bad ? "FAILED" : "ok");
}

static int checkFloats(int M, int N, int K, int Lda) {
  int Bad = 0;
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      float S = 0;
      for (int P = 0; P < K; ++P)
        S += FA[I * Lda + P] * FB[P * N + J];
      Bad += FC[I * N + J] != S;
    }
  return Bad;
}

static int checkInts(int M, int N, int K, int Lda, int Unsigned) {
  int Bad = 0;
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      int32_t S = 0;
      for (int P = 0; P < K; ++P)
        S += (Unsigned ? UA[I * Lda + P] : SA[I * Lda + P]) * SB[P * N + J];
      Bad += C[I * N + J] != S;
    }
  return Bad;
}

#define A_VIEW(ptr, M, K, Lda)                                                 \
  tensor_load(ptr, TLX_SHAPE(M, K), TLX_LAYOUT(0, 1), TLX_ZEROS(2),            \
              TLX_STRIDES(0, Lda))

typedef float vf_33_37 __attribute__((__vector_size__(33 * 37 * 4)));
typedef float vf_64_200 __attribute__((__vector_size__(64 * 200 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(vf_33_37, f_33_37)
TLX_DECLARE_TENSOR_OPS_AS(vf_64_200, f_64_200)

/* FC (M x N floats) = R, a bf16 GEMM's float result. */
#define STORE_FLOATS(R, M, N)                                                  \
  tensor_store(FC,                                                             \
               tensor_typeinfo(R, TLX_SHAPE(M, N), TLX_LAYOUT(0, 1),           \
                               TLX_ZEROS(2)),                                  \
               TLX_ZEROS(2))

#define BF16_GEMM(M, N, K, Lda)                                                \
  static int bf16_##M##_##N##_##K(void) {                                      \
    fillA(K, Lda);                                                             \
    vf_##M##_##N R = tensor_matmul_f_##M##_##N(A_VIEW(HA, M, K, Lda),          \
                                               TLX_LOAD(HB, K, N));            \
    STORE_FLOATS(R, M, N);                                                     \
    return checkFloats(M, N, K, Lda);                                          \
  }

#define INT8_GEMM(Op, Name, Ptr, Unsigned, M, N, K, Lda)                       \
  static int Name##_##M##_##N##_##K(void) {                                    \
    fillA(K, Lda);                                                             \
    TLX_STORE(C, Op(TLX_LOAD(Zero, M, N), A_VIEW(Ptr, M, K, Lda),              \
                    TLX_LOAD(SB, K, N)));                                      \
    return checkInts(M, N, K, Lda, Unsigned);                                  \
  }

BF16_GEMM(33, 37, 64, LDA)
BF16_GEMM(33, 37, 63, LDA)
BF16_GEMM(64, 200, 64, 96)
INT8_GEMM(tlx_usmma, u8s8, UA, 1, 33, 37, 64, LDA)
INT8_GEMM(tlx_usmma, u8s8, UA, 1, 33, 37, 66, LDA)
INT8_GEMM(tlx_usmma, u8s8, UA, 1, 64, 200, 128, 192)
INT8_GEMM(tlx_smma, s8s8, SA, 0, 33, 37, 64, LDA)
INT8_GEMM(tlx_smma, s8s8, SA, 0, 33, 37, 66, LDA)
INT8_GEMM(tlx_smma, s8s8, SA, 0, 64, 200, 128, 192)

/* K a C variable: in place only when it is a multiple of the group. */
static int bf16Runtime(int K) {
  fillA(K, LDA);
  vf_33_37 R =
      tensor_matmul_f_33_37(A_VIEW(HA, 33, K, LDA), TLX_LOAD(HB, K, 37));
  STORE_FLOATS(R, 33, 37);
  return checkFloats(33, 37, K, LDA);
}

static int u8s8Runtime(int K) {
  fillA(K, LDA);
  TLX_STORE(C, tlx_usmma(TLX_LOAD(Zero, 33, 37), A_VIEW(UA, 33, K, LDA),
                         TLX_LOAD(SB, K, 37)));
  return checkInts(33, 37, K, LDA, 1);
}

static int s8s8Runtime(int K) {
  fillA(K, LDA);
  TLX_STORE(C, tlx_smma(TLX_LOAD(Zero, 33, 37), A_VIEW(SA, 33, K, LDA),
                        TLX_LOAD(SB, K, 37)));
  return checkInts(33, 37, K, LDA, 0);
}

int main(void) {
  fillB();
  report("bf16", 33, 37, 64, bf16_33_37_64());
  report("bf16", 33, 37, 63, bf16_33_37_63());
  report("bf16", 64, 200, 64, bf16_64_200_64());
  volatile int K64 = 64, K63 = 63, K66 = 66;
  reportRuntime("bf16", 64, bf16Runtime(K64));
  reportRuntime("bf16", 63, bf16Runtime(K63));
  report("u8s8", 33, 37, 64, u8s8_33_37_64());
  report("u8s8", 33, 37, 66, u8s8_33_37_66());
  report("u8s8", 64, 200, 128, u8s8_64_200_128());
  report("s8s8", 33, 37, 64, s8s8_33_37_64());
  report("s8s8", 33, 37, 66, s8s8_33_37_66());
  report("s8s8", 64, 200, 128, s8s8_64_200_128());
  reportRuntime("u8s8", 64, u8s8Runtime(K64));
  reportRuntime("u8s8", 66, u8s8Runtime(K66));
  reportRuntime("s8s8", 64, s8s8Runtime(K64));
  reportRuntime("s8s8", 66, s8s8Runtime(K66));
  return 0;
}
