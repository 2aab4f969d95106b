// The run-time checks of ops whose sizes are C variables: each violation
// prints a clang-style error naming the C call and the sizes, and exits
// with status 1 before any work; a handler installed by an embedder gets
// the message first; -fplugin-arg-tlx-runtime-checks=off omits them.
// RUN: %clang_tlx -std=c11 -O2 %s %tlx_rt -o %t
// RUN: %t 3 4 4 2 0 | FileCheck %s --check-prefix=OK
// RUN: not %t 3 4 5 2 0 2>&1 | FileCheck %s --check-prefix=INNER
// RUN: not %t -3 4 4 2 0 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not %t 3 4 4 2 1 2>&1 | FileCheck %s --check-prefix=LD
// RUN: not %t 3 4 4 2 2 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: not %t 3 4 5 2 3 2>&1 | FileCheck %s --check-prefix=HANDLER
// RUN: %clang_tlx -std=c11 -O0 %s %tlx_rt -o %t0
// RUN: not %t0 3 4 5 2 0 2>&1 | FileCheck %s --check-prefix=INNER
// RUN: not %t 2000000000 2000000000 0 0 4 2>&1 | FileCheck %s --check-prefix=ALLOC
// RUN: not %t 3 4 4 2 5 2>&1 | FileCheck %s --check-prefix=OPERANDS
// RUN: not %t 3 4 4 2 6 2>&1 | FileCheck %s --check-prefix=RENAMED
// RUN: %t 3 4 4 2 7 | FileCheck %s --check-prefix=OK
// RUN: not %t0 3 4 4 2 5 2>&1 | FileCheck %s --check-prefix=OPERANDS
// RUN: not %t 3 4 5 2 8 2>&1 | FileCheck %s --check-prefix=CONTRACT
// RUN: %t 3 4 4 2 8 | FileCheck %s --check-prefix=OK
// RUN: not %t 3 4 5 2 9 2>&1 | FileCheck %s --check-prefix=CHANNELS
// RUN: %t 3 4 4 2 9 | FileCheck %s --check-prefix=OK
// RUN: %clang_tlx -std=c11 -O2 -fplugin-arg-tlx-runtime-checks=off %s %tlx_rt -S -emit-llvm -o - | FileCheck %s --check-prefix=OFF
// OK: done
// INNER: runtime-size-checks.c:[[@LINE+36]]:19: error: 'tlx_matmul': inner dimensions differ at run time: op1 is 3x4 (M=3, K=4), op2 is 5x2 (K=5, N=2)
// INNER-NOT: done
// NEGATIVE: runtime-size-checks.c:[[@LINE+34]]:19: error: 'tlx_matmul': op1 has a negative extent at run time: -3x4
// LD: runtime-size-checks.c:[[@LINE+33]]:19: error: 'tlx_matmul': the result has a leading dimension of 1 at run time, less than the 2 elements it must step over: elements would share addresses
// OVERLAP: runtime-size-checks.c:[[@LINE+32]]:19: error: 'tlx_matmul': the destination of tensor_store overlaps op1 at run time
// HANDLER: handler: {{.*}}runtime-size-checks.c:[[@LINE+31]]:19: error: 'tlx_matmul': inner dimensions differ
// HANDLER-NOT: handler returned
// ALLOC: runtime-size-checks.c:[[@LINE+35]]:19: error: 'tlx_transpose': a tensor of 2000000000x2000000000 elements does not fit in memory at run time
// ALLOC-NOT: done
// OPERANDS: runtime-size-checks.c:[[@LINE+49]]:14: error: operator '+': operand shapes differ at run time: op1 is 3x4, op2 is 4x2
// OPERANDS-NOT: done
// RENAMED: runtime-size-checks.c:[[@LINE+50]]:25: error: 'tensor_typeinfo': the result is 3x4 at run time, but this typeinfo says 3x2
// RENAMED-NOT: done
// CONTRACT: runtime-size-checks.c:[[@LINE+54]]:16: error: 'tlx_contract': contracted extents differ at run time: op1 axis 1 is 4, op2 axis 0 is 5
// CONTRACT-NOT: done
// CHANNELS: runtime-size-checks.c:[[@LINE+58]]:16: error: 'tlx_convolution': channels differ at run time: the input has 4, the kernel 5
// CHANNELS-NOT: done
// OFF-NOT: tlxrt_shape_error
// OFF-NOT: tlxrt_shape_check
// OFF-NOT: tlxrt_alloc_tensor
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>
#include <tlxrt_checks.h>

static jmp_buf escape;
static void handler(const char *message) {
  printf("handler: %s\n", message);
  fflush(stdout);
  longjmp(escape, 1);
}

static void mm(int m, int k, int k2, int n, int ldc, const float *a,
               const float *b, float *c) {
  tlx_token_t ta = TLX_LOAD(a, m, k), tb = TLX_LOAD(b, k2, n);
  tensor_store(c, tlx_matmul(ta, tb), TLX_STRIDES(0, ldc));
}

/* The transpose is read twice: TLX computes it into a buffer of its
 * run-time size first. */
static void twice(int m, int n, const float *a, float *c) {
  tlx_token_t t = tlx_transpose(TLX_LOAD(a, m, n));
  TLX_STORE(c, tlx_concat(t, t, 0));
}

/* C operators on run-time-sized results: operands of one shape, and a
 * result named again with the extents it has. */
typedef float f32v __attribute__((ext_vector_type(4)));
TLX_DECLARE_TENSOR_OPS_AS(f32v, f32)
#define RM(m, n) TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2)

static void operators(int mode, int m, int k, int k2, int n, const float *a,
                      const float *b, float *c) {
  f32v x = tensor_relu_f32(TLX_LOAD(a, m, k));
  tensor_typeinfo(x, RM(m, k));
  f32v y = tensor_relu_f32(TLX_LOAD(b, mode == 5 ? k2 : m, mode == 5 ? n : k));
  tensor_typeinfo(y, RM(mode == 5 ? k2 : m, mode == 5 ? n : k));
  f32v z = x + y;
  f32v w = z * 2.0f;
  tensor_store(c, tensor_typeinfo(w, RM(m, k)), TLX_ZEROS(2));
  tensor_store(c + 512, tensor_typeinfo(z, RM(m, mode == 6 ? n : k)),
               TLX_ZEROS(2));
}

static void contract(int m, int k, int k2, int n, const float *a,
                     const float *b, float *c) {
  TLX_STORE(c, tlx_contract(TLX_LOAD(a, m, k), TLX_LOAD(b, k2, n),
                            TLX_DIMS(1), TLX_DIMS(0)));
}

static void convolution(int m, int k, int k2, int n, const float *a,
                        const float *b, float *c) {
  TLX_STORE(c, tlx_convolution(TLX_LOAD(a, 1, k, m, m),
                               TLX_LOAD(b, n, k2, 2, 2)));
}

int main(int argc, char **argv) {
  if (argc != 6)
    return 2;
  int m = atoi(argv[1]), k = atoi(argv[2]), k2 = atoi(argv[3]);
  int n = atoi(argv[4]), mode = atoi(argv[5]);
  float *buf = calloc(4096, sizeof(float));
  float *a = buf, *b = buf + 1024, *c = buf + 2048;
  if (mode == 2)
    c = buf + 1; /* inside op1 */
  if (mode == 3) {
    tlxrt_set_shape_error_handler(handler);
    if (setjmp(escape))
      return 1;
  }
  if (mode == 4)
    twice(m, k, a, c);
  else if (mode == 5 || mode == 6 || mode == 7)
    operators(mode, m, k, k2, n, a, b, c);
  else if (mode == 8)
    contract(m, k, k2, n, a, b, c);
  else if (mode == 9)
    convolution(m, k, k2, n, a, b, c);
  else
    mm(m, k, k2, n, mode == 1 ? 1 : 0, a, b, c);
  if (mode == 3)
    puts("handler returned");
  puts("done");
  free(buf);
  return 0;
}
