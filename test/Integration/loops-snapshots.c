// TLX ops inside C loops: a token defined before the loop and read in it
// (snapshotted: its memory is written in the loop), heap temporaries in
// the loop body, an unused result, in-place stores.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: bad=0
#include <tlx.h>
#include <stdio.h>
typedef float v2k __attribute__((__vector_size__(2048 * 4)));
TLX_DECLARE_TENSOR_OPS(v2k)
float a[3][2048], b[2048], c[3][2048];
int main(void) {
  for (int i = 0; i < 2048; ++i) { b[i] = i % 7 - 3; for (int j = 0; j < 3; ++j) a[j][i] = (i + j) % 5 - 2; }
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(32, 64), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  for (int j = 0; j < 3; ++j) {
    tlx_token_t ta = tensor_load(a[j], TLX_SHAPE(32, 64), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
    v2k r = tensor_relu(ta);
    tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(32, 64), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
    v2k s = tensor_sigmoid(tr);
    v2k u = tensor_tanh(tr);
    tlx_token_t ts = tensor_typeinfo(s, TLX_SHAPE(32, 64), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
    tensor_store(c[j], ts, TLX_ZEROS(2));
    tlx_token_t tu = tensor_typeinfo(u, TLX_SHAPE(32, 64), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
    v2k m = tensor_relu(tb);
    tlx_token_t tm = tensor_typeinfo(m, TLX_SHAPE(32, 64), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
    tensor_store(b, tm, TLX_ZEROS(2));
    (void)tu;
  }
  int bad = 0;
  for (int j = 0; j < 3; ++j) for (int i = 0; i < 2048; ++i) { float x = a[j][i] > 0 ? a[j][i] : 0; float s = 1 / (1 + __builtin_expf(-x)); if (__builtin_fabsf(s - c[j][i]) > 1e-6) bad++; }
  for (int i = 0; i < 2048; ++i) { float x = i % 7 - 3; if (b[i] != (x > 0 ? x : 0)) bad++; }
  printf("bad=%d\n", bad); return bad != 0;
}
