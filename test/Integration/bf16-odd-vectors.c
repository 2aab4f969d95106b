// Odd-length __bf16 vectors (ext_vector_type(9) and (33)) in whole
// programs: a TLX result merged across C control flow, kept in a variable
// across blocks, passed to and returned from functions by value (compiled
// by plain clang: the C ABI), its elements read and written in C. LLVM 19
// and 22 abort on such vectors under +avx512bf16 at a register boundary
// (docs/pipeline.md, "Backend workarounds"; progs.py seed 204 case 124,
// seed 602 case 43 at -O0); plain clang -O0 cannot compile this file.
// The callee by plain clang 19; clang 22 aborts on it (make33's result), so
// with LLVM 22 the plugin builds it too.
// RUN: %if llvm-19 %{ %clang_plain %} %else %{ %clang_tlx %} -O2 %march_native -c %S/Inputs/bf16-odd-callee.c -o %t.callee.o
// RUN: %clang_tlx -std=c11 -w -O0 %march_native %s %t.callee.o %tlx_rt -o %t0 && %t0 1 | FileCheck %s
// RUN: %t0 0 | FileCheck %s --check-prefix=ELSE
// RUN: %clang_tlx -std=c11 -w -O2 %march_native %s %t.callee.o %tlx_rt -o %t2 && %t2 1 | FileCheck %s
// RUN: %t2 0 | FileCheck %s --check-prefix=ELSE
// The baseline x86-64 passes such a vector in memory: a callee for it.
// RUN: %if llvm-19 %{ %clang_plain %} %else %{ %clang_tlx %} -O2 -c %S/Inputs/bf16-odd-callee.c -o %t.callee-base.o
// RUN: %clang_tlx -std=c11 -w -O0 %s %t.callee-base.o %tlx_rt -o %tb && %tb 1 | FileCheck %s
// CHECK: merged: 0 2 0 4 0 6 0 8 0
// CHECK: reversed: 0 8 0 6 0 4 0 2 0
// CHECK: make33: 1 2 3 .. 33 ok
// CHECK: written: 0 2 0 4 0 6 -7 8 0
// ELSE: merged: 1 2 3 4 5 6 7 8 9
// ELSE: reversed: 9 8 7 6 5 4 3 2 1
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

typedef __bf16 v9 __attribute__((ext_vector_type(9)));
typedef __bf16 v33 __attribute__((ext_vector_type(33)));
TLX_DECLARE_TENSOR_OPS_AS(v9, v9)

v9 reverse9(v9 x);
v33 make33(const __bf16 *p);

static __bf16 In[9], Src[33];

static void print9(const char *What, v9 V) {
  printf("%s:", What);
  for (int I = 0; I < 9; ++I)
    printf(" %g", (float)V[I]);
  printf("\n");
}

int main(int argc, char **argv) {
  int Flag = argc > 1 && atoi(argv[1]);
  for (int I = 0; I < 9; ++I)
    In[I] = (__bf16)(float)((I % 2 ? 1 : -1) * (I + 1));
  for (int I = 0; I < 33; ++I)
    Src[I] = (__bf16)(float)(I + 1);
  tlx_token_t T = tensor_load(In, TLX_SHAPE(3, 3), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  v9 M;
  if (Flag)
    M = tensor_relu_v9(T);
  else
    M = tensor_fabs_v9(T);
  print9("merged", M);
  v9 R = reverse9(M);
  print9("reversed", R);
  v33 B = make33(Src);
  int Bad = 0;
  for (int I = 0; I < 33; ++I)
    Bad += (float)B[I] != I + 1;
  printf("make33: 1 2 3 .. 33 %s\n", Bad ? "WRONG" : "ok");
  if (Flag) {
    M[6] = (__bf16)-7.0f;
    print9("written", M);
  }
  return 0;
}
