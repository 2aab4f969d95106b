// reshape.block (oneDNN blocked layouts), reshape.permute (TensorFlow
// reshape: logical row-major order kept) and transpose (the RFC's layout
// change, and the research prototype's one-operand form).
// RUN: %clang_plain -std=c11 -Wall -I%S/Inputs %s %tlx_rt -o %t && %t | FileCheck %s

#include "check.h"

// NCHW [1,32,2,2] with blocks <1,16,1,1> -> nChw16c [1,2,2,2,16]:
// out[n,cb,h,w,c] = in[n, cb*16+c, h, w]; in[0,ch,h,w] = ch*4 + h*2 + w.
// CHECK-LABEL: nChw16c element [0,1,1,0,5]: ok
// CHECK: nChw16c all elements: ok
static void nChw16c(void) {
  static float in[128], out[128];
  for (int i = 0; i < 128; ++i)
    in[i] = (float)i;
  const int64_t sIn[] = {1, 32, 2, 2}, sOut[] = {1, 2, 2, 2, 16},
                blocks[] = {1, 16, 1, 1};
  tlx_tensor ti = makeTensor(in, TLX_F32, 4, sIn);
  tlx_tensor to = makeTensor(out, TLX_F32, 5, sOut);
  expectOk("nChw16c", tlx_ref_reshape_block(&ti, blocks, &to));
  const int64_t idx[] = {0, 1, 1, 0, 5}; // in[0,21,1,0] = 84 + 2
  expectTrue("nChw16c element [0,1,1,0,5]", tlx_get_f64(&to, idx) == 86);
  double want[128];
  int k = 0;
  for (int cb = 0; cb < 2; ++cb)
    for (int h = 0; h < 2; ++h)
      for (int w = 0; w < 2; ++w)
        for (int c = 0; c < 16; ++c)
          want[k++] = (cb * 16 + c) * 4 + h * 2 + w;
  expectFloats("nChw16c all elements", &to, want, 0);
}

// [4,6] with blocks <2,3> -> [2,2,2,3]: out[i,j,bi,bj] = in[2i+bi, 3j+bj],
// in[r][c] = 6r + c.
// CHECK-LABEL: two blocked dims i8: ok
// CHECK: block not dividing: error: reshape.block: block 4 does not divide extent 6 of dim 1
// CHECK: zero block: error: reshape.block: block 0 of dim 0 must be >= 1
static void twoBlocks(void) {
  int8_t in[24], out[24];
  for (int i = 0; i < 24; ++i)
    in[i] = (int8_t)i;
  const int64_t sIn[] = {4, 6}, sOut[] = {2, 2, 2, 3}, blocks[] = {2, 3};
  tlx_tensor ti = makeTensor(in, TLX_I8, 2, sIn);
  tlx_tensor to = makeTensor(out, TLX_I8, 4, sOut);
  expectOk("blocks", tlx_ref_reshape_block(&ti, blocks, &to));
  const int64_t want[] = {0,  1,  2,  6,  7,  8,  3,  4,  5,  9,  10, 11,
                          12, 13, 14, 18, 19, 20, 15, 16, 17, 21, 22, 23};
  expectInts("two blocked dims i8", &to, want);
  const int64_t bad[] = {1, 4};
  expectError("block not dividing", tlx_ref_reshape_block(&ti, bad, &to),
              "does not divide");
  const int64_t zero[] = {0, 3};
  expectError("zero block", tlx_ref_reshape_block(&ti, zero, &to),
              "must be >= 1");
}

// CHECK-LABEL: column-major 2x3 -> 3x2: ok
// CHECK: 2x3 -> [1,6,1]: ok
// CHECK: count mismatch: error: reshape.permute: in has 6 elements, out 4
static void reshapePermute(void) {
  int16_t col[] = {1, 4, 2, 5, 3, 6}, out[6]; // logical [[1,2,3],[4,5,6]]
  const int64_t s32[] = {3, 2}, colLayout[] = {1, 0};
  tlx_tensor ti = makeLayout(col, TLX_I16, 2, s32, colLayout, NULL);
  tlx_tensor to = makeTensor(out, TLX_I16, 2, s32);
  expectOk("permute", tlx_ref_reshape_permute(&ti, &to));
  const int64_t want[] = {1, 2, 3, 4, 5, 6};
  expectInts("column-major 2x3 -> 3x2", &to, want);
  const int64_t s161[] = {1, 6, 1};
  tlx_tensor t161 = makeTensor(out, TLX_I16, 3, s161);
  expectOk("permute 3d", tlx_ref_reshape_permute(&ti, &t161));
  expectInts("2x3 -> [1,6,1]", &t161, want);
  const int64_t s22[] = {2, 2};
  tlx_tensor t22 = makeTensor(out, TLX_I16, 2, s22);
  expectError("count mismatch", tlx_ref_reshape_permute(&ti, &t22),
              "6 elements");
}

// The RFC: (16,5,3) padding <3,2,1>, transpose <2,0,1> -> shape (3,16,5),
// layout <2,0,1>, padding <1,3,2>; storage (c,a,b) holds logical (a,b,c).
// CHECK-LABEL: rfc transpose physical order: ok
// CHECK: rfc transpose keeps the logical tensor: ok
static void rfcTranspose(void) {
  static float in[240], out[240];
  for (int i = 0; i < 240; ++i)
    in[i] = (float)i;
  const int64_t sIn[] = {16, 5, 3}, padIn[] = {3, 2, 1};
  const int64_t perm[] = {2, 0, 1}, sOut[] = {3, 16, 5}, padOut[] = {1, 3, 2};
  tlx_tensor ti, to;
  expectOk("in", tlx_tensor_init(&ti, in, TLX_F32, 3, sIn, NULL, padIn, NULL));
  expectOk("out", tlx_tensor_init(&to, out, TLX_F32, 3, sOut, perm, padOut,
                                  NULL));
  expectOk("rfc transpose", tlx_ref_transpose(&ti, perm, &to));
  // out[199] is storage [2][7][4]: logical [7][4][2] = 7*15 + 4*3 + 2.
  expectTrue("rfc transpose physical order",
             out[199] == 119 && out[1] == 3 && out[80] == 1 && out[239] == 239);
  double want[240];
  for (int i = 0; i < 240; ++i)
    want[i] = i;
  expectFloats("rfc transpose keeps the logical tensor", &to, want, 0);
}

// CHECK-LABEL: one-operand transpose 2x3: ok
// CHECK: one-operand transpose batched bf16: ok
// CHECK: layout differs from perm: error: transpose: out layout[0] is 0, perm says 1
// CHECK: perm not a permutation: error: transpose: perm is not a permutation of 0..1
static void prototypeTranspose(void) {
  int32_t in[] = {1, 2, 3, 4, 5, 6}, out[6];
  const int64_t s23[] = {2, 3}, s32[] = {3, 2};
  tlx_tensor ti = makeTensor(in, TLX_I32, 2, s23);
  tlx_tensor to = makeTensor(out, TLX_I32, 2, s32);
  expectOk("t", tlx_ref_transpose(&ti, NULL, &to));
  const int64_t want[] = {1, 4, 2, 5, 3, 6};
  expectInts("one-operand transpose 2x3", &to, want);

  uint16_t b[12], bo[12];
  const int64_t s223[] = {2, 2, 3}, s232[] = {2, 3, 2};
  tlx_tensor tb = makeTensor(b, TLX_BF16, 3, s223);
  tlx_tensor tbo = makeTensor(bo, TLX_BF16, 3, s232);
  for (int64_t i = 0; i < 12; ++i) {
    int64_t idx[] = {i / 6, (i / 3) % 2, i % 3};
    tlx_set_f64(&tb, idx, (double)i + 0.5);
  }
  expectOk("tb", tlx_ref_transpose(&tb, NULL, &tbo));
  const double wantB[] = {0.5, 3.5, 1.5, 4.5, 2.5,  5.5,
                          6.5, 9.5, 7.5, 10.5, 8.5, 11.5};
  expectFloats("one-operand transpose batched bf16", &tbo, wantB, 0);

  const int64_t swap[] = {1, 0};
  tlx_tensor same = makeTensor(out, TLX_I32, 2, s32);
  expectError("layout differs from perm", tlx_ref_transpose(&ti, swap, &same),
              "perm says");
  const int64_t bad[] = {1, 1};
  expectError("perm not a permutation", tlx_ref_transpose(&ti, bad, &same),
              "not a permutation");
}

int main(void) {
  nChw16c();
  twoBlocks();
  reshapePermute();
  rfcTranspose();
  prototypeTranspose();
  return Failures != 0;
}
