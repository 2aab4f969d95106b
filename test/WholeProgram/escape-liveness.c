// A tensor value stays intact while non-TLX code still reads it: a result
// passed by value to a C function after a later op read its typeinfo (the
// later op must not reuse its buffer), stored to a global, read element by
// element, and returned by value from a function - below and above the
// 4 KiB stack-buffer limit (heap buffers must not be freed before the
// return reads them). Expected values come from plain C loops.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O1 %s %tlx_rt -o %t1 && %t1 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O3 %s %tlx_rt -o %t3 && %t3 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O0 -fsanitize=address %s %tlx_rt -o %ta0 && %ta0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -fsanitize=address %s %tlx_rt -o %ta2 && %ta2 | FileCheck %s
// CHECK: show: ok
// CHECK: chain: ok
// CHECK: global: ok
// CHECK: return 32x32: ok
// CHECK: return 33x33: ok
// CHECK: return 40x40: ok
// CHECK-NOT: bad

#include <math.h>
#include <stdio.h>
#include <tlx.h>

typedef float v8f __attribute__((__vector_size__(8 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS_AS(v8f, v8)
#define S24 TLX_SHAPE(2, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2)

static int failures;
static void expect(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "bad" : "ok");
  failures += bad;
}

static float relu_ref(float x) { return x > 0 ? x : 0; }

static v8f shown;
__attribute__((noinline)) static void show(v8f v) { shown = v; }

// r is read by tanh (a TLX op) and then by show (C, by value).
static void show_after_later_op(const float *in, float *out) {
  tlx_token_t t = tensor_load(in, S24, TLX_ZEROS(2));
  v8f r = tensor_relu_v8(t);
  tlx_token_t tr = tensor_typeinfo(r, S24);
  v8f g = tensor_tanh_v8(tr);
  tensor_store(out, tensor_typeinfo(g, S24), TLX_ZEROS(2));
  show(r);
}

// A chain of in-place candidates where each value escapes after the next
// op: fabs -> relu -> tanh -> exp, every value passed to C at the end.
static v8f kept[3];
__attribute__((noinline)) static void keep(int i, v8f v) { kept[i] = v; }
static void chain(v8f x, float *out) {
  tlx_token_t t = tensor_typeinfo(x, S24);
  v8f a = tensor_fabs_v8(t);
  v8f r = tensor_relu_v8(tensor_typeinfo(a, S24));
  v8f g = tensor_tanh_v8(tensor_typeinfo(r, S24));
  v8f h = tensor_exp_v8(tensor_typeinfo(g, S24));
  tensor_store(out, tensor_typeinfo(h, S24), TLX_ZEROS(2));
  keep(0, a);
  keep(1, r);
  keep(2, g);
}

// Stored to a global and read element by element after a later op.
static v8f global_value;
static float element_sum;
static void global_store(const float *in, float *out) {
  tlx_token_t t = tensor_load(in, S24, TLX_ZEROS(2));
  v8f r = tensor_relu_v8(t);
  v8f e = tensor_exp_v8(tensor_typeinfo(r, S24));
  tensor_store(out, tensor_typeinfo(e, S24), TLX_ZEROS(2));
  global_value = r;
  element_sum = r[1] + r[3] + r[7];
}

// Matmul results returned by value: 32x32 int = 4096 bytes (stack buffer),
// 33x33 and 40x40 (heap buffers).
#define DEFINE_RETURN(N)                                                       \
  typedef int m##N##_t __attribute__((__vector_size__(N * N * sizeof(int))));  \
  TLX_DECLARE_TENSOR_OPS_AS(m##N##_t, m##N)                                    \
  __attribute__((noinline)) static m##N##_t matmul##N(const int *a,            \
                                                      const int *b) {          \
    tlx_token_t ta = tensor_load(a, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                  \
    tlx_token_t tb = tensor_load(b, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                  \
    m##N##_t r = tensor_matmul_m##N(ta, tb);                                   \
    tlx_token_t tr =                                                           \
        tensor_typeinfo(r, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));   \
    (void)tr;                                                                  \
    return r;                                                                  \
  }                                                                            \
  static int check_return##N(void) {                                           \
    static int a[N * N], b[N * N];                                             \
    for (int i = 0; i < N * N; ++i) {                                          \
      a[i] = i % 13 - 6;                                                       \
      b[i] = i % 7 - 3;                                                        \
    }                                                                          \
    m##N##_t r = matmul##N(a, b);                                              \
    int bad = 0;                                                               \
    for (int i = 0; i < N; ++i)                                                \
      for (int j = 0; j < N; ++j) {                                            \
        int s = 0;                                                             \
        for (int k = 0; k < N; ++k)                                            \
          s += a[i * N + k] * b[k * N + j];                                    \
        bad += r[i * N + j] != s;                                              \
      }                                                                        \
    return bad;                                                                \
  }
DEFINE_RETURN(32)
DEFINE_RETURN(33)
DEFINE_RETURN(40)

int main(void) {
  float in[8] = {-1, 2, -3, 4, -5, 6, -7, 8}, out[8];
  int bad = 0;
  show_after_later_op(in, out);
  for (int i = 0; i < 8; ++i)
    bad += shown[i] != relu_ref(in[i]) ||
           fabsf(out[i] - tanhf(relu_ref(in[i]))) > 1e-6f;
  expect("show", bad);

  v8f x = {-1, 2, -3, 4, -5, 6, -7, 8};
  chain(x, out);
  bad = 0;
  for (int i = 0; i < 8; ++i) {
    float a = fabsf(x[i]), r = relu_ref(a), g = tanhf(r);
    bad += kept[0][i] != a || kept[1][i] != r ||
           fabsf(kept[2][i] - g) > 1e-6f || fabsf(out[i] - expf(g)) > 1e-5f;
  }
  expect("chain", bad);

  global_store(in, out);
  bad = element_sum != relu_ref(in[1]) + relu_ref(in[3]) + relu_ref(in[7]);
  for (int i = 0; i < 8; ++i)
    bad += global_value[i] != relu_ref(in[i]) ||
           fabsf(out[i] - expf(relu_ref(in[i]))) > 1e-5f;
  expect("global", bad);

  expect("return 32x32", check_return32());
  expect("return 33x33", check_return33());
  expect("return 40x40", check_return40());
  return failures != 0;
}
