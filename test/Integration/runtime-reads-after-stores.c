// Results with run-time extents read, or named by a typeinfo, after stores
// the program makes in between (docs/ops.md, "Run-time sizes"): stores
// through other restrict pointers (alias analysis sees the parameters
// through their stack slots: no copy), and stores into an operand (the
// result is computed where the op is, into a heap buffer of its run-time
// size, and the typeinfo written later is checked against it). Every
// element against plain C, at -O0 and -O2, valgrind clean.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 %t0 | FileCheck %s %}
// RUN: %clang_tlx -std=c11 -O2 -Rpass=tlx-bufferize %s %tlx_rt -o %t2 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: reads-after-stores.c:47:20: remark: relu: result with run-time extents written into the destination of its tensor.store
// REMARK-DAG: reads-after-stores.c:51:16: remark: ceil: result with run-time extents written into the destination of its tensor.store
// REMARK-DAG: reads-after-stores.c:58:26: remark: fabs: result with run-time extents computed into a heap buffer of its run-time size (its operands may be written before its store)
// REMARK-DAG: reads-after-stores.c:68:26: remark: fabs: result with run-time extents computed into a heap buffer of its run-time size (its operands may be written before ceil reads it)
// CHECK: restrict stores between: ok
// CHECK: operand written before the typeinfo: ok
// CHECK: operand written before a fused reader: ok
// CHECK: operand written after the typeinfo: ok
// CHECK: PASSED
#include <math.h>
#include <stdio.h>
#include <tlx.h>

TLX_DECLARE_TENSOR_OPS(tlx_float_result_t)

static int failures;

static int expect(const char *what, int m, int n, const float *got,
                  const float *want) {
  int before = failures;
  for (int i = 0; i < m * n; ++i)
    if (got[i] != want[i] && failures++ < 10)
      printf("%s %dx%d: [%d] = %g, want %g\n", what, m, n, i, got[i],
             want[i]);
  return failures == before;
}

/* A C store and a TLX store through other restrict pointers between the
 * op and its typeinfo, and between the typeinfo and a second reader. */
static void restrictStores(int m, int n, const float *restrict x,
                           float *restrict y, float *restrict z,
                           float *restrict w) {
  tlx_token_t t = TLX_LOAD(x, m, n);
  tlx_float_result_t r = tensor_fabs(t);
  z[0] = 7;
  TLX_STORE(z + 1, tlx_relu(t));
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  TLX_STORE(y, tr);
  TLX_STORE(w, tlx_ceil(tr));
}

/* x written between the op and its typeinfo: the result is what the op
 * read before. */
static void writtenBeforeTypeInfo(int m, int n, float *x, float *y) {
  tlx_token_t t = TLX_LOAD(x, m, n);
  tlx_float_result_t r = tensor_fabs(t);
  x[0] = 100;
  TLX_STORE(y, tensor_typeinfo(r, TLX_SHAPE(n, m), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2)));
}

/* x written between the op's typeinfo and the op that reads it element by
 * element. */
static void writtenBeforeFusedReader(int m, int n, float *x, float *y) {
  tlx_token_t t = TLX_LOAD(x, m, n);
  tlx_float_result_t r = tensor_fabs(t);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  x[0] = 100;
  TLX_STORE(y, tlx_ceil(tr));
}

/* x written after the typeinfo, before the store of it. */
static void writtenAfterTypeInfo(int m, int n, float *x, float *y) {
  tlx_token_t t = TLX_LOAD(x, m, n);
  tlx_token_t tr = tensor_typeinfo(tensor_fabs(t), TLX_SHAPE(m, n),
                                   TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  x[0] = 100;
  TLX_STORE(y, tr);
}

int main(void) {
  static const int Sizes[][2] = {{1, 1}, {2, 3}, {5, 7}, {17, 33}};
  float x[17 * 33], x0[17 * 33], y[17 * 33], z[17 * 33 + 1], w[17 * 33];
  float want[17 * 33 + 1];
  int ok[4] = {1, 1, 1, 1};
  for (unsigned s = 0; s < 4; ++s) {
    int m = Sizes[s][0], n = Sizes[s][1];
    for (int i = 0; i < m * n; ++i)
      x0[i] = (i % 7 - 3) * 1.25f;
    for (int i = 0; i < m * n; ++i)
      x[i] = x0[i];
    restrictStores(m, n, x, y, z, w);
    for (int i = 0; i < m * n; ++i)
      want[i] = fabsf(x0[i]);
    ok[0] &= expect("restrict: fabs", m, n, y, want);
    for (int i = 0; i < m * n; ++i)
      want[i] = ceilf(fabsf(x0[i]));
    ok[0] &= expect("restrict: ceil", m, n, w, want);
    want[0] = 7;
    for (int i = 0; i < m * n; ++i)
      want[i + 1] = x0[i] > 0 ? x0[i] : 0;
    ok[0] &= expect("restrict: relu", 1, m * n + 1, z, want);

    writtenBeforeTypeInfo(m, n, x, y);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        want[j * m + i] = fabsf(x0[i * n + j]); /* column-major */
    ok[1] &= expect("written before typeinfo", m, n, y, want);

    x[0] = x0[0];
    writtenBeforeFusedReader(m, n, x, y);
    for (int i = 0; i < m * n; ++i)
      want[i] = ceilf(fabsf(x0[i]));
    ok[2] &= expect("written before fused reader", m, n, y, want);

    x[0] = x0[0];
    writtenAfterTypeInfo(m, n, x, y);
    for (int i = 0; i < m * n; ++i)
      want[i] = fabsf(x0[i]);
    ok[3] &= expect("written after typeinfo", m, n, y, want);
  }
  printf("restrict stores between: %s\n", ok[0] ? "ok" : "FAILED");
  printf("operand written before the typeinfo: %s\n", ok[1] ? "ok" : "FAILED");
  printf("operand written before a fused reader: %s\n",
         ok[2] ? "ok" : "FAILED");
  printf("operand written after the typeinfo: %s\n", ok[3] ? "ok" : "FAILED");
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}
