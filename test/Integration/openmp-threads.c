// Threads (GemmParallel.cpp): with -fopenmp, big GEMMs are split over the
// OpenMP runtime's threads - by rows when M >= N, by columns otherwise -
// and every thread count must give the same bits (each element of C is
// summed by one thread, in the same order). The program checks each GEMM
// against plain C loops and prints a hash of every result; the runs with
// 1, 2 and 3 threads (3 leaves uneven shares) must print the same lines.
// Big loop nests are shared out too: a transposing exp and a windowed
// reduce.max. It also calls TLX inside its own parallel region (the
// runtime runs the nested fork on the calling thread) and from three
// pthreads at once.
// Without -fopenmp the program neither forks nor links libomp.
// REQUIRES: openmp
// RUN: %clang_tlx -std=c11 -w -O2 -fopenmp %s %tlx_rt -lpthread -lm -o %t
// RUN: env OMP_NUM_THREADS=1 %t > %t.1 && FileCheck %s --check-prefixes=CHECK,CHECK-BF16 < %t.1
// RUN: env OMP_NUM_THREADS=2 %t > %t.2 && diff %t.1 %t.2
// RUN: env OMP_NUM_THREADS=3 %t > %t.3 && diff %t.1 %t.3
// RUN: %clang_tlx -std=c11 -w -O0 -fopenmp %s %tlx_rt -lpthread -lm -o %t0
// RUN: env OMP_NUM_THREADS=1 %t0 > %t.01 && FileCheck %s --check-prefixes=CHECK,CHECK-BF16 < %t.01
// RUN: env OMP_NUM_THREADS=3 %t0 > %t.03 && diff %t.01 %t.03
// RUN: %clang_tlx -std=c11 -w -O2 -fopenmp -Rpass=tlx-tile -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REMARK,REMARK-BF16
// RUN: %clang_tlx -std=c11 -w -O2 -fopenmp -Rpass=tlx-legalize -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS
// RUN: %clang_tlx -std=c11 -w -O2 -fopenmp -fplugin-arg-tlx-threads=off -Rpass=tlx-tile -Rpass=tlx-legalize -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %clang_tlx -std=c11 -w -O2 -Wno-unknown-pragmas %s %tlx_rt -lpthread -lm -o %t.serial
// RUN: %t.serial > %t.s && diff %t.1 %t.s
// RUN: llvm-readelf -d %t.serial | FileCheck %s --check-prefix=NOOMP
// RUN: llvm-readelf -d %t | FileCheck %s --check-prefix=OMP
//
// CHECK: f32 301x173x259 rows: ok
// CHECK: f32 dense 24x300x517 columns: ok
// CHECK: s8 200x256x300 columns: ok
// CHECK-BF16: bf16 160x200x176: ok
// CHECK: s8 mma 150x96x170: ok
// CHECK: small 16x16x16: ok
// CHECK: exp of transpose 517x300: ok
// CHECK: reduce.max 600x517 window 1x11: ok
// CHECK: in the user's parallel region: ok
// CHECK: from 3 pthreads: ok
// CHECK: done
//
// REMARK: remark: matmul: split over the OpenMP threads by rows, {{[0-9]+}} blocks of {{[0-9]+}} (__kmpc_fork_call, static schedule)
// REMARK: remark: matmul: split over the OpenMP threads by columns, {{[0-9]+}} blocks of {{[0-9]+}}
// REMARK: remark: matmul: split over the OpenMP threads by columns
// REMARK-BF16: remark: matmul: split over the OpenMP threads by columns
// REMARK: remark: smma: split over the OpenMP threads by columns
// REMARK-NOT: split over the OpenMP threads by
// LOOPS: remark: exp: outermost loop (517 iterations) split over the OpenMP threads (__kmpc_fork_call, static schedule)
// LOOPS: remark: reduce.max: outermost loop (600 iterations) split over the OpenMP threads
// OFF-NOT: over the OpenMP threads
// NOOMP-NOT: libomp
// OMP: NEEDED{{.*}}libomp
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlx.h>

// clang has no __bf16 for Power in C (docs/pipeline.md).
#if !defined(__powerpc__)
#define HAVE_BF16 1
#endif

#define RM TLX_LAYOUT(0, 1)
#define LOAD2(p, m, n) tensor_load(p, TLX_SHAPE(m, n), RM, TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO2(v, m, n) tensor_typeinfo(v, TLX_SHAPE(m, n), RM, TLX_ZEROS(2))

typedef float vf __attribute__((ext_vector_type(301 * 259)));
typedef float vd __attribute__((ext_vector_type(24 * 517)));
typedef int32_t vi __attribute__((ext_vector_type(200 * 300)));
typedef float vb __attribute__((ext_vector_type(160 * 176)));
typedef int32_t vm __attribute__((ext_vector_type(150 * 170)));
typedef float vs __attribute__((ext_vector_type(16 * 16)));
typedef float ve __attribute__((ext_vector_type(517 * 300)));
typedef float vr __attribute__((ext_vector_type(600 * 47)));
TLX_DECLARE_TENSOR_OPS_AS(vf, f)
TLX_DECLARE_TENSOR_OPS_AS(vd, d)
TLX_DECLARE_TENSOR_OPS_AS(vi, i)
TLX_DECLARE_TENSOR_OPS_AS(vb, b)
TLX_DECLARE_TENSOR_OPS_AS(vm, m)
TLX_DECLARE_TENSOR_OPS_AS(vs, s)
TLX_DECLARE_TENSOR_OPS_AS(ve, e)
TLX_DECLARE_TENSOR_OPS_AS(vr, r)

static float xf[301 * 173], wf[173 * 259], yf[301 * 259];
static float xd[24 * 300], wd[300 * 517], bd[517], yd[24 * 517];
static int8_t x8[200 * 256], w8[256 * 300];
static int32_t y8[200 * 300];
#if HAVE_BF16
static __bf16 xb[160 * 200], wb[200 * 176];
static float yb[160 * 176];
#endif
static int8_t xm[150 * 96], wm[96 * 170];
static int32_t am[150 * 170], ym[150 * 170];
static float xs[256], ws[256], ys[256];
static float xe[300 * 517], ye[517 * 300];
static float xr[600 * 517], yr[600 * 47];

// Rows: M >= N. Tails in every dimension.
__attribute__((noinline)) void f32_gemm(const float *x, const float *w,
                                        float *y) {
  vf r = tensor_matmul_f(LOAD2(x, 301, 173), LOAD2(w, 173, 259));
  tensor_store(y, INFO2(r, 301, 259), TLX_ZEROS(2));
}
// Columns: a short batch, y = relu(x w + b) fused into the GEMM.
__attribute__((noinline)) void dense(void) {
  tlx_token_t tb = tensor_load(bd, TLX_SHAPE(517), TLX_LAYOUT(0),
                               TLX_ZEROS(1), TLX_ZEROS(1));
  vd xw = tensor_matmul_d(LOAD2(xd, 24, 300), LOAD2(wd, 300, 517));
  INFO2(xw, 24, 517);
  vd b = tensor_broadcast_d(tb);
  INFO2(b, 24, 517);
  vd z = xw + b;
  vd r = tensor_relu_d(INFO2(z, 24, 517));
  tensor_store(yd, INFO2(r, 24, 517), TLX_ZEROS(2));
}
__attribute__((noinline)) void s8_gemm(void) {
  vi r = tensor_matmul_i(LOAD2(x8, 200, 256), LOAD2(w8, 256, 300));
  tensor_store(y8, INFO2(r, 200, 300), TLX_ZEROS(2));
}
#if HAVE_BF16
__attribute__((noinline)) void bf16_gemm(void) {
  vb r = tensor_matmul_b(LOAD2(xb, 160, 200), LOAD2(wb, 200, 176));
  tensor_store(yb, INFO2(r, 160, 176), TLX_ZEROS(2));
}
#endif
// mma: the accumulator is read by each thread's share only.
__attribute__((noinline)) void s8_mma(void) {
  vm r = tensor_smma_m(LOAD2(am, 150, 170), LOAD2(xm, 150, 96),
                       LOAD2(wm, 96, 170));
  tensor_store(ym, INFO2(r, 150, 170), TLX_ZEROS(2));
}
// Below the fork threshold: stays on the calling thread.
__attribute__((noinline)) void small_gemm(void) {
  vs r = tensor_matmul_s(LOAD2(xs, 16, 16), LOAD2(ws, 16, 16));
  tensor_store(ys, INFO2(r, 16, 16), TLX_ZEROS(2));
}

// Loop nests: exp of a transpose (element-wise, fused), a windowed max.
__attribute__((noinline)) void exp_transpose(void) {
  ve t = tensor_transpose_e(LOAD2(xe, 300, 517));
  ve e = tensor_exp_e(INFO2(t, 517, 300));
  tensor_store(ye, INFO2(e, 517, 300), TLX_ZEROS(2));
}
__attribute__((noinline)) void window_max(void) {
  vr r = tensor_reduce_max_r(LOAD2(xr, 600, 517), TLX_DIMS(1, 11),
                             TLX_DIMS(1, 11));
  tensor_store(yr, INFO2(r, 600, 47), TLX_ZEROS(2));
}

static void check_loops(void) {
  int bad = 0;
  for (int i = 0; i < 300; i++)
    for (int j = 0; j < 517; j++) {
      float want = expf(xe[i * 517 + j]), got = ye[j * 300 + i];
      bad += fabsf(got - want) > 1e-5f * want;
    }
  printf("exp of transpose 517x300: %s\n", bad ? "bad" : "ok");
  bad = 0;
  for (int i = 0; i < 600; i++)
    for (int j = 0; j < 47; j++) {
      float m = xr[i * 517 + j * 11];
      for (int w = 1; w < 11; w++)
        m = fmaxf(m, xr[i * 517 + j * 11 + w]);
      bad += yr[i * 47 + j] != m;
    }
  printf("reduce.max 600x517 window 1x11: %s\n", bad ? "bad" : "ok");
}

// Integer-valued operands small enough that every float sum is exact.
#define CHECK(NAME, M, K, N, X, W, Y, T, INIT, POST)                           \
  do {                                                                         \
    int bad = 0;                                                               \
    for (int i = 0; i < M; i++)                                                \
      for (int j = 0; j < N; j++) {                                            \
        T s = INIT;                                                            \
        for (int k = 0; k < K; k++)                                            \
          s += (T)X[i * K + k] * (T)W[k * N + j];                              \
        s = POST;                                                              \
        if ((T)Y[i * N + j] != s)                                              \
          bad++;                                                               \
      }                                                                        \
    printf("%s: %s\n", NAME, bad ? "bad" : "ok");                              \
  } while (0)

static uint64_t hash(const void *p, size_t bytes) {
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < bytes; i++)
    h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211u;
  return h;
}

#define NCOPIES 3
static float yc[NCOPIES][301 * 259];

static void *pthread_gemm(void *arg) {
  float *y = arg;
  for (int rep = 0; rep < 3; rep++)
    f32_gemm(xf, wf, y);
  return NULL;
}

static int same_as_yf(void) {
  int bad = 0;
  for (int c = 0; c < NCOPIES; c++)
    bad |= memcmp(yc[c], yf, sizeof yf) != 0;
  return !bad;
}

int main(void) {
  for (int i = 0; i < 301 * 173; i++)
    xf[i] = (float)(i % 9 - 4);
  for (int i = 0; i < 173 * 259; i++)
    wf[i] = (float)(i % 7 - 3);
  for (int i = 0; i < 24 * 300; i++)
    xd[i] = (float)(i % 5 - 2);
  for (int i = 0; i < 300 * 517; i++)
    wd[i] = (float)(i % 11 - 5);
  for (int j = 0; j < 517; j++)
    bd[j] = (float)(j % 13 - 6);
  for (int i = 0; i < 200 * 256; i++)
    x8[i] = (int8_t)((i * 37) % 255 - 127);
  for (int i = 0; i < 256 * 300; i++)
    w8[i] = (int8_t)((i * 53) % 251 - 125);
#if HAVE_BF16
  for (int i = 0; i < 160 * 200; i++)
    xb[i] = (__bf16)(float)(i % 5 - 2);
  for (int i = 0; i < 200 * 176; i++)
    wb[i] = (__bf16)(float)(i % 3 - 1);
#endif
  for (int i = 0; i < 150 * 96; i++)
    xm[i] = (int8_t)((i * 29) % 255 - 127);
  for (int i = 0; i < 96 * 170; i++)
    wm[i] = (int8_t)((i * 31) % 253 - 126);
  for (int i = 0; i < 150 * 170; i++)
    am[i] = i * 1001 - 70000;
  for (int i = 0; i < 256; i++)
    xs[i] = (float)(i % 4), ws[i] = (float)(i % 3 - 1);
  for (int i = 0; i < 300 * 517; i++)
    xe[i] = (float)(i % 17) * 0.1f - 0.8f;
  for (int i = 0; i < 600 * 517; i++)
    xr[i] = (float)((i * 7919) % 1009) - 500.0f;

  f32_gemm(xf, wf, yf);
  dense();
  s8_gemm();
#if HAVE_BF16
  bf16_gemm();
#endif
  s8_mma();
  small_gemm();
  exp_transpose();
  window_max();
  CHECK("f32 301x173x259 rows", 301, 173, 259, xf, wf, yf, float, 0, s);
  CHECK("f32 dense 24x300x517 columns", 24, 300, 517, xd, wd, yd, float,
        bd[j], s > 0 ? s : 0);
  CHECK("s8 200x256x300 columns", 200, 256, 300, x8, w8, y8, int32_t, 0, s);
#if HAVE_BF16
  CHECK("bf16 160x200x176", 160, 200, 176, xb, wb, yb, float, 0, s);
#endif
  CHECK("s8 mma 150x96x170", 150, 96, 170, xm, wm, ym, int32_t,
        am[i * 170 + j], s);
  CHECK("small 16x16x16", 16, 16, 16, xs, ws, ys, float, 0, s);
  check_loops();

  // TLX inside the user's parallel region: each thread its own output
  // (openmp-tsan.test builds a racy variant: all threads write one).
#pragma omp parallel for num_threads(NCOPIES)
  for (int c = 0; c < NCOPIES; c++)
#ifdef RACE_FOR_TSAN
    f32_gemm(xf, wf, yc[0]);
#else
    f32_gemm(xf, wf, yc[c]);
#endif
  printf("in the user's parallel region: %s\n", same_as_yf() ? "ok" : "bad");

  memset(yc, 0, sizeof yc);
  pthread_t threads[NCOPIES];
  for (int c = 0; c < NCOPIES; c++)
    pthread_create(&threads[c], NULL, pthread_gemm, yc[c]);
  for (int c = 0; c < NCOPIES; c++)
    pthread_join(threads[c], NULL);
  printf("from %d pthreads: %s\n", NCOPIES, same_as_yf() ? "ok" : "bad");

  printf("hashes %016llx %016llx %016llx %016llx %016llx %016llx %016llx\n",
         (unsigned long long)hash(yf, sizeof yf),
         (unsigned long long)hash(yd, sizeof yd),
         (unsigned long long)hash(y8, sizeof y8),
#if HAVE_BF16
         (unsigned long long)hash(yb, sizeof yb),
#else
         0ull,
#endif
         (unsigned long long)hash(ym, sizeof ym),
         (unsigned long long)hash(ye, sizeof ye),
         (unsigned long long)hash(yr, sizeof yr));
  printf("done\n");
  return 0;
}
