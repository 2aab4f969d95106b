// reduce.* at the sizes where tlx-legalize changes loop structure
// (ReduceWindow.cpp): row and full reductions vectorized along the window
// (runs of 1 .. 203 elements, on both sides of every vector width and of
// 4 accumulators), column reductions folded by window rows (blocks of
// accumulators with a remainder block), strided row windows, every
// element type, against the runtime's sequential reference. Then the
// semantics that a reassociating walk must keep exactly: the first NaN in
// window order wins with its payload, max(-0, +0) = +0, min = -0, a
// sum of -0s is -0, and infinities (which send an output to the in-order
// fold, as a NaN does) give their exact max/min.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: f32 max rows 3x7: ok
// CHECK: f32 max rows 2x203: ok
// CHECK: f32 add full 37x53: ok
// CHECK: f32 max strided 5x256 window 64/64: ok
// CHECK: f32 add columns 40x1100: ok
// CHECK: i8 add columns 33x70: ok
// CHECK: first NaN wins: ok
// CHECK: signed zeros: ok
// CHECK: infinities: ok
// CHECK: PASSED
#include "Inputs/oracle.h"
#include <tlx.h>

#define OUT(E, W, S) (((E) - (W)) / (S) + 1)

// One reduce of an R x C array with window WR x WC and strides SR x SC.
#define CASE(T, DT, OP, KIND, R, C, WR, WC, SR, SC, TOL, NAME)                 \
  {                                                                            \
    static T in[R][C], out[OUT(R, WR, SR)][OUT(C, WC, SC)],                    \
        want[OUT(R, WR, SR)][OUT(C, WC, SC)];                                  \
    const int64_t s[] = {R, C}, so[] = {OUT(R, WR, SR), OUT(C, WC, SC)},       \
                  w[] = {WR, WC}, st[] = {SR, SC};                             \
    tlx_tensor ti = desc(in, DT, 2, s, NULL, NULL);                            \
    tlx_tensor to = desc(out, DT, 2, so, NULL, NULL);                          \
    tlx_tensor tw = desc(want, DT, 2, so, NULL, NULL);                         \
    fillRandom(&ti, 20);                                                       \
    refOk(NAME, tlx_ref_reduce(KIND, &ti, w, st, &tw));                        \
    TLX_STORE(out, tlx_reduce_##OP(TLX_LOAD(in, R, C), TLX_DIMS(WR, WC),       \
                                   TLX_DIMS(SR, SC)));                         \
    compare(NAME, &to, &tw, TOL);                                              \
  }
#define ROWS(T, DT, OP, KIND, R, C, TOL, NAME)                                 \
  CASE(T, DT, OP, KIND, R, C, 1, C, 1, 1, TOL, NAME)
#define COLUMNS(T, DT, OP, KIND, R, C, TOL, NAME)                              \
  CASE(T, DT, OP, KIND, R, C, R, 1, 1, 1, TOL, NAME)

static void rowsAndFull(void) {
  ROWS(float, TLX_F32, max, TLX_REDUCE_MAX, 3, 7, 0, "f32 max rows 3x7")
  ROWS(float, TLX_F32, max, TLX_REDUCE_MAX, 3, 8, 0, "f32 max rows 3x8")
  ROWS(float, TLX_F32, min, TLX_REDUCE_MIN, 3, 9, 0, "f32 min rows 3x9")
  ROWS(float, TLX_F32, max, TLX_REDUCE_MAX, 4, 15, 0, "f32 max rows 4x15")
  ROWS(float, TLX_F32, min, TLX_REDUCE_MIN, 4, 16, 0, "f32 min rows 4x16")
  ROWS(float, TLX_F32, add, TLX_REDUCE_ADD, 4, 17, 1e-6, "f32 add rows 4x17")
  ROWS(float, TLX_F32, add, TLX_REDUCE_ADD, 3, 31, 1e-6, "f32 add rows 3x31")
  ROWS(float, TLX_F32, max, TLX_REDUCE_MAX, 3, 33, 0, "f32 max rows 3x33")
  ROWS(float, TLX_F32, add, TLX_REDUCE_ADD, 2, 64, 1e-6, "f32 add rows 2x64")
  ROWS(float, TLX_F32, max, TLX_REDUCE_MAX, 2, 65, 0, "f32 max rows 2x65")
  ROWS(float, TLX_F32, min, TLX_REDUCE_MIN, 2, 100, 0, "f32 min rows 2x100")
  ROWS(float, TLX_F32, max, TLX_REDUCE_MAX, 2, 203, 0, "f32 max rows 2x203")
  ROWS(double, TLX_F64, max, TLX_REDUCE_MAX, 3, 17, 0, "f64 max rows 3x17")
  ROWS(double, TLX_F64, add, TLX_REDUCE_ADD, 3, 45, 1e-12, "f64 add rows 3x45")
  ROWS(__bf16, TLX_BF16, max, TLX_REDUCE_MAX, 3, 40, 0, "bf16 max rows 3x40")
  ROWS(__bf16, TLX_BF16, add, TLX_REDUCE_ADD, 3, 70, 8e-3, "bf16 add rows 3x70")
  ROWS(int8_t, TLX_I8, max, TLX_REDUCE_MAX, 3, 70, 0, "i8 max rows 3x70")
  ROWS(int8_t, TLX_I8, add, TLX_REDUCE_ADD, 3, 33, 0, "i8 add rows 3x33")
  ROWS(int16_t, TLX_I16, min, TLX_REDUCE_MIN, 3, 41, 0, "i16 min rows 3x41")
  ROWS(int32_t, TLX_I32, xor, TLX_REDUCE_XOR, 3, 37, 0, "i32 xor rows 3x37")
  ROWS(int32_t, TLX_I32, mul, TLX_REDUCE_MUL, 3, 19, 0, "i32 mul rows 3x19")
  ROWS(int64_t, TLX_I64, add, TLX_REDUCE_ADD, 3, 21, 0, "i64 add rows 3x21")
  ROWS(int32_t, TLX_I32, or, TLX_REDUCE_OR, 2, 50, 0, "i32 or rows 2x50")
  ROWS(int32_t, TLX_I32, and, TLX_REDUCE_AND, 2, 50, 0, "i32 and rows 2x50")
  CASE(float, TLX_F32, add, TLX_REDUCE_ADD, 37, 53, 37, 53, 1, 1, 1e-5,
       "f32 add full 37x53")
  CASE(float, TLX_F32, max, TLX_REDUCE_MAX, 5, 256, 1, 64, 1, 64, 0,
       "f32 max strided 5x256 window 64/64")
  CASE(float, TLX_F32, add, TLX_REDUCE_ADD, 6, 90, 2, 30, 2, 20, 1e-6,
       "f32 add strided 6x90 window 2x30/2x20")
}

static void columns(void) {
  COLUMNS(float, TLX_F32, add, TLX_REDUCE_ADD, 40, 1100, 1e-6,
          "f32 add columns 40x1100")
  COLUMNS(float, TLX_F32, max, TLX_REDUCE_MAX, 17, 35, 0,
          "f32 max columns 17x35")
  COLUMNS(float, TLX_F32, min, TLX_REDUCE_MIN, 16, 16, 0,
          "f32 min columns 16x16")
  COLUMNS(double, TLX_F64, add, TLX_REDUCE_ADD, 20, 9, 1e-12,
          "f64 add columns 20x9")
  COLUMNS(__bf16, TLX_BF16, add, TLX_REDUCE_ADD, 18, 40, 8e-3,
          "bf16 add columns 18x40")
  COLUMNS(int8_t, TLX_I8, add, TLX_REDUCE_ADD, 33, 70, 0,
          "i8 add columns 33x70")
  COLUMNS(int32_t, TLX_I32, max, TLX_REDUCE_MAX, 19, 33, 0,
          "i32 max columns 19x33")
  CASE(float, TLX_F32, add, TLX_REDUCE_ADD, 40, 48, 20, 2, 20, 1, 1e-6,
       "f32 add column windows 40x48 window 20x2/20x1")
}

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static float fromBits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

// Window of 40 with two NaNs of different payloads: the first one wins,
// in rows (along the window) and in columns (by window rows).
static void firstNaN(void) {
  static float rows[2][40], cols[40][20], rmax[2], rmin[2], cmax[1][20];
  for (int i = 0; i < 40; i++) {
    rows[0][i] = rows[1][i] = (float)(i % 7);
    for (int j = 0; j < 20; j++)
      cols[i][j] = (float)((i + j) % 5);
  }
  rows[0][5] = fromBits(0x7fc00001);
  rows[0][30] = fromBits(0x7fc00002);
  rows[1][37] = fromBits(0xffc00003);
  rows[1][2] = fromBits(0x7fc00004);
  cols[9][3] = fromBits(0x7fc00005);
  cols[21][3] = fromBits(0x7fc00006);
  TLX_STORE(rmax, tlx_reduce_max(TLX_LOAD(rows, 2, 40), TLX_DIMS(1, 40),
                                 TLX_DIMS(1, 1)));
  TLX_STORE(rmin, tlx_reduce_min(TLX_LOAD(rows, 2, 40), TLX_DIMS(1, 40),
                                 TLX_DIMS(1, 1)));
  TLX_STORE(cmax, tlx_reduce_max(TLX_LOAD(cols, 40, 20), TLX_DIMS(40, 1),
                                 TLX_DIMS(1, 1)));
  int ok = bits(rmax[0]) == 0x7fc00001 && bits(rmax[1]) == 0x7fc00004 &&
           bits(rmin[0]) == 0x7fc00001 && bits(rmin[1]) == 0x7fc00004 &&
           bits(cmax[0][3]) == 0x7fc00005 && cmax[0][4] == 4.0f;
  printf("first NaN wins: %s (%08x %08x %08x)\n", ok ? "ok" : "FAIL",
         bits(rmax[0]), bits(rmax[1]), bits(cmax[0][3]));
}

// Rows of 24 zeros: all -0, mixed, and mixed with negatives.
static void signedZeros(void) {
  static float z[3][24], mx[3], mn[3], sum[3];
  for (int i = 0; i < 24; i++) {
    z[0][i] = -0.0f;
    z[1][i] = i == 17 ? 0.0f : -0.0f;
    z[2][i] = i % 3 ? -1.0f : (i == 9 ? 0.0f : -0.0f);
  }
  TLX_STORE(mx, tlx_reduce_max(TLX_LOAD(z, 3, 24), TLX_DIMS(1, 24),
                               TLX_DIMS(1, 1)));
  TLX_STORE(mn, tlx_reduce_min(TLX_LOAD(z, 3, 24), TLX_DIMS(1, 24),
                               TLX_DIMS(1, 1)));
  TLX_STORE(sum, tlx_reduce_add(TLX_LOAD(z, 3, 24), TLX_DIMS(1, 24),
                                TLX_DIMS(1, 1)));
  int ok = bits(mx[0]) == 0x80000000 && bits(mx[1]) == 0 && bits(mx[2]) == 0 &&
           bits(mn[0]) == 0x80000000 && bits(mn[1]) == 0x80000000 &&
           mn[2] == -1.0f && bits(sum[0]) == 0x80000000 && bits(sum[1]) == 0;
  printf("signed zeros: %s (%08x %08x %08x / %08x %08x / %08x %08x)\n",
         ok ? "ok" : "FAIL", bits(mx[0]), bits(mx[1]), bits(mx[2]),
         bits(mn[0]), bits(mn[1]), bits(sum[0]), bits(sum[1]));
}

// Rows of 40 with infinities among finite values, and a NaN after one.
static void infinities(void) {
  static float r[4][40], mx[4], mn[4];
  for (int i = 0; i < 40; i++)
    for (int k = 0; k < 4; k++)
      r[k][i] = (float)(i % 9) - 4.0f;
  r[0][11] = INFINITY;
  r[1][33] = -INFINITY;
  r[2][3] = INFINITY;
  r[2][20] = -INFINITY;
  r[3][6] = -INFINITY;
  r[3][25] = fromBits(0x7fc00007);
  TLX_STORE(mx, tlx_reduce_max(TLX_LOAD(r, 4, 40), TLX_DIMS(1, 40),
                               TLX_DIMS(1, 1)));
  TLX_STORE(mn, tlx_reduce_min(TLX_LOAD(r, 4, 40), TLX_DIMS(1, 40),
                               TLX_DIMS(1, 1)));
  int ok = mx[0] == INFINITY && mn[0] == -4.0f && mx[1] == 4.0f &&
           mn[1] == -INFINITY && mx[2] == INFINITY && mn[2] == -INFINITY &&
           bits(mx[3]) == 0x7fc00007 && bits(mn[3]) == 0x7fc00007;
  printf("infinities: %s (%g %g %g %g / %g %g %g %g)\n", ok ? "ok" : "FAIL",
         mx[0], mx[1], mx[2], mx[3], mn[0], mn[1], mn[2], mn[3]);
}

int main(void) {
  rowsAndFull();
  columns();
  firstNaN();
  signedZeros();
  infinities();
  return finish();
}
