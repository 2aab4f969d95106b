// 16 MiB tensors (2048x2048 floats) returned by value, passed by value
// (directly, through a function pointer, recursively and in a loop) and as
// a zero-initialized local, on the default 8 MiB stack: tlx-heap-values
// keeps every value above 64 KiB on the heap (byval -> pointer to a caller
// copy) and frees it on every return. The address-space limit catches a
// buffer leaked per call in the loop (64 calls x 2 x 16 MiB); the time limit
// a compile that never ends (without the pass, -O2 ran for more than 7
// minutes).
// RUN: timeout 300 %clang_tlx -w -O0 %s %tlx_rt -o %t0
// RUN: bash -c 'ulimit -s 8192; ulimit -v 1000000; exec %t0' | FileCheck %s
// RUN: timeout 300 %clang_tlx -w -O2 %s %tlx_rt -o %t2
// RUN: bash -c 'ulimit -s 8192; ulimit -v 1000000; exec %t2' | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: returned by value: ok
// CHECK: passed by value: ok
// CHECK: passed and returned: ok
// CHECK: through a pointer: ok
// CHECK: recursion: ok
// CHECK: zero local: ok
// CHECK: loop: ok
// CHECK: PASSED
#include <stdio.h>
#include <tlx.h>

#define N 2048
typedef float big_t __attribute__((__vector_size__(N * N * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(big_t)

static float in[N * N];
static int failures;

static float value(int i) { return (float)((i * 7) % 23 - 11); }

static void check(const char *what, int ok) {
  printf("%s: %s\n", what, ok ? "ok" : "FAIL");
  failures += !ok;
}

// Returned by value: relu of the input.
__attribute__((noinline)) big_t reluOf(const float *p) {
  tlx_token_t t = tensor_load(p, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  return tensor_relu(t);
}

// Passed by value: element reads.
__attribute__((noinline)) float pick(big_t v, int i) { return v[i]; }

// Passed and returned by value: the transpose of the parameter.
__attribute__((noinline)) big_t transposeOf(big_t v) {
  tlx_token_t t = tensor_typeinfo(v, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                                  TLX_ZEROS(2));
  big_t r = tensor_transpose(t);
  tensor_typeinfo(r, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  return r;
}

// Each level passes its parameter on by value (5 levels: 80 MiB).
__attribute__((noinline)) float sumRec(big_t v, int depth) {
  if (depth == 0)
    return v[0];
  return v[depth * 1000] + sumRec(v, depth - 1);
}

static float relu(float x) { return x > 0 ? x : 0; }
static float absf(float x) { return x < 0 ? -x : x; }

static int samples(big_t v, float (*want)(int)) {
  for (int i = 0; i < N * N; i += 4093)
    if (v[i] != want(i))
      return 0;
  return v[N * N - 1] == want(N * N - 1);
}

static float wantRelu(int i) { return relu(value(i)); }
static float wantTransposed(int i) { return relu(value((i % N) * N + i / N)); }
static float wantAbs(int i) { return absf(value(i)); }

int main(void) {
  for (int i = 0; i < N * N; i++)
    in[i] = value(i);

  big_t r = reluOf(in);
  check("returned by value", samples(r, wantRelu));

  int ok = 1;
  for (int i = 0; i < N * N; i += 65537)
    ok &= pick(r, i) == wantRelu(i);
  check("passed by value", ok);

  big_t t = transposeOf(r);
  check("passed and returned", samples(t, wantTransposed));

  big_t (*volatile fp)(big_t) = transposeOf;
  big_t tt = fp(t);
  check("through a pointer", samples(tt, wantRelu));

  tlx_token_t tin = tensor_load(in, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                                TLX_ZEROS(2), TLX_ZEROS(2));
  big_t a = tensor_fabs(tin);
  float wantSum = 0;
  for (int d = 0; d <= 4; d++)
    wantSum += wantAbs(d * 1000);
  check("recursion", sumRec(a, 4) == wantSum);

  big_t z = {0};
  check("zero local", pick(z, 12345) == 0 && pick(z, N * N - 1) == 0);

  float sum = 0, want = 0;
  for (int k = 0; k < 64; k++) {
    sum += pick(reluOf(in), k * 1000);
    want += wantRelu(k * 1000);
  }
  check("loop", sum == want);

  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures != 0;
}
