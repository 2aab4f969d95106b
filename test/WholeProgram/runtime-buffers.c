// Results with run-time extents that need memory of their own (docs/ops.md,
// "Run-time sizes"): read twice, repeated by a broadcast (a row's maximum
// subtracted from the row: folded once, not once per element), read by a
// GEMM (a transposed operand; a two-layer MLP whose hidden layer is
// relu(x w1)), read in another block,
// produced in a loop, and user memory written before its last reader (a
// snapshot). Each goes through a heap buffer of its run-time size, freed
// after its last reader: every element against plain C, no leak, no read
// outside an allocation (valgrind), sizes 0 and 1 included.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 %t0 | FileCheck %s %}
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 %t2 | FileCheck %s %}
// RUN: %clang_tlx -std=c11 -O2 -Rpass=tlx-bufferize %s %tlx_rt -o %t2 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: relu: result with run-time extents computed into a heap buffer of its run-time size (read by an op that reads memory)
// REMARK-DAG: remark: relu: result with run-time extents computed into a heap buffer of its run-time size (read in another block)
// REMARK-DAG: remark: transpose: result with run-time extents computed into a heap buffer of its run-time size (read more than once)
// REMARK-DAG: remark: reduce.max: result with run-time extents computed into a heap buffer of its run-time size (repeated by a broadcast: computed once)
// REMARK-DAG: remark: reduce.add: result with run-time extents computed into a heap buffer of its run-time size (repeated by a broadcast: computed once)
// REMARK-DAG: remark: tensor with run-time extents copied at its definition into a heap buffer of its run-time size
// CHECK: mlp: ok
// CHECK: read twice: ok
// CHECK: repeated by broadcasts: ok
// CHECK: transposed operand: ok
// CHECK: other block: ok
// CHECK: loop: ok
// CHECK: snapshot: ok
// CHECK: PASSED
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

static int failures;

static void expect(const char *what, int m, int n, long i, float got,
                   float want) {
  if (got != want && failures++ < 8)
    printf("%s (%d, %d): element %ld = %g, want %g\n", what, m, n, i, got,
           want);
}

static float *fill(long n, int seed) {
  float *p = malloc(sizeof(float) * (n + 1));
  for (long i = 0; i < n; ++i)
    p[i] = (float)((i * 7 + seed * 3) % 11) - 5.0f;
  return p;
}

/* y = relu(x w1) w2: the hidden layer never reaches the program. */
static void mlp(int b, int d, int h, const float *x, const float *w1,
                const float *w2, float *y) {
  TLX_STORE(y, tlx_matmul(tlx_relu(tlx_matmul(TLX_LOAD(x, b, d),
                                              TLX_LOAD(w1, d, h))),
                          TLX_LOAD(w2, h, d)));
}

static void read_twice(int m, int n, const float *a, float *c) {
  tlx_token_t t = tlx_transpose(TLX_LOAD(a, m, n));
  TLX_STORE(c, tlx_concat(t, tlx_relu(t), 0));
}

/* c = a - the maximum of a's row (repeated over the row by a broadcast),
 * plus the column sums of relu(a): each computed once, not per element. */
static void repeated(int m, int n, const float *a, float *c) {
  tlx_token_t t = TLX_LOAD(a, m, n);
  TLX_STORE(c, tlx_add(tlx_sub(t, tlx_reduce_max(t, TLX_DIMS(1, n),
                                                 TLX_DIMS(1, n))),
                       tlx_reduce_add(tlx_relu(t), TLX_DIMS(m, 1),
                                      TLX_DIMS(m, 1))));
}

/* c = a^T b with a stored k x m. */
static void at_b(int m, int n, int k, const float *a, const float *b,
                 float *c) {
  TLX_STORE(c, tlx_matmul(tlx_transpose(TLX_LOAD(a, k, m)),
                          TLX_LOAD(b, k, n)));
}

/* The relu is taken before a[0] changes, and stored in another block. */
static void other_block(int flag, int m, int n, float *a, float *c) {
  tlx_token_t t = tlx_relu(TLX_LOAD(a, m, n));
  if (m && n)
    a[0] = 100.0f;
  if (flag)
    TLX_STORE(c, tlx_transpose(t));
}

/* Row r of c: the row maxima of a + r (a buffer per iteration). */
static void loop(int rows, int m, int n, const float *a, float *c) {
  for (int r = 0; r < rows; ++r) {
    tlx_token_t t = tlx_reduce_max(TLX_LOAD(a + r, m, n), TLX_SHAPE(1, n),
                                   TLX_SHAPE(1, 1));
    TLX_STORE(c + r * 2 * m, tlx_concat(t, t, 1));
  }
}

/* The load names a's old contents: TLX copies them before a[0] changes. */
static void snapshot(int m, int n, float *a, float *c) {
  tlx_token_t t = TLX_LOAD(a, m, n);
  if (m && n)
    a[0] = -100.0f;
  TLX_STORE(c, tlx_transpose(t));
}

static const int sizes[][3] = {{1, 1, 1}, {3, 5, 7}, {17, 33, 9},
                               {64, 70, 130}, {0, 4, 3}, {4, 3, 0}};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])

static void test_mlp(void) {
  for (int s = 0; s < NSIZES; ++s) {
    int b = sizes[s][0], d = sizes[s][1], h = sizes[s][2];
    float *x = fill((long)b * d, 1), *w1 = fill((long)d * h, 2);
    float *w2 = fill((long)h * d, 3), *y = fill((long)b * d, 4);
    float *hid = fill((long)b * h, 0);
    mlp(b, d, h, x, w1, w2, y);
    for (int i = 0; i < b; ++i)
      for (int j = 0; j < h; ++j) {
        float sum = 0;
        for (int p = 0; p < d; ++p)
          sum += x[i * d + p] * w1[p * h + j];
        hid[i * h + j] = sum > 0 ? sum : 0;
      }
    for (int i = 0; i < b; ++i)
      for (int j = 0; j < d; ++j) {
        float sum = 0;
        for (int p = 0; p < h; ++p)
          sum += hid[i * h + p] * w2[p * d + j];
        expect("mlp", b, d, (long)i * d + j, y[i * d + j], sum);
      }
    free(x), free(w1), free(w2), free(y), free(hid);
  }
  printf("mlp: %s\n", failures ? "FAILED" : "ok");
}

static void test_read_twice(void) {
  int before = failures;
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    float *a = fill((long)m * n, s), *c = fill(2L * m * n, 9);
    read_twice(m, n, a, c);
    for (int r = 0; r < 2; ++r)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          float v = a[i * n + j];
          expect("read twice", m, n, ((long)r * n + j) * m + i,
                 c[((long)r * n + j) * m + i], r && v < 0 ? 0.0f : v);
        }
    free(a), free(c);
  }
  printf("read twice: %s\n", failures > before ? "FAILED" : "ok");
}

static void test_repeated(void) {
  int before = failures;
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    if (m == 0 || n == 0) /* a window of 1 exceeds an extent of 0 */
      continue;
    float *a = fill((long)m * n, s), *c = fill((long)m * n, 9);
    repeated(m, n, a, c);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        float max = a[i * n], sum = 0;
        for (int k = 1; k < n; ++k)
          max = a[i * n + k] > max ? a[i * n + k] : max;
        for (int k = 0; k < m; ++k)
          sum += a[k * n + j] > 0 ? a[k * n + j] : 0;
        expect("repeated", m, n, (long)i * n + j, c[i * n + j],
               a[i * n + j] - max + sum);
      }
    free(a), free(c);
  }
  printf("repeated by broadcasts: %s\n", failures > before ? "FAILED" : "ok");
}

static void test_at_b(void) {
  int before = failures;
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
    float *a = fill((long)k * m, 5), *b = fill((long)k * n, 6);
    float *c = fill((long)m * n, 7);
    at_b(m, n, k, a, b, c);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        float sum = 0;
        for (int p = 0; p < k; ++p)
          sum += a[p * m + i] * b[p * n + j];
        expect("transposed operand", m, n, (long)i * n + j, c[i * n + j], sum);
      }
    free(a), free(b), free(c);
  }
  printf("transposed operand: %s\n", failures > before ? "FAILED" : "ok");
}

static void test_other_block(void) {
  int before = failures;
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    float *a = fill((long)m * n, s), *c = fill((long)m * n, 8);
    float a0 = m && n ? a[0] : 0;
    other_block(1, m, n, a, c);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        float v = i || j ? a[i * n + j] : a0;
        expect("other block", m, n, (long)j * m + i, c[j * m + i],
               v > 0 ? v : 0.0f);
      }
    free(a), free(c);
  }
  printf("other block: %s\n", failures > before ? "FAILED" : "ok");
}

static void test_loop(void) {
  int before = failures;
  for (int s = 0; s < NSIZES; ++s) {
    int rows = sizes[s][2], m = sizes[s][0], n = sizes[s][1];
    if (m == 0 || n == 0)
      continue; /* a window is at least 1 and at most the extent */
    float *a = fill((long)m * n + rows, s), *c = fill((long)rows * m * 2, 1);
    loop(rows, m, n, a, c);
    for (int r = 0; r < rows; ++r)
      for (int i = 0; i < m; ++i) {
        float mx = a[r + i * n];
        for (int j = 1; j < n; ++j)
          mx = a[r + i * n + j] > mx ? a[r + i * n + j] : mx;
        long at = (long)r * 2 * m + 2 * i;
        expect("loop", rows, m, at, c[at], mx);
        expect("loop", rows, m, at + 1, c[at + 1], mx);
      }
    free(a), free(c);
  }
  printf("loop: %s\n", failures > before ? "FAILED" : "ok");
}

static void test_snapshot(void) {
  int before = failures;
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    float *a = fill((long)m * n, s), *c = fill((long)m * n, 2);
    float a0 = m && n ? a[0] : 0;
    snapshot(m, n, a, c);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        expect("snapshot", m, n, (long)j * m + i, c[j * m + i],
               i || j ? a[i * n + j] : a0);
    free(a), free(c);
  }
  printf("snapshot: %s\n", failures > before ? "FAILED" : "ok");
}

int main(void) {
  test_mlp();
  test_read_twice();
  test_repeated();
  test_at_b();
  test_other_block();
  test_loop();
  test_snapshot();
  puts(failures ? "FAILED" : "PASSED");
  return failures != 0;
}
