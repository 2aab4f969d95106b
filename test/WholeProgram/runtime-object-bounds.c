// A load or store whose extent is known only at run time, into a C object
// the compiler knows the size of (an array, a constant malloc never
// reassigned, a [static N] parameter), is checked against that object when
// it runs: the message names the call, the object and both sizes, and the
// program exits with status 1 instead of writing past the object (issue 52:
// `float d[2][2]` and a 3x3 store was a SIGSEGV). Past a [static N]
// parameter is a warning, printed once (the caller may pass more, as at
// compile time). In-bounds accesses of every form run. -fplugin-arg-tlx-runtime-checks=off drops the check.
// RUN: %clang_tlx -std=c11 -O0 %s %tlx_rt -o %t0
// RUN: %clang_tlx -std=c11 -O2 %s %tlx_rt -o %t2
// RUN: %t0 0 2 | FileCheck %s --check-prefix=OK
// RUN: %t2 0 2 | FileCheck %s --check-prefix=OK
// RUN: not %t0 0 3 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: not %t2 0 3 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: %t2 1 6 | FileCheck %s --check-prefix=OK
// RUN: not %t0 1 8 2>&1 | FileCheck %s --check-prefix=LOAD
// RUN: not %t2 1 8 2>&1 | FileCheck %s --check-prefix=LOAD
// RUN: %t2 2 4 | FileCheck %s --check-prefix=OK
// RUN: not %t0 2 5 2>&1 | FileCheck %s --check-prefix=MALLOC
// RUN: not %t2 2 5 2>&1 | FileCheck %s --check-prefix=MALLOC
// RUN: %t2 3 8 | FileCheck %s --check-prefix=OK
// RUN: %t2 3 9 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: %t0 4 2 | FileCheck %s --check-prefix=OK
// RUN: not %t0 4 3 2>&1 | FileCheck %s --check-prefix=OFFSET
// RUN: not %t2 4 3 2>&1 | FileCheck %s --check-prefix=OFFSET
// RUN: %t2 5 3 | FileCheck %s --check-prefix=OK
// RUN: not %t2 5 5 2>&1 | FileCheck %s --check-prefix=STRIDE
// RUN: %t2 6 2 | FileCheck %s --check-prefix=OK
// RUN: not %t0 6 3 2>&1 | FileCheck %s --check-prefix=OP1
// RUN: not %t2 6 3 2>&1 | FileCheck %s --check-prefix=OP1
// RUN: %t2 7 5 | FileCheck %s --check-prefix=OK
// RUN: not %t2 7 6 2>&1 | FileCheck %s --check-prefix=MEM
// RUN: %t2 8 0 | FileCheck %s --check-prefix=OK
// RUN: %clang_tlx -std=c11 -O2 -fplugin-arg-tlx-runtime-checks=off %s %tlx_rt -o %t.off
// RUN: %t.off 0 2 | FileCheck %s --check-prefix=OK
// RUN: %clang_tlx -std=c11 -O2 -fplugin-arg-tlx-runtime-checks=off -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// OK: done
// STORE: runtime-object-bounds.c:[[@LINE+28]]:5: error: 'TLX_STORE': the result spans 9 elements (3x3 float) at run time starting at element 0 of 'd', which has 4 (float[2][2])
// STORE-NOT: done
// LOAD: runtime-object-bounds.c:[[@LINE+29]]:29: error: 'TLX_LOAD': the tensor spans 8 elements (2x4 float) at run time starting at element 0 of 'src', which has 6 (float[6])
// MALLOC: runtime-object-bounds.c:[[@LINE+32]]:5: error: 'TLX_STORE': the destination spans 25 elements (5x5 float) at run time starting at element 0 of 'p', which has 16 (malloc(64))
// STATIC: runtime-object-bounds.c:[[@LINE+16]]:3: warning: 'TLX_STORE': the destination spans 9 elements (9 float) at run time starting at element 0 of 'dst', which is declared to have at least 8 (float[static 8])
// STATIC-NOT: warning
// STATIC: done
// OFFSET: runtime-object-bounds.c:[[@LINE+40]]:5: error: 'TLX_STORE': the destination spans 3 elements (1x3 float) at run time starting at element 2 of 'd', which has 4 (float[2][2])
// STRIDE: runtime-object-bounds.c:[[@LINE+42]]:5: error: 'tensor_store': the destination spans 7 elements (2x2 float) at run time starting at element 0 of 'e', which has 6 (float[2][3])
// OP1: runtime-object-bounds.c:[[@LINE+44]]:20: error: 'tlx_matmul': op1 spans 9 elements (3x3 float) at run time starting at element 0 of 'a4', which has 4 (float[4])
// MEM: runtime-object-bounds.c:[[@LINE+47]]:21: error: 'tensor_typeinfo_mem': the tensor spans 6 elements (6 float) at run time starting at element 0 of 'g', which has 5 (float[5])
// OFF-NOT: tlx__known_object
// OFF-NOT: of 'd'
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

static float x[64], y[64];

static void store_static(float dst[static 8], int n) {
  TLX_STORE(dst, tlx_fabs(TLX_LOAD(x, n)));
}

static int run(int mode, int n) {
  float d[2][2] = {{0}}, e[2][3] = {{0}}, a4[4] = {1, 2, 3, 4};
  float src[6] = {1, 2, 3, 4, 5, 6}, buf[64];
  switch (mode) {
  case 0:
    TLX_STORE(d, tlx_matmul(TLX_LOAD(x, n, n), TLX_LOAD(y, n, n)));
    return d[1][1] == 2 * x[0] * y[0] ? 0 : 1;
  case 1: /* src read as 2 rows of n / 2 */
    TLX_STORE(buf, tlx_relu(TLX_LOAD(src, 2, n / 2)));
    return buf[0] == 1 ? 0 : 1;
  case 2: {
    float *p = malloc(16 * sizeof(float));
    TLX_STORE(p, tlx_relu(TLX_LOAD(x, n, n)));
    int bad = p[0] != x[0];
    free(p);
    return bad;
  }
  case 3: {
    float dst[9];
    store_static(dst, n);
    store_static(dst, n);
    return dst[0] == x[0] ? 0 : 1;
  }
  case 4: /* the second row of d on: two elements are left */
    TLX_STORE(&d[1][0], tlx_relu(TLX_LOAD(x, 1, n)));
    return d[1][1] == x[1] ? 0 : 1;
  case 5: /* 2x2 with rows n apart in a 2x3 array */
    tensor_store(e, tlx_relu(TLX_LOAD(x, 2, 2)), TLX_STRIDES(0, n));
    return e[1][0] == x[2] ? 0 : 1;
  case 6:
    TLX_STORE(buf, tlx_matmul(TLX_LOAD(a4, n, n), TLX_LOAD(y, n, n)));
    return buf[0] == a4[0] * y[0] + a4[1] * y[n] ? 0 : 1;
  case 7: { /* a memory-form typeinfo of a run-time extent */
    float g[5] = {1, 4, 9, 16, 25};
    tlx_token_t t = tensor_typeinfo_mem(g, TLX_SHAPE(n), TLX_LAYOUT(0),
                                        TLX_PADDING(0));
    TLX_STORE(buf, tlx_sqrt(t));
    return buf[n - 1] == n ? 0 : 1;
  }
  default: { /* constant extents in bounds: no run-time check is needed */
    float *q = calloc(4, sizeof(float));
    TLX_STORE(q, tlx_relu(TLX_LOAD(x, 2, 2)));
    int bad = q[3] != x[3];
    free(q);
    return bad;
  }
  }
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  for (int i = 0; i < 64; ++i) {
    x[i] = (float)(i % 7 + 1);
    y[i] = (float)(i % 5 + 1);
  }
  for (int i = 0; i < 4; ++i)
    x[i] = y[i] = 1;
  if (run(atoi(argv[1]), atoi(argv[2])))
    return 3;
  puts("done");
  return 0;
}
