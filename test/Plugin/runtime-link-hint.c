// Lowered TLX code calls the runtime (here GEMM scratch buffers). Linked
// without it, the linker's list of undefined symbols also names one that
// says what to do; with the runtime the program links and runs. A module
// that does not call the runtime gets no such reference.
// RUN: not %clang_tlx -O2 -fplugin-arg-tlx-target=vector %s -o %t 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-target=vector %s %tlx_rt -o %t && %t | FileCheck %s --check-prefix=EXEC
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-target=vector -S -emit-llvm -o - %s | FileCheck %s --check-prefix=IR
// RUN: %clang_tlx -O2 -S -emit-llvm -o - -DNO_TLX %s | FileCheck %s --check-prefix=NONE
// MISSING-DAG: undefined reference to `tlxrt_scratch'
// MISSING-DAG: undefined reference to `tlxrt_missing__add_ltlxrt_lm_or_use_tlx_cc'
// EXEC: 64
// IR: @tlx.runtime.link.hint = private constant ptr @tlxrt_missing__add_ltlxrt_lm_or_use_tlx_cc
// IR: @llvm.compiler.used = {{.*}}@tlx.runtime.link.hint
// NONE-NOT: tlxrt_missing

#include <stdio.h>
#include <tlx.h>

#define N 64
typedef float vnn __attribute__((__vector_size__(N * N * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(vnn)

static float a[N][N], b[N][N], c[N][N];

int main(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      a[i][j] = 1, b[i][j] = i == j;
#ifndef NO_TLX
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(N, N), TLX_IDENTITY_LAYOUT(2),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(N, N), TLX_IDENTITY_LAYOUT(2),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  vnn r = tensor_matmul(ta, tb);
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(N, N), TLX_IDENTITY_LAYOUT(2),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
#endif
  float sum = 0;
  for (int j = 0; j < N; ++j)
    sum += c[0][j];
  printf("%g\n", sum);
  return 0;
}
