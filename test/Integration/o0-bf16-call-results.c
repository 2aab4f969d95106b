// A bf16 vector returned by a call and used in another block (kept in a
// global after an if that merges it), and one passed straight on to
// another call: LLVM 19's x86 FastISel, the -O0 instruction selector, lost
// such results (tlx-backend-workarounds, Compat.h
// FastISelLosesBF16VectorCallResults; progs.py seed 600, case 713, and
// seed 700, case 887). Plain C at -O0 never has them - clang stores a
// call's result at once - but the IR TLX leaves does.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: kept: ok
// CHECK: merged: ok
// CHECK: passed on: ok
#include <stdio.h>
#include <string.h>
#include <tlx.h>

typedef __bf16 v16 __attribute__((ext_vector_type(16)));
typedef __bf16 v8 __attribute__((ext_vector_type(8)));
TLX_DECLARE_TENSOR_OPS_AS(v16, b)
TLX_DECLARE_TENSOR_OPS_AS(v8, b8)

__attribute__((noinline)) static v16 copy(v16 p) {
  tlx_token_t t = tensor_typeinfo(p, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1),
                                  TLX_ZEROS(2));
  v16 r = tensor_transpose_b(t, TLX_LAYOUT(0, 1));
  tensor_typeinfo(r, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  return r;
}

static volatile int flag = 1;
static v16 kept;
static unsigned short passed[16];

__attribute__((noinline)) static void keep(v8 v) {
  memcpy(passed, &v, sizeof(v8));
}

// The first 8 elements of p, through a pad that adds nothing.
__attribute__((noinline)) static v8 firstRow(v16 p) {
  tlx_token_t row = tensor_load((const __bf16 *)&p, TLX_SHAPE(1, 8),
                                TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  v8 r = tensor_pad_b8(row, TLX_DIMS(0, 0), TLX_DIMS(0, 0), (__bf16)0);
  tensor_typeinfo(r, TLX_SHAPE(1, 8), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  return r;
}

int main(void) {
  unsigned short in[16], out[16], merged[16];
  for (int i = 0; i < 16; i++)
    in[i] = 0x3f80 + i * 0x10; // 1.0, 1.125, ...
  v16 a;
  memcpy(&a, in, sizeof a);
  v16 b = copy(a);
  tensor_typeinfo(b, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  v16 m;
  if (flag)
    m = a;
  else
    m = b;
  tensor_typeinfo(m, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  kept = b;
  memcpy(out, &kept, sizeof out);
  memcpy(merged, &m, sizeof merged);
  printf("kept: %s\n", memcmp(out, in, sizeof in) ? "wrong" : "ok");
  printf("merged: %s\n", memcmp(merged, in, sizeof in) ? "wrong" : "ok");
  v8 c = firstRow(a);
  tensor_typeinfo(c, TLX_SHAPE(1, 8), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  keep(c);
  printf("passed on: %s\n", memcmp(passed, in, 8 * 2) ? "wrong" : "ok");
  return 0;
}
