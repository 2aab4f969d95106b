// Bug (fixed; now a regression test): a C vector over 4 KiB named by a
// typeinfo with padding is copied into a packed heap buffer, but the buffer
// was recorded with the typeinfo's padded type; an elementwise result with
// the same padded type (relu, or a C operator) then reused it in place with
// padded strides and wrote past its end (ASan: heap-buffer-overflow; glibc:
// "double free or corruption").
//
// Found by progs.py --seed 31 --case 173 --ops cop,matmul,relu,transpose,
// broadcast,smma,pad (features: c-operators, vector-input, big).
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O0 \
//     -fsanitize=address test/Differential/regress-padded-input-reuse.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug
// Expected: "OK".
//
// RUN: %clang_tlx -O0 -fsanitize=address %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -O2 -fsanitize=address %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -O2 %s %tlx_rt -o %t3 && %t3 | FileCheck %s
// REQUIRES: asan-rt
// CHECK: OK
#include <stdio.h>
#include <string.h>
#include <tlx.h>

typedef float v __attribute__((ext_vector_type(33 * 33)));
TLX_DECLARE_TENSOR_OPS(v)

#define SHAPE TLX_SHAPE(33, 33), TLX_LAYOUT(0, 1)

static float a[33 * 33], b[33 * 33], out1[34 * 37], out2[34 * 37],
    out3[34 * 37];

int main(void) {
  for (int i = 0; i < 33 * 33; i++) {
    a[i] = (float)(i % 17) - 8;
    b[i] = (float)(i % 5);
  }
  v x, y;
  memcpy(&x, a, sizeof a);
  memcpy(&y, b, sizeof b);
  tlx_token_t tx = tensor_typeinfo(x, SHAPE, TLX_PADDING(1, 1));
  tlx_token_t ty = tensor_typeinfo(y, SHAPE, TLX_PADDING(1, 1));
  v d = x - y;                      /* a C operator on padded tensors */
  tlx_token_t td = tensor_typeinfo(d, SHAPE, TLX_PADDING(1, 1));
  v r = tensor_relu(tx);            /* a TLX op on one */
  tlx_token_t tr = tensor_typeinfo(r, SHAPE, TLX_PADDING(1, 1));
  /* Two readers each: the results get buffers of their own. */
  tensor_store(out1, td, TLX_DIMS(0, 37));
  tensor_store(out3, td, TLX_DIMS(0, 37));
  tensor_store(out2, tr, TLX_DIMS(0, 37));
  tensor_store(out3, tr, TLX_DIMS(0, 37));
  (void)ty;
  for (int i = 0; i < 33; i++)
    for (int j = 0; j < 33; j++) {
      float x0 = a[i * 33 + j], y0 = b[i * 33 + j];
      if (out1[i * 37 + j] != x0 - y0 || out2[i * 37 + j] != (x0 > 0 ? x0 : 0)) {
        printf("MISMATCH at %d,%d\n", i, j);
        return 1;
      }
    }
  printf("OK\n");
  return 0;
}
