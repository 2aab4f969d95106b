/* runtime_sizes.c - sizes from the command line (docs/ops.md, "Run-time
 * sizes"):
 *
 *   runtime_sizes [batch [features [hidden [height [width]]]]]
 *
 *  - a two-layer MLP, y = relu(x w1) w2, whose hidden layer never reaches
 *    the program (TLX keeps it in a buffer of its run-time size);
 *  - 2x2 max pooling, stride 2, of a 3-channel height x width image,
 *    zero-padded by one pixel on each side first;
 *  - the row maxima of y beside its row sums.
 * Each result is checked against plain C loops; wrong sizes (an odd width
 * with no room for a window, a negative size) stop the program with a
 * message naming the call and the sizes. */
#include <stdlib.h>
#include <tlx.h>

#include "sample_check.h"

static void mlp(int b, int d, int h, const float *x, const float *w1,
                const float *w2, float *y) {
  TLX_STORE(y, tlx_matmul(tlx_relu(tlx_matmul(TLX_LOAD(x, b, d),
                                              TLX_LOAD(w1, d, h))),
                          TLX_LOAD(w2, h, d)));
}

static void pool(int height, int width, const float *img, float *out) {
  tlx_token_t padded = tlx_pad(TLX_LOAD(img, 3, height, width),
                               TLX_SHAPE(0, 1, 1), TLX_SHAPE(0, 1, 1), 0.0f);
  TLX_STORE(out, tlx_reduce_max(padded, TLX_SHAPE(1, 2, 2),
                                TLX_SHAPE(1, 2, 2)));
}

static void row_stats(int b, int d, const float *y, float *stats) {
  tlx_token_t t = TLX_LOAD(y, b, d);
  TLX_STORE(stats, tlx_concat(tlx_reduce_max(t, TLX_SHAPE(1, d),
                                             TLX_SHAPE(1, 1)),
                              tlx_reduce_add(t, TLX_SHAPE(1, d),
                                             TLX_SHAPE(1, 1)),
                              1));
}

static int arg(int argc, char **argv, int i, int fallback) {
  return argc > i ? atoi(argv[i]) : fallback;
}

int main(int argc, char **argv) {
  int b = arg(argc, argv, 1, 5), d = arg(argc, argv, 2, 24);
  int h = arg(argc, argv, 3, 40), height = arg(argc, argv, 4, 9);
  int width = arg(argc, argv, 5, 14);
  /* sizes are the user's: size the arrays for what the ops will accept */
  size_t nb = b > 0 ? b : 0, nd = d > 0 ? d : 0, nh = h > 0 ? h : 0;
  size_t nimg = 3 * (size_t)(height > 0 ? height : 0) * (width > 0 ? width : 0);
  int ph = (height + 2 - 2) / 2 + 1, pw = (width + 2 - 2) / 2 + 1;
  size_t npool = 3 * (size_t)(ph > 0 ? ph : 0) * (pw > 0 ? pw : 0);
  float *x = malloc(sizeof(float) * (nb * nd + 1));
  float *w1 = malloc(sizeof(float) * (nd * nh + 1));
  float *w2 = malloc(sizeof(float) * (nh * nd + 1));
  float *y = malloc(sizeof(float) * (nb * nd + 1));
  float *want = malloc(sizeof(float) * (nb * (nd > nh ? nd : nh) + 2 * nb + 1));
  float *hid = malloc(sizeof(float) * (nb * nh + 1));
  float *img = malloc(sizeof(float) * (nimg + 1));
  float *out = malloc(sizeof(float) * (npool + 1));
  float *stats = malloc(sizeof(float) * (2 * nb + 1));
  sample_fill_f32(x, nb * nd, 1);
  sample_fill_f32(w1, nd * nh, 2);
  sample_fill_f32(w2, nh * nd, 3);
  sample_fill_f32(img, nimg, 4);
  int bad = 0;

  mlp(b, d, h, x, w1, w2, y);
  for (int i = 0; i < b; ++i)
    for (int j = 0; j < h; ++j) {
      float s = 0;
      for (int p = 0; p < d; ++p)
        s += x[i * d + p] * w1[p * h + j];
      hid[i * h + j] = s > 0 ? s : 0;
    }
  for (int i = 0; i < b; ++i)
    for (int j = 0; j < d; ++j) {
      float s = 0;
      for (int p = 0; p < h; ++p)
        s += hid[i * h + p] * w2[p * d + j];
      want[i * d + j] = s;
    }
  bad += sample_compare_f32("mlp", y, want, nb * nd, 0, 0);

  pool(height, width, img, out);
  for (int c = 0; c < 3; ++c)
    for (int i = 0; i < ph; ++i)
      for (int j = 0; j < pw; ++j) {
        float m = -INFINITY;
        for (int u = 0; u < 2; ++u)
          for (int v = 0; v < 2; ++v) {
            int r = 2 * i + u - 1, q = 2 * j + v - 1;
            float e = r >= 0 && r < height && q >= 0 && q < width
                          ? img[((size_t)c * height + r) * width + q]
                          : 0.0f;
            m = e > m ? e : m;
          }
        want[((size_t)c * ph + i) * pw + j] = m;
      }
  bad += sample_compare_f32("pool", out, want, npool, 0, 0);

  row_stats(b, d, y, stats);
  for (int i = 0; i < b; ++i) {
    float m = y[i * d], s = y[i * d];
    for (int j = 1; j < d; ++j) {
      m = y[i * d + j] > m ? y[i * d + j] : m;
      s += y[i * d + j];
    }
    want[2 * i] = m;
    want[2 * i + 1] = s;
  }
  bad += sample_compare_f32("row stats", stats, want, 2 * nb, 0, 0);

  printf("batch %d, features %d, hidden %d, image 3x%dx%d -> pooled 3x%dx%d\n",
         b, d, h, height, width, ph, pw);
  printf("runtime_sizes: %s\n", bad ? "MISMATCH" : "OK");
  free(x), free(w1), free(w2), free(y), free(want), free(hid), free(img);
  free(out), free(stats);
  return bad != 0;
}
