// A tensor merged twice with different names: an if/else picks a
// column-major initialized vector or its relu (the merge holds the vector),
// then a loop accumulates usmma into it (the loop's merge holds the
// column-major tensor). The copy from the first merge into the second must
// rename the vector, not copy its bytes: it used to write the tensor in
// logical order where the loop read storage order (progs.py seed 601, case
// 616). Both branches, zero and two trips, against plain C.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: if 0, 0 trips: ok
// CHECK: if 1, 0 trips: ok
// CHECK: if 0, 2 trips: ok
// CHECK: if 1, 2 trips: ok
// CHECK-NOT: wrong
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlx.h>

#define M 64
#define N 46
typedef int32_t vacc __attribute__((ext_vector_type(M * N)));
typedef int32_t vb __attribute__((ext_vector_type(N * N)));
vacc tensor_usmma_acc(tlx_token_t, tlx_token_t, tlx_token_t);
vacc tensor_relu_acc(tlx_token_t);

static int32_t B[N * N], Out[N * (M + 1) + 1];

__attribute__((noinline)) static void viaTLX(int pickInput, int trips) {
  vacc a = {0};
  a[2816] = 2; // flat positions of the column-major storage: n * M + m
  a[1739] = -2;
  a[760] = 1;
  tlx_token_t ta = tensor_typeinfo(a, TLX_SHAPE(N, M), TLX_LAYOUT(1, 0),
                                   TLX_ZEROS(2));
  vb b;
  memcpy(&b, B, sizeof b);
  tlx_token_t tb = tensor_typeinfo(b, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                                   TLX_ZEROS(2));
  vacc r = tensor_relu_acc(ta);
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(N, M), TLX_LAYOUT(1, 0),
                                   TLX_ZEROS(2));
  tlx_token_t acc;
  if (pickInput)
    acc = ta;
  else
    acc = tr;
  for (int it = 0; it < trips; it++) {
    vacc s = tensor_usmma_acc(acc, ta, tb);
    acc = tensor_typeinfo(s, TLX_SHAPE(N, M), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
  }
  tensor_store(Out + 1, acc, TLX_DIMS(0, M + 1));
}

static void check(int pickInput, int trips) {
  static int32_t a[M][N], acc[M][N], next[M][N];
  memset(a, 0, sizeof a);
  a[2816 % M][2816 / M] = 2;
  a[1739 % M][1739 / M] = -2;
  a[760 % M][760 / M] = 1;
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++)
      acc[m][n] = pickInput || a[m][n] > 0 ? a[m][n] : 0;
  for (int it = 0; it < trips; it++) {
    for (int m = 0; m < M; m++)
      for (int n = 0; n < N; n++) {
        uint32_t s = (uint32_t)acc[m][n];
        for (int k = 0; k < N; k++)
          s += (uint32_t)a[m][k] * (uint32_t)B[k * N + n];
        next[m][n] = (int32_t)s;
      }
    memcpy(acc, next, sizeof acc);
  }
  memset(Out, 0x5a, sizeof Out);
  viaTLX(pickInput, trips);
  int bad = 0;
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++)
      bad += Out[n * (M + 1) + m + 1] != acc[m][n];
  printf("if %d, %d trips: %s\n", pickInput, trips, bad ? "wrong" : "ok");
}

int main(void) {
  for (int i = 0; i < N * N; i++)
    B[i] = (i * 7) % 5 - 2;
  check(0, 0);
  check(1, 0);
  check(0, 2);
  check(1, 2);
  return 0;
}
