// Bug (fixed; now a regression test): the token of a matmul/mma result larger
// than 4 KiB (a heap buffer) merged with another token by if/else (VARIANT 0),
// ?: (1) or a loop (2: acc = smma(acc, a, b) n times, C = C + A x B) reads
// freed memory after the merge: the stored result starts with malloc's
// free-list words (8 or 9 wrong elements). A data merge of two big relu results
// (3: d = flag ? r : s, then typeinfo) reads freed memory too; its values
// happen to survive, ASan reports heap-use-after-free (in larger programs
// malloc aborts: "mismatching next->prev_size"). With N = 32 (4096 bytes, stack
// buffers) all variants are correct.
//
// Found by progs.py (feature merge-big), e.g.
//   python3 test/Differential/progs.py --seed 100 --case 11 \
//     --disable merge-wide-bf16 -o /tmp/r.c   (and case 353: malloc abort)
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O2 \
//     -DVARIANT=0 test/Differential/regress-merge-big.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug
//   (add -fsanitize=address to see the use-after-free; -DN=32 passes)
// Expected: "OK" (and no ASan report). Before the fix: "MISMATCH at 0: got
// <garbage> expected -4 (9 of 1089 differ)" (VARIANT 0, 1) and "... expected
// -13 (9 of 1089 differ)" (VARIANT 2), at -O0 and -O2; VARIANT 3 under
// -fsanitize=address: heap-use-after-free.
//
// RUN: %clang_tlx -O0 -DVARIANT=0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -O2 -DVARIANT=1 %s %tlx_rt -o %t1 && %t1 | FileCheck %s
// RUN: %clang_tlx -O2 -DVARIANT=2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -O0 -DVARIANT=3 -fsanitize=address %s %tlx_rt -o %t3 && %t3 | FileCheck %s
// CHECK: OK
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

#ifndef N
#define N 33 /* 33 x 33 int32: 4356 bytes */
#endif
#ifndef VARIANT
#define VARIANT 0
#endif

typedef int32_t vN __attribute__((ext_vector_type(N * N)));
TLX_DECLARE_TENSOR_OPS(vN)

static int32_t a[N * N], b[N * N], c[N * N], o[N * N], expect[N * N];
static int32_t tmp[N * N];
static volatile int flag = 1, trips = 2;

int main(void) {
  for (int i = 0; i < N * N; i++) {
    a[i] = i % 7 - 3;
    b[i] = i % 5 - 2;
    c[i] = i % 11 - 5;
  }
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tc = tensor_load(c, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
#if VARIANT == 3
  for (int i = 0; i < N * N; i++)
    expect[i] = a[i] > 0 ? a[i] : 0;
  vN r = tensor_relu(ta);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  vN s = tensor_relu(tr);
  tlx_token_t ts =
      tensor_typeinfo(s, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  (void)ts;
  vN d;
  if (flag)
    d = r;
  else
    d = s;
  tlx_token_t t =
      tensor_typeinfo(d, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
#elif VARIANT == 2
  /* expect = c + n * (a x b) */
  for (int i = 0; i < N * N; i++)
    expect[i] = c[i];
  for (int it = 0; it < trips; it++) {
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        int32_t s = expect[i * N + j];
        for (int k = 0; k < N; k++)
          s += a[i * N + k] * b[k * N + j];
        tmp[i * N + j] = s;
      }
    for (int i = 0; i < N * N; i++)
      expect[i] = tmp[i];
  }
  tlx_token_t t = tc;
  for (int it = 0; it < trips; it++) {
    vN r = tensor_smma(t, ta, tb);
    t = tensor_typeinfo(r, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  }
#else
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      int32_t s = 0;
      for (int k = 0; k < N; k++)
        s += a[i * N + k] * b[k * N + j];
      expect[i * N + j] = flag ? s : c[i * N + j];
    }
  vN r = tensor_matmul(ta, tb);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
#if VARIANT == 0
  tlx_token_t t;
  if (flag)
    t = tr;
  else
    t = tc;
#else
  tlx_token_t t = flag ? tr : tc;
#endif
#endif
  tensor_store(o, t, TLX_ZEROS(2));
  int bad = 0;
  for (int i = 0; i < N * N; i++)
    if (o[i] != expect[i] && bad++ == 0)
      printf("MISMATCH at %d: got %d expected %d", i, (int)o[i],
             (int)expect[i]);
  if (bad) {
    printf(" (%d of %d differ)\n", bad, N * N);
    return 1;
  }
  printf("OK\n");
  return 0;
}
