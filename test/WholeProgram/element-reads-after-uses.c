// C reads a tensor-sized vector element by element, at a run-time index,
// after TLX used it: a zero-initialized vector and a partially initialized
// one named by vector_totensor / tensor_typeinfo and stored (their
// variables become the constants - a splat reads its value, another
// constant one element of it in memory), an op result read by another op
// and stored, a by-value parameter, a vector loaded from a global. Every
// element against plain C at -O0 and -O2.
// RUN: %clang_tlx -std=c11 -Wall -Werror -Wno-psabi -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -Wno-psabi -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: zero initializer after totensor: ok
// CHECK: partial initializer after typeinfo: ok
// CHECK: op result after its readers: ok
// CHECK: parameter after typeinfo: ok
// CHECK: global after typeinfo: ok
// CHECK: PASSED
#include <math.h>
#include <stdio.h>
#include <tlx.h>

typedef float v80 __attribute__((__vector_size__(80 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(v80)

static volatile int Count = 80;
static int failures;
static v80 Global;

static void check(const char *what, const float *got, const float *want) {
  int before = failures;
  for (int i = 0; i < 80; ++i)
    if (got[i] != want[i] && failures++ < 10)
      printf("%s: [%d] = %g, want %g\n", what, i, got[i], want[i]);
  printf("%s: %s\n", what, failures == before ? "ok" : "FAILED");
}

static void zeroAfterTotensor(void) {
  float stored[80], read[80], want[80] = {0};
  v80 z = {0};
  tensor_store(stored,
               vector_totensor(z, TLX_SHAPE(8, 10), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2)),
               TLX_ZEROS(2));
  for (int e = 0; e < Count; ++e)
    read[e] = z[e];
  check("zero initializer after totensor", read, want);
  check("  (stored)", stored, want);
}

static void partialAfterTypeInfo(void) {
  float relu[80], read[80], want[80] = {1, -2, 3, -4, 5}, wantRelu[80];
  v80 w = {1, -2, 3, -4, 5};
  tensor_store(relu,
               tlx_relu(tensor_typeinfo(w, TLX_SHAPE(10, 8), TLX_LAYOUT(1, 0),
                                        TLX_ZEROS(2))),
               TLX_ZEROS(2));
  for (int e = 0; e < Count; ++e)
    read[e] = w[e];
  /* relu of the 8x10 tensor whose storage is column-major: stored
   * row-major, element (i, j) is position j * 8 + i */
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 10; ++j)
      wantRelu[i * 10 + j] = fmaxf(want[j * 8 + i], 0);
  check("partial initializer after typeinfo", read, want);
  check("  (relu)", relu, wantRelu);
}

static void opResultAfterReaders(void) {
  float x[80], out[80], read[80], want[80];
  for (int e = 0; e < 80; ++e)
    x[e] = (e % 9 - 4) * 0.75f;
  v80 r = tensor_floor(TLX_LOAD(x, 8, 10));
  TLX_STORE(out, tlx_fabs(tensor_typeinfo(r, TLX_SHAPE(8, 10),
                                          TLX_LAYOUT(0, 1), TLX_ZEROS(2))));
  for (int e = 0; e < Count; ++e)
    read[e] = r[e];
  for (int e = 0; e < 80; ++e)
    want[e] = floorf(x[e]);
  check("op result after its readers", read, want);
}

__attribute__((noinline)) static void parameterAfterTypeInfo(v80 p,
                                                             float *out,
                                                             float *read) {
  TLX_STORE(out, tlx_ceil(tensor_typeinfo(p, TLX_SHAPE(8, 10),
                                          TLX_LAYOUT(0, 1), TLX_ZEROS(2))));
  for (int e = 0; e < Count; ++e)
    read[e] = p[e];
}

static void globalAfterTypeInfo(void) {
  float out[80], read[80], want[80];
  for (int e = 0; e < 80; ++e)
    Global[e] = e * 0.5f - 20;
  v80 g = Global;
  TLX_STORE(out, tlx_relu(tensor_typeinfo(g, TLX_SHAPE(8, 10),
                                          TLX_LAYOUT(0, 1), TLX_ZEROS(2))));
  for (int e = 0; e < Count; ++e)
    read[e] = g[e];
  for (int e = 0; e < 80; ++e)
    want[e] = e * 0.5f - 20;
  check("global after typeinfo", read, want);
}

int main(void) {
  zeroAfterTotensor();
  partialAfterTypeInfo();
  opResultAfterReaders();
  v80 p;
  float out[80], read[80], want[80];
  for (int e = 0; e < 80; ++e)
    p[e] = want[e] = e * 0.25f - 9;
  parameterAfterTypeInfo(p, out, read);
  check("parameter after typeinfo", read, want);
  globalAfterTypeInfo();
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}
