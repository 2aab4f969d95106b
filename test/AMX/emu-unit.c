// Unit tests of the emulator's C API, without the pass: the checks (through
// an error handler that records the message), zeroing outside the shape,
// aliasing, and the numerics helpers.
// RUN: %clang_plain -O1 %s -o %t %tlx_rt
// RUN: %t | FileCheck %s

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tlxrt_amx.h>

static char LastError[512];
static void record(const char *Msg) { snprintf(LastError, sizeof(LastError), "%s", Msg); }

#define EXPECT_ERROR(STMT)                                                     \
  do {                                                                         \
    LastError[0] = 0;                                                          \
    STMT;                                                                      \
    printf("%s\n", LastError[0] ? LastError : "no error");                     \
  } while (0)

static unsigned char Mem[16][64];

static void config(const int *Rows, const int *ColsB, int N) {
  unsigned char Cfg[64] = {0};
  Cfg[0] = 1;
  for (int T = 0; T < N; ++T) {
    Cfg[16 + 2 * T] = (unsigned char)ColsB[T];
    Cfg[48 + T] = (unsigned char)Rows[T];
  }
  tlxrt_amx_emu_ldtilecfg(Cfg);
}

static unsigned u32(float F) {
  unsigned U;
  memcpy(&U, &F, 4);
  return U;
}

int main(void) {
  tlxrt_amx_emu_set_error_handler(record);

  // Register-number rules.
  // CHECK: tlx amx-emulate: tilezero: tile registers used before ldtilecfg (no palette configured)
  EXPECT_ERROR(tlxrt_amx_emu_tilezero(0));
  unsigned char Cfg[64] = {1};
  Cfg[5] = 1;
  // CHECK-NEXT: tlx amx-emulate: ldtilecfg: reserved byte 5 is 1, must be zero
  EXPECT_ERROR(tlxrt_amx_emu_ldtilecfg(Cfg));
  memset(Cfg, 0, 64);
  Cfg[0] = 1;
  Cfg[34] = 4; // colsb of tile 9
  // CHECK-NEXT: tlx amx-emulate: ldtilecfg: reserved byte 34 (colsb of tile 9) is 4, must be zero
  EXPECT_ERROR(tlxrt_amx_emu_ldtilecfg(Cfg));
  int R1[1] = {4}, C1[1] = {0};
  // CHECK-NEXT: tlx amx-emulate: ldtilecfg: tile 0: rows 4 and colsb 0 must be both zero (unused) or both non-zero
  EXPECT_ERROR(config(R1, C1, 1));
  int R2[1] = {4}, C2[1] = {65};
  // CHECK-NEXT: tlx amx-emulate: ldtilecfg: tile 0: colsb 65 > 64
  EXPECT_ERROR(config(R2, C2, 1));

  int Rows[4] = {3, 3, 2, 2}, ColsB[4] = {12, 8, 12, 8};
  config(Rows, ColsB, 4);
  // CHECK-NEXT: tlx amx-emulate: tileloadd: destination tile index 8 is out of range (tmm0-tmm7)
  EXPECT_ERROR(tlxrt_amx_emu_tileloadd(8, Mem, 64));
  // CHECK-NEXT: tlx amx-emulate: tilestored: source tile index -1 is out of range (tmm0-tmm7)
  EXPECT_ERROR(tlxrt_amx_emu_tilestored(-1, Mem, 64));
  // CHECK-NEXT: tlx amx-emulate: tdpbssd: tile operands must be distinct (tmm0, tmm0, tmm2)
  EXPECT_ERROR(tlxrt_amx_emu_tdp(TLXRT_AMX_TDPBSSD, 0, 0, 2));
  // CHECK-NEXT: tlx amx-emulate: tdpbssd: N mismatch: destination tmm0 has colsb 12, src2 tmm3 has colsb 8
  EXPECT_ERROR(tlxrt_amx_emu_tdp(TLXRT_AMX_TDPBSSD, 0, 1, 3));
  // CHECK-NEXT: no error
  EXPECT_ERROR(tlxrt_amx_emu_tdp(TLXRT_AMX_TDPBSSD, 0, 1, 2));
  int R3[3] = {2, 2, 2}, C3[3] = {8, 6, 8};
  config(R3, C3, 3);
  // CHECK-NEXT: tlx amx-emulate: tdpbf16ps: K = 6 bytes is not a multiple of 4
  EXPECT_ERROR(tlxrt_amx_emu_tdp(TLXRT_AMX_TDPBF16PS, 0, 1, 2));
  int R4[3] = {2, 2, 1}, C4[3] = {6, 4, 6};
  config(R4, C4, 3);
  // CHECK-NEXT: tlx amx-emulate: tdpbuud: N = 6 bytes per row is not a multiple of 4
  EXPECT_ERROR(tlxrt_amx_emu_tdp(TLXRT_AMX_TDPBUUD, 0, 1, 2));

  // sttilecfg returns the configuration; a load zeroes the rest of the
  // register; start_row resumes a load, then resets.
  memset(Cfg, 0, 64);
  Cfg[0] = 1;
  Cfg[1] = 2; // start_row
  Cfg[16] = 8;
  Cfg[48] = 4;
  tlxrt_amx_emu_ldtilecfg(Cfg);
  unsigned char Back[64];
  tlxrt_amx_emu_sttilecfg(Back);
  // CHECK-NEXT: sttilecfg: ok
  printf("sttilecfg: %s\n", memcmp(Cfg, Back, 64) ? "FAIL" : "ok");
  memset(Mem, 7, sizeof(Mem));
  tlxrt_amx_emu_tileloadd(0, Mem, 64); // rows 2..3 only
  memset(Mem, 0xee, sizeof(Mem));
  tlxrt_amx_emu_tilestored(0, Mem, 64);
  // CHECK-NEXT: start_row: 00 00 07 07 ee
  printf("start_row: %02x %02x %02x %02x %02x\n", Mem[0][0], Mem[1][7],
         Mem[2][0], Mem[3][7], Mem[3][8]);
  tlxrt_amx_emu_sttilecfg(Back);
  // CHECK-NEXT: start_row after: 0
  printf("start_row after: %d\n", Back[1]);
  tlxrt_amx_emu_tilerelease();
  tlxrt_amx_emu_sttilecfg(Back);
  // CHECK-NEXT: released palette: 0
  printf("released palette: %d\n", Back[0]);

  // Shape-carrying rules.
  static tlxrt_amx_tile A, B, C, D;
  memset(&A, 0, sizeof(A));
  // CHECK-NEXT: tlx amx-emulate: tdpbssd: the accumulator (dst) is not a defined tile (used before it was written)
  EXPECT_ERROR(tlxrt_amx_emu_tdp_internal(TLXRT_AMX_TDPBSSD, 4, 16, 16, &D, &A, &A, &A));
  // CHECK-NEXT: tlx amx-emulate: tilezero: rows = 0 is outside 1..16
  EXPECT_ERROR(tlxrt_amx_emu_tilezero_internal(&A, 0, 4));
  // CHECK-NEXT: tlx amx-emulate: tileloadd: colsb = -4 is outside 1..64
  EXPECT_ERROR(tlxrt_amx_emu_tileloadd_internal(&A, 4, -4, Mem, 64));
  for (int I = 0; I < 16; ++I)
    for (int J = 0; J < 64; ++J)
      Mem[I][J] = (unsigned char)(I + J);
  tlxrt_amx_emu_tileloadd_internal(&A, 3, 8, Mem, 64); // 3 x 8
  tlxrt_amx_emu_tileloadd_internal(&B, 2, 12, Mem, 64); // 2 x 12
  tlxrt_amx_emu_tilezero_internal(&C, 3, 12);
  // CHECK-NEXT: tlx amx-emulate: tdpbusd: src1 was defined as 2 rows x 12 bytes but is used as 3 rows x 4 bytes
  EXPECT_ERROR(tlxrt_amx_emu_tdp_internal(TLXRT_AMX_TDPBUSD, 3, 12, 4, &C, &C, &B, &B));
  // CHECK-NEXT: tlx amx-emulate: tdpbusd: src1 was defined as 3 rows x 8 bytes but is used as 3 rows x 12 bytes
  EXPECT_ERROR(tlxrt_amx_emu_tdp_internal(TLXRT_AMX_TDPBUSD, 3, 12, 12, &C, &C, &A, &B));
  // In place (dst = acc), the normal case in a K loop.
  // CHECK-NEXT: no error
  EXPECT_ERROR(tlxrt_amx_emu_tdp_internal(TLXRT_AMX_TDPBUUD, 3, 12, 8, &C, &C, &A, &B));
  // A[i][k] = i + k, B[r][c] = r + c:
  // CHECK-NEXT: in place: 3x12 c[0][0]=74 c[2][2]=458 zero outside: 1
  unsigned V00, V22;
  memcpy(&V00, &C.data[0][0], 4);
  memcpy(&V22, &C.data[2][8], 4);
  int ZeroOutside = 1;
  for (int I = 0; I < 16; ++I)
    for (int J = 0; J < 64; ++J)
      if ((I >= 3 || J >= 12) && C.data[I][J])
        ZeroOutside = 0;
  printf("in place: %dx%d c[0][0]=%u c[2][2]=%u zero outside: %d\n", C.rows,
         C.colsb, V00, V22, ZeroOutside);
  // A tile made from a vector has no shape until used.
  static unsigned char Vec[1024];
  tlxrt_amx_emu_tile_from_vector(&D, Vec);
  // CHECK-NEXT: from vector: 0x0, then no error
  printf("from vector: %dx%d, then ", D.rows, D.colsb);
  EXPECT_ERROR(tlxrt_amx_emu_tdp_internal(TLXRT_AMX_TDPBSSD, 3, 12, 8, &D, &D, &A, &B));
  tlxrt_amx_emu_tile_to_vector(Vec, &C);
  // CHECK-NEXT: to vector: ok
  printf("to vector: %s\n", memcmp(Vec, C.data, 1024) ? "FAIL" : "ok");

  // Numerics: DAZ on inputs, FTZ on results (tininess after rounding).
  float Den = 0x1p-140f, Min = 0x1p-126f;
  // CHECK-NEXT: daz: 00000000 80000000 3f800000
  printf("daz: %08x %08x %08x\n", u32(tlxrt_amx_emu_fma_daz_ftz(0.0f, Den, 1.0f)),
         u32(tlxrt_amx_emu_fma_daz_ftz(-0.0f, -Den, 1.0f)),
         u32(tlxrt_amx_emu_fma_daz_ftz(Den, 1.0f, 1.0f)));
  // CHECK-NEXT: ftz: 00000000 80000000 00000000 00800000 00800000
  printf("ftz: %08x %08x %08x %08x %08x\n",
         u32(tlxrt_amx_emu_fma_daz_ftz(0.0f, 0x1p-70f, 0x1p-70f)),
         u32(tlxrt_amx_emu_fma_daz_ftz(0.0f, -0x1p-70f, 0x1p-70f)),
         u32(tlxrt_amx_emu_fma_daz_ftz(Min, -0x1p-75f, 0x1p-75f)),
         u32(tlxrt_amx_emu_fma_daz_ftz(Min, -0x1p-76f, 0x1p-75f)),
         u32(tlxrt_amx_emu_add_daz_ftz(Min, 0.0f)));
  // Rounding to nearest even, one rounding per FMA; inf and NaN.
  // 1 + 2^-24 and 1 + 3*2^-24 are ties (to even); 1 + 2^-23 + 2^-46 rounds
  // once, down.
  // CHECK-NEXT: rne: 3f800000 3f800002 3f800001 7f800000 nan
  printf("rne: %08x %08x %08x %08x %s\n",
         u32(tlxrt_amx_emu_fma_daz_ftz(1.0f, 0x1p-12f, 0x1p-12f)),
         u32(tlxrt_amx_emu_fma_daz_ftz(1.0f, 0x1.8p-11f, 0x1p-12f)),
         u32(tlxrt_amx_emu_fma_daz_ftz(1.0f, 0x1.000002p-12f, 0x1p-11f)),
         u32(tlxrt_amx_emu_fma_daz_ftz(0x1p127f, 0x1p64f, 0x1p64f)),
         isnan(tlxrt_amx_emu_fma_daz_ftz(1.0f, INFINITY, 0.0f)) ? "nan" : "FAIL");
  return 0;
}
