// The emulator against the real thing: random tile shapes and random bit
// patterns (denormals, inf, NaN, -128/127/255, cancellation) through every
// dot product this CPU has, compared bit for bit.
// REQUIRES: amx-hw
// RUN: %clang_plain -O2 -mamx-tile -mamx-int8 -mamx-bf16 %s -o %t %tlx_rt
// RUN: %t | FileCheck %s

#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlxrt_amx.h>

// CHECK: tdpbssd: 400 trials, 0 mismatches
// CHECK: tdpbsud: 400 trials, 0 mismatches
// CHECK: tdpbusd: 400 trials, 0 mismatches
// CHECK: tdpbuud: 400 trials, 0 mismatches
// CHECK: tdpbf16ps: 400 trials, 0 mismatches, 0 NaN payload differences
// CHECK: tdpbf16ps-small: 400 trials, 0 mismatches, 0 NaN payload differences
// CHECK: ftz-boundary FLT_MIN-2^-150: hw 00000000 emu 00000000
// CHECK: ftz-boundary FLT_MIN-2^-151: hw 00800000 emu 00800000

static uint64_t Seed = 0x9e3779b97f4a7c15u;
static uint32_t rnd(void) {
  Seed ^= Seed << 13;
  Seed ^= Seed >> 7;
  Seed ^= Seed << 17;
  return (uint32_t)(Seed >> 16);
}

static uint8_t rnd_i8(void) {
  static const uint8_t Edge[] = {0x80, 0x7f, 0xff, 0x00, 0x01, 0x81};
  return rnd() % 4 == 0 ? Edge[rnd() % 6] : (uint8_t)rnd();
}

// bf16 patterns: mostly moderate normals, plus denormals, zeros, inf, NaN,
// huge/tiny exponents. Small: exponents near the bottom of the range, to
// exercise FTZ and the FLT_MIN boundary.
static uint16_t rnd_bf16(int Small) {
  uint16_t Sign = (rnd() & 1) << 15;
  switch (rnd() % 16) {
  case 0:
    return Sign | (rnd() & 0x7f); // denormal or zero
  case 1:
    return Sign | 0x7f80; // inf
  case 2:
    return Sign | 0x7f80 | (1 + rnd() % 0x7f); // NaN
  case 3:
    return Sign | (uint16_t)((250 + rnd() % 4) << 7) | (rnd() & 0x7f); // huge
  default:
    break;
  }
  unsigned Exp = Small ? 1 + rnd() % 70 : 120 + rnd() % 14;
  return Sign | (uint16_t)(Exp << 7) | (rnd() & 0x7f);
}

static uint32_t rnd_f32_acc(int Small) {
  uint32_t Sign = (rnd() & 1u) << 31;
  switch (rnd() % 12) {
  case 0:
    return Sign | (rnd() & 0x7fffff); // denormal
  case 1:
    return Sign | 0x7f800000u;
  case 2:
    return 0x7fc00000u | (rnd() & 0x3fffff);
  default:
    break;
  }
  unsigned Exp = Small ? 1 + rnd() % 8 : 120 + rnd() % 14;
  return Sign | (Exp << 23) | (rnd() & 0x7fffff);
}

static uint8_t A[16][64], B[16][64], C[16][64], HW[16][64], EM[16][64];

static void config(int M, int N, int K) {
  uint8_t Cfg[64] = {0};
  Cfg[0] = 1;
  uint16_t ColsB[3] = {(uint16_t)N, (uint16_t)K, (uint16_t)N};
  uint8_t Rows[3] = {(uint8_t)M, (uint8_t)M, (uint8_t)(K / 4)};
  for (int T = 0; T < 3; ++T) {
    memcpy(&Cfg[16 + 2 * T], &ColsB[T], 2);
    Cfg[48 + T] = Rows[T];
  }
  _tile_loadconfig(Cfg);
  tlxrt_amx_emu_ldtilecfg(Cfg);
}

static int is_nan32(const uint8_t *P) {
  uint32_t U;
  memcpy(&U, P, 4);
  return (U & 0x7f800000u) == 0x7f800000u && (U & 0x7fffffu);
}

static void run(const char *Name, tlxrt_amx_dp Kind, int Float, int Small) {
  int Mismatch = 0, NaNPayload = 0;
  for (int Trial = 0; Trial < 400; ++Trial) {
    int M = 1 + rnd() % 16, N = 4 * (1 + rnd() % 16), K = 4 * (1 + rnd() % 16);
    for (int I = 0; I < 16; ++I)
      for (int J = 0; J < 64; J += 4) {
        for (int Q = 0; Q < 4; Q += 2) {
          uint16_t X = rnd_bf16(Small), Y = rnd_bf16(Small);
          if (Float) {
            memcpy(&A[I][J + Q], &X, 2);
            memcpy(&B[I][J + Q], &Y, 2);
          } else {
            A[I][J + Q] = rnd_i8();
            A[I][J + Q + 1] = rnd_i8();
            B[I][J + Q] = rnd_i8();
            B[I][J + Q + 1] = rnd_i8();
          }
        }
        uint32_t Z = Float ? rnd_f32_acc(Small) : rnd();
        memcpy(&C[I][J], &Z, 4);
      }
    config(M, N, K);
    memset(HW, 0xaa, sizeof(HW));
    memset(EM, 0xaa, sizeof(EM));
    _tile_loadd(0, C, 64);
    _tile_loadd(1, A, 64);
    _tile_loadd(2, B, 64);
    tlxrt_amx_emu_tileloadd(0, C, 64);
    tlxrt_amx_emu_tileloadd(1, A, 64);
    tlxrt_amx_emu_tileloadd(2, B, 64);
    switch (Kind) {
    case TLXRT_AMX_TDPBSSD:
      _tile_dpbssd(0, 1, 2);
      break;
    case TLXRT_AMX_TDPBSUD:
      _tile_dpbsud(0, 1, 2);
      break;
    case TLXRT_AMX_TDPBUSD:
      _tile_dpbusd(0, 1, 2);
      break;
    case TLXRT_AMX_TDPBUUD:
      _tile_dpbuud(0, 1, 2);
      break;
    default:
      _tile_dpbf16ps(0, 1, 2);
      break;
    }
    tlxrt_amx_emu_tdp(Kind, 0, 1, 2);
    _tile_stored(0, HW, 64);
    tlxrt_amx_emu_tilestored(0, EM, 64);
    for (int I = 0; I < 16; ++I)
      for (int J = 0; J < 64; J += 4) {
        if (!memcmp(&HW[I][J], &EM[I][J], 4))
          continue;
        if (Float && is_nan32(&HW[I][J]) && is_nan32(&EM[I][J])) {
          ++NaNPayload;
          continue;
        }
        if (Mismatch++ < 5) {
          uint32_t H, E;
          memcpy(&H, &HW[I][J], 4);
          memcpy(&E, &EM[I][J], 4);
          printf("%s: M=%d N=%d K=%d [%d][%d]: hw %08x emu %08x\n", Name, M,
                 N, K, I, J / 4, H, E);
        }
      }
  }
  _tile_release();
  tlxrt_amx_emu_tilerelease();
  if (Float)
    printf("%s: 400 trials, %d mismatches, %d NaN payload differences\n", Name,
           Mismatch, NaNPayload);
  else
    printf("%s: 400 trials, %d mismatches\n", Name, Mismatch);
}

// The flush-to-zero boundary: FLT_MIN, then an FMA step taking it to just
// below FLT_MIN. Tininess is detected after rounding: FLT_MIN - 2^-150 is
// exact in 24 bits (tiny: flushed), FLT_MIN - 2^-151 ties to FLT_MIN.
static void ftz_boundary(const char *Name, uint16_t Small) {
  memset(A, 0, sizeof(A));
  memset(B, 0, sizeof(B));
  memset(C, 0, sizeof(C));
  uint16_t A0 = 0x2000, B0 = 0x2000; // 2^-63 * 2^-63 = FLT_MIN
  uint16_t A1 = 0x8000 | Small, B1 = 0x1a00; // -Small * 2^-75
  memcpy(&A[0][0], &A0, 2);
  memcpy(&B[0][0], &B0, 2);
  memcpy(&A[0][4], &A1, 2);
  memcpy(&B[1][0], &B1, 2);
  config(1, 4, 8);
  _tile_loadd(0, C, 64);
  _tile_loadd(1, A, 64);
  _tile_loadd(2, B, 64);
  _tile_dpbf16ps(0, 1, 2);
  _tile_stored(0, HW, 64);
  tlxrt_amx_emu_tileloadd(0, C, 64);
  tlxrt_amx_emu_tileloadd(1, A, 64);
  tlxrt_amx_emu_tileloadd(2, B, 64);
  tlxrt_amx_emu_tdp(TLXRT_AMX_TDPBF16PS, 0, 1, 2);
  tlxrt_amx_emu_tilestored(0, EM, 64);
  uint32_t H, E;
  memcpy(&H, &HW[0][0], 4);
  memcpy(&E, &EM[0][0], 4);
  printf("ftz-boundary %s: hw %08x emu %08x\n", Name, H, E);
}

int main(void) {
  tlxrt_amx_init();
  run("tdpbssd", TLXRT_AMX_TDPBSSD, 0, 0);
  run("tdpbsud", TLXRT_AMX_TDPBSUD, 0, 0);
  run("tdpbusd", TLXRT_AMX_TDPBUSD, 0, 0);
  run("tdpbuud", TLXRT_AMX_TDPBUUD, 0, 0);
  run("tdpbf16ps", TLXRT_AMX_TDPBF16PS, 1, 0);
  run("tdpbf16ps-small", TLXRT_AMX_TDPBF16PS, 1, 1);
  ftz_boundary("FLT_MIN-2^-150", 0x1a00); // 2^-75
  ftz_boundary("FLT_MIN-2^-151", 0x1980); // 2^-76
  return 0;
}
