// libtlxrt's __truncsfbf2 (float -> bf16, which LLVM's x86 backend calls
// without AVX512-BF16 and Debian 12's libgcc lacks): a program converting
// to __bf16 links against libtlxrt alone, and every conversion agrees with
// the oracle's tlx_f32_to_bf16 - ties, carries into the exponent,
// overflow, denormals, signed zeros, infinities and NaNs, plus a sweep
// over all exponents with varied mantissas.
// RUN: %clang_plain -std=c11 -O0 -march=x86-64 -I%S/Inputs %s %tlx_rt -o %t && %t | FileCheck %s
// RUN: llvm-nm %t | FileCheck %s --check-prefix=LINKED
// LINKED: {{[TW]}} __truncsfbf2
// CHECK: truncsfbf2: OK

#include "check.h"

static uint16_t viaCompiler(uint32_t bits) {
  volatile float value;
  float f;
  memcpy(&f, &bits, sizeof f);
  value = f;
  volatile __bf16 narrowed = (__bf16)value;
  __bf16 copy = narrowed;
  uint16_t out;
  memcpy(&out, &copy, sizeof out);
  return out;
}

static void expectSame(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  uint16_t got = viaCompiler(bits), want = tlx_f32_to_bf16(f);
  int bothNaN = (got & 0x7fff) > 0x7f80 && (want & 0x7fff) > 0x7f80;
  if (got != want && !(bothNaN && (got & 0x8000) == (want & 0x8000))) {
    printf("FAIL 0x%08x: 0x%04x, expected 0x%04x\n", bits, got, want);
    ++Failures;
  }
}

int main(void) {
  static const uint32_t special[] = {
      0x00000000, 0x80000000, 0x3f808000, 0x3f818000, 0x3f808001,
      0x3f7fffff, 0x7f7fffff, 0x7f7f8000, 0xff7fffff, 0x7f800000,
      0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x00000001,
      0x00008000, 0x00018000, 0x807fffff, 0x007f8000};
  for (size_t i = 0; i < sizeof special / sizeof special[0]; ++i)
    expectSame(special[i]);
  for (uint32_t exponent = 0; exponent < 256; ++exponent)
    for (uint32_t low = 0; low < 0x20000; low += 0x7ff)
      for (uint32_t sign = 0; sign < 2; ++sign)
        expectSame(sign << 31 | exponent << 23 | (low * 0x3f) % 0x800000);
  // NaNs keep their sign and stay NaN (the payload may be quieted).
  uint16_t nan = viaCompiler(0xff800001);
  if ((nan & 0x8000) == 0 || (nan & 0x7fff) <= 0x7f80) {
    printf("FAIL signalling NaN: 0x%04x\n", nan);
    ++Failures;
  }
  printf("truncsfbf2: %s\n", Failures ? "FAILED" : "OK");
  return Failures != 0;
}
