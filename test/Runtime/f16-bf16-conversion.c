// f16/bf16 conversions: round-to-nearest-even ties, overflow to infinity,
// denormals, signed zero and NaN, and direct (not double) rounding from f64.
// RUN: %clang_plain -std=c11 -Wall -I%S/Inputs %s %tlx_rt -o %t && %t | FileCheck %s

#include "check.h"

static float fromBits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof(f));
  return f;
}

static uint32_t toBits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof(u));
  return u;
}

static void expectHalf(const char *what, uint16_t got, uint16_t want) {
  if (got != want) {
    printf("FAIL %s: 0x%04x, expected 0x%04x\n", what, got, want);
    ++Failures;
  }
}

static void expectFloatBits(const char *what, float got, uint32_t want) {
  if (toBits(got) != want) {
    printf("FAIL %s: 0x%08x, expected 0x%08x\n", what, toBits(got), want);
    ++Failures;
  }
}

// CHECK-LABEL: f32 -> f16: ok
static void toF16(void) {
  int before = Failures;
  expectHalf("one", tlx_f32_to_f16(1.0f), 0x3C00);
  expectHalf("max", tlx_f32_to_f16(65504.0f), 0x7BFF);
  expectHalf("below overflow tie", tlx_f32_to_f16(65519.0f), 0x7BFF);
  expectHalf("overflow tie -> inf", tlx_f32_to_f16(65520.0f), 0x7C00);
  expectHalf("-overflow", tlx_f32_to_f16(-1e10f), 0xFC00);
  expectHalf("tie to even (down)", tlx_f32_to_f16(1.0f + 0x1p-11f), 0x3C00);
  expectHalf("tie to even (up)", tlx_f32_to_f16(1.0f + 3 * 0x1p-11f), 0x3C02);
  expectHalf("above tie", tlx_f32_to_f16(1.0f + 0x1p-11f + 0x1p-20f), 0x3C01);
  expectHalf("min denormal", tlx_f32_to_f16(0x1p-24f), 0x0001);
  expectHalf("denormal tie to 0", tlx_f32_to_f16(0x1p-25f), 0x0000);
  expectHalf("above denormal tie", tlx_f32_to_f16(3 * 0x1p-26f), 0x0001);
  expectHalf("denormal tie to 2", tlx_f32_to_f16(3 * 0x1p-25f), 0x0002);
  expectHalf("max denormal", tlx_f32_to_f16(1023 * 0x1p-24f), 0x03FF);
  expectHalf("denormal rounds to min normal",
             tlx_f32_to_f16(1023.5f * 0x1p-24f), 0x0400);
  expectHalf("f32 denormal", tlx_f32_to_f16(fromBits(0x00000123)), 0x0000);
  expectHalf("-0", tlx_f32_to_f16(-0.0f), 0x8000);
  expectHalf("-inf", tlx_f32_to_f16(-INFINITY), 0xFC00);
  expectHalf("qnan", tlx_f32_to_f16(fromBits(0x7FC00000)), 0x7E00);
  uint16_t snan = tlx_f32_to_f16(fromBits(0x7F800001));
  if ((snan & 0x7C00) != 0x7C00 || (snan & 0x3FF) == 0)
    printf("FAIL snan stays NaN: 0x%04x\n", snan), ++Failures;
  expectHalf("third", tlx_f32_to_f16(1.0f / 3), 0x3555);
  expectTrue("f32 -> f16", Failures == before);
}

// CHECK-LABEL: f16 -> f32: ok
static void fromF16(void) {
  int before = Failures;
  expectFloatBits("one", tlx_f16_to_f32(0x3C00), 0x3F800000);
  expectFloatBits("min denormal", tlx_f16_to_f32(0x0001), toBits(0x1p-24f));
  expectFloatBits("max denormal", tlx_f16_to_f32(0x03FF), toBits(1023 * 0x1p-24f));
  expectFloatBits("max", tlx_f16_to_f32(0x7BFF), toBits(65504.0f));
  expectFloatBits("-0", tlx_f16_to_f32(0x8000), 0x80000000);
  expectFloatBits("-inf", tlx_f16_to_f32(0xFC00), 0xFF800000);
  expectFloatBits("qnan", tlx_f16_to_f32(0x7E00), 0x7FC00000);
  expectFloatBits("third", tlx_f16_to_f32(0x3555), toBits(0.333251953125f));
  // Every finite f16 round-trips exactly.
  for (uint32_t h = 0; h < 0x10000; ++h)
    if ((h & 0x7C00) != 0x7C00 &&
        tlx_f32_to_f16(tlx_f16_to_f32((uint16_t)h)) != h) {
      printf("FAIL f16 round trip 0x%04x\n", h);
      ++Failures;
      break;
    }
  expectTrue("f16 -> f32", Failures == before);
}

// CHECK-LABEL: f32 -> bf16: ok
static void toBF16(void) {
  int before = Failures;
  expectHalf("one", tlx_f32_to_bf16(1.0f), 0x3F80);
  expectHalf("tie to even (down)", tlx_f32_to_bf16(1.0f + 0x1p-8f), 0x3F80);
  expectHalf("tie to even (up)", tlx_f32_to_bf16(1.0f + 3 * 0x1p-8f), 0x3F82);
  expectHalf("above tie", tlx_f32_to_bf16(1.0f + 0x1p-8f + 0x1p-20f), 0x3F81);
  expectHalf("bf16 max", tlx_f32_to_bf16(fromBits(0x7F7F0000)), 0x7F7F);
  expectHalf("FLT_MAX -> inf", tlx_f32_to_bf16(fromBits(0x7F7FFFFF)), 0x7F80);
  expectHalf("denormal", tlx_f32_to_bf16(fromBits(0x00010000)), 0x0001);
  expectHalf("denormal tie to 0", tlx_f32_to_bf16(fromBits(0x00008000)), 0x0000);
  expectHalf("denormal tie to 2", tlx_f32_to_bf16(fromBits(0x00018000)), 0x0002);
  expectHalf("-0", tlx_f32_to_bf16(-0.0f), 0x8000);
  expectHalf("qnan", tlx_f32_to_bf16(fromBits(0x7FC00000)), 0x7FC0);
  // Plain truncation would turn this signalling NaN into infinity.
  uint16_t snan = tlx_f32_to_bf16(fromBits(0x7F800001));
  if ((snan & 0x7F80) != 0x7F80 || (snan & 0x7F) == 0)
    printf("FAIL snan stays NaN: 0x%04x\n", snan), ++Failures;
  expectHalf("third", tlx_f32_to_bf16(1.0f / 3), 0x3EAB);
  expectTrue("f32 -> bf16", Failures == before);
}

// CHECK-LABEL: bf16 -> f32: ok
static void fromBF16(void) {
  int before = Failures;
  expectFloatBits("one", tlx_bf16_to_f32(0x3F80), 0x3F800000);
  expectFloatBits("denormal", tlx_bf16_to_f32(0x0001), 0x00010000);
  expectFloatBits("-inf", tlx_bf16_to_f32(0xFF80), 0xFF800000);
  expectFloatBits("qnan", tlx_bf16_to_f32(0x7FC0), 0x7FC00000);
  for (uint32_t b = 0; b < 0x10000; ++b)
    if ((b & 0x7F80) != 0x7F80 &&
        tlx_f32_to_bf16(tlx_bf16_to_f32((uint16_t)b)) != b) {
      printf("FAIL bf16 round trip 0x%04x\n", b);
      ++Failures;
      break;
    }
  expectTrue("bf16 -> f32", Failures == before);
}

// CHECK-LABEL: f64 rounds once: ok
static void fromF64(void) {
  int before = Failures;
  // Through float, 1 + 2^-11 + 2^-40 would first become the tie 1 + 2^-11
  // and then round down to 1.0; rounded once it goes up.
  expectHalf("f64 -> f16", tlx_f64_to_f16(1.0 + 0x1p-11 + 0x1p-40), 0x3C01);
  expectHalf("f64 -> bf16", tlx_f64_to_bf16(1.0 + 0x1p-8 + 0x1p-40), 0x3F81);
  expectHalf("f64 denormal", tlx_f64_to_f16(0x1p-1070), 0x0000);
  expectHalf("f64 huge", tlx_f64_to_bf16(1e300), 0x7F80);
  expectTrue("f64 rounds once", Failures == before);
}

int main(void) {
  toF16();
  fromF16();
  toBF16();
  fromBF16();
  fromF64();
  return Failures != 0;
}
