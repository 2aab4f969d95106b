// The RFC's testing-section size: a batched int32 matmul of 1x10x800x800
// operands (padding {0,0,0,1}) through tensor_load / tensor_store. It must
// run with the default 8 MB stack: no tensor-sized stack objects or SSA
// vectors; the result goes straight into the destination. Checks sampled
// rows of every batch against a direct computation. Under qemu (the cross
// targets' runs of this directory) at -O2 only: 40 s a level on RISC-V.
// CROSS-OPT: O2
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: sampled rows: ok
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

#define N 800
#define B 10
typedef int32_t tensor_t __attribute__((__vector_size__(B * N * N * 4)));
TLX_DECLARE_TENSOR_OPS(tensor_t)

__attribute__((noinline)) void example(const int32_t *a, const int32_t *b,
                                       int32_t *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(1, B, N, N), TLX_LAYOUT(0, 1, 2, 3),
                               TLX_PADDING(0, 0, 0, 1), TLX_ZEROS(4));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(1, B, N, N), TLX_LAYOUT(0, 1, 2, 3),
                               TLX_PADDING(0, 0, 0, 1), TLX_ZEROS(4));
  tensor_t r = tensor_matmul(ta, tb);
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(1, B, N, N),
                                   TLX_LAYOUT(0, 1, 2, 3),
                                   TLX_PADDING(0, 0, 0, 1));
  tensor_store(c, tr, TLX_ZEROS(4));
}

int main(void) {
  size_t n = (size_t)B * N * N;
  int32_t *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
  for (size_t i = 0; i < n; ++i) {
    a[i] = (int32_t)((i * 2654435761u) >> 20) % 17 - 8;
    b[i] = (int32_t)((i * 40503u + 7) >> 4) % 13 - 6;
  }
  example(a, b, c);
  int bad = 0;
  for (int bt = 0; bt < B; ++bt)
    for (int i = bt * 37 % N; i < N; i += 263)
      for (int j = 0; j < N; ++j) {
        int32_t s = 0;
        for (int k = 0; k < N; ++k)
          s += a[(size_t)bt * N * N + (size_t)i * N + k] *
               b[(size_t)bt * N * N + (size_t)k * N + j];
        if (s != c[(size_t)bt * N * N + (size_t)i * N + j] && bad++ < 5)
          printf("batch %d (%d,%d): got %d want %d\n", bt, i, j,
                 c[(size_t)bt * N * N + (size_t)i * N + j], s);
      }
  printf("sampled rows: %s\n", bad ? "FAIL" : "ok");
  free(a);
  free(b);
  free(c);
  return bad != 0;
}
