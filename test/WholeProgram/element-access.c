// Element reads and writes on tensor values: v[i] of an op result or a
// merged tensor reads one element of its buffer; t[i] = x on a tensor
// variable that also feeds TLX ops is an insertelement op (in a loop, one
// store per write), at 12 and 40000 elements, -O0 and -O2.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O0 -fsanitize=address %s %tlx_rt -o %ta && %ta | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 '-Rpass=tlx-(vector-ops|legalize)' -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: insertelement: C vector code on a 3x4 i32 tensor, computed as a TLX op
// REMARK-DAG: remark: insertelement: one element stored in place
// CHECK: small: ok
// CHECK: large: ok
// CHECK-NOT: bad

#include <stdio.h>
#include <tlx.h>

static int failures;
static void expect(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "bad" : "ok");
  failures += bad;
}

#define DEFINE(SFX, R, C)                                                      \
  typedef int v##SFX __attribute__((__vector_size__(R * C * sizeof(int))));   \
  TLX_DECLARE_TENSOR_OPS_AS(v##SFX, SFX)                                       \
  static int in##SFX[R * C], out##SFX[R * C];                                  \
  __attribute__((noinline)) static int run##SFX(int n) {                       \
    tlx_token_t t = tensor_load(in##SFX, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),    \
                                TLX_ZEROS(2), TLX_ZEROS(2));                   \
    v##SFX r = tensor_relu_##SFX(t);                                           \
    int first = r[0] + r[R * C - 1]; /* reads of an op result */               \
    for (int i = 0; i < n; ++i)                                                \
      r[i * 3] = -i; /* writes in a loop */                                    \
    r[1] = 77;                                                                 \
    v##SFX s = tensor_relu_##SFX(                                              \
        tensor_typeinfo(r, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1), TLX_ZEROS(2)));  \
    tensor_store(out##SFX,                                                     \
                 tensor_typeinfo(s, TLX_SHAPE(R, C), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2)),                                \
                 TLX_ZEROS(2));                                                \
    return first + r[3] + s[2];                                                \
  }                                                                            \
  static int check##SFX(void) {                                                \
    for (int i = 0; i < R * C; ++i)                                            \
      in##SFX[i] = (i * 13) % 17 - 8;                                          \
    int n = R * C / 3 < 4 ? R * C / 3 : 4;                                     \
    int got = run##SFX(n), bad = 0;                                            \
    int r[R * C];                                                              \
    for (int i = 0; i < R * C; ++i)                                            \
      r[i] = in##SFX[i] > 0 ? in##SFX[i] : 0;                                  \
    int first = r[0] + r[R * C - 1];                                           \
    for (int i = 0; i < n; ++i)                                                \
      r[i * 3] = -i;                                                           \
    r[1] = 77;                                                                 \
    for (int i = 0; i < R * C; ++i)                                            \
      bad += out##SFX[i] != (r[i] > 0 ? r[i] : 0);                             \
    bad += got != first + r[3] + (r[2] > 0 ? r[2] : 0);                        \
    return bad;                                                                \
  }

DEFINE(small, 3, 4)
DEFINE(large, 200, 200)

int main(void) {
  expect("small", checksmall());
  expect("large", checklarge());
  return failures != 0;
}
