// Tensors merged across control flow hold exactly the value of the path
// taken: results above the 4 KiB stack limit computed in an if/else branch
// or a loop body and stored after the merge (no use after free), tokens
// with non-identity layouts carried through a loop or chosen with ?:
// (not transposed), an escaping value whose token is also merged (no
// crash), a merge of two loads whose memory is written before the merge
// (each load keeps the value it read), and merges where one path has no
// tensor. Expected values come from plain C loops.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 1 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O1 %s %tlx_rt -o %t1 && %t1 1 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 1 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O3 %s %tlx_rt -o %t3 && %t3 1 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O0 -fsanitize=address %s %tlx_rt -o %ta0 && %ta0 1 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -fsanitize=address %s %tlx_rt -o %ta2 && %ta2 1 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %te && %te 1 | FileCheck %s
// CHECK: branch heap: ok
// CHECK: loop heap: ok
// CHECK: loop layout: ok
// CHECK: select layout: ok
// CHECK: escape merge: ok
// CHECK: reread: ok
// CHECK: swap: ok
// CHECK: loop matmul: ok
// CHECK-NOT: bad

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tlx.h>

static int failures;
static void expect(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "bad" : "ok");
  failures += bad;
}

// 40x40 f32: 6400 bytes, a heap buffer.
enum { N = 40 };
typedef float big_t __attribute__((__vector_size__(N * N * sizeof(float))));
TLX_DECLARE_TENSOR_OPS_AS(big_t, big)
#define SBIG TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2)

static float a[N * N], b[N * N], c[N * N], ref[N * N];

static void fill(void) {
  for (int i = 0; i < N * N; ++i) {
    a[i] = (float)(i % 11) - 5;
    b[i] = (float)(i % 5) - 2;
  }
}

static void matmul_ref(const float *x, const float *y, float *z) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < N; ++k)
        s += x[i * N + k] * y[k * N + j];
      z[i * N + j] = s;
    }
}

static int differs(const float *x, const float *y, int n, float tol) {
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += !(fabsf(x[i] - y[i]) <= tol);
  return bad;
}

__attribute__((noinline)) static void branch_heap(int flag) {
  tlx_token_t ta = tensor_load(a, SBIG, TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, SBIG, TLX_ZEROS(2));
  tlx_token_t t;
  if (flag) {
    big_t r = tensor_matmul_big(ta, tb);
    t = tensor_typeinfo(r, SBIG);
  } else {
    big_t r = tensor_relu_big(ta);
    t = tensor_typeinfo(r, SBIG);
  }
  tensor_store(c, t, TLX_ZEROS(2));
}

__attribute__((noinline)) static void loop_heap(int n) {
  tlx_token_t t = tensor_load(a, SBIG, TLX_ZEROS(2));
  for (int i = 0; i < n; ++i) {
    big_t r = tensor_fabs_big(t);
    t = tensor_typeinfo(r, SBIG);
  }
  tensor_store(c, t, TLX_ZEROS(2));
}

// 3x2 stored column-major (layout <1,0>): logical 2x3... shape (3,2) holds
// logical dim 1 outermost.
typedef float v6f __attribute__((__vector_size__(6 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS_AS(v6f, v6)
#define SCOL TLX_SHAPE(3, 2), TLX_LAYOUT(1, 0), TLX_ZEROS(2)

__attribute__((noinline)) static void loop_layout(const float *x, float *y,
                                                  int n) {
  tlx_token_t t = tensor_load(x, SCOL, TLX_ZEROS(2));
  for (int i = 0; i < n; ++i) {
    v6f r = tensor_fabs_v6(t);
    t = tensor_typeinfo(r, SCOL);
  }
  tensor_store(y, t, TLX_ZEROS(2));
}

__attribute__((noinline)) static void select_layout(const float *x,
                                                    const float *z, float *y,
                                                    int flag) {
  tlx_token_t tx = tensor_load(x, SCOL, TLX_ZEROS(2));
  tlx_token_t tz = tensor_load(z, SCOL, TLX_ZEROS(2));
  v6f r = tensor_relu_v6(tz);
  tlx_token_t tr = tensor_typeinfo(r, SCOL);
  tlx_token_t t = flag ? tx : tr;
  // Store row-major: the merged tensor is transposed by the store.
  v6f s = tensor_transpose_v6(t, TLX_LAYOUT(0, 1));
  tensor_store(y, tensor_typeinfo(s, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
}

// The result escapes to a global and its token is merged.
static v6f escaped;
__attribute__((noinline)) static void escape_merge(const float *x,
                                                   const float *z, float *y,
                                                   int flag) {
  tlx_token_t tx = tensor_load(x, SCOL, TLX_ZEROS(2));
  v6f r = tensor_exp_v6(tensor_load(z, SCOL, TLX_ZEROS(2)));
  escaped = r;
  tlx_token_t tr = tensor_typeinfo(r, SCOL);
  tlx_token_t t;
  if (flag)
    t = tr;
  else
    t = tx;
  tensor_store(y, t, TLX_ZEROS(2));
}

// Loads merged after their memory was written: each keeps what it read.
__attribute__((noinline)) static void reread(float *x, float *z, float *y,
                                             int flag) {
  tlx_token_t tx = tensor_load(x, SCOL, TLX_ZEROS(2));
  tlx_token_t tz = tensor_load(z, SCOL, TLX_ZEROS(2));
  tlx_token_t t = flag ? tx : tz;
  x[0] = 100;
  z[0] = 200;
  tensor_store(y, t, TLX_ZEROS(2));
}

// Two loop-carried tokens swapped every iteration (a parallel copy).
__attribute__((noinline)) static void swap(const float *x, const float *z,
                                           float *y, float *w, int n) {
  tlx_token_t p = tensor_load(x, SCOL, TLX_ZEROS(2));
  tlx_token_t q = tensor_load(z, SCOL, TLX_ZEROS(2));
  for (int i = 0; i < n; ++i) {
    tlx_token_t tmp = p;
    p = q;
    q = tmp;
  }
  tensor_store(y, p, TLX_ZEROS(2));
  tensor_store(w, q, TLX_ZEROS(2));
}

// C = C x B in a loop, the accumulator carried as a token.
__attribute__((noinline)) static void loop_matmul(int n) {
  tlx_token_t tb = tensor_load(b, SBIG, TLX_ZEROS(2));
  tlx_token_t t = tensor_load(a, SBIG, TLX_ZEROS(2));
  for (int i = 0; i < n; ++i) {
    big_t r = tensor_matmul_big(t, tb);
    t = tensor_typeinfo(r, SBIG);
  }
  tensor_store(c, t, TLX_ZEROS(2));
}

int main(int argc, char **argv) {
  int one = argc > 1 ? atoi(argv[1]) : 1; // 1, unknown to the optimizer
  fill();

  int bad = 0;
  branch_heap(one);
  matmul_ref(a, b, ref);
  bad += differs(c, ref, N * N, 0);
  branch_heap(!one);
  for (int i = 0; i < N * N; ++i)
    bad += c[i] != (a[i] > 0 ? a[i] : 0);
  expect("branch heap", bad);

  bad = 0;
  for (int n = 0; n < 3; ++n) {
    memset(c, 0, sizeof c);
    loop_heap(n * one);
    for (int i = 0; i < N * N; ++i)
      bad += c[i] != (n ? fabsf(a[i]) : a[i]);
  }
  expect("loop heap", bad);

  // Column-major storage x: logical element (i, j) of the 2x3 tensor at
  // x[j * 2 + i]; stored back with the same layout it must round-trip.
  float x[6] = {1, -2, 3, -4, 5, -6}, z[6] = {-7, 8, -9, 10, -11, 12}, y[6],
        w[6];
  bad = 0;
  for (int n = 0; n < 3; ++n) {
    loop_layout(x, y, n * one);
    for (int i = 0; i < 6; ++i)
      bad += y[i] != (n ? fabsf(x[i]) : x[i]);
  }
  expect("loop layout", bad);

  bad = 0;
  for (int flag = 0; flag < 2; ++flag) {
    select_layout(x, z, y, flag * one);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) {
        float v = flag ? x[j * 2 + i] : z[j * 2 + i];
        if (!flag)
          v = v > 0 ? v : 0;
        bad += y[i * 3 + j] != v;
      }
  }
  expect("select layout", bad);

  bad = 0;
  for (int flag = 0; flag < 2; ++flag) {
    escape_merge(x, z, y, flag * one);
    for (int i = 0; i < 6; ++i) {
      bad += fabsf(escaped[i] - expf(z[i])) > 1e-3f;
      bad += flag ? fabsf(y[i] - expf(z[i])) > 1e-3f : y[i] != x[i];
    }
  }
  expect("escape merge", bad);

  bad = 0;
  for (int flag = 0; flag < 2; ++flag) {
    float xx[6], zz[6];
    memcpy(xx, x, sizeof x);
    memcpy(zz, z, sizeof z);
    reread(xx, zz, y, flag * one);
    for (int i = 0; i < 6; ++i)
      bad += y[i] != (flag ? x[i] : z[i]);
  }
  expect("reread", bad);

  bad = 0;
  for (int n = 0; n < 4; ++n) {
    swap(x, z, y, w, n * one);
    for (int i = 0; i < 6; ++i)
      bad += y[i] != (n % 2 ? z[i] : x[i]) || w[i] != (n % 2 ? x[i] : z[i]);
  }
  expect("swap", bad);

  bad = 0;
  for (int i = 0; i < N * N; ++i)
    b[i] = (i % (N + 1)) == 0 ? 1.0f : 0.0f; // identity: exact powers
  b[1] = 0.5f;
  for (int n = 0; n < 3; ++n) {
    loop_matmul(n * one);
    float cur[N * N], next[N * N];
    memcpy(cur, a, sizeof cur);
    for (int k = 0; k < n; ++k) {
      matmul_ref(cur, b, next);
      memcpy(cur, next, sizeof cur);
    }
    bad += differs(c, cur, N * N, 1e-4f);
  }
  expect("loop matmul", bad);
  return failures != 0;
}
