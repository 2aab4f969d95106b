// Bug (fixed; now a regression test): r = relu(a) is passed to C code (by
// value) after a later elementwise op s = exp(r) was computed; exp reuses r's
// buffer in place ("an elementwise op whose operand is a dead temporary reuses
// that buffer"), so the C read of r sees exp's values. r is dead for TLX but
// not for C. Small tensors (4x4 floats, stack buffers) are enough. When s is
// stored instead of escaping, s is computed into the store's destination and r
// survives.
//
// Found by progs.py (feature escape-late), e.g.
//   python3 test/Differential/progs.py --seed 100 --case 388 \
//     --disable merge-wide-bf16 -o /tmp/r.c
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O2 \
//     test/Differential/regress-escape-late-inplace.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug
// Expected: "OK". Before the fix: "MISMATCH r[0]: got 1 expected 0" (exp(0)) at
// -O0 and -O2; with -DOP=tensor_sigmoid "got 0.5".
//
// RUN: %clang_tlx -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -O2 -DOP=tensor_sigmoid %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: OK
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tlx.h>

#define N 4
#ifndef OP
#define OP tensor_exp
#endif

typedef float vN __attribute__((ext_vector_type(N * N)));
TLX_DECLARE_TENSOR_OPS(vN)

static float a[N * N], got_r[N * N], got_s[N * N];

__attribute__((noinline)) static void sink(vN v, float *dst) {
  memcpy(dst, &v, sizeof(float) * N * N);
}

int main(void) {
  for (int i = 0; i < N * N; i++)
    a[i] = (float)(i % 7 - 3);
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  vN r = tensor_relu(ta);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  vN s = OP(tr);
  tlx_token_t ts =
      tensor_typeinfo(s, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  (void)ts;
  sink(s, got_s);
  sink(r, got_r); /* r is still read by C after s was computed */
  for (int i = 0; i < N * N; i++) {
    float e = a[i] > 0 ? a[i] : 0;
    if (got_r[i] != e) {
      printf("MISMATCH r[%d]: got %g expected %g\n", i, got_r[i], e);
      return 1;
    }
  }
  printf("OK\n");
  return 0;
}
