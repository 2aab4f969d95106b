// Run-time sizes that are wrong are reported before any is used: a
// reduce.* stride of 0 (no division by it first: no SIGFPE), a window of
// 0, a negative pad amount - also where the result goes into a heap buffer
// first - and leading dimensions that are negative or too short on loads
// of constant extents and on destinations, and a run-time extent that a
// broadcast would stretch to a constant one. Each prints its message -
// naming the function as the program spells it: tlx_matmul for the short
// form, tensor_load - and exits with status 1 (`not` fails on a signal).
// RUN: %clang_tlx -std=c11 -O0 %s %tlx_rt -o %t0
// RUN: %clang_tlx -std=c11 -O2 %s %tlx_rt -o %t2
// RUN: %t0 0 1 | FileCheck %s --check-prefix=OK
// RUN: %t2 0 1 | FileCheck %s --check-prefix=OK
// RUN: not %t0 0 0 2>&1 | FileCheck %s --check-prefix=STRIDE
// RUN: not %t2 0 0 2>&1 | FileCheck %s --check-prefix=STRIDE
// RUN: not %t2 0 -1 2>&1 | FileCheck %s --check-prefix=STRIDE-NEG
// RUN: not %t0 1 0 2>&1 | FileCheck %s --check-prefix=STRIDE-BUF
// RUN: not %t2 1 0 2>&1 | FileCheck %s --check-prefix=STRIDE-BUF
// RUN: not %t2 2 0 2>&1 | FileCheck %s --check-prefix=WINDOW
// RUN: not %t0 3 -1 2>&1 | FileCheck %s --check-prefix=PAD
// RUN: not %t2 3 -1 2>&1 | FileCheck %s --check-prefix=PAD
// RUN: %t2 3 1 | FileCheck %s --check-prefix=OK
// RUN: not %t0 4 -1 2>&1 | FileCheck %s --check-prefix=LD-OP1
// RUN: not %t2 4 -1 2>&1 | FileCheck %s --check-prefix=LD-OP1
// RUN: not %t2 4 3 2>&1 | FileCheck %s --check-prefix=LD-SHORT
// RUN: %t2 4 0 | FileCheck %s --check-prefix=OK
// RUN: not %t2 5 -2 2>&1 | FileCheck %s --check-prefix=LD-LOAD
// RUN: not %t0 6 -1 2>&1 | FileCheck %s --check-prefix=LD-RESULT
// RUN: not %t2 6 -1 2>&1 | FileCheck %s --check-prefix=LD-RESULT
// RUN: %t2 6 0 | FileCheck %s --check-prefix=OK
// RUN: %t0 7 4 | FileCheck %s --check-prefix=OK
// RUN: %t2 7 4 | FileCheck %s --check-prefix=OK
// RUN: not %t0 7 5 2>&1 | FileCheck %s --check-prefix=BCAST
// RUN: not %t2 7 5 2>&1 | FileCheck %s --check-prefix=BCAST
// RUN: not %t2 7 1 2>&1 | FileCheck %s --check-prefix=BCAST-ONE
// RUN: %t2 8 4 | FileCheck %s --check-prefix=OK
// RUN: not %t0 8 5 2>&1 | FileCheck %s --check-prefix=ADD
// RUN: not %t2 8 1 2>&1 | FileCheck %s --check-prefix=ADD-ONE
// OK: done
// STRIDE: runtime-bad-sizes.c:[[@LINE+25]]:18: error: 'tlx_reduce_add': strides entry 0 of dimension 1 must be >= 1
// STRIDE-NOT: done
// STRIDE-NEG: error: 'tlx_reduce_add': strides entry -1 of dimension 1 must be >= 1
// STRIDE-BUF: runtime-bad-sizes.c:[[@LINE+26]]:21: error: 'tlx_reduce_add': strides entry 0 of dimension 1 must be >= 1
// STRIDE-BUF-NOT: done
// WINDOW: runtime-bad-sizes.c:[[@LINE+30]]:18: error: 'tlx_reduce_max': window entry 0 of dimension 0 must be >= 1
// PAD: runtime-bad-sizes.c:[[@LINE+33]]:21: error: 'tlx_pad': low entry -1 of dimension 1 must be >= 0
// PAD-NOT: done
// LD-OP1: runtime-bad-sizes.c:[[@LINE+37]]:18: error: 'tlx_matmul': op1 has a leading dimension of -1 at run time, less than the 4 elements it must step over: elements would share addresses
// LD-OP1-NOT: done
// LD-SHORT: error: 'tlx_matmul': op1 has a leading dimension of 3 at run time, less than the 4 elements it must step over
// LD-LOAD: runtime-bad-sizes.c:[[@LINE+39]]:27: error: 'tensor_load': the tensor has a leading dimension of -2 at run time, less than the 4 elements it must step over: elements would share addresses
// LD-RESULT: runtime-bad-sizes.c:[[@LINE+42]]:21: error: 'tlx_convolution': the result has a leading dimension of -1 at run time, less than the 3 elements it must step over: elements would share addresses
// LD-RESULT-NOT: done
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

static float x[256], y[256], z[256];
typedef float v12 __attribute__((__vector_size__(48)));
TLX_DECLARE_TENSOR_OPS(v12)

static void run(int mode, int n, int v) {
  switch (mode) {
  case 0: /* the reduce of the issue: extents and strides from variables */
    TLX_STORE(y, tlx_reduce_add(TLX_LOAD(x, n, n), TLX_DIMS(1, 2),
                                TLX_DIMS(1, v)));
    break;
  case 1: { /* read twice: computed into a heap buffer of its size first */
    tlx_token_t r = tlx_reduce_add(TLX_LOAD(x, n, n), TLX_DIMS(1, 2),
                                   TLX_DIMS(1, v));
    TLX_STORE(y, tlx_concat(r, r, 0));
    break;
  }
  case 2:
    TLX_STORE(y, tlx_reduce_max(TLX_LOAD(x, n, n), TLX_DIMS(v, 1),
                                TLX_DIMS(1, 1)));
    break;
  case 3: {
    tlx_token_t p = tlx_pad(TLX_LOAD(x, n, n), TLX_DIMS(0, v), TLX_DIMS(0, 0),
                            0.0f);
    TLX_STORE(y, tlx_concat(p, p, 0));
    break;
  }
  case 4: /* op1 of constant extents through a run-time leading dimension */
    TLX_STORE(y, tlx_matmul(tensor_load(x, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1),
                                        TLX_ZEROS(2), TLX_STRIDES(0, v)),
                            TLX_LOAD(z, 4, 4)));
    break;
  case 5: /* likewise, copied */
    TLX_STORE(y, tlx_relu(tensor_load(x, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1),
                                      TLX_ZEROS(2), TLX_STRIDES(0, v))));
    break;
  case 6: /* a destination through a run-time leading dimension */
    tensor_store(y, tlx_convolution(TLX_LOAD(x, 1, 1, 4, 4),
                                    TLX_LOAD(z, 2, 1, 2, 2)),
                 TLX_STRIDES(0, 0, 0, v));
    break;
  case 7: { /* a run-time extent broadcast to a constant one must equal it
             * (only a constant 1 stretches): it read 4 rows whatever v */
    v12 b = tensor_broadcast(TLX_LOAD(z, v, 3));
    TLX_STORE(y, tensor_typeinfo(b, TLX_SHAPE(4, 3), TLX_LAYOUT(0, 1),
                                 TLX_ZEROS(2)));
    break;
  }
  case 8: /* likewise against the other operand of tlx_add */
    TLX_STORE(y, tlx_add(TLX_LOAD(x, 4, 3), tlx_relu(TLX_LOAD(z, v, 3))));
    break;
  }
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  run(atoi(argv[1]), 4, atoi(argv[2]));
  puts("done");
  return 0;
}

// BCAST: runtime-bad-sizes.c:{{[0-9]+}}:{{[0-9]+}}: error: 'tensor_broadcast': cannot broadcast 5x3 to 4x3 at run time: extent 5 of dimension 0 is not 4 (only a constant 1 broadcasts)
// BCAST-NOT: done
// BCAST-ONE: error: 'tensor_broadcast': cannot broadcast 1x3 to 4x3 at run time: extent 1 of dimension 0 is not 4
// ADD: runtime-bad-sizes.c:{{[0-9]+}}:{{[0-9]+}}: error: 'tlx_add': operand shapes differ at run time: op1 is 4x3, op2 is 5x3
// ADD-NOT: done
// ADD-ONE: error: 'tlx_add': operand shapes differ at run time: op1 is 4x3, op2 is 1x3
