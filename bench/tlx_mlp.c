/* tlx_mlp.c - the compile-time and code-size bench (bench/run): a 12-layer
 * MLP of different widths (784 .. 10), a batch of BATCH rows (64 unless
 * -DBATCH), relu fused into every layer but the last, one layer per
 * function, as a tlx.h user writes it. bench/run times `tlx-cc -O2 -c` of
 * it with each share-kernels setting (docs/pipeline.md, "Shared kernels")
 * and other batches, and reads its text size; main runs the net once and
 * prints a checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <tlx.h>

#ifndef BATCH
#define BATCH 64
#endif

static void layer0(const float *x, const float *w, float *y) {
  TLX_STORE(y, tlx_relu(tlx_matmul(TLX_LOAD(x, BATCH, 784), TLX_LOAD(w, 784, 1024))));
}

static void layer1(const float *x, const float *w, float *y) {
  TLX_STORE(y, tlx_relu(tlx_matmul(TLX_LOAD(x, BATCH, 1024), TLX_LOAD(w, 1024, 1000))));
}

static void layer2(const float *x, const float *w, float *y) {
  TLX_STORE(y, tlx_relu(tlx_matmul(TLX_LOAD(x, BATCH, 1000), TLX_LOAD(w, 1000, 896))));
}

static void layer3(const float *x, const float *w, float *y) {
  TLX_STORE(y, tlx_relu(tlx_matmul(TLX_LOAD(x, BATCH, 896), TLX_LOAD(w, 896, 768))));
}

static void layer4(const float *x, const float *w, float *y) {
  TLX_STORE(y, tlx_relu(tlx_matmul(TLX_LOAD(x, BATCH, 768), TLX_LOAD(w, 768, 640))));
}

static void layer5(const float *x, const float *w, float *y) {
  TLX_STORE(y, tlx_relu(tlx_matmul(TLX_LOAD(x, BATCH, 640), TLX_LOAD(w, 640, 512))));
}

static void layer6(const float *x, const float *w, float *y) {
  TLX_STORE(y, tlx_relu(tlx_matmul(TLX_LOAD(x, BATCH, 512), TLX_LOAD(w, 512, 500))));
}

static void layer7(const float *x, const float *w, float *y) {
  TLX_STORE(y, tlx_relu(tlx_matmul(TLX_LOAD(x, BATCH, 500), TLX_LOAD(w, 500, 384))));
}

static void layer8(const float *x, const float *w, float *y) {
  TLX_STORE(y, tlx_relu(tlx_matmul(TLX_LOAD(x, BATCH, 384), TLX_LOAD(w, 384, 256))));
}

static void layer9(const float *x, const float *w, float *y) {
  TLX_STORE(y, tlx_relu(tlx_matmul(TLX_LOAD(x, BATCH, 256), TLX_LOAD(w, 256, 200))));
}

static void layer10(const float *x, const float *w, float *y) {
  TLX_STORE(y, tlx_relu(tlx_matmul(TLX_LOAD(x, BATCH, 200), TLX_LOAD(w, 200, 128))));
}

static void layer11(const float *x, const float *w, float *y) {
  TLX_STORE(y, tlx_matmul(TLX_LOAD(x, BATCH, 128), TLX_LOAD(w, 128, 10)));
}

int main(void) {
  static float buf[2][BATCH * 1024], wts[1024 * 1024];
  for (int i = 0; i < 1024 * 1024; ++i)
    wts[i] = (float)((i * 37 % 101) - 50) / 1024.0f;
  for (int i = 0; i < BATCH * 1024; ++i)
    buf[0][i] = (float)(i % 13) / 13.0f;
  layer0(buf[0], wts, buf[1]);
  layer1(buf[1], wts, buf[0]);
  layer2(buf[0], wts, buf[1]);
  layer3(buf[1], wts, buf[0]);
  layer4(buf[0], wts, buf[1]);
  layer5(buf[1], wts, buf[0]);
  layer6(buf[0], wts, buf[1]);
  layer7(buf[1], wts, buf[0]);
  layer8(buf[0], wts, buf[1]);
  layer9(buf[1], wts, buf[0]);
  layer10(buf[0], wts, buf[1]);
  layer11(buf[1], wts, buf[0]);
  double sum = 0;
  for (int i = 0; i < BATCH * 10; ++i)
    sum += buf[0][i];
  printf("checksum %.6g\n", sum);
  return 0;
}
