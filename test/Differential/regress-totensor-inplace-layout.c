// Bug (fixed; now a regression test): a C vector named by vector_totensor
// with a non-identity layout is copied into a heap buffer in logical
// row-major order, but the buffer was recorded with the totensor's layout;
// an elementwise result with that layout (here log, column-major) then
// reused it in place, writing in storage order while reading in logical
// order - elements were overwritten before they were read (about half of
// them wrong, every -O level).
//
// Found by the offline progs.py run: --seed 3001 --case 443 (log bf16
// [64, 64], features: vector-input, layout, big).
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O0 \
//     test/Differential/regress-totensor-inplace-layout.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug
// Expected: "OK".
//
// RUN: %clang_tlx -O0 %s %tlx_rt -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -O2 %s %tlx_rt -lm -o %t2 && %t2 | FileCheck %s
// CHECK: OK
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tlx.h>

#define N 64
typedef float v __attribute__((ext_vector_type(N * N)));
TLX_DECLARE_TENSOR_OPS(v)

#define COLUMN_MAJOR TLX_SHAPE(N, N), TLX_LAYOUT(1, 0), TLX_ZEROS(2)

static float a[N * N], out1[N * N], out2[N * N];

int main(void) {
  for (int i = 0; i < N * N; i++)
    a[i] = 1.0f + (float)(i % 13) / 4;
  v d;
  memcpy(&d, a, sizeof a);
  /* d holds the tensor in logical order: logical (i, j) = a[i * N + j]. */
  tlx_token_t t = vector_totensor(d, COLUMN_MAJOR);
  v l = tensor_log(t);
  tlx_token_t tl = tensor_typeinfo(l, COLUMN_MAJOR);
  /* Two readers: the result gets a buffer (the operand's, when free). */
  tensor_store(out1, tl, TLX_ZEROS(2));
  tensor_store(out2, tl, TLX_ZEROS(2));
  /* Storage (r, c) of a column-major result holds logical (c, r). */
  for (int r = 0; r < N; r++)
    for (int c = 0; c < N; c++) {
      float want = logf(a[c * N + r]), got = out1[r * N + c];
      if (fabsf(got - want) > 1e-5f * fabsf(want) + 1e-6f ||
          out2[r * N + c] != got) {
        printf("MISMATCH at %d,%d: got %g expected %g\n", r, c, got, want);
        return 1;
      }
    }
  printf("OK\n");
  return 0;
}
