// C operators on results whose extents are C variables (docs/ops.md,
// "Run-time sizes"): the static idiom of the long form - name the results
// with tensor_typeinfo, combine them with C's + - * / & | ^ << ?: and
// __builtin_convertvector, with scalars (a variable too) - keeps compiling
// when its TLX_SHAPE arguments become ints. Each operator is one more op in
// the loop nest that writes the store; a GEMM result it reads is buffered.
// Every element against plain C (each product rounded on its own, as the
// TLX ops do), at sizes 0, 1, vector tails and beyond, row- and
// column-major, a result read twice, in another block, and by a GEMM.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -O2 -march=x86-64 %s %tlx_rt -o %tb && %tb | FileCheck %s
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 %t0 | FileCheck %s %}
// RUN: %clang_tlx -std=c11 -O2 -Rpass=tlx %s %tlx_rt -o %t2 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: fadd: C vector code on a ?x? f32 tensor, computed as a TLX op
// REMARK-DAG: remark: matmul: result with run-time extents computed into a heap buffer of its run-time size (read by fadd, which its GEMM's write-back does not apply)
// REMARK-DAG: remark: broadcast, fadd, relu with run-time extents, in one loop nest, {{[0-9]+}} lanes wide
// CHECK: bias: ok
// CHECK: scaled: ok
// CHECK: select: ok
// CHECK: select with a scalar variable: ok
// CHECK: integers: ok
// CHECK: convert: ok
// CHECK: column-major: ok
// CHECK: read twice: ok
// CHECK: other block: ok
// CHECK: gemm operand: ok
// CHECK: PASSED
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

typedef float f32v __attribute__((ext_vector_type(4)));
typedef int i32v __attribute__((ext_vector_type(4)));
TLX_DECLARE_TENSOR_OPS_AS(f32v, f32)
TLX_DECLARE_TENSOR_OPS_AS(i32v, i32)

#define RM(m, n) TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2)
#define CM(m, n) TLX_SHAPE(n, m), TLX_LAYOUT(1, 0), TLX_ZEROS(2)

static int failures;

static void expect(const char *what, int m, int n, long i, double got,
                   double want) {
  if (got != want && failures++ < 10)
    printf("%s %dx%d: element %ld is %g, want %g\n", what, m, n, i, got,
           want);
}

static float *fill_f32(long n, int seed) {
  float *p = malloc(sizeof(float) * (n + 1));
  for (long i = 0; i < n; ++i)
    p[i] = (float)((i * 7 + seed * 13) % 19 - 9) * 0.25f;
  return p;
}

static int *fill_i32(long n, int seed) {
  int *p = malloc(sizeof(int) * (n + 1));
  for (long i = 0; i < n; ++i)
    p[i] = (int)((i * 5 + seed * 11) % 23) - 11;
  return p;
}

static const int sizes[][2] = {{0, 3}, {1, 1}, {3, 5}, {2, 17}, {17, 33},
                               {64, 67}};
#define NSIZES (int)(sizeof(sizes) / sizeof(sizes[0]))

/* relu(x w + b): the tutorial's dense layer with run-time sizes. */
static void dense_bias(int m, int k, int n, const float *x, const float *w,
                       const float *b, float *y) {
  f32v xw = tensor_matmul_f32(TLX_LOAD(x, m, k), TLX_LOAD(w, k, n));
  tensor_typeinfo(xw, RM(m, n));
  f32v bb = tensor_broadcast_f32(TLX_LOAD(b, n));
  tensor_typeinfo(bb, RM(m, n));
  f32v z = xw + bb;
  TLX_STORE(y, tlx_relu(tensor_typeinfo(z, RM(m, n))));
}

static void test_bias(void) {
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1], k = 5 + s;
    float *x = fill_f32((long)m * k, 1), *w = fill_f32((long)k * n, 2);
    float *b = fill_f32(n, 3), *y = fill_f32((long)m * n, 4);
    dense_bias(m, k, n, x, w, b, y);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        float acc = 0;
        for (int p = 0; p < k; ++p) {
          float prod = x[i * k + p] * w[p * n + j];
          acc += prod;
        }
        acc += b[j];
        expect("bias", m, n, i * n + j, y[i * n + j], acc > 0 ? acc : 0);
      }
    free(x), free(w), free(b), free(y);
  }
  printf("bias: ok\n");
}

/* relu(a) * alpha + |b| * 0.5 - 1, and its negation: scalars (a C
 * variable too) are splats of the other operand's shape. */
static void scaled(int m, int n, float alpha, const float *a, const float *b,
                   float *o, float *neg) {
  f32v ra = tensor_relu_f32(TLX_LOAD(a, m, n));
  tensor_typeinfo(ra, RM(m, n));
  f32v rb = tensor_fabs_f32(TLX_LOAD(b, m, n));
  tensor_typeinfo(rb, RM(m, n));
  f32v p = ra * alpha;
  f32v q = rb * 0.5f;
  f32v z = p + q - 1.0f;
  tensor_store(o, tensor_typeinfo(z, RM(m, n)), TLX_ZEROS(2));
  f32v nz = -ra / 4.0f;
  tensor_store(neg, tensor_typeinfo(nz, RM(m, n)), TLX_ZEROS(2));
}

static void test_scaled(void) {
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    long c = (long)m * n;
    float *a = fill_f32(c, 5), *b = fill_f32(c, 6);
    float *o = fill_f32(c, 7), *neg = fill_f32(c, 8);
    float alpha = 1.5f + s;
    scaled(m, n, alpha, a, b, o, neg);
    for (long i = 0; i < c; ++i) {
      float ra = a[i] > 0 ? a[i] : 0, rb = b[i] < 0 ? -b[i] : b[i];
      float p = ra * alpha;
      float q = rb * 0.5f;
      float sum = p + q;
      expect("scaled", m, n, i, o[i], sum - 1.0f);
      expect("scaled neg", m, n, i, neg[i], -ra / 4.0f);
    }
    free(a), free(b), free(o), free(neg);
  }
  printf("scaled: ok\n");
}

/* max(a, b) by compare and select, and the mask itself. */
static void select_max(int m, int n, const float *a, const float *b, float *o,
                       int *mask) {
  f32v ta = tensor_tanh_f32(TLX_LOAD(a, m, n));
  tensor_typeinfo(ta, RM(m, n));
  f32v tb = tensor_relu_f32(TLX_LOAD(b, m, n));
  tensor_typeinfo(tb, RM(m, n));
  f32v mx = ta > tb ? ta : tb;
  tensor_store(o, tensor_typeinfo(mx, RM(m, n)), TLX_ZEROS(2));
  i32v gt = ta > tb;
  tensor_store(mask, tensor_typeinfo(gt, RM(m, n)), TLX_ZEROS(2));
}

static void test_select(void) {
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    long c = (long)m * n;
    float *a = fill_f32(c, 9), *b = fill_f32(c, 10), *o = fill_f32(c, 11);
    int *mask = fill_i32(c, 12);
    float *ta = malloc(sizeof(float) * (c + 1));
    select_max(m, n, a, b, o, mask);
    /* tanh as TLX computes it: the same op on a copy, stored */
    if (c)
      TLX_STORE(ta, tlx_tanh(TLX_LOAD(a, m, n)));
    for (long i = 0; i < c; ++i) {
      float tb = b[i] > 0 ? b[i] : 0;
      expect("select", m, n, i, o[i], ta[i] > tb ? ta[i] : tb);
      expect("select mask", m, n, i, mask[i], ta[i] > tb ? -1 : 0);
    }
    free(a), free(b), free(o), free(mask), free(ta);
  }
  printf("select: ok\n");
}

/* ?: with a scalar variable on either side (clang splats it and selects
 * with bitwise operators on the bits). */
static void select_scalar(int m, int n, float s, const float *a,
                          const float *b, float *o1, float *o2) {
  f32v ta = tensor_fabs_f32(TLX_LOAD(a, m, n));
  tensor_typeinfo(ta, RM(m, n));
  f32v tb = tensor_ceil_f32(TLX_LOAD(b, m, n));
  tensor_typeinfo(tb, RM(m, n));
  f32v l = ta <= tb ? ta : s;
  tensor_store(o1, tensor_typeinfo(l, RM(m, n)), TLX_ZEROS(2));
  f32v r = ta <= tb ? s : tb;
  tensor_store(o2, tensor_typeinfo(r, RM(m, n)), TLX_ZEROS(2));
}

static void test_select_scalar(void) {
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    long c = (long)m * n;
    float *a = fill_f32(c, 13), *b = fill_f32(c, 14);
    float *o1 = fill_f32(c, 15), *o2 = fill_f32(c, 16);
    float scalar = -0.375f * (s + 1);
    select_scalar(m, n, scalar, a, b, o1, o2);
    for (long i = 0; i < c; ++i) {
      float fa = fabsf(a[i]), cb = ceilf(b[i]);
      expect("select scalar", m, n, i, o1[i], fa <= cb ? fa : scalar);
      expect("select scalar left", m, n, i, o2[i], fa <= cb ? scalar : cb);
    }
    free(a), free(b), free(o1), free(o2);
  }
  printf("select with a scalar variable: ok\n");
}

/* Integer operators: wrapping products, shifts, bitwise, by a scalar. */
static void integers(int m, int n, int sh, const int *a, const int *b,
                     int *o) {
  i32v x = tensor_relu_i32(TLX_LOAD(a, m, n));
  tensor_typeinfo(x, RM(m, n));
  i32v y = tensor_transpose_i32(TLX_LOAD(b, n, m));
  tensor_typeinfo(y, RM(m, n));
  i32v z = (((x * y + 7) << sh) ^ (y & 12)) | (x >> 1);
  tensor_store(o, tensor_typeinfo(z, RM(m, n)), TLX_ZEROS(2));
}

static void test_integers(void) {
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    long c = (long)m * n;
    int *a = fill_i32(c, 13), *b = fill_i32(c, 14), *o = fill_i32(c, 15);
    int sh = s % 3;
    integers(m, n, sh, a, b, o);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        int x = a[i * n + j] > 0 ? a[i * n + j] : 0, y = b[j * m + i];
        int shifted = (int)((unsigned)(x * y + 7) << sh);
        int want = (shifted ^ (y & 12)) | (x >> 1);
        expect("integers", m, n, i * n + j, o[i * n + j], want);
      }
    free(a), free(b), free(o);
  }
  printf("integers: ok\n");
}

/* float -> int -> float conversions of a run-time-sized result. */
static void convert(int m, int n, const float *a, int *oi, float *of) {
  f32v t = tensor_fabs_f32(TLX_LOAD(a, m, n));
  tensor_typeinfo(t, RM(m, n));
  i32v q = __builtin_convertvector(t * 4.0f, i32v);
  tensor_store(oi, tensor_typeinfo(q, RM(m, n)), TLX_ZEROS(2));
  f32v back = __builtin_convertvector(q - 1, f32v);
  tensor_store(of, tensor_typeinfo(back, RM(m, n)), TLX_ZEROS(2));
}

static void test_convert(void) {
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    long c = (long)m * n;
    float *a = fill_f32(c, 16), *of = fill_f32(c, 17);
    int *oi = fill_i32(c, 18);
    convert(m, n, a, oi, of);
    for (long i = 0; i < c; ++i) {
      float t = a[i] < 0 ? -a[i] : a[i];
      int q = (int)(t * 4.0f);
      expect("convert int", m, n, i, oi[i], q);
      expect("convert float", m, n, i, of[i], (float)(q - 1));
    }
    free(a), free(of), free(oi);
  }
  printf("convert: ok\n");
}

/* Operands and result column-major: one layout for all of them. */
static void column_major(int m, int n, const float *a, const float *b,
                         float *o) {
  f32v ta = tensor_relu_f32(TLX_LOAD(a, m, n));
  tensor_typeinfo(ta, CM(m, n));
  f32v tb = tensor_transpose_f32(TLX_LOAD(b, n, m));
  tensor_typeinfo(tb, CM(m, n));
  f32v d = ta - tb;
  tensor_store(o, tensor_typeinfo(d, CM(m, n)), TLX_ZEROS(2));
}

static void test_column_major(void) {
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    long c = (long)m * n;
    float *a = fill_f32(c, 19), *b = fill_f32(c, 20), *o = fill_f32(c, 21);
    column_major(m, n, a, b, o);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        float ra = a[i * n + j] > 0 ? a[i * n + j] : 0;
        /* o is n x m in storage: element (i, j) at j * m + i */
        expect("column-major", m, n, j * m + i, o[j * m + i],
               ra - b[j * m + i]);
      }
    free(a), free(b), free(o);
  }
  printf("column-major: ok\n");
}

/* One operator result stored twice, and read by another operator. */
static void read_twice(int m, int n, const float *a, const float *b,
                       float *o1, float *o2, float *sq) {
  f32v ta = tensor_relu_f32(TLX_LOAD(a, m, n));
  tensor_typeinfo(ta, RM(m, n));
  f32v tb = tensor_fabs_f32(TLX_LOAD(b, m, n));
  tensor_typeinfo(tb, RM(m, n));
  f32v z = ta + tb;
  f32v zz = z * z;
  tensor_store(o1, tensor_typeinfo(z, RM(m, n)), TLX_ZEROS(2));
  tensor_store(o2, tlx_exp(tensor_typeinfo(z, RM(m, n))), TLX_ZEROS(2));
  tensor_store(sq, tensor_typeinfo(zz, RM(m, n)), TLX_ZEROS(2));
}

static void test_read_twice(void) {
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    long c = (long)m * n;
    float *a = fill_f32(c, 22), *b = fill_f32(c, 23);
    float *o1 = fill_f32(c, 24), *o2 = fill_f32(c, 25), *sq = fill_f32(c, 26);
    float *e = malloc(sizeof(float) * (c + 1));
    read_twice(m, n, a, b, o1, o2, sq);
    if (c)
      TLX_STORE(e, tlx_exp(TLX_LOAD(o1, m, n)));
    for (long i = 0; i < c; ++i) {
      float z = (a[i] > 0 ? a[i] : 0) + (b[i] < 0 ? -b[i] : b[i]);
      expect("read twice", m, n, i, o1[i], z);
      expect("read twice exp", m, n, i, o2[i], e[i]);
      expect("read twice square", m, n, i, sq[i], z * z);
    }
    free(a), free(b), free(o1), free(o2), free(sq), free(e);
  }
  printf("read twice: ok\n");
}

/* Stored in another block than the operator's. */
static void other_block(int flag, int m, int n, const float *a,
                        const float *b, float *o) {
  f32v ta = tensor_relu_f32(TLX_LOAD(a, m, n));
  tensor_typeinfo(ta, RM(m, n));
  f32v tb = tensor_relu_f32(TLX_LOAD(b, m, n));
  tensor_typeinfo(tb, RM(m, n));
  f32v z = ta * tb;
  if (flag)
    tensor_store(o, tensor_typeinfo(z, RM(m, n)), TLX_ZEROS(2));
}

static void test_other_block(void) {
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], n = sizes[s][1];
    long c = (long)m * n;
    float *a = fill_f32(c, 27), *b = fill_f32(c, 28), *o = fill_f32(c, 29);
    other_block(s & 1, m, n, a, b, o);
    float *keep = fill_f32(c, 29);
    for (long i = 0; i < c; ++i) {
      float x = a[i] > 0 ? a[i] : 0, y = b[i] > 0 ? b[i] : 0;
      expect("other block", m, n, i, o[i], (s & 1) ? x * y : keep[i]);
    }
    free(a), free(b), free(o), free(keep);
  }
  printf("other block: ok\n");
}

/* (a + b) w: an operator's result as a GEMM operand. */
static void gemm_operand(int m, int k, int n, const float *a, const float *b,
                         const float *w, float *o) {
  f32v ta = tensor_relu_f32(TLX_LOAD(a, m, k));
  tensor_typeinfo(ta, RM(m, k));
  f32v tb = tensor_relu_f32(TLX_LOAD(b, m, k));
  tensor_typeinfo(tb, RM(m, k));
  f32v sum = ta + tb;
  TLX_STORE(o, tlx_matmul(tensor_typeinfo(sum, RM(m, k)), TLX_LOAD(w, k, n)));
}

static void test_gemm_operand(void) {
  for (int s = 0; s < NSIZES; ++s) {
    int m = sizes[s][0], k = sizes[s][1], n = 3 + s;
    float *a = fill_f32((long)m * k, 30), *b = fill_f32((long)m * k, 31);
    float *w = fill_f32((long)k * n, 32), *o = fill_f32((long)m * n, 33);
    gemm_operand(m, k, n, a, b, w, o);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        float acc = 0;
        for (int p = 0; p < k; ++p) {
          float x = a[i * k + p] > 0 ? a[i * k + p] : 0;
          float y = b[i * k + p] > 0 ? b[i * k + p] : 0;
          float prod = (x + y) * w[p * n + j];
          acc += prod;
        }
        /* GEMM sums may be reassociated: compare within a tolerance */
        float got = o[i * n + j], d = got - acc;
        if ((d > 1e-3f || d < -1e-3f) && failures++ < 10)
          printf("gemm operand %dx%d: (%d, %d) is %g, want %g\n", m, n, i, j,
                 got, acc);
      }
    free(a), free(b), free(w), free(o);
  }
  printf("gemm operand: ok\n");
}

int main(void) {
  test_bias();
  test_scaled();
  test_select();
  test_select_scalar();
  test_integers();
  test_convert();
  test_column_major();
  test_read_twice();
  test_other_block();
  test_gemm_operand();
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}
