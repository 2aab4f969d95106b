// The register-number intrinsics (_tile_loadconfig, _tile_loadd,
// _tile_dp*, _tile_stored) through tlx-amx-emulate: every dot product with
// odd M/N/K shapes and edge values, against a plain C computation, at -O0
// and -O2. On AMX hardware the native build must print the same.
// RUN: %clang_tlx -O0 -mamx-tile -mamx-int8 -mamx-bf16 -mamx-fp16 -fplugin-arg-tlx-target=amx-emulate %s -o %t0 %tlx_rt
// RUN: %t0 | FileCheck %s --check-prefixes=CHECK,FP16
// RUN: %clang_tlx -O2 -mamx-tile -mamx-int8 -mamx-bf16 -mamx-fp16 -fplugin-arg-tlx-target=amx-emulate %s -o %t2 %tlx_rt
// RUN: %t2 | FileCheck %s --check-prefixes=CHECK,FP16
// RUN: %if amx-hw %{ %clang_plain -O2 -mamx-tile -mamx-int8 -mamx-bf16 -DNATIVE %s -o %tn %tlx_rt %}
// RUN: %if amx-hw %{ %tn | FileCheck %s %}

#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlxrt_amx.h>

// CHECK: bssd 16x64x64: ok
// CHECK: bssd 1x4x4: ok
// CHECK: bssd 7x36x20: ok
// CHECK: bsud 13x60x44: ok
// CHECK: busd 3x8x52: ok
// CHECK: buud 11x28x12: ok
// CHECK: bf16ps 5x20x24: ok
// CHECK: bf16ps 16x64x64: ok
// CHECK: bf16 specials: 7f800000 7fc00000 00000000 00000000 3f800000
// FP16: fp16ps 9x44x28: ok
// FP16: fp16 specials: 7f800000 ffc00000 27800000 3f800000
// CHECK: tilecfg round trip: ok

static uint8_t A[16][64], B[16][64], C[16][64], Out[16][64], Ref[16][64];

static void configure(int M, int N, int K) {
  uint8_t Cfg[64] = {0};
  Cfg[0] = 1;
  uint16_t ColsB[3] = {(uint16_t)N, (uint16_t)K, (uint16_t)N};
  uint8_t Rows[3] = {(uint8_t)M, (uint8_t)M, (uint8_t)(K / 4)};
  for (int T = 0; T < 3; ++T) {
    memcpy(&Cfg[16 + 2 * T], &ColsB[T], 2);
    Cfg[48 + T] = Rows[T];
  }
  _tile_loadconfig(Cfg);
}

static void fill_int(unsigned Seed) {
  static const uint8_t Edge[] = {0x80, 0x7f, 0xff, 0x00, 0x01};
  for (int I = 0; I < 16; ++I)
    for (int J = 0; J < 64; ++J) {
      Seed = Seed * 1103515245u + 12345u;
      A[I][J] = (J + I) % 3 == 0 ? Edge[(Seed >> 16) % 5] : (uint8_t)(Seed >> 20);
      B[I][J] = (J * I) % 4 == 1 ? Edge[(Seed >> 8) % 5] : (uint8_t)(Seed >> 12);
      C[I][J] = (uint8_t)(Seed >> 24);
    }
}

static void ref_int(int M, int N, int K, int ASigned, int BSigned) {
  memset(Ref, 0, sizeof(Ref));
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N / 4; ++J) {
      uint32_t Acc;
      memcpy(&Acc, &C[I][4 * J], 4);
      for (int P = 0; P < K; ++P) {
        int X = ASigned ? (int8_t)A[I][P] : A[I][P];
        int Y = BSigned ? (int8_t)B[P / 4][4 * J + P % 4] : B[P / 4][4 * J + P % 4];
        Acc += (uint32_t)(X * Y);
      }
      memcpy(&Ref[I][4 * J], &Acc, 4);
    }
}

static void report(const char *Name, int M, int N, int K) {
  int Bad = 0;
  for (int I = 0; I < 16; ++I)
    Bad |= memcmp(Out[I], Ref[I], 64);
  printf("%s %dx%dx%d: %s\n", Name, M, N, K, Bad ? "FAIL" : "ok");
}

#define RUN_DP(INSN)                                                          \
  do {                                                                        \
    configure(M, N, K);                                                       \
    _tile_loadd(0, C, 64);                                                    \
    _tile_loadd(1, A, 64);                                                    \
    _tile_loadd(2, B, 64);                                                    \
    INSN(0, 1, 2);                                                            \
    memset(Out, 0, sizeof(Out));                                              \
    _tile_stored(0, Out, 64);                                                 \
    _tile_release();                                                          \
  } while (0)

static void int_case(const char *Name, int Kind, int M, int N, int K) {
  fill_int((unsigned)(M * 131 + N * 7 + K));
  ref_int(M, N, K, Kind == 0 || Kind == 1, Kind == 0 || Kind == 2);
  switch (Kind) {
  case 0:
    RUN_DP(_tile_dpbssd);
    break;
  case 1:
    RUN_DP(_tile_dpbsud);
    break;
  case 2:
    RUN_DP(_tile_dpbusd);
    break;
  default:
    RUN_DP(_tile_dpbuud);
    break;
  }
  report(Name, M, N, K);
}

static float f32(uint32_t U) {
  float F;
  memcpy(&F, &U, 4);
  return F;
}

// Small integers and halves: every partial sum is exact, so the reference
// may add in any order.
static void fill_float(int Half) {
  for (int I = 0; I < 16; ++I)
    for (int J = 0; J < 64; J += 2) {
      float FA = (float)((I * 5 + J) % 9) - 4.0f;
      float FB = (float)((I + J * 3) % 7) * 0.5f - 1.5f;
      uint16_t HA, HB;
      if (Half) { // fp16 of small exact values
        _Float16 XA = (_Float16)FA, XB = (_Float16)FB;
        memcpy(&HA, &XA, 2);
        memcpy(&HB, &XB, 2);
      } else {
        uint32_t UA, UB;
        memcpy(&UA, &FA, 4);
        memcpy(&UB, &FB, 4);
        HA = (uint16_t)(UA >> 16);
        HB = (uint16_t)(UB >> 16);
      }
      memcpy(&A[I][J], &HA, 2);
      memcpy(&B[I][J], &HB, 2);
    }
  for (int I = 0; I < 16; ++I)
    for (int J = 0; J < 64; J += 4) {
      float FC = (float)(I - J / 4) * 0.25f;
      memcpy(&C[I][J], &FC, 4);
    }
}

static float half_at(int Half, const uint8_t *P) {
  uint16_t H;
  memcpy(&H, P, 2);
  _Float16 X;
  memcpy(&X, &H, 2);
  return Half ? (float)X : f32((uint32_t)H << 16);
}

static void ref_float(int M, int N, int K, int Half) {
  memset(Ref, 0, sizeof(Ref));
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N / 4; ++J) {
      float Acc;
      memcpy(&Acc, &C[I][4 * J], 4);
      for (int P = 0; P < K / 2; ++P)
        Acc += half_at(Half, &A[I][2 * P]) *
               half_at(Half, &B[P / 2][4 * J + 2 * (P % 2)]);
      memcpy(&Ref[I][4 * J], &Acc, 4);
    }
}

static void float_case(const char *Name, int M, int N, int K, int Half) {
  fill_float(Half);
  ref_float(M, N, K, Half);
  if (Half) {
#ifndef NATIVE
    RUN_DP(_tile_dpfp16ps);
#endif
  } else {
    RUN_DP(_tile_dpbf16ps);
  }
  report(Name, M, N, K);
}

// One row, K = 4 bytes (one pair): dst[j] = C[j] + (a0*b0 + a1*b1).
static void specials(const char *Name, int Half, const uint16_t *Pairs,
                     const float *Acc, int Count) {
  memset(A, 0, sizeof(A));
  memset(B, 0, sizeof(B));
  memset(C, 0, sizeof(C));
  for (int J = 0; J < Count; ++J) {
    memcpy(&A[J][0], &Pairs[4 * J], 4); // row J of A: a0, a1
    memcpy(&B[0][4 * J], &Pairs[4 * J + 2], 4);
    memcpy(&C[J][4 * J], &Acc[J], 4);
  }
  int M = Count, N = 4 * Count, K = 4;
  if (Half) {
#ifndef NATIVE
    RUN_DP(_tile_dpfp16ps);
#endif
  } else {
    RUN_DP(_tile_dpbf16ps);
  }
  printf("%s:", Name);
  for (int J = 0; J < Count; ++J) {
    uint32_t U;
    memcpy(&U, &Out[J][4 * J], 4);
    printf(" %08x", U);
  }
  printf("\n");
}

int main(void) {
#ifdef NATIVE
  tlxrt_amx_init();
#endif
  int_case("bssd", 0, 16, 64, 64);
  int_case("bssd", 0, 1, 4, 4);
  int_case("bssd", 0, 7, 36, 20);
  int_case("bsud", 1, 13, 60, 44);
  int_case("busd", 2, 3, 8, 52);
  int_case("buud", 3, 11, 28, 12);
  float_case("bf16ps", 5, 20, 24, 0);
  float_case("bf16ps", 16, 64, 64, 0);
  // bf16 pairs {a0, a1, b0, b1} and accumulators.
  static const uint16_t BF16[] = {
      0x7f80, 0x0000, 0x3f80, 0x0000, // inf*1 + 0*0
      0x7fc0, 0x0000, 0x3f80, 0x0000, // qNaN*1
      0x0001, 0x0000, 0x3f80, 0x0000, // denormal*1 -> 0
      0x8000, 0x0000, 0x3f80, 0x0000, // acc -0: even = +0 + -0*1 = +0, so
                                      // -0 + (+0 + +0) = +0
      0x3f80, 0x0000, 0x3380, 0x0000, // acc 1 + 1*2^-24: a tie, to even 1.0
  };
  static const float BF16Acc[] = {0.0f, 0.0f, 0.0f, -0.0f, 1.0f};
  specials("bf16 specials", 0, BF16, BF16Acc, 5);
#ifndef NATIVE
  float_case("fp16ps", 9, 44, 28, 1);
  // fp16: inf*1; inf*0 -> the default NaN; fp16 denormal inputs are not
  // flushed (2^-24 * 2^-24 = 2^-48, a normal f32); 1*1.
  static const uint16_t FP16[] = {
      0x7c00, 0x0000, 0x3c00, 0x0000, // inf*1
      0x7c00, 0x0000, 0x0000, 0x0000, // inf*0 -> NaN
      0x0001, 0x0000, 0x0001, 0x0000, // 2^-24 * 2^-24 = 2^-48
      0x3c00, 0x0000, 0x3c00, 0x0000, // 1*1 + 0
  };
  static const float FP16Acc[] = {0.0f, 0.0f, 0.0f, 0.0f};
  specials("fp16 specials", 1, FP16, FP16Acc, 4);
#endif
  uint8_t Cfg[64] = {0}, Back[64];
  Cfg[0] = 1;
  Cfg[16] = 12;
  Cfg[48] = 3;
  Cfg[30] = 64;
  Cfg[55] = 16;
  _tile_loadconfig(Cfg);
  _tile_storeconfig(Back);
  _tile_release();
  printf("tilecfg round trip: %s\n", memcmp(Cfg, Back, 64) ? "FAIL" : "ok");
  return 0;
}
