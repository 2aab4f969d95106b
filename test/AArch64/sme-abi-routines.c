// libtlxrt's SME support routines (lib/Runtime/sme_abi.c; Debian 12's
// libgcc has none) under qemu, with clang's SME code calling them:
//  - a function with live ZA (__arm_new("za")) calls a TLX GEMM, an
//    ordinary function: clang sets up a lazy save (TPIDR2 block); the GEMM's
//    kernel takes ZA, so its __arm_tpidr2_save stores the caller's ZA to
//    the buffer; back in the caller __arm_tpidr2_restore reloads it. ZA
//    must hold the caller's values afterwards (and the GEMM be right).
//  - __arm_sme_state from a streaming-compatible function, streaming or
//    not; __arm_get_current_vg; __arm_za_disable committing a pending
//    lazy save of one slice and turning ZA off.
// REQUIRES: aarch64-cross
// RUN: %a64_tlx_cc -O2 -march=armv9-a+sme -S %s -o - | FileCheck %s --check-prefix=ASM
// RUN: %a64_tlx_cc -w -O2 -march=armv9-a+sme %s -o %t && %a64_qemu %t | FileCheck %s
// RUN: %a64_tlx_cc -w -O0 -march=armv9-a+sme %s -o %t0 && %a64_qemu %t0 | FileCheck %s
// RUN: qemu-aarch64 -cpu max,sme-default-vector-length=256 %t | FileCheck %s
// ASM-LABEL: keepsZA:
// ASM: msr TPIDR2_EL0
// ASM: bl gemm
// ASM: bl __arm_tpidr2_restore
// CHECK: gemm: ok
// CHECK: ZA kept across the GEMM: ok
// CHECK: sme_state: ok
// CHECK: get_current_vg: ok
// CHECK: za_disable: ok
// CHECK: PASSED
#include <arm_sme.h>
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

typedef float v8x8 __attribute__((__vector_size__(8 * 8 * 4)));
TLX_DECLARE_TENSOR_OPS(v8x8)

static int failures;
static void report(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "FAILED" : "ok");
  failures += bad != 0;
}

__attribute__((noinline)) void gemm(const float *a, const float *b,
                                    float *c) {
  v8x8 r = tensor_matmul(
      tensor_load(a, TLX_SHAPE(8, 8), TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                  TLX_ZEROS(2)),
      tensor_load(b, TLX_SHAPE(8, 8), TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                  TLX_ZEROS(2)));
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(8, 8), TLX_LAYOUT(0, 1),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

static float a[64], b[64], c[64];
static float before[64 * 64], after[64 * 64];

// Fills ZA0.S with a pattern, calls the GEMM, reads ZA0.S back.
__arm_new("za") __arm_locally_streaming void keepsZA(void) {
  uint64_t n = svcntw();
  for (uint64_t i = 0; i < n * n; ++i)
    before[i] = (float)(i + 1);
  for (uint64_t r = 0; r < n; ++r)
    svwrite_hor_za32_f32_m(0, (uint32_t)r, svptrue_b32(),
                           svld1_f32(svptrue_b32(), before + r * n));
  gemm(a, b, c);
  for (uint64_t r = 0; r < n; ++r)
    svst1_hor_za32(0, (uint32_t)r, svptrue_b32(), after + r * n);
}

typedef struct {
  uint64_t x0, x1;
} SMEState;
// (arm_sme.h declares __arm_za_disable.)
SMEState __arm_sme_state(void) __arm_streaming_compatible;
uint64_t __arm_get_current_vg(void) __arm_streaming_compatible;

__attribute__((noinline)) SMEState stateCompatible(void)
    __arm_streaming_compatible {
  return __arm_sme_state();
}

__arm_locally_streaming __attribute__((noinline)) SMEState
stateStreaming(void) {
  return stateCompatible();
}

__arm_locally_streaming __attribute__((noinline)) uint64_t vgStreaming(void) {
  return __arm_get_current_vg();
}

// ZA on with slice 0 loaded from pattern (LDR ZA works outside streaming
// mode), a lazy save of 1 slice set up (TPIDR2_EL0 = blk), then
// __arm_za_disable: it must commit the save (slice 0 to save), clear
// TPIDR2_EL0 and turn ZA off. Returns SVCR and TPIDR2_EL0 after it.
static unsigned char pattern[256], save[256];
static struct {
  void *buffer;
  uint16_t slices;
  uint8_t reserved[6];
} blk;

__attribute__((noinline)) static void dormantThenDisable(uint64_t *svcr,
                                                         uint64_t *tpidr2) {
  blk.buffer = save;
  blk.slices = 1;
  register void *x0 __asm__("x0") = pattern;
  register void *x1 __asm__("x1") = &blk;
  uint64_t s, t;
  __asm__ volatile(".inst 0xd503457f\n"   /* smstart za */
                   "mov w12, #0\n"
                   ".inst 0xe1000000\n"   /* ldr za[w12, 0], [x0] */
                   "msr S3_3_C13_C0_5, x1\n"
                   "bl __arm_za_disable\n"
                   "mrs %0, S3_3_C4_C2_2\n"
                   "mrs %1, S3_3_C13_C0_5\n"
                   : "=&r"(s), "=&r"(t)
                   : "r"(x0), "r"(x1)
                   : "memory", "x12", "x14", "x15", "x16", "x17", "x30");
  *svcr = s;
  *tpidr2 = t;
}

int main(void) {
  for (int i = 0; i < 64; ++i) {
    a[i] = (float)(i % 5);
    b[i] = (float)(i % 3) - 1;
  }
  keepsZA();
  int bad = 0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      float want = 0;
      for (int k = 0; k < 8; ++k)
        want += a[i * 8 + k] * b[k * 8 + j];
      bad += c[i * 8 + j] != want;
    }
  report("gemm", bad);
  bad = 0;
  uint64_t n = svcntsw();
  for (uint64_t i = 0; i < n * n; ++i)
    bad += after[i] != before[i];
  report("ZA kept across the GEMM", bad);

  // Bit 63: SME; 62: TPIDR2_EL0; 0: PSTATE.SM; 1: PSTATE.ZA; x1 = TPIDR2.
  SMEState s = stateCompatible(), t = stateStreaming();
  report("sme_state", s.x0 != (3ull << 62) || s.x1 != 0 ||
                          t.x0 != ((3ull << 62) | 1) || t.x1 != 0);
  // VG counts 64-bit granules: the streaming one is SVL / 64.
  report("get_current_vg", vgStreaming() != svcntsd() ||
                               __arm_get_current_vg() != svcntd());
  for (int i = 0; i < 256; ++i)
    pattern[i] = (unsigned char)(i * 7 + 1);
  uint64_t svcr, tpidr2;
  dormantThenDisable(&svcr, &tpidr2);
  bad = svcr != 0 || tpidr2 != 0;
  for (uint64_t i = 0; i < svcntsb(); ++i)
    bad += save[i] != pattern[i];
  for (uint64_t i = svcntsb(); i < 256; ++i)
    bad += save[i] != 0; // one slice only
  report("za_disable", bad);
  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures != 0;
}
