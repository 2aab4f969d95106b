// The research prototype's style: 100x100 int tensors passed and returned
// by value, zero-initialized with = {0}, written element by element in
// main, combined with C operators - compiled as memory traffic and TLX ops
// (tlx-vector-ops: sret returns, memset, scalar stores, memcpy), fast and
// right at -O0 and -O2. The memory limit (1 GB) and the timeout catch a
// tensor-sized vector reaching instruction selection (which took over a
// minute and 3 GB).
// RUN: %limit_memory %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %limit_memory %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: prototype: ok
// CHECK-NOT: bad

#include <stdio.h>
#include <tlx.h>

typedef int _tensor_t __attribute__((__vector_size__(10000 * sizeof(int))));
typedef int _shape_t __attribute__((__vector_size__(2 * sizeof(int))));
TLX_DECLARE_TENSOR_OPS(_tensor_t)

__attribute__((noinline)) _tensor_t matmul(_tensor_t a, _tensor_t b) {
  _shape_t shape = {100, 100}, layout = {0, 1}, zero = {0, 0};
  tlx_token_t ta = tensor_typeinfo(a, shape, layout, zero);
  tlx_token_t tb = tensor_typeinfo(b, shape, layout, zero);
  _tensor_t c = tensor_matmul(ta, tb);
  tensor_typeinfo(c, shape, layout, zero);
  return c;
}

__attribute__((noinline)) _tensor_t add_scaled(_tensor_t a, _tensor_t b,
                                               int k) {
  return a + b * k;
}

int main(void) {
  _tensor_t a = {0}, b = {0};
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 100; ++j) {
      a[i * 100 + j] = (i + 2 * j) % 7 - 3;
      b[i * 100 + j] = (3 * i + j) % 5 - 2;
    }
  _tensor_t c = matmul(a, b);
  _tensor_t d = add_scaled(c, a, 3);
  int bad = 0;
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 100; ++j) {
      int s = 0;
      for (int k = 0; k < 100; ++k)
        s += ((i + 2 * k) % 7 - 3) * ((3 * k + j) % 5 - 2);
      bad += c[i * 100 + j] != s;
      bad += d[i * 100 + j] != s + 3 * ((i + 2 * j) % 7 - 3);
    }
  printf("prototype: %s\n", bad ? "bad" : "ok");
  return bad != 0;
}
