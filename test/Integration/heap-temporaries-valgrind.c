// Heap temporaries (results over 4 KiB read by several ops, reused buffers,
// packed copies, im2col buffers) are freed: no leaks, no invalid accesses.
// REQUIRES: valgrind
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0
// RUN: valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=1 %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2
// RUN: valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=1 %t2 | FileCheck %s
// CHECK: chain: ok
// CHECK: batch innermost: ok
// CHECK: conv: ok
// CHECK: PASSED
#include "Inputs/oracle.h"
#include <tlx.h>

enum { N = 48 };
typedef float vNN __attribute__((__vector_size__(N * N * 4)));
typedef float v2NN __attribute__((__vector_size__(2 * N * N * 4)));
typedef float vconv __attribute__((__vector_size__(2 * 4 * 30 * 30 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(vNN, f)
TLX_DECLARE_TENSOR_OPS_AS(v2NN, f2)
TLX_DECLARE_TENSOR_OPS_AS(vconv, c)

// m = a x b (heap: 9216 bytes), r = relu(m) reuses m's buffer,
// out = r x r.
static void chain(void) {
  static float a[N * N], b[N * N], out[N * N], t1[N * N], t2[N * N],
      want[N * N];
  const int64_t s[] = {N, N};
  tlx_tensor ta = desc(a, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor tb = desc(b, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor to = desc(out, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor tt1 = desc(t1, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor tt2 = desc(t2, TLX_F32, 2, s, NULL, NULL);
  tlx_tensor tw = desc(want, TLX_F32, 2, s, NULL, NULL);
  fillRandom(&ta, 2);
  fillRandom(&tb, 2);
  refOk("matmul", tlx_ref_matmul(&ta, &tb, &tt1));
  refOk("relu", tlx_ref_unary(TLX_RELU, &tt1, &tt2));
  refOk("matmul", tlx_ref_matmul(&tt2, &tt2, &tw));
  tlx_token_t xa = tensor_load(a, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t xb = tensor_load(b, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  vNN m = tensor_matmul_f(xa, xb);
  tlx_token_t xm = tensor_typeinfo(m, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                                   TLX_ZEROS(2));
  vNN r = tensor_relu_f(xm);
  tlx_token_t xr = tensor_typeinfo(r, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                                   TLX_ZEROS(2));
  vNN o = tensor_matmul_f(xr, xr);
  tensor_store(out, tensor_typeinfo(o, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                                    TLX_ZEROS(2)),
               TLX_ZEROS(2));
  compare("chain", &to, &tw, 1e-4);
}

// Batched matmul with the batch dim innermost: packed heap copies.
static void batchInnermost(void) {
  static float a[2 * N * N], b[2 * N * N], c[2 * N * N], want[2 * N * N];
  const int64_t sa[] = {N, N, 2}, la[] = {1, 2, 0}, sb[] = {2, N, N},
                sw[] = {2, N, N};
  tlx_tensor ta = desc(a, TLX_F32, 3, sa, la, NULL);
  tlx_tensor tb = desc(b, TLX_F32, 3, sb, NULL, NULL);
  tlx_tensor tc = desc(c, TLX_F32, 3, sa, la, NULL);
  tlx_tensor tw = desc(want, TLX_F32, 3, sw, NULL, NULL);
  fillRandom(&ta, 2);
  fillRandom(&tb, 2);
  refOk("matmul", tlx_ref_matmul(&ta, &tb, &tw));
  tlx_token_t xa = tensor_load(a, TLX_SHAPE(N, N, 2), TLX_LAYOUT(1, 2, 0),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  tlx_token_t xb = tensor_load(b, TLX_SHAPE(2, N, N), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  v2NN r = tensor_matmul_f2(xa, xb);
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(N, N, 2), TLX_LAYOUT(1, 2, 0),
                                  TLX_ZEROS(3)),
               TLX_ZEROS(3));
  compare("batch innermost", &tc, &tw, 1e-4);
}

// in [2,3,32,32] * kernel [4,3,3,3] -> [2,4,30,30].
static void conv(void) {
  static float in[2 * 3 * 32 * 32], k[4 * 3 * 9], o[2 * 4 * 30 * 30],
      want[2 * 4 * 30 * 30];
  const int64_t si[] = {2, 3, 32, 32}, sk[] = {4, 3, 3, 3},
                so[] = {2, 4, 30, 30};
  tlx_tensor ti = desc(in, TLX_F32, 4, si, NULL, NULL);
  tlx_tensor tk = desc(k, TLX_F32, 4, sk, NULL, NULL);
  tlx_tensor to = desc(o, TLX_F32, 4, so, NULL, NULL);
  tlx_tensor tw = desc(want, TLX_F32, 4, so, NULL, NULL);
  fillRandom(&ti, 2);
  fillRandom(&tk, 2);
  refOk("conv", tlx_ref_convolution(&ti, &tk, NULL, NULL, NULL, &tw));
  tlx_token_t xi = tensor_load(in, TLX_SHAPE(2, 3, 32, 32),
                               TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                               TLX_ZEROS(4));
  tlx_token_t xk = tensor_load(k, TLX_SHAPE(4, 3, 3, 3),
                               TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                               TLX_ZEROS(4));
  vconv r = tensor_convolution_c(xi, xk);
  tensor_store(o, tensor_typeinfo(r, TLX_SHAPE(2, 4, 30, 30),
                                  TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4)),
               TLX_ZEROS(4));
  compare("conv", &to, &tw, 1e-4);
}

int main(void) {
  chain();
  batchInnermost();
  conv();
  return finish();
}
