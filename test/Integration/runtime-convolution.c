// convolution with image sizes and channel counts that are C variables
// (docs/ops.md, "Run-time sizes"): 2-D NCHW, channels-last input and
// output (layout <0, 2, 3, 1>), an input with N innermost (packed first),
// a dilated kernel, strides (2 x 3 NCHW, 2 x 2 channels-last: the window
// gathered element by element), 1-D and 3-D spatial, a
// batch of 0, 1 and 3 images, relu on the result, f32 and i32 - every
// element against a plain C loop at sizes around the kernel window.
// RUN: %clang_tlx -std=c11 -Wall -Werror -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 %t0 | FileCheck %s %}
// RUN: %clang_tlx -std=c11 -O2 -Rpass=tlx-nd-to-2d %s %tlx_rt -o %t2 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: convolution with extents known at run time: per image, 9 kernel-tap windows copied into [taps*C, pixels] columns, then one run-time GEMM by the kernel as [O, taps*C]
// CHECK: PASSED
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

TLX_DECLARE_TENSOR_OPS_AS(tlx_float_result_t, f32)

static int failures;

static void expect(const char *what, int n, int c, long i, double got,
                   double want) {
  if (got != want && failures++ < 10)
    printf("%s n=%d c=%d: element %ld is %g, want %g\n", what, n, c, i, got,
           want);
}

/* Small integers and halves: every sum exact in any order. */
static float *fill_f32(long n, int seed) {
  float *p = malloc(sizeof(float) * (n + 1));
  for (long i = 0; i < n; ++i)
    p[i] = (float)((i * 7 + seed * 5) % 9 - 4) * 0.5f;
  return p;
}

/* y[n, o, y, x] = sum_{c, i, j} k[o, c, i, j]
 *                                in[n, c, y*sy + i*d, x*sx + j*d] */
static void ref_conv2d_strided(int n, int c, int h, int w, int o, int kh,
                               int kw, int d, int sy, int sx, const float *in,
                               const float *k, float *y) {
  int oh = (h - (kh - 1) * d - 1) / sy + 1, ow = (w - (kw - 1) * d - 1) / sx + 1;
  for (int b = 0; b < n; ++b)
    for (int q = 0; q < o; ++q)
      for (int r = 0; r < oh; ++r)
        for (int s = 0; s < ow; ++s) {
          float acc = 0;
          for (int ch = 0; ch < c; ++ch)
            for (int i = 0; i < kh; ++i)
              for (int j = 0; j < kw; ++j)
                acc += k[((q * c + ch) * kh + i) * kw + j] *
                       in[((b * c + ch) * h + r * sy + i * d) * w + s * sx +
                          j * d];
          y[((b * o + q) * oh + r) * ow + s] = acc;
        }
}

static void ref_conv2d(int n, int c, int h, int w, int o, int kh, int kw,
                       int d, const float *in, const float *k, float *y) {
  ref_conv2d_strided(n, c, h, w, o, kh, kw, d, 1, 1, in, k, y);
}

static void conv3x3(int n, int c, int h, int w, int o, const float *in,
                    const float *k, float *y) {
  TLX_STORE(y, tlx_convolution(TLX_LOAD(in, n, c, h, w),
                               TLX_LOAD(k, o, c, 3, 3)));
}

static void conv_dilated_relu(int n, int c, int h, int w, int o,
                              const float *in, const float *k, float *y) {
  TLX_STORE(y, tlx_relu(tlx_convolution(
                   TLX_LOAD(in, n, c, h, w), TLX_LOAD(k, o, c, 2, 3),
                   TLX_DIMS(1, 1), TLX_DIMS(1, 1), TLX_DIMS(2, 2))));
}

/* Strides 2 x 3 (NCHW), 2 x 2 (channels-last in and out). */
static void conv_strided(int n, int c, int h, int w, int o, const float *in,
                         const float *k, float *y) {
  TLX_STORE(y, tlx_convolution(TLX_LOAD(in, n, c, h, w),
                               TLX_LOAD(k, o, c, 3, 3), TLX_DIMS(2, 3)));
}
static void conv_nhwc_strided(int n, int c, int h, int w, int o,
                              const float *in, const float *k, float *y) {
  tlx_token_t x = tensor_load(in, TLX_SHAPE(n, h, w, c), TLX_LAYOUT(0, 2, 3, 1),
                              TLX_ZEROS(4), TLX_ZEROS(4));
  tensor_store(y,
               tensor_typeinfo(tensor_convolution_f32(
                                   x, TLX_LOAD(k, o, c, 3, 3), TLX_DIMS(2, 2)),
                               TLX_SHAPE(n, (h - 3) / 2 + 1, (w - 3) / 2 + 1, o),
                               TLX_LAYOUT(0, 2, 3, 1), TLX_ZEROS(4)),
               TLX_ZEROS(4));
}

/* Input and output channels-last: memory [n, h, w, c]. */
static void conv_nhwc(int n, int c, int h, int w, int o, const float *in,
                      const float *k, float *y) {
  tlx_token_t x = tensor_load(in, TLX_SHAPE(n, h, w, c), TLX_LAYOUT(0, 2, 3, 1),
                              TLX_ZEROS(4), TLX_ZEROS(4));
  tensor_store(y,
               tensor_typeinfo(tensor_convolution_f32(
                                   x, TLX_LOAD(k, o, c, 3, 3)),
                               TLX_SHAPE(n, h - 2, w - 2, o),
                               TLX_LAYOUT(0, 2, 3, 1), TLX_ZEROS(4)),
               TLX_ZEROS(4));
}

/* N innermost in memory ([c, h, w, n]): packed NCHW first. */
static void conv_n_last(int n, int c, int h, int w, int o, const float *in,
                        const float *k, float *y) {
  TLX_STORE(y, tlx_convolution(tensor_load(in, TLX_SHAPE(c, h, w, n),
                                           TLX_LAYOUT(1, 2, 3, 0), TLX_ZEROS(4),
                                           TLX_ZEROS(4)),
                               TLX_LOAD(k, o, c, 3, 3)));
}

static void conv1d_i32(int n, int c, int w, int o, const int *in,
                       const int *k, int *y) {
  TLX_STORE(y, tlx_convolution(TLX_LOAD(in, n, c, w), TLX_LOAD(k, o, c, 4)));
}

static void conv3d(int n, int c, int dd, int h, int w, int o, const float *in,
                   const float *k, float *y) {
  TLX_STORE(y, tlx_convolution(TLX_LOAD(in, n, c, dd, h, w),
                               TLX_LOAD(k, o, c, 2, 2, 2)));
}


static const int sizes[][5] = {/* n, c, h, w, o */
                               {1, 1, 3, 3, 1},  {0, 2, 4, 5, 3},
                               {1, 3, 5, 4, 2},  {3, 2, 7, 9, 5},
                               {2, 5, 3, 17, 4}, {1, 4, 12, 10, 9}};
#define NSIZES (int)(sizeof(sizes) / sizeof(sizes[0]))

int main(void) {
  for (int t = 0; t < NSIZES; ++t) {
    int n = sizes[t][0], c = sizes[t][1], h = sizes[t][2], w = sizes[t][3];
    int o = sizes[t][4];
    long nin = (long)n * c * h * w;
    float *in = fill_f32(nin, 1), *k = fill_f32((long)o * c * 9, 2);
    float *y = fill_f32((long)n * o * h * w, 3);
    float *want = fill_f32((long)n * o * h * w, 3);
    int oh = h - 2, ow = w - 2;

    conv3x3(n, c, h, w, o, in, k, y);
    ref_conv2d(n, c, h, w, o, 3, 3, 1, in, k, want);
    for (long i = 0; i < (long)n * o * oh * ow; ++i)
      expect("3x3", n, c, i, y[i], want[i]);

    if (w >= 5) { /* 2x3 taps, dilation 2: a 3x5 window */
      conv_dilated_relu(n, c, h, w, o, in, k, y);
      ref_conv2d(n, c, h, w, o, 2, 3, 2, in, k, want);
      long cnt = (long)n * o * (h - 2) * (w - 4);
      for (long i = 0; i < cnt; ++i)
        expect("dilated relu", n, c, i, y[i], want[i] > 0 ? want[i] : 0);
    }

    /* channels-last copies of in and of the expected result */
    float *in_l = fill_f32(nin, 0), *y_l = fill_f32((long)n * o * h * w, 4);
    for (int b = 0; b < n; ++b)
      for (int ch = 0; ch < c; ++ch)
        for (int r = 0; r < h; ++r)
          for (int s = 0; s < w; ++s)
            in_l[((b * h + r) * w + s) * c + ch] =
                in[((b * c + ch) * h + r) * w + s];
    conv_nhwc(n, c, h, w, o, in_l, k, y_l);
    ref_conv2d(n, c, h, w, o, 3, 3, 1, in, k, want);
    for (int b = 0; b < n; ++b)
      for (int q = 0; q < o; ++q)
        for (int r = 0; r < oh; ++r)
          for (int s = 0; s < ow; ++s) {
            long at = ((long)(b * oh + r) * ow + s) * o + q;
            expect("channels-last", n, c, at, y_l[at],
                   want[((b * o + q) * oh + r) * ow + s]);
          }

    for (int b = 0; b < n; ++b) /* in_l reused as [c, h, w, n] */
      for (int ch = 0; ch < c; ++ch)
        for (int r = 0; r < h; ++r)
          for (int q = 0; q < w; ++q)
            in_l[((ch * h + r) * w + q) * n + b] =
                in[((b * c + ch) * h + r) * w + q];
    conv_n_last(n, c, h, w, o, in_l, k, y);
    for (long i = 0; i < (long)n * o * oh * ow; ++i)
      expect("N innermost", n, c, i, y[i], want[i]);

    { /* strides */
      int sh = (h - 3) / 2 + 1, sw = (w - 3) / 3 + 1;
      conv_strided(n, c, h, w, o, in, k, y);
      ref_conv2d_strided(n, c, h, w, o, 3, 3, 1, 2, 3, in, k, want);
      for (long i = 0; i < (long)n * o * sh * sw; ++i)
        expect("strided", n, c, i, y[i], want[i]);
      for (int b = 0; b < n; ++b) /* in_l back to [n, h, w, c] */
        for (int ch = 0; ch < c; ++ch)
          for (int r = 0; r < h; ++r)
            for (int q = 0; q < w; ++q)
              in_l[((b * h + r) * w + q) * c + ch] =
                  in[((b * c + ch) * h + r) * w + q];
      sw = (w - 3) / 2 + 1;
      conv_nhwc_strided(n, c, h, w, o, in_l, k, y_l);
      ref_conv2d_strided(n, c, h, w, o, 3, 3, 1, 2, 2, in, k, want);
      for (int b = 0; b < n; ++b)
        for (int q = 0; q < o; ++q)
          for (int r = 0; r < sh; ++r)
            for (int t = 0; t < sw; ++t) {
              long at = ((long)(b * sh + r) * sw + t) * o + q;
              expect("strided channels-last", n, c, at, y_l[at],
                     want[((b * o + q) * sh + r) * sw + t]);
            }
    }

    int *ii = malloc(sizeof(int) * (nin + 1)), *ik = malloc(sizeof(int) * (o * c * 4 + 1));
    int *iy = malloc(sizeof(int) * ((long)n * o * h * w + 1));
    for (long i = 0; i < nin; ++i)
      ii[i] = (int)(i % 13) - 6;
    for (long i = 0; i < (long)o * c * 4; ++i)
      ik[i] = (int)(i % 5) - 2;
    if (h * w >= 4) { /* the rows as one 1-D signal of h*w */
      conv1d_i32(n, c, h * w, o, ii, ik, iy);
      int ow1 = h * w - 3;
      for (int b = 0; b < n; ++b)
        for (int q = 0; q < o; ++q)
          for (int s = 0; s < ow1; ++s) {
            int acc = 0;
            for (int ch = 0; ch < c; ++ch)
              for (int j = 0; j < 4; ++j)
                acc += ik[(q * c + ch) * 4 + j] *
                       ii[(b * c + ch) * h * w + s + j];
            long at = ((long)b * o + q) * ow1 + s;
            expect("1-D i32", n, c, at, iy[at], acc);
          }
    }

    /* 3-D: h as depth x 1 rows is not a cube; use dd = 3 planes of h x w */
    long n3 = (long)n * c * 3 * h * w;
    float *in3 = fill_f32(n3, 5), *k3 = fill_f32((long)o * c * 8, 6);
    float *y3 = fill_f32((long)n * o * 2 * h * w, 7);
    conv3d(n, c, 3, h, w, o, in3, k3, y3);
    for (int b = 0; b < n; ++b)
      for (int q = 0; q < o; ++q)
        for (int z = 0; z < 2; ++z)
          for (int r = 0; r < h - 1; ++r)
            for (int s = 0; s < w - 1; ++s) {
              float acc = 0;
              for (int ch = 0; ch < c; ++ch)
                for (int a = 0; a < 2; ++a)
                  for (int i = 0; i < 2; ++i)
                    for (int j = 0; j < 2; ++j)
                      acc += k3[(((q * c + ch) * 2 + a) * 2 + i) * 2 + j] *
                             in3[(((long)(b * c + ch) * 3 + z + a) * h + r +
                                  i) * w + s + j];
              long at = (((long)(b * o + q) * 2 + z) * (h - 1) + r) * (w - 1) + s;
              expect("3-D", n, c, at, y3[at], acc);
            }
    free(in), free(k), free(y), free(want), free(in_l), free(y_l);
    free(ii), free(ik), free(iy), free(in3), free(k3), free(y3);
  }
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}
