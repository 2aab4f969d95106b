// After a TLX error the compile fails with the located error at every -O
// level, and LLVM's optimizer and backend see no TLX call and no tensor-
// sized vector: every function body is discarded once the TLX passes have
// reported (a function with errors used to keep its llvm.tensor.* calls,
// which LICM then moved and crashed on).
// RUN: not %clang_tlx -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang_tlx -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang_tlx -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang_tlx -O3 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang_tlx -O2 -c %s -o /dev/null -mllvm -print-before=sroa -mllvm -print-module-scope 2>&1 | FileCheck %s --check-prefix=IR
// CHECK: errors-discard-bodies.c:[[@LINE+17]]:13: error: {{.*}}inner dimensions differ
// IR-NOT: call {{.*}}@llvm.tensor
// IR-LABEL: define {{.*}} @in_loop(
// IR-NEXT: unreachable
// IR-LABEL: define {{.*}} @big_copy(
// IR-NEXT: unreachable

#include <tlx.h>
typedef float v16 __attribute__((__vector_size__(16 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(v16)

void in_loop(const float *a, const float *b, float *out, int n) {
  for (int i = 0; i < n; i++) {
    tlx_token_t ta = tensor_load(a, TLX_SHAPE(4, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
    tlx_token_t tc = tensor_load(a + 12, TLX_SHAPE(4, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
    tlx_token_t tb = tensor_load(b + 16 * i, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
    tlx_token_t t = i & 1 ? ta : tc; // merged: only the IR checks see it
    v16 r = tensor_matmul(t, tb);
    tensor_store(out + 16 * i, tensor_typeinfo(r, TLX_SHAPE(4, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2)), TLX_ZEROS(2));
  }
}

// A C function copying a tensor-sized vector: discarded too.
typedef int big_t __attribute__((__vector_size__(1 << 20)));
void big_copy(big_t *dst, const big_t *src) { *dst = *src + 1; }
