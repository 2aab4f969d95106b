// Bug (fixed; now a regression test): an op result larger than 4 KiB (a heap
// buffer) that escapes to C code is read after TLX freed its buffer: passed by
// value to a noinline function (VARIANT 0), stored to a global (1), or returned
// by value from the function that computed it (2). The first 8 floats read back
// are malloc's free-list words; ASan reports heap-use-after-free. At N = 32
// (4096 bytes, a stack buffer) the same program is correct.
//
// Found by progs.py (features escape-big, escape-ret), e.g.
//   python3 test/Differential/progs.py --seed 100 --case 194 \
//     --disable merge-wide-bf16 -o /tmp/r.c
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O2 \
//     -DVARIANT=0 test/Differential/regress-escape-big-uaf.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug
//   (add -fsanitize=address to see the use-after-free; -DN=32 passes)
// Expected: "OK". Before the fix: "MISMATCH at 0: got <garbage> expected -4 (9
// of 1089 differ)" for every variant at -O0 and -O2.
//
// RUN: %clang_tlx -O0 -DVARIANT=0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -O2 -DVARIANT=1 %s %tlx_rt -o %t1 && %t1 | FileCheck %s
// RUN: %clang_tlx -O2 -DVARIANT=2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: OK
#include <stdio.h>
#include <string.h>
#include <tlx.h>

#ifndef N
#define N 33 /* 33 x 33 floats: 4356 bytes, just over the stack limit */
#endif
#ifndef VARIANT
#define VARIANT 0
#endif

typedef float vN __attribute__((ext_vector_type(N * N)));
TLX_DECLARE_TENSOR_OPS(vN)

static float a[N * N], b[N * N], got[N * N], expect[N * N];
static vN global;

__attribute__((noinline)) static void sink(vN v, float *dst) {
  memcpy(dst, &v, sizeof(float) * N * N);
}

/* a x b, returned by value (VARIANT 2) or used in main */
__attribute__((noinline)) static vN product(void) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  vN r = tensor_matmul(ta, tb);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  (void)tr;
  return r;
}

int main(void) {
  for (int i = 0; i < N * N; i++) {
    a[i] = (float)(i % 7 - 3);
    b[i] = (float)(i % 5 - 2);
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < N; k++)
        s += a[i * N + k] * b[k * N + j];
      expect[i * N + j] = s;
    }
#if VARIANT == 2
  vN r = product();
  memcpy(got, &r, sizeof(float) * N * N);
#else
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  vN r = tensor_matmul(ta, tb);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  (void)tr;
#if VARIANT == 0
  sink(r, got);
#else
  global = r;
  memcpy(got, &global, sizeof(float) * N * N);
#endif
#endif
  int bad = 0;
  for (int i = 0; i < N * N; i++)
    if (got[i] != expect[i] && bad++ == 0)
      printf("MISMATCH at %d: got %g expected %g", i, got[i], expect[i]);
  if (bad) {
    printf(" (%d of %d differ)\n", bad, N * N);
    return 1;
  }
  printf("OK\n");
  return 0;
}
