// bf16 conversion loops under +sve: the loop vectorizer makes scalable
// fptrunc / fpext of bf16 vectors of them, which LLVM 19 cannot select;
// tlx-backend-workarounds rewrites them as integer operations. Checked at
// -O0 and -O2, at 128- and 2048-bit vectors, on NaNs, infinities, ties,
// f32 and bf16 denormals and random bits, against references computed
// another way: scalar BFCVT (f32 -> bf16), f64 -> f32 rounded toward zero
// with the inexact bit or-ed in (round to odd, through fenv) then BFCVT
// (f64 -> bf16), and the bits shifted (bf16 -> f32 / f64).
// REQUIRES: aarch64-cross
// RUN: %a64_tlx_cc -w -O2 -march=armv8.6-a+sve %s -o %t2
// RUN: qemu-aarch64 -cpu max,sve-default-vector-length=16 %t2 | FileCheck %s
// RUN: qemu-aarch64 -cpu max,sve-default-vector-length=256 %t2 | FileCheck %s
// RUN: %a64_tlx_cc -w -O0 -march=armv8.6-a+sve %s -o %t0 && %a64_qemu %t0 | FileCheck %s
// RUN: %a64_tlx_cc -w -O2 -march=armv8.2-a+sve %s -o %tb && %a64_qemu %tb | FileCheck %s
// RUN: %a64_tlx_cc -O2 -march=armv8.6-a+sve -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// The conversion loops are vectorized with scalable vectors.
// IR-LABEL: define {{.*}}void @to_bf16(
// IR: <vscale x {{[0-9]+}} x i16>
// CHECK: f32 -> bf16: ok
// CHECK: f64 -> bf16: ok
// CHECK: bf16 -> f32: ok
// CHECK: bf16 -> f64: ok
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { N = 4096 };
static float f[N];
static double d[N];
static __bf16 got[N], want[N];
static float gf[N];
static double gd[N];

__attribute__((noinline)) void to_bf16(const float *x, __bf16 *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = (__bf16)x[i];
}
__attribute__((noinline)) void d_to_bf16(const double *x, __bf16 *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = (__bf16)x[i];
}
__attribute__((noinline)) void to_f32(const __bf16 *x, float *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = (float)x[i];
}
__attribute__((noinline)) void to_f64(const __bf16 *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = (double)x[i];
}

static uint64_t state = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}
static uint16_t bits16(__bf16 h) {
  uint16_t b;
  memcpy(&b, &h, 2);
  return b;
}
static float from_bits32(uint32_t b) {
  float x;
  memcpy(&x, &b, 4);
  return x;
}
static double from_bits64(uint64_t b) {
  double x;
  memcpy(&x, &b, 8);
  return x;
}

// One scalar BFCVT; the loops around it stay scalar.
__attribute__((noinline)) static __bf16 bfcvt(float x) {
  __bf16 r;
  __asm__(".arch_extension bf16\n\tbfcvt %h0, %s1" : "=w"(r) : "w"(x));
  return r;
}

// f64 -> f32 rounded to odd: toward zero, the lowest bit set if inexact.
static float round_to_odd(double x) {
  fesetround(FE_TOWARDZERO);
  volatile double v = x;
  float r = (float)v;
  fesetround(FE_TONEAREST);
  if ((double)r != x && x == x) {
    uint32_t b;
    memcpy(&b, &r, 4);
    b |= 1;
    memcpy(&r, &b, 4);
  }
  return r;
}

static void report(const char *name, int bad) {
  printf("%s: %s\n", name, bad ? "FAILED" : "ok");
}

int main(void) {
  static const uint32_t special[] = {
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
      0x7f800001, 0xffc00123, 0x3f808000, 0x3f818000, 0x3f808001,
      0x3f80ffff, 0x7f7fffff, 0x00000001, 0x00008000, 0x00018000,
      0x007fffff, 0x80007fff, 0x3fff8000, 0x477fe000};
  int ns = sizeof special / sizeof special[0];
  for (int i = 0; i < N; ++i) {
    uint64_t r = next();
    f[i] = i < ns ? from_bits32(special[i]) : from_bits32((uint32_t)r);
    // Doubles near f32 ties and f32's range, and random bits.
    if (i % 3 == 0)
      d[i] = (double)f[i] + (double)f[i] * 0x1p-40 * (double)(int)(r % 7 - 3);
    else if (i % 3 == 1)
      d[i] = (double)f[i];
    else
      d[i] = from_bits64(r);
  }
  int bad = 0;
  to_bf16(f, got, N);
  for (int i = 0; i < N; ++i) {
    __bf16 w = bfcvt(f[i]);
    int nan = f[i] != f[i];
    bad += nan ? (bits16(got[i]) & 0x7fc0) != 0x7fc0
               : bits16(got[i]) != bits16(w);
  }
  report("f32 -> bf16", bad);
  bad = 0;
  d_to_bf16(d, got, N);
  for (int i = 0; i < N; ++i) {
    int nan = d[i] != d[i];
    __bf16 w = bfcvt(round_to_odd(d[i]));
    if (nan ? (bits16(got[i]) & 0x7fc0) != 0x7fc0
            : bits16(got[i]) != bits16(w)) {
      if (bad++ < 5)
        printf("d[%d] = %a: %04x, want %04x\n", i, d[i], bits16(got[i]),
               bits16(w));
    }
  }
  report("f64 -> bf16", bad);
  for (int i = 0; i < N; ++i) {
    uint16_t b = (uint16_t)next();
    memcpy(&want[i], &b, 2);
  }
  bad = 0;
  to_f32(want, gf, N);
  for (int i = 0; i < N; ++i) {
    uint32_t b;
    memcpy(&b, &gf[i], 4);
    uint32_t w = (uint32_t)bits16(want[i]) << 16;
    bad += gf[i] == gf[i] ? b != w : (w & 0x7f800000) != 0x7f800000;
  }
  report("bf16 -> f32", bad);
  bad = 0;
  to_f64(want, gd, N);
  for (int i = 0; i < N; ++i) {
    double w = (double)from_bits32((uint32_t)bits16(want[i]) << 16);
    bad += gd[i] == gd[i] ? gd[i] != w : w == w;
  }
  report("bf16 -> f64", bad);
  return 0;
}
