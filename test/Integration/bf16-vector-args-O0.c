// Plain C at -O0 under AVX512-BF16: bfloat vectors of 16 and 32 elements
// passed by value to a function (and a float vector beside them) arrive
// whole. LLVM 19's FastISel cleared the upper part of the argument
// register before the call (a vzeroupper), so only 8 elements arrived;
// tlx-backend-workarounds passes them as i16 vectors (progs.py seed 601,
// case 32, a TLX result escaping into a C function).
// REQUIRES: cpu-avx512-bf16
// RUN: %clang_tlx -w -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s -o %t2 && %t2 | FileCheck %s
// CHECK: bf16 x 32: ok
// CHECK: bf16 x 16: ok
// CHECK: mixed: ok
#include <stdio.h>
#include <string.h>

typedef __bf16 bf32 __attribute__((vector_size(64)));
typedef __bf16 bf16v __attribute__((vector_size(32)));
typedef float f16v __attribute__((vector_size(64)));

__attribute__((noinline)) static void take32(bf32 v, void *dst) {
  memcpy(dst, &v, sizeof v);
}
__attribute__((noinline)) static void take16(bf16v v, void *dst) {
  memcpy(dst, &v, sizeof v);
}
__attribute__((noinline)) static void takeMixed(f16v f, bf32 v, bf16v w,
                                                void *dst) {
  memcpy(dst, &f, sizeof f);
  memcpy((char *)dst + 64, &v, sizeof v);
  memcpy((char *)dst + 128, &w, sizeof w);
}

static void report(const char *name, const unsigned char *got,
                   const unsigned char *want, size_t n) {
  printf("%s: %s\n", name, memcmp(got, want, n) ? "FAIL" : "ok");
}

int main(void) {
  unsigned char src[160], dst[160];
  for (int i = 0; i < 160; i++)
    src[i] = (unsigned char)(i * 7 + 1);
  bf32 a;
  bf16v b;
  f16v f;
  memcpy(&a, src, 64);
  memcpy(&b, src + 64, 32);
  memcpy(&f, src + 96, 64);
  take32(a, dst);
  report("bf16 x 32", dst, src, 64);
  take16(b, dst);
  report("bf16 x 16", dst, src + 64, 32);
  takeMixed(f, a, b, dst);
  unsigned char want[160];
  memcpy(want, src + 96, 64);
  memcpy(want + 64, src, 64);
  memcpy(want + 128, src + 64, 32);
  report("mixed", dst, want, 160);
  return 0;
}
