// A vector variable assigned TLX results on several paths (if/else, switch,
// ?:, a loop) and named by one tensor_typeinfo after the merge is the same
// tensor at every use: an op without a typeinfo of its own writes its
// result as the typeinfo after the merge says; C vectors and results typed
// on their own path are flat data the typeinfo reads with its own type
// (docs/pipeline.md, "Merged values"). Every element - C reading the merged
// vector, and TLX ops reading it - against plain C, for every path.
// RUN: %clang_tlx -std=c11 -Wall -Werror -Wno-psabi -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -Wall -Werror -Wno-psabi -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: if/else, permuted 3-D: ok
// CHECK: switch: ok
// CHECK: select: ok
// CHECK: loop: ok
// CHECK: broadcast typed after the merge: ok
// CHECK: PASSED
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tlx.h>

typedef float v120 __attribute__((__vector_size__(120 * sizeof(float))));
typedef float v6 __attribute__((__vector_size__(6 * sizeof(float))));
typedef float v9 __attribute__((ext_vector_type(9)));
TLX_DECLARE_TENSOR_OPS(v120)
TLX_DECLARE_TENSOR_OPS_AS(v6, 6)
TLX_DECLARE_TENSOR_OPS_AS(v9, 9)

static volatile int Paths[] = {0, 1, 2, 3};
static int failures;

static void check(const char *what, int path, const float *got,
                  const float *want, int n) {
  for (int i = 0; i < n; ++i)
    if (got[i] != want[i] && failures++ < 10)
      printf("%s, path %d: [%d] = %g, want %g\n", what, path, i, got[i],
             want[i]);
}

/* (sizeof rounds a vector up to a power of two: copy the elements.) */
__attribute__((noinline)) static void sink120(v120 v, float *out) {
  memcpy(out, &v, 120 * sizeof(float));
}
__attribute__((noinline)) static void sink6(v6 v, float *out) {
  memcpy(out, &v, 6 * sizeof(float));
}

/* The program: t1 a 3x5x8 load, its one-operand transpose (3x8x5);
 * t4 an 8x5 load broadcast to 3x8x5 stored as (8, 3, 5) with layout
 * (1, 0, 2); the merge named (5, 8, 3) with layout (2, 1, 0). */
static void ifElse3D(int flag, int *ok) {
  float a[3][5][8], b[8][5];
  for (int i = 0; i < 120; ++i)
    (&a[0][0][0])[i] = i * 0.5f - 7.25f;
  for (int i = 0; i < 40; ++i)
    (&b[0][0])[i] = i * 1.25f - 3.125f;
  tlx_token_t t1 = tensor_load(a, TLX_SHAPE(3, 5, 8), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  tlx_token_t tb = TLX_LOAD(b, 8, 5);
  v120 v5;
  if (flag) {
    v5 = tensor_transpose(t1);
  } else {
    v120 bc = tensor_broadcast(tb);
    tlx_token_t t4 = tensor_typeinfo(bc, TLX_SHAPE(8, 3, 5),
                                     TLX_LAYOUT(1, 0, 2), TLX_ZEROS(3));
    v5 = tensor_ceil(t4);
  }
  tlx_token_t t5 = tensor_typeinfo(v5, TLX_SHAPE(5, 8, 3),
                                   TLX_LAYOUT(2, 1, 0), TLX_ZEROS(3));
  float flat[120], relu[3][8][5], want[120], wantRelu[120];
  sink120(v5, flat);
  v120 r = tensor_relu(t5);
  tensor_store(relu,
               tensor_typeinfo(r, TLX_SHAPE(3, 8, 5), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3)),
               TLX_ZEROS(3));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 5; ++k) {
        float x = flag ? a[i][k][j] : ceilf(b[j][k]);
        want[k * 24 + j * 3 + i] = x; /* storage (k, j, i) */
        wantRelu[(i * 8 + j) * 5 + k] = x > 0 ? x : 0;
      }
  int before = failures;
  check("if/else: C reads", flag, flat, want, 120);
  check("if/else: relu", flag, &relu[0][0][0], wantRelu, 120);
  *ok &= failures == before;
}

/* Four producers of one 2x3 tensor named column-major after a switch: an op
 * without a typeinfo (written column-major), a C vector (flat data), an op
 * typed row-major on its path (flat data read column-major), a transpose
 * whose permutation is the merged layout. */
static void switchPaths(int path, int *ok) {
  float a[2][3] = {{1.5f, -2.5f, 3}, {-4, 5.5f, -6}};
  tlx_token_t t = TLX_LOAD(a, 2, 3);
  v6 v;
  switch (path) {
  case 0:
    v = tensor_fabs_6(t);
    break;
  case 1:
    v = (v6){1, -2, 3, -4, 5, -6};
    break;
  case 2:
    v = tensor_ceil_6(t);
    (void)tensor_typeinfo(v, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
    break;
  default:
    v = tensor_transpose_6(t, TLX_LAYOUT(1, 0));
    break;
  }
  tlx_token_t tv =
      tensor_typeinfo(v, TLX_SHAPE(3, 2), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
  float flat[6], relu[2][3], want[6], wantRelu[6];
  sink6(v, flat);
  TLX_STORE(relu, tlx_relu(tv));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      float x = path == 0 ? fabsf(a[i][j]) : a[i][j];
      want[j * 2 + i] = x; /* column-major */
    }
  if (path == 1)
    for (int e = 0; e < 6; ++e)
      want[e] = (float[]){1, -2, 3, -4, 5, -6}[e];
  if (path == 2)
    for (int e = 0; e < 6; ++e)
      want[e] = ceilf((&a[0][0])[e]); /* row-major flat data */
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      float x = want[j * 2 + i];
      wantRelu[i * 3 + j] = x > 0 ? x : 0;
    }
  int before = failures;
  check("switch: C reads", path, flat, want, 6);
  check("switch: relu", path, &relu[0][0], wantRelu, 6);
  *ok &= failures == before;
}

/* v = flag ? floor(t) : ceil(t), named column-major. */
static void selectPaths(int flag, int *ok) {
  float a[2][3] = {{1.5f, -2.5f, 3.25f}, {-4.75f, 5.5f, -6}};
  tlx_token_t t = TLX_LOAD(a, 2, 3);
  v6 v = flag ? tensor_floor_6(t) : tensor_ceil_6(t);
  tlx_token_t tv =
      tensor_typeinfo(v, TLX_SHAPE(3, 2), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
  float flat[6], copy[6], relu[2][3], want[6], wantRelu[6];
  sink6(v, flat);
  TLX_STORE(copy, tv); /* a store keeps the storage order: column-major */
  TLX_STORE(relu, tlx_relu(tv));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      float x = flag ? floorf(a[i][j]) : ceilf(a[i][j]);
      want[j * 2 + i] = x;
      wantRelu[i * 3 + j] = x > 0 ? x : 0;
    }
  int before = failures;
  check("select: C reads", flag, flat, want, 6);
  check("select: store", flag, copy, want, 6);
  check("select: relu", flag, &relu[0][0], wantRelu, 6);
  *ok &= failures == before;
}

/* A loop-carried vector, named column-major inside the loop: each
 * iteration transposes it (one-operand transpose: logical). It starts as
 * an op without a typeinfo (path 0) or as a C vector (path 1). */
static void loopCarried(int path, int trips, int *ok) {
  float a[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  v9 v = path == 0 ? tensor_fabs_9(TLX_LOAD(a, 3, 3))
                   : (v9){1, 2, 3, 4, 5, 6, 7, 8, 9};
  for (int it = 0; it < trips; ++it) {
    tlx_token_t tv =
        tensor_typeinfo(v, TLX_SHAPE(3, 3), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
    v = tensor_transpose_9(tv);
  }
  float flat[9], want[9];
  for (int e = 0; e < 9; ++e)
    flat[e] = v[e];
  /* Logical value before the loop: a (path 0: the op writes column-major,
   * as the typeinfo in the loop names it), or the C vector's flat data
   * read column-major (path 1). */
  float logical[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      logical[i][j] = path == 0 ? a[i][j] : (float)(j * 3 + i + 1);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      float x = trips % 2 ? logical[j][i] : logical[i][j];
      want[j * 3 + i] = x;
    }
  int before = failures;
  check("loop: C reads", path * 10 + trips, flat, want, 9);
  *ok &= failures == before;
}

/* A one-operand broadcast takes its shape from its result typeinfo: here
 * only the one after the merge names it. */
static void broadcastNamedAfter(int flag, int *ok) {
  float row[3] = {1, -2, 3}, a[2][3] = {{6, 5, 4}, {3, 2, 1}};
  v6 v;
  if (flag)
    v = tensor_broadcast_6(TLX_LOAD(row, 1, 3));
  else
    v = tensor_fabs_6(TLX_LOAD(a, 2, 3));
  tlx_token_t tv =
      tensor_typeinfo(v, TLX_SHAPE(3, 2), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
  float out[2][3], want[6];
  TLX_STORE(out, tlx_fabs(tv));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      want[i * 3 + j] = fabsf(flag ? row[j] : a[i][j]);
  int before = failures;
  check("broadcast", flag, &out[0][0], want, 6);
  *ok &= failures == before;
}

int main(void) {
  int ok = 1;
  for (int f = 0; f < 2; ++f)
    ifElse3D(Paths[f], &ok);
  printf("if/else, permuted 3-D: %s\n", ok ? "ok" : "FAILED");
  ok = 1;
  for (int p = 0; p < 4; ++p)
    switchPaths(Paths[p], &ok);
  printf("switch: %s\n", ok ? "ok" : "FAILED");
  ok = 1;
  for (int f = 0; f < 2; ++f)
    selectPaths(Paths[f], &ok);
  printf("select: %s\n", ok ? "ok" : "FAILED");
  ok = 1;
  for (int p = 0; p < 2; ++p)
    for (int trips = 0; trips < 4; ++trips)
      loopCarried(Paths[p], Paths[trips], &ok);
  printf("loop: %s\n", ok ? "ok" : "FAILED");
  ok = 1;
  for (int f = 0; f < 2; ++f)
    broadcastNamedAfter(Paths[f], &ok);
  printf("broadcast typed after the merge: %s\n", ok ? "ok" : "FAILED");
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}
