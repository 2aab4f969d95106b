// Leading dimensions with run-time sizes (docs/ops.md, "Run-time sizes"):
// every op reads and writes its operands through the strides the program
// gives, constant or run-time, whether the extents are constant or
// run-time - contract (any axis, column-major operands, 3-D), matmul and
// smma (each operand, the accumulator, a transposed operand), convolution
// (kernel and input, NCHW and channels-last, strides 2 x 1), transpose,
// broadcast, reduce.*, pad, concat, reshape.permute, relu and copies, and
// results stored through run-time strides. The gaps between rows hold a
// marker that a packed read would pick up and that no write may touch;
// every element against plain C loops.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: contract: ok
// CHECK: matmul: ok
// CHECK: smma: ok
// CHECK: convolution: ok
// CHECK: fused: ok
// CHECK: PASSED
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

TLX_DECLARE_TENSOR_OPS_AS(tlx_float_result_t, f32)

#define GAP 1000.0f /* between rows: a packed read would see it */

static int failures;

/* A tensor in memory by logical index: element (i0, i1, ..) at
 * p[i0 * st[0] + i1 * st[1] + ..]. */
typedef struct {
  float *p;
  int rank, ext[4];
  long st[4], span;
} view_t;

/* A buffer holding a tensor of logical extents ext, stored with layout
 * order (storage dim s holds logical dim order[s]) and leading dimensions
 * ld (ld[s], s >= 1: the step of storage dim s - 1; 0: packed), as
 * tensor_load reads it: small integers, GAP between them. */
static view_t make(int rank, const int *ext, const int *order, const int *ld,
                   int seed) {
  view_t v = {0};
  v.rank = rank;
  long step = 1;
  for (int s = rank - 1; s >= 0; --s) {
    v.ext[order[s]] = ext[order[s]];
    v.st[order[s]] = step;
    if (s > 0)
      step = ld[s] ? ld[s] : step * ext[order[s]];
  }
  v.span = 1;
  for (int d = 0; d < rank; ++d)
    v.span += (v.ext[d] - 1) * v.st[d];
  v.p = malloc(sizeof(float) * (v.span + 4));
  for (long i = 0; i < v.span + 4; ++i)
    v.p[i] = GAP;
  int i[4] = {0}, n = 0;
  for (;;) {
    long at = 0;
    for (int d = 0; d < rank; ++d)
      at += i[d] * v.st[d];
    v.p[at] = (float)((n++ * 7 + seed * 5) % 9 - 4);
    int d = rank - 1;
    while (d >= 0 && ++i[d] == v.ext[d])
      i[d--] = 0;
    if (d < 0)
      return v;
  }
}

static float *at(view_t v, const int *i) {
  long o = 0;
  for (int d = 0; d < v.rank; ++d)
    o += i[d] * v.st[d];
  return v.p + o;
}

/* Checks the destination out against want (a packed logical tensor of
 * out's extents): each element, and GAP everywhere else. */
static void check(const char *what, view_t out, const float *want) {
  float *seen = malloc(sizeof(float) * (out.span + 4));
  for (long k = 0; k < out.span + 4; ++k)
    seen[k] = GAP;
  int i[4] = {0};
  for (long n = 0;; ++n) {
    long o = at(out, i) - out.p;
    seen[o] = want[n];
    int d = out.rank - 1;
    while (d >= 0 && ++i[d] == out.ext[d])
      i[d--] = 0;
    if (d < 0)
      break;
  }
  int bad = 0;
  for (long k = 0; k < out.span + 4; ++k)
    if (out.p[k] != seen[k] && bad++ < 2)
      printf("%s: element %ld of the destination is %g, want %g\n", what, k,
             out.p[k], seen[k]);
  failures += bad;
  free(seen);
}

/* a x b (+ acc) against out, 2-D views */
static void check_matmul(const char *what, view_t a, view_t b, view_t out) {
  float *want = malloc(sizeof(float) * a.ext[0] * b.ext[1]);
  for (int i = 0; i < a.ext[0]; ++i)
    for (int j = 0; j < b.ext[1]; ++j) {
      float s = 0;
      for (int k = 0; k < a.ext[1]; ++k)
        s += *at(a, (int[]){i, k}) * *at(b, (int[]){k, j});
      want[i * b.ext[1] + j] = s;
    }
  check(what, out, want);
  free(want);
}

/* The same tensor, logical dims 0 and 1 swapped. */
static view_t swapped(view_t v) {
  int e = v.ext[0];
  long s = v.st[0];
  v.ext[0] = v.ext[1], v.st[0] = v.st[1];
  v.ext[1] = e, v.st[1] = s;
  return v;
}

static const int RM[] = {0, 1, 2, 3}, CM[] = {1, 0}, NHWC[] = {0, 2, 3, 1};
static const int PACKED[] = {0, 0, 0, 0};

/*===--- contract ----------------------------------------------------------===*/

/* op1 of constant extents through a run-time leading dimension */
static void contract_const_shape(int ld, int k, int n, const float *a,
                                 const float *b, float *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_STRIDES(0, ld));
  TLX_STORE(c, tlx_contract(ta, TLX_LOAD(b, k, n), TLX_DIMS(1), TLX_DIMS(0)));
}

/* op1 of run-time extents through a constant leading dimension, op2
 * column-major through one */
static void contract_const_ld(int m, int k, int n, const float *a,
                              const float *b, float *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(m, k), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_STRIDES(0, 6));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(n, k), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_STRIDES(0, 7));
  TLX_STORE(c, tlx_contract(ta, tb, TLX_DIMS(1), TLX_DIMS(0)));
}

/* c[m, q] = sum_{n, p} a[m, n, p] b[n, p, q]; a's rows and matrices apart */
static void contract_3d(int m, const float *a, const float *b, float *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(m, 3, 4), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_STRIDES(0, 20, 6));
  TLX_STORE(c, tlx_contract(ta, TLX_LOAD(b, 3, 4, 2), TLX_DIMS(1, 2),
                            TLX_DIMS(0, 1)));
}

/* c = a^T b: op1 contracted on axis 0, constant extents, run-time ld */
static void contract_axis0(int ld, int k, int n, const float *a,
                           const float *b, float *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(4, 3), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_STRIDES(0, ld));
  TLX_STORE(c, tlx_contract(ta, TLX_LOAD(b, k, n), TLX_DIMS(0), TLX_DIMS(0)));
}

static void test_contract(void) {
  int before = failures;
  view_t a = make(2, (int[]){3, 4}, RM, (int[]){0, 6}, 1);
  view_t b = make(2, (int[]){4, 5}, RM, PACKED, 2);
  view_t c = make(2, (int[]){3, 5}, RM, PACKED, 3);
  contract_const_shape(6, 4, 5, a.p, b.p, c.p);
  check_matmul("contract const-shape rt-ld", a, b, c);

  view_t bc = make(2, (int[]){4, 5}, CM, (int[]){0, 7}, 4);
  contract_const_ld(3, 4, 5, a.p, bc.p, c.p);
  check_matmul("contract rt-shape const-ld", a, bc, c);

  view_t a3 = make(3, (int[]){2, 3, 4}, RM, (int[]){0, 20, 6}, 5);
  view_t b3 = make(3, (int[]){3, 4, 2}, RM, PACKED, 6);
  view_t c3 = make(2, (int[]){2, 2}, RM, PACKED, 7);
  contract_3d(2, a3.p, b3.p, c3.p);
  float want[4];
  for (int i = 0; i < 2; ++i)
    for (int q = 0; q < 2; ++q) {
      float s = 0;
      for (int n = 0; n < 3; ++n)
        for (int p = 0; p < 4; ++p)
          s += *at(a3, (int[]){i, n, p}) * *at(b3, (int[]){n, p, q});
      want[i * 2 + q] = s;
    }
  check("contract 3-D const-ld", c3, want);

  view_t a0 = make(2, (int[]){4, 3}, RM, (int[]){0, 5}, 8);
  contract_axis0(5, 4, 5, a0.p, b.p, c.p);
  check_matmul("contract axis 0 rt-ld", swapped(a0), b, c);
  printf("contract: %s\n", failures > before ? "FAILED" : "ok");
}

/*===--- matmul ------------------------------------------------------------===*/

/* op1 of constant extents through a run-time ld, read again after a store
 * that may write it (so copied where it is loaded) */
static void matmul_const_shape(int ld, int k, int n, const float *a,
                               const float *b, float *c, float *d) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_STRIDES(0, ld));
  TLX_STORE(c, tlx_matmul(ta, TLX_LOAD(b, k, n)));
  TLX_STORE(d, tlx_matmul(ta, TLX_LOAD(b, k, n)));
}

/* Every extent constant: op1 column-major and op2 through run-time lds */
static void matmul_static(int lda, int ldb, const float *a, const float *b,
                          float *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(4, 3), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_STRIDES(0, lda));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(4, 5), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_STRIDES(0, ldb));
  TLX_STORE(c, tlx_matmul(ta, tb));
}

/* Constant extents stored through a run-time leading dimension */
static void matmul_store(int ldc, const float *a, const float *b, float *c) {
  tensor_store(c, tlx_matmul(TLX_LOAD(a, 3, 4), TLX_LOAD(b, 4, 5)),
               TLX_STRIDES(0, ldc));
}

static void relu_matmul_store(int ldc, const float *a, const float *b,
                              float *c) {
  tensor_store(c, tlx_relu(tlx_matmul(TLX_LOAD(a, 3, 4), TLX_LOAD(b, 4, 5))),
               TLX_STRIDES(0, ldc));
}

/* A transpose of constant extents beside an operand of run-time ones */
static void matmul_transposed(int k, int n, const float *a, const float *b,
                              float *c) {
  TLX_STORE(c, tlx_matmul(tlx_transpose(TLX_LOAD(a, 4, 3)),
                          TLX_LOAD(b, k, n)));
}

static void test_matmul(void) {
  int before = failures;
  view_t a = make(2, (int[]){3, 4}, RM, (int[]){0, 7}, 1);
  view_t b = make(2, (int[]){4, 5}, RM, PACKED, 2);
  view_t c = make(2, (int[]){3, 5}, RM, PACKED, 3);
  view_t d = make(2, (int[]){3, 5}, RM, PACKED, 9);
  matmul_const_shape(7, 4, 5, a.p, b.p, c.p, d.p);
  check_matmul("matmul const-shape rt-ld", a, b, c);
  check_matmul("matmul const-shape rt-ld, read again", a, b, d);

  view_t ac = make(2, (int[]){3, 4}, CM, (int[]){0, 5}, 4);
  view_t bs = make(2, (int[]){4, 5}, RM, (int[]){0, 8}, 5);
  matmul_static(5, 8, ac.p, bs.p, c.p);
  check_matmul("matmul constant extents rt-ld", ac, bs, c);

  view_t ap = make(2, (int[]){3, 4}, RM, PACKED, 6);
  view_t cs = make(2, (int[]){3, 5}, RM, (int[]){0, 8}, 7);
  matmul_store(8, ap.p, b.p, cs.p);
  check_matmul("matmul stored through rt-ld", ap, b, cs);
  float want[15];
  relu_matmul_store(8, ap.p, b.p, cs.p);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) {
      float s = 0;
      for (int k = 0; k < 4; ++k)
        s += *at(ap, (int[]){i, k}) * *at(b, (int[]){k, j});
      want[i * 5 + j] = s > 0 ? s : 0;
    }
  check("relu(matmul) stored through rt-ld", cs, want);

  view_t at4 = make(2, (int[]){4, 3}, RM, PACKED, 8);
  matmul_transposed(4, 5, at4.p, b.p, c.p);
  check_matmul("matmul of a transpose", swapped(at4), b, c);
  printf("matmul: %s\n", failures > before ? "FAILED" : "ok");
}

/*===--- smma --------------------------------------------------------------===*/

/* acc + a x b, i8 x i8 -> i32, every extent constant: the accumulator and
 * op1 through run-time leading dimensions, op2 column-major through a
 * constant one */
static void smma(int ldacc, int lda, const int *acc, const signed char *a,
                 const signed char *b, int *c) {
  tlx_token_t tacc = tensor_load(acc, TLX_SHAPE(3, 5), TLX_LAYOUT(0, 1),
                                 TLX_ZEROS(2), TLX_STRIDES(0, ldacc));
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_STRIDES(0, lda));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(5, 4), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_STRIDES(0, 6));
  TLX_STORE(c, tlx_smma(tacc, ta, tb));
}

static void test_smma(void) {
  int before = failures;
  int acc[3 * 7], c[15];
  signed char a[3 * 5], b[5 * 6];
  for (int i = 0; i < 21; ++i)
    acc[i] = i % 7 < 5 ? i % 5 - 2 : 1000000;
  for (int i = 0; i < 15; ++i)
    a[i] = (signed char)(i % 5 < 4 ? i % 7 - 3 : 100);
  for (int i = 0; i < 30; ++i)
    b[i] = (signed char)(i % 6 < 4 ? i % 5 - 2 : 100);
  smma(7, 5, acc, a, b, c);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) {
      int s = acc[i * 7 + j];
      for (int k = 0; k < 4; ++k)
        s += a[i * 5 + k] * b[j * 6 + k];
      if (c[i * 5 + j] != s && failures++ < before + 2)
        printf("smma: element %d is %d, want %d\n", i * 5 + j, c[i * 5 + j],
               s);
    }
  printf("smma: %s\n", failures > before ? "FAILED" : "ok");
}

/*===--- convolution -------------------------------------------------------===*/

/* A kernel of constant extents whose O rows are a run-time ld apart */
static void conv_kernel_rt_ld(int ld, int c, int h, int w, const float *in,
                              const float *k, float *y) {
  tlx_token_t tk = tensor_load(k, TLX_SHAPE(3, 2, 2, 2), TLX_LAYOUT(0, 1, 2, 3),
                               TLX_ZEROS(4), TLX_STRIDES(0, ld, 0, 0));
  TLX_STORE(y, tlx_convolution(TLX_LOAD(in, 1, c, h, w), tk));
}

/* A channels-last kernel (O, kh, kw, C) through constant leading dims */
static void conv_kernel_nhwc(int c, int h, int w, const float *in,
                             const float *k, float *y) {
  tlx_token_t tk = tensor_load(k, TLX_SHAPE(3, 2, 2, 2), TLX_LAYOUT(0, 2, 3, 1),
                               TLX_ZEROS(4), TLX_STRIDES(0, 10, 5, 2));
  TLX_STORE(y, tlx_convolution(TLX_LOAD(in, 1, c, h, w), tk));
}

/* Every extent constant, the input's rows a run-time ld apart, stride
 * 2 x 1 */
static void conv_input_rt_ld(int ld, const float *in, const float *k,
                             float *y) {
  tlx_token_t ti = tensor_load(in, TLX_SHAPE(2, 2, 5, 4), TLX_LAYOUT(0, 1, 2, 3),
                               TLX_ZEROS(4), TLX_STRIDES(0, 0, 0, ld));
  TLX_STORE(y, tlx_convolution(ti, TLX_LOAD(k, 3, 2, 2, 2), TLX_DIMS(2, 1),
                               TLX_DIMS(1, 1), TLX_DIMS(1, 1)));
}

/* A channels-last input (N, H, W, C) whose rows are a run-time ld apart */
static void conv_input_nhwc(int ld, int o, int c, const float *in,
                            const float *k, float *y) {
  tlx_token_t ti = tensor_load(in, TLX_SHAPE(2, 5, 4, 2), TLX_LAYOUT(0, 2, 3, 1),
                               TLX_ZEROS(4), TLX_STRIDES(0, 0, ld, 0));
  TLX_STORE(y, tlx_convolution(ti, TLX_LOAD(k, o, c, 2, 2)));
}

/* Constant extents, stored through a run-time ld, plain and with relu */
static void conv_store(int ld, int relu, const float *in, const float *k,
                       float *y) {
  tlx_token_t ti = TLX_LOAD(in, 2, 2, 5, 4), tk = TLX_LOAD(k, 3, 2, 2, 2);
  if (relu)
    tensor_store(y, tlx_relu(tlx_convolution(ti, tk)),
                 TLX_STRIDES(0, 0, 0, ld));
  else
    tensor_store(y, tlx_convolution(ti, tk), TLX_STRIDES(0, 0, 0, ld));
}

/* y[n, o, p, q] = sum k[o, c, i, j] in[n, c, p*sy + i, q + j], checked */
static void check_conv(const char *what, view_t in, view_t k, int sy,
                       int relu, view_t y) {
  int n = in.ext[0], o = k.ext[0], oh = y.ext[2], ow = y.ext[3];
  float *want = malloc(sizeof(float) * n * o * oh * ow), *w = want;
  for (int b = 0; b < n; ++b)
    for (int f = 0; f < o; ++f)
      for (int p = 0; p < oh; ++p)
        for (int q = 0; q < ow; ++q) {
          float s = 0;
          for (int c = 0; c < in.ext[1]; ++c)
            for (int i = 0; i < k.ext[2]; ++i)
              for (int j = 0; j < k.ext[3]; ++j)
                s += *at(k, (int[]){f, c, i, j}) *
                     *at(in, (int[]){b, c, p * sy + i, q + j});
          *w++ = relu && s < 0 ? 0 : s;
        }
  check(what, y, want);
  free(want);
}

static void test_convolution(void) {
  int before = failures;
  view_t in = make(4, (int[]){1, 2, 5, 4}, RM, PACKED, 1);
  view_t k = make(4, (int[]){3, 2, 2, 2}, RM, (int[]){0, 10, 0, 0}, 2);
  view_t y = make(4, (int[]){1, 3, 4, 3}, RM, PACKED, 3);
  conv_kernel_rt_ld(10, 2, 5, 4, in.p, k.p, y.p);
  check_conv("convolution kernel rt-ld", in, k, 1, 0, y);

  view_t kl = make(4, (int[]){3, 2, 2, 2}, NHWC, (int[]){0, 10, 5, 2}, 4);
  conv_kernel_nhwc(2, 5, 4, in.p, kl.p, y.p);
  check_conv("convolution channels-last kernel const-ld", in, kl, 1, 0, y);

  view_t in2 = make(4, (int[]){2, 2, 5, 4}, RM, (int[]){0, 0, 0, 6}, 5);
  view_t kp = make(4, (int[]){3, 2, 2, 2}, RM, PACKED, 6);
  view_t y2 = make(4, (int[]){2, 3, 2, 3}, RM, PACKED, 7);
  conv_input_rt_ld(6, in2.p, kp.p, y2.p);
  check_conv("convolution input rt-ld stride 2", in2, kp, 2, 0, y2);

  view_t inl = make(4, (int[]){2, 2, 5, 4}, NHWC, (int[]){0, 0, 11, 0}, 8);
  view_t y3 = make(4, (int[]){2, 3, 4, 3}, RM, PACKED, 9);
  conv_input_nhwc(11, 3, 2, inl.p, kp.p, y3.p);
  check_conv("convolution channels-last input rt-ld", inl, kp, 1, 0, y3);

  view_t ip = make(4, (int[]){2, 2, 5, 4}, RM, PACKED, 10);
  view_t ys = make(4, (int[]){2, 3, 4, 3}, RM, (int[]){0, 0, 0, 5}, 11);
  conv_store(5, 0, ip.p, kp.p, ys.p);
  check_conv("convolution stored through rt-ld", ip, kp, 1, 0, ys);
  conv_store(5, 1, ip.p, kp.p, ys.p);
  check_conv("relu(convolution) stored through rt-ld", ip, kp, 1, 1, ys);
  printf("convolution: %s\n", failures > before ? "FAILED" : "ok");
}

/*===--- ops computed element by element -----------------------------------===*/

#define LOAD34(a, ld)                                                          \
  tensor_load(a, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1), TLX_ZEROS(2),              \
              TLX_STRIDES(0, ld))

static void fused(int op, int ld, int n, const float *a, const float *b,
                  float *o) {
  tlx_token_t t = LOAD34(a, ld);
  switch (op) {
  case 0: /* a copy, column-major: read back in its layout */
    TLX_STORE(o, tensor_load(a, TLX_SHAPE(4, 3), TLX_LAYOUT(1, 0),
                             TLX_ZEROS(2), TLX_STRIDES(0, ld)));
    break;
  case 1:
    TLX_STORE(o, tlx_relu(t));
    break;
  case 2:
    TLX_STORE(o, tlx_transpose(t));
    break;
  case 3:
    TLX_STORE(o, tensor_typeinfo(tensor_broadcast_f32(t), TLX_SHAPE(n, 3, 4),
                                 TLX_IDENTITY_LAYOUT(3), TLX_ZEROS(3)));
    break;
  case 4:
    TLX_STORE(o, tlx_reduce_add(t, TLX_DIMS(2, 2), TLX_DIMS(1, 2)));
    break;
  case 5:
    TLX_STORE(o, tlx_pad(t, TLX_DIMS(1, 0), TLX_DIMS(0, 2), 9.0f));
    break;
  case 6:
    TLX_STORE(o, tlx_concat(t, TLX_LOAD(b, n, 4), 0));
    break;
  case 7:
    TLX_STORE(o, tensor_typeinfo(tensor_reshape_permute_f32(t),
                                 TLX_SHAPE(2, n), TLX_IDENTITY_LAYOUT(2),
                                 TLX_ZEROS(2)));
    break;
  }
}

static void test_fused(void) {
  int before = failures;
  view_t a = make(2, (int[]){3, 4}, RM, (int[]){0, 6}, 1);
  view_t b = make(2, (int[]){2, 4}, RM, PACKED, 2);
  float want[40];
  static const int ext[][3] = {{3, 4}, {3, 4}, {4, 3}, {2, 3, 4},
                               {2, 2}, {4, 6}, {5, 4},  {2, 6}};
  static const char *names[] = {"copy",   "relu", "transpose", "broadcast",
                                "reduce", "pad",  "concat",    "reshape"};
  for (int op = 0; op < 8; ++op) {
    int rank = op == 3 ? 3 : 2;
    view_t o = make(rank, ext[op], RM, PACKED, 3);
    view_t src = a;
    if (op == 0) { /* the same elements, stored column-major */
      src = make(2, (int[]){3, 4}, CM, (int[]){0, 6}, 1);
      o = make(2, ext[op], CM, PACKED, 3);
    }
    fused(op, 6, op == 3 ? 2 : op == 7 ? 6 : 2, src.p, b.p, o.p);
    float *w = want;
    for (int i = 0; i < o.ext[0]; ++i)
      for (int j = 0; j < o.ext[1]; ++j)
        for (int l = 0; l < (rank == 3 ? o.ext[2] : 1); ++l) {
          float v = 0;
          if (op == 0)
            v = *at(src, (int[]){i, j});
          else if (op == 1)
            v = *at(a, (int[]){i, j}) > 0 ? *at(a, (int[]){i, j}) : 0;
          else if (op == 2)
            v = *at(a, (int[]){j, i});
          else if (op == 3)
            v = *at(a, (int[]){j, l});
          else if (op == 4)
            for (int p = 0; p < 2; ++p)
              for (int q = 0; q < 2; ++q)
                v += *at(a, (int[]){i + p, j * 2 + q});
          else if (op == 5)
            v = i >= 1 && j < 4 ? *at(a, (int[]){i - 1, j}) : 9;
          else if (op == 6)
            v = i < 3 ? *at(a, (int[]){i, j}) : *at(b, (int[]){i - 3, j});
          else
            v = *at(a, (int[]){(i * 6 + j) / 4, (i * 6 + j) % 4});
          *w++ = v;
        }
    char what[64];
    snprintf(what, sizeof what, "%s const-shape rt-ld", names[op]);
    check(what, o, want);
  }
  printf("fused: %s\n", failures > before ? "FAILED" : "ok");
}

int main(void) {
  test_contract();
  test_matmul();
  test_smma();
  test_convolution();
  test_fused();
  puts(failures ? "FAILED" : "PASSED");
  return failures != 0;
}
