// A -O0 module whose GEMM tlx-optimize-kernels outlines and optimizes, and
// whose (optnone) user code passes and returns bf16 vectors of more than
// four elements in calls: LLVM 19's x86 backend crashed (LiveVariables)
// once the module's code generation was raised above -O0, so with LLVM 19
// such a module keeps -O0 code generation (its kernel still optimized IR);
// found by progs.py (seed 300, case 285). LLVM 22 raises it as usual.
// RUN: %clang_tlx -w -O0 -Rpass=tlx-optimize-kernels %s %tlx_rt -o %t 2>%t.rem && %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK-%llvm_major < %t.rem
// CHECK: bf16 through calls:
// CHECK: gemm: ok
// REMARK-19: kernel '{{.*}}' optimized at -O2 (code generation at -O0)
// REMARK-22: kernel '{{.*}}' optimized at -O2 [-Rpass=tlx-optimize-kernels]
#include <stdio.h>
#include <string.h>
#include <tlx.h>

typedef __bf16 b8 __attribute__((__vector_size__(8 * sizeof(__bf16))));

// The values are not checked: LLVM 19 at -O0 on x86 also passes bf16
// vectors through calls wrongly in plain C without TLX (show(make())
// prints garbage from plain clang-19 -O0; LLVM 22 is right) - not this
// test's matter, which is that the module compiles.
__attribute__((noinline)) static b8 make(void) {
  static const unsigned short bits[8] = {0x3f80, 0x4000, 0x4040, 0x4080,
                                         0x40a0, 0x40c0, 0x40e0, 0x4100};
  b8 v;
  memcpy(&v, bits, sizeof v);
  return v;
}
__attribute__((noinline)) static void show(b8 v) {
  unsigned short bits[8];
  memcpy(bits, &v, sizeof bits);
  printf("bf16 through calls:");
  for (int i = 0; i < 8; i++)
    printf(" %d", (int)(bits[i] >> 7) - 126);
  printf("\n");
}

static float a[64][64], b[64][64], c[64][64];

int main(void) {
  show(make());
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++) {
      a[i][j] = (float)((i + j) % 5);
      b[i][j] = (float)((i * j) % 3);
    }
  TLX_STORE(c, tlx_matmul(TLX_LOAD(a, 64, 64), TLX_LOAD(b, 64, 64)));
  int bad = 0;
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++) {
      float s = 0;
      for (int k = 0; k < 64; k++)
        s += a[i][k] * b[k][j];
      bad += s != c[i][j];
    }
  printf("gemm: %s\n", bad ? "bad" : "ok");
  return bad != 0;
}
