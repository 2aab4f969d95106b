// Regression test, found by the differential generator (seed 1 case 625
// at -O2: concat bf16, loads only; seed 9 case 46: a bf16 vector value
// typed with tensor_typeinfo). LLVM 19's x86 backend (without AVX512-BF16)
// moves <N x bfloat> function arguments through float and calls
// __truncsfbf2, which Debian 12's libgcc does not define, so the documented
//   clang-19 -fplugin=libtlx.so x.c libtlxrt.a -lm
// failed to link. libtlxrt now defines it (lib/Runtime/bf16_builtins.c).
// RUN: %clang_tlx -std=c11 -O0 %s %tlx_rt -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 -march=x86-64 %s %tlx_rt -o %t.O2
// RUN: %t.O2 | FileCheck %s
// CHECK: bf16-value-store: OK
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlx.h>

typedef __bf16 v8 __attribute__((__vector_size__(8 * 2)));

__attribute__((noinline)) static void put(v8 vb, __bf16 *o) {
  tlx_token_t tb =
      tensor_typeinfo(vb, TLX_SHAPE(2, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(o, tb, TLX_ZEROS(2));
}

int main(void) {
  uint16_t b[8], o[8];
  v8 vb;
  for (int i = 0; i < 8; i++)
    b[i] = 0x4000 + i;
  memcpy(&vb, b, sizeof vb);
  put(vb, (__bf16 *)o);
  int ok = memcmp(o, b, sizeof o) == 0;
  printf("bf16-value-store: %s\n", ok ? "OK" : "FAILED");
  return !ok;
}
