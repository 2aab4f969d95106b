// convolution: input [N,C,spatial..] x kernel [O,C,kspatial..] -> [N,O,..],
// strides, kernel dilation (spaced taps), input dilation (holes), channels,
// an NHWC-stored input, widening, and the RFC example's inconsistent shapes.
// RUN: %clang_plain -std=c11 -Wall -I%S/Inputs %s %tlx_rt -o %t && %t | FileCheck %s

#include "check.h"

static float In5[] = {1, 2, 3, 4, 5}, K3[] = {1, 2, 3};
static const int64_t S115[] = {1, 1, 5}, S113[] = {1, 1, 3};

static void conv1d(const char *what, const int64_t *stride,
                   const int64_t *inDil, const int64_t *kDil, int64_t outW,
                   const double *want) {
  float out[16];
  const int64_t so[] = {1, 1, outW};
  tlx_tensor in = makeTensor(In5, TLX_F32, 3, S115);
  tlx_tensor k = makeTensor(K3, TLX_F32, 3, S113);
  tlx_tensor o = makeTensor(out, TLX_F32, 3, so);
  expectOk(what, tlx_ref_convolution(&in, &k, stride, inDil, kDil, &o));
  expectFloats(what, &o, want, 0);
}

// out[x] = sum_t in_dilated[x*stride + t*kdil] * k[t], k = {1,2,3}.
// CHECK-LABEL: 1-d plain: ok
// CHECK: 1-d stride 2: ok
// CHECK: 1-d kernel dilation 2: ok
// CHECK: 1-d input dilation 2: ok
// CHECK: 1-d zeros mean 1: ok
static void oneD(void) {
  const int64_t two[] = {2}, zero[] = {0};
  const double plain[] = {14, 20, 26};     // 1+4+9, 2+6+12, 3+8+15
  conv1d("1-d plain", NULL, NULL, NULL, 3, plain);
  const double strided[] = {14, 26};       // (5-3)/2+1 = 2 outputs
  conv1d("1-d stride 2", two, NULL, NULL, 2, strided);
  const double kdil[] = {22};              // taps at 0,2,4: 1+6+15
  conv1d("1-d kernel dilation 2", NULL, NULL, two, 1, kdil);
  // Dilated input {1,0,2,0,3,0,4,0,5} (9 wide) -> 7 outputs.
  const double idil[] = {7, 4, 11, 6, 15, 8, 19};
  conv1d("1-d input dilation 2", NULL, two, NULL, 7, idil);
  conv1d("1-d zeros mean 1", zero, zero, zero, 3, plain);
}

// in[n][c] (3x3) and kernel[o][c] (2x2) given by hand; see expected values.
static int64_t inputValue(int64_t n, int64_t c, int64_t h, int64_t w) {
  static const int c0[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  static const int n1c1[3][3] = {{0, 1, 0}, {1, 0, 1}, {0, 1, 0}};
  if (c == 0)
    return n == 0 ? c0[h][w] : -c0[h][w];
  return n == 0 ? 1 : n1c1[h][w];
}

// CHECK-LABEL: 2-d i8 -> i32, 2 images, 2 channels, 2 filters: ok
// CHECK: 2-d NHWC-stored input: ok
static void twoD(void) {
  int8_t in[36], inNhwc[36];
  const int64_t sIn[] = {2, 2, 3, 3}, sNhwc[] = {2, 3, 3, 2},
                nhwc[] = {0, 2, 3, 1};
  tlx_tensor tin = makeTensor(in, TLX_I8, 4, sIn);
  tlx_tensor tnhwc = makeLayout(inNhwc, TLX_I8, 4, sNhwc, nhwc, NULL);
  int64_t i[4] = {0};
  for (i[0] = 0; i[0] < 2; ++i[0])
    for (i[1] = 0; i[1] < 2; ++i[1])
      for (i[2] = 0; i[2] < 3; ++i[2])
        for (i[3] = 0; i[3] < 3; ++i[3]) {
          int64_t v = inputValue(i[0], i[1], i[2], i[3]);
          tlx_set_i64(&tin, i, v);
          tlx_set_i64(&tnhwc, i, v);
        }
  // o0: c0 = [[1,0],[0,1]], c1 = [[1,1],[1,1]]; o1: c0 = [[0,1],[1,0]],
  // c1 = [[0,0],[0,2]].
  int8_t k[] = {1, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 2};
  const int64_t sK[] = {2, 2, 2, 2};
  tlx_tensor tk = makeTensor(k, TLX_I8, 4, sK);
  int32_t out[16];
  tlx_tensor to = makeTensor(out, TLX_I32, 4, sK);
  expectOk("2-d", tlx_ref_convolution(&tin, &tk, NULL, NULL, NULL, &to));
  // n0o0: diag sums 6,8,12,14 + 4;  n0o1: anti-diag 6,8,12,14 + 2*1;
  // n1o0: -(6,8,12,14) + window sums 2;  n1o1: -(6,8,12,14) + 2*{0,1,1,0}.
  const int64_t want[] = {10, 12, 16, 18, 8,  10, 14, 16,
                          -4, -6, -10, -12, -6, -6, -10, -14};
  expectInts("2-d i8 -> i32, 2 images, 2 channels, 2 filters", &to, want);
  expectOk("nhwc", tlx_ref_convolution(&tnhwc, &tk, NULL, NULL, NULL, &to));
  expectInts("2-d NHWC-stored input", &to, want);
}

// CHECK-LABEL: bf16 -> f32 with stride and both dilations: ok
static void bf16Case(void) {
  uint16_t in[7], k[2];
  float out[8];
  const int64_t sIn[] = {1, 1, 7}, sK[] = {1, 1, 2};
  tlx_tensor tin = makeTensor(in, TLX_BF16, 3, sIn);
  tlx_tensor tk = makeTensor(k, TLX_BF16, 3, sK);
  for (int64_t x = 0; x < 7; ++x) {
    int64_t idx[] = {0, 0, x};
    tlx_set_f64(&tin, idx, 0.5 * (double)(x + 1)); // 0.5, 1, ..., 3.5
  }
  int64_t k0[] = {0, 0, 0}, k1[] = {0, 0, 1};
  tlx_set_f64(&tk, k0, 1.0);
  tlx_set_f64(&tk, k1, -2.0);
  // Dilated input (dil 2) is 13 wide; kernel taps 3 apart (dil 3) span 4;
  // stride 3 -> (13-4)/3+1 = 4 outputs at dilated positions 0,3,6,9:
  // x0: d[0]*1 + d[3]*-2 = 0.5 - 0 = 0.5 (d[3] is a hole)
  // x1: d[3] + -2*d[6] = 0 - 2*2 = -4
  // x2: d[6] + -2*d[9] = 2 - 0 = 2
  // x3: d[9] + -2*d[12] = 0 - 2*3.5 = -7
  const int64_t sOut[] = {1, 1, 4}, three[] = {3}, two[] = {2};
  tlx_tensor to = makeTensor(out, TLX_F32, 3, sOut);
  expectOk("bf16", tlx_ref_convolution(&tin, &tk, three, two, three, &to));
  const double want[] = {0.5, -4, 2, -7};
  expectFloats("bf16 -> f32 with stride and both dilations", &to, want, 0);
}

// The RFC's example: input typed 3x4, kernel 4x3, strides <1,2>, result
// <9 x float>. A rank-2 input has no spatial dims ([N,C,spatial..]), and no
// reading yields 9 outputs (see docs/decisions.md). Given a batch and a
// channel dim, the 3x4 input and a 1x2 kernel with strides <1,2> give 3x2.
// CHECK-LABEL: rfc example shapes: error: convolution: input [N,C,spatial..] and kernel [O,C,spatial..] need equal ranks >= 3, got 2 and 2
// CHECK: rfc example as [1,1,3,4]: ok
// CHECK: channel mismatch: error: convolution: input has 1 channels, kernel 2
// CHECK: kernel larger than input: error: convolution: spatial dim 0: dilated kernel (5) is larger than the dilated input (3)
// CHECK: rank mismatch: error: convolution: {{.*}} need equal ranks >= 3, got 3 and 2
static void errors(void) {
  static float buf[64];
  const int64_t s34[] = {3, 4}, s43[] = {4, 3}, s33[] = {3, 3};
  const int64_t rfcStrides[] = {1, 2}, zeros[] = {0, 0};
  tlx_tensor in = makeTensor(buf, TLX_F32, 2, s34);
  tlx_tensor k = makeTensor(buf, TLX_F32, 2, s43);
  tlx_tensor o = makeTensor(buf + 32, TLX_F32, 2, s33);
  expectError("rfc example shapes",
              tlx_ref_convolution(&in, &k, rfcStrides, zeros, zeros, &o),
              "ranks >= 3");
  // in[h][w] = 4h + w + 1; kernel [[1,-1]]; out[y][x] = in[y][2x] -
  // in[y][2x+1] = -1 everywhere, except in[1][2] = 10: out[1][1] = 10 - 8.
  float x[12], kk[] = {1, -1}, y[6];
  for (int i = 0; i < 12; ++i)
    x[i] = (float)(i + 1);
  x[6] = 10;
  const int64_t s1134[] = {1, 1, 3, 4}, s1112[] = {1, 1, 1, 2},
                s1132[] = {1, 1, 3, 2};
  tlx_tensor tx = makeTensor(x, TLX_F32, 4, s1134);
  tlx_tensor tk = makeTensor(kk, TLX_F32, 4, s1112);
  tlx_tensor ty = makeTensor(y, TLX_F32, 4, s1132);
  expectOk("rfc as 4-d",
           tlx_ref_convolution(&tx, &tk, rfcStrides, zeros, zeros, &ty));
  const double wantY[] = {-1, -1, -1, 2, -1, -1};
  expectFloats("rfc example as [1,1,3,4]", &ty, wantY, 0);
  const int64_t s1212[] = {1, 2, 1, 2};
  tlx_tensor tk2 = makeTensor(buf, TLX_F32, 4, s1212);
  expectError("channel mismatch",
              tlx_ref_convolution(&tx, &tk2, NULL, NULL, NULL, &ty),
              "channels");
  const int64_t s113[] = {1, 1, 3}, s115[] = {1, 1, 5}, s111[] = {1, 1, 1};
  tlx_tensor in3 = makeTensor(buf, TLX_F32, 3, s113);
  tlx_tensor k5 = makeTensor(buf, TLX_F32, 3, s115);
  tlx_tensor o1 = makeTensor(buf + 32, TLX_F32, 3, s111);
  expectError("kernel larger than input",
              tlx_ref_convolution(&in3, &k5, NULL, NULL, NULL, &o1), "larger");
  expectError("rank mismatch",
              tlx_ref_convolution(&in3, &k, NULL, NULL, NULL, &o1),
              "equal ranks");
}

int main(void) {
  oneD();
  twoD();
  bf16Case();
  errors();
  return Failures != 0;
}
