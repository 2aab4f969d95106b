// A tensor above 64 KiB that TLX cannot move off the stack - passed through
// a variadic function's `...` or as a variadic function's parameter - is a
// located error naming the size and the memory-form alternative, at every
// -O level (today's alternative: a silent stack overflow at run time).
// RUN: not %clang_tlx -w -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang_tlx -w -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: diag-heap-values.c:[[@LINE+13]]:1: error: a 16 MiB tensor (<4194304 x float>) parameter of variadic function 'first' is passed on the stack; tensors larger than 64 KiB cannot live on the stack: pass a pointer to the data instead and read it with tensor_typeinfo_mem or tensor_load
// CHECK-DAG: diag-heap-values.c:[[@LINE+19]]:10: error: a 16 MiB tensor (<4194304 x float>) passed by value to variadic function 'log_values' is copied onto the stack; tensors larger than 64 KiB cannot live on the stack: pass a pointer to the data instead and read it with tensor_typeinfo_mem or tensor_load
// CHECK-NOT: error:

#include <stdarg.h>
#include <tlx.h>

#define N 2048
typedef float big_t __attribute__((__vector_size__(N * N * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(big_t)

float log_values(int n, ...);

float first(big_t v, ...) {
  return v[0];
}

float relu_logged(const float *p) {
  big_t r = tensor_relu(tensor_load(p, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                                    TLX_ZEROS(2), TLX_ZEROS(2)));
  return log_values(1, r);
}
