// A pointer to a C vector (a tensor kept in memory, passed by pointer) is
// not a tensor's data pointer - TLX's pointers point to elements: the error
// says which cast reads it (docs/errors.md, "A tensor too big for the
// stack", whose advice it makes true), and that cast compiles.
// RUN: not %clang_tlx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clang_tlx -fsyntax-only -DCAST %s
#include <tlx.h>

typedef float big_t __attribute__((__vector_size__(64 * 64 * 4)));

void row_sums(float *out, const big_t *p) {
#ifdef CAST
  TLX_STORE(out, tlx_reduce_add(TLX_LOAD((const float *)p, 64, 64),
                                TLX_DIMS(1, 64), TLX_DIMS(1, 1)));
#else
  TLX_STORE(out, tlx_reduce_add(TLX_LOAD(p, 64, 64), TLX_DIMS(1, 64),
                                TLX_DIMS(1, 1)));
#endif
}
// CHECK: diag-vector-pointer.c:[[@LINE-4]]:42: error: argument 1 of 'TLX_LOAD' points to 'big_t' (vector of 4096 'float' values), which cannot be a tensor's element type
// CHECK: diag-vector-pointer.c:[[@LINE-5]]:42: note: the data of a vector in memory is its elements: pass a pointer to them, (const float *)
