// AMX rules the emulator enforces: each violation stops the program with a
// message naming it (where the hardware raises #GP/#UD or the result would be
// undefined).
// RUN: %clang_tlx -O0 -mamx-tile -mamx-int8 -mamx-bf16 -fplugin-arg-tlx-target=amx-emulate %s -o %t %tlx_rt
// RUN: not --crash %t rows17 2>&1 | FileCheck %s --check-prefix=ROWS17
// RUN: not --crash %t colsb65 2>&1 | FileCheck %s --check-prefix=COLSB65
// RUN: not --crash %t k6 2>&1 | FileCheck %s --check-prefix=K6
// RUN: not --crash %t nocfg 2>&1 | FileCheck %s --check-prefix=NOCFG
// RUN: not --crash %t cfgrows 2>&1 | FileCheck %s --check-prefix=CFGROWS
// RUN: not --crash %t cfgpalette 2>&1 | FileCheck %s --check-prefix=CFGPALETTE
// RUN: not --crash %t released 2>&1 | FileCheck %s --check-prefix=RELEASED
// RUN: not --crash %t unconfigured 2>&1 | FileCheck %s --check-prefix=UNCONFIGURED
// RUN: not --crash %t mismatch 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not --crash %t kmismatch 2>&1 | FileCheck %s --check-prefix=KMISMATCH
// RUN: %t none | FileCheck %s --check-prefix=NONE
// RUN: %clang_tlx -O2 -mamx-tile -mamx-int8 -mamx-bf16 -fplugin-arg-tlx-target=amx-emulate %s -o %t2 %tlx_rt
// RUN: not --crash %t2 rows17 2>&1 | FileCheck %s --check-prefix=ROWS17
// RUN: not --crash %t2 k6 2>&1 | FileCheck %s --check-prefix=K6
// At -O2 the tile -> vector -> tile round trips of __tile1024i are folded, so
// a tile keeps the shape it was defined with (at -O0 it is a vector in
// memory, whose shape is that of its next use):
// RUN: not --crash %t2 shape 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not --crash %t2 store 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: %t none | FileCheck %s --check-prefix=NONE

// ROWS17: tlx amx-emulate: tileloadd: rows = 17 is outside 1..16
// COLSB65: tlx amx-emulate: tileloadd: colsb = 65 is outside 1..64
// K6: tlx amx-emulate: tdpbssd: K = 6 bytes is not a multiple of 4
// SHAPE: tlx amx-emulate: tdpbf16ps: src1 was defined as 8 rows x 64 bytes but is used as 4 rows x 64 bytes
// STORE: tlx amx-emulate: tilestored: the stored tile was defined as 4 rows x 16 bytes but is used as 4 rows x 32 bytes
// NOCFG: tlx amx-emulate: tileloadd: tile registers used before ldtilecfg (no palette configured)
// CFGROWS: tlx amx-emulate: ldtilecfg: tile 3: rows 17 > 16
// CFGPALETTE: tlx amx-emulate: ldtilecfg: palette 2 is not supported (only 0 and 1)
// RELEASED: tlx amx-emulate: tdpbssd: tile registers used before ldtilecfg
// UNCONFIGURED: tlx amx-emulate: tilezero: destination tile tmm5 is not configured (rows = colsb = 0)
// MISMATCH: tlx amx-emulate: tdpbuud: M mismatch: destination tmm0 has 4 rows, src1 tmm1 has 5
// KMISMATCH: tlx amx-emulate: tdpbusd: K mismatch: src1 tmm1 has colsb 16, so src2 tmm2 needs 4 rows, not 3
// NONE: no violation

#include <immintrin.h>
#include <stdio.h>
#include <string.h>

static unsigned char Buf[32 * 64];

static void config(int Tiles, const int *Rows, const int *ColsB) {
  unsigned char Cfg[64] = {0};
  Cfg[0] = 1;
  for (int T = 0; T < Tiles; ++T) {
    Cfg[16 + 2 * T] = (unsigned char)ColsB[T];
    Cfg[48 + T] = (unsigned char)Rows[T];
  }
  _tile_loadconfig(Cfg);
}

// Shapes come from arguments, as in real code, so nothing is constant-folded.
static void load(short Rows, short Cols) {
  __tile1024i T = {Rows, Cols};
  __tile_loadd(&T, Buf, 64);
  __tile_stored(Buf, 64, T);
}

static void dot(short M, short N, short K) {
  __tile1024i A = {M, K}, B = {K / 4, N}, C = {M, N};
  __tile_loadd(&A, Buf, 64);
  __tile_loadd(&B, Buf, 64);
  __tile_zero(&C);
  __tile_dpbssd(&C, A, B);
  __tile_stored(Buf, 64, C);
}

int main(int argc, char **argv) {
  const char *Case = argc > 1 ? argv[1] : "none";
  if (!strcmp(Case, "rows17"))
    load(17, 64);
  else if (!strcmp(Case, "colsb65"))
    load(16, 65);
  else if (!strcmp(Case, "k6"))
    dot(4, 16, 6);
  else if (!strcmp(Case, "shape")) {
    // A tile loaded with 8 rows, used where the instruction needs 4.
    __tile1024i A = {8, 64}, B = {16, 64}, C = {4, 64};
    __tile_loadd(&A, Buf, 64);
    __tile_loadd(&B, Buf, 64);
    __tile_zero(&C);
    __tile1024i A4 = {4, 64};
    A4.tile = A.tile;
    __tile_dpbf16ps(&C, A4, B);
    __tile_stored(Buf, 64, C);
  } else if (!strcmp(Case, "store")) {
    __tile1024i A = {4, 16};
    __tile_loadd(&A, Buf, 64);
    __tile1024i A32 = {4, 32};
    A32.tile = A.tile;
    __tile_stored(Buf, 64, A32);
  } else if (!strcmp(Case, "nocfg"))
    _tile_loadd(0, Buf, 64);
  else if (!strcmp(Case, "cfgrows")) {
    int Rows[4] = {1, 1, 1, 17}, ColsB[4] = {4, 4, 4, 4};
    config(4, Rows, ColsB);
  } else if (!strcmp(Case, "cfgpalette")) {
    unsigned char Cfg[64] = {2};
    _tile_loadconfig(Cfg);
  } else if (!strcmp(Case, "released")) {
    int Rows[3] = {4, 4, 4}, ColsB[3] = {16, 16, 16};
    config(3, Rows, ColsB);
    _tile_release();
    _tile_dpbssd(0, 1, 2);
  } else if (!strcmp(Case, "unconfigured")) {
    int Rows[3] = {4, 4, 4}, ColsB[3] = {16, 16, 16};
    config(3, Rows, ColsB);
    _tile_zero(5);
  } else if (!strcmp(Case, "mismatch")) {
    int Rows[3] = {4, 5, 4}, ColsB[3] = {16, 16, 16};
    config(3, Rows, ColsB);
    _tile_dpbuud(0, 1, 2);
  } else if (!strcmp(Case, "kmismatch")) {
    int Rows[3] = {4, 4, 3}, ColsB[3] = {16, 16, 16};
    config(3, Rows, ColsB);
    _tile_dpbusd(0, 1, 2);
  }
  printf("no violation\n");
  return 0;
}
