// Regression test (AMX lowering), found by the differential generator with
// --amx-shapes (seed 5: smma i8 [2, 77] x [77, 37] crashed, matmul i8->i32
// [14, 90] x [90, 34] wrote past C). Int8 x int8 -> int32 matmul through
// AMX with N > 32: small M with N in 33..80 used to crash, and the
// 16-column N tail at M = 16, K = 64, N = 33 was stored past the end of C.
// C is followed by 16 guard elements that must stay untouched.
// RUN: %clang_tlx -std=c11 -O0 -fplugin-arg-tlx-target=amx-emulate -DM=2 -DK=4 -DN=36 %s %tlx_rt -o %t.a
// RUN: %t.a | FileCheck %s --check-prefix=SMALLM
// RUN: %clang_tlx -std=c11 -O2 -fplugin-arg-tlx-target=amx-emulate -DM=1 -DK=4 -DN=80 %s %tlx_rt -o %t.c
// RUN: %t.c | FileCheck %s --check-prefix=WIDE
// RUN: %clang_tlx -std=c11 -O2 -fplugin-arg-tlx-target=amx-emulate -DM=16 -DK=64 -DN=33 %s %tlx_rt -o %t.b
// RUN: %t.b | FileCheck %s --check-prefix=TAIL
// RUN: %if amx-hw %{ %clang_tlx -std=c11 -O0 -fplugin-arg-tlx-target=amx -DM=16 -DK=64 -DN=33 %s %tlx_rt -o %t.n && %t.n | FileCheck %s --check-prefix=TAIL %}
// SMALLM: amx 2x4x36: OK
// WIDE: amx 1x4x80: OK
// TAIL: amx 16x64x33: OK
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlx.h>
#include <tlxrt.h>
#ifndef M
#define M 1
#endif
#ifndef K
#define K 4
#endif
#ifndef N
#define N 33
#endif
typedef int32_t acc_t __attribute__((__vector_size__(M * N * 4)));
TLX_DECLARE_TENSOR_OPS(acc_t)
__attribute__((noinline)) static void mm(const int8_t *a, const int8_t *b, int32_t *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(M, K), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(K, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2));
  acc_t r = tensor_matmul(ta, tb);
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(M, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tensor_store(c, tr, TLX_ZEROS(2));
}
int main(void) {
  static int8_t a[M * K], b[K * N];
  static int32_t c[M * N + 16], ref[M * N + 16];
  for (int i = 0; i < M * K; i++) a[i] = (int8_t)(i * 7 + 1);
  for (int i = 0; i < K * N; i++) b[i] = (int8_t)(i * 5 - 3);
  memset(c, 0x5a, sizeof c);
  memset(ref, 0x5a, sizeof ref);
  mm(a, b, c);
  tlx_tensor da, db, dc;
  tlx_tensor_init(&da, a, TLX_I8, 2, (const int64_t[]){M, K}, 0, 0, 0);
  tlx_tensor_init(&db, b, TLX_I8, 2, (const int64_t[]){K, N}, 0, 0, 0);
  tlx_tensor_init(&dc, ref, TLX_I32, 2, (const int64_t[]){M, N}, 0, 0, 0);
  if (tlx_ref_matmul(&da, &db, &dc)) return 2;
  int bad = 0, first = -1;
  for (int i = 0; i < M * N + 16; i++) if (c[i] != ref[i]) { bad++; if (first < 0) first = i; }
  printf("amx %dx%dx%d: %s", M, K, N, bad ? "FAILED" : "OK");
  if (bad) printf(" (%d of %d differ, first at %d: got %d expected %d)", bad, M * N + 16, first, c[first], ref[first]);
  printf("\n");
  return bad != 0;
}
