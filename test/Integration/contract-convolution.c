// contract (tensordot) on several axis pairings, through direct 2-D views
// and through packed copies; convolution with strides, input and kernel
// dilations (im2col + GEMM per output row), 1-D, 2-D, and the two-operand
// form, with a column-major result; 1x1 convolutions (one GEMM per image
// over its pixels, no im2col) on NCHW and channels-last data with a batch
// of 2, and the 1x1 forms that still take im2col (stride 2; an output
// whose pixels do not collapse into one strided dim).
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: contract A^T B: ok
// CHECK: contract two axes, swapped: ok
// CHECK: contract f16 middle axis: ok
// CHECK: conv2d strides dilations: ok
// CHECK: conv1d two operands: ok
// CHECK: conv2d i32 colmajor out: ok
// CHECK: conv 1x1 nchw batch 2: ok
// CHECK: conv 1x1 channels-last batch 2: ok
// CHECK: conv 1x1 stride 2: ok
// CHECK: conv 1x1 i32 transposed out: ok
// CHECK: PASSED
#include "Inputs/oracle.h"
#include <tlx.h>

typedef float v18f __attribute__((__vector_size__(18 * 4)));
typedef float v24f __attribute__((__vector_size__(24 * 4)));
typedef _Float16 v40h __attribute__((__vector_size__(40 * 2)));
typedef float v224f __attribute__((__vector_size__(224 * 4)));
typedef float v36f __attribute__((__vector_size__(36 * 4)));
typedef int32_t v48i __attribute__((__vector_size__(48 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(v18f, f18)
TLX_DECLARE_TENSOR_OPS_AS(v24f, f24)
TLX_DECLARE_TENSOR_OPS_AS(v40h, h40)
TLX_DECLARE_TENSOR_OPS_AS(v224f, f224)
TLX_DECLARE_TENSOR_OPS_AS(v36f, f36)
TLX_DECLARE_TENSOR_OPS_AS(v48i, i48)
typedef float v504f __attribute__((__vector_size__(504 * 4)));
typedef float v210f __attribute__((__vector_size__(210 * 4)));
typedef int32_t v108i __attribute__((__vector_size__(108 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(v504f, f504)
TLX_DECLARE_TENSOR_OPS_AS(v210f, f210)
TLX_DECLARE_TENSOR_OPS_AS(v108i, i108)

static void contracts(void) {
  { // A [4,6], B [4,3]: contract dim 0 with dim 0 -> [6,3]
    float a[24], b[12], c[18], w[18];
    const int64_t sa[] = {4, 6}, sb[] = {4, 3}, sc[] = {6, 3}, ax[] = {0},
                  bx[] = {0};
    tlx_tensor ta = desc(a, TLX_F32, 2, sa, NULL, NULL);
    tlx_tensor tb = desc(b, TLX_F32, 2, sb, NULL, NULL);
    tlx_tensor tc = desc(c, TLX_F32, 2, sc, NULL, NULL);
    tlx_tensor tw = desc(w, TLX_F32, 2, sc, NULL, NULL);
    fillRandom(&ta, 5);
    fillRandom(&tb, 5);
    refOk("contract", tlx_ref_contract(&ta, &tb, 1, ax, bx, &tw));
    tlx_token_t xa = tensor_load(a, TLX_SHAPE(4, 6), TLX_LAYOUT(0, 1),
                                 TLX_ZEROS(2), TLX_ZEROS(2));
    tlx_token_t xb = tensor_load(b, TLX_SHAPE(4, 3), TLX_LAYOUT(0, 1),
                                 TLX_ZEROS(2), TLX_ZEROS(2));
    v18f r = tensor_contract_f18(xa, xb, TLX_DIMS(0), TLX_DIMS(0));
    tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(6, 3), TLX_LAYOUT(0, 1),
                                    TLX_ZEROS(2)),
                 TLX_ZEROS(2));
    compare("contract A^T B", &tc, &tw, 1e-5);
  }
  { // A [3,4,5], B [5,4,8]: A axes <1,2> with B axes <1,0> -> [3,8]; B's
    // contracted dims are in the opposite order: packed first.
    float a[60], b[160], c[24], w[24];
    const int64_t sa[] = {3, 4, 5}, sb[] = {5, 4, 8}, sc[] = {3, 8},
                  ax[] = {1, 2}, bx[] = {1, 0};
    tlx_tensor ta = desc(a, TLX_F32, 3, sa, NULL, NULL);
    tlx_tensor tb = desc(b, TLX_F32, 3, sb, NULL, NULL);
    tlx_tensor tc = desc(c, TLX_F32, 2, sc, NULL, NULL);
    tlx_tensor tw = desc(w, TLX_F32, 2, sc, NULL, NULL);
    fillRandom(&ta, 5);
    fillRandom(&tb, 5);
    refOk("contract", tlx_ref_contract(&ta, &tb, 2, ax, bx, &tw));
    tlx_token_t xa = tensor_load(a, TLX_SHAPE(3, 4, 5), TLX_LAYOUT(0, 1, 2),
                                 TLX_ZEROS(3), TLX_ZEROS(3));
    tlx_token_t xb = tensor_load(b, TLX_SHAPE(5, 4, 8), TLX_LAYOUT(0, 1, 2),
                                 TLX_ZEROS(3), TLX_ZEROS(3));
    v24f r = tensor_contract_f24(xa, xb, TLX_DIMS(1, 2), TLX_DIMS(1, 0));
    tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(3, 8), TLX_LAYOUT(0, 1),
                                    TLX_ZEROS(2)),
                 TLX_ZEROS(2));
    compare("contract two axes, swapped", &tc, &tw, 1e-5);
  }
  { // f16: A [2,3,4] axis 1 with B [5,3] axis 1 -> [2,4,5], stored <2,0,1>
    _Float16 a[24], b[15], c[40], w[40];
    const int64_t sa[] = {2, 3, 4}, sb[] = {5, 3}, sc[] = {5, 2, 4},
                  lc[] = {2, 0, 1}, sw[] = {2, 4, 5}, ax[] = {1}, bx[] = {1};
    tlx_tensor ta = desc(a, TLX_F16, 3, sa, NULL, NULL);
    tlx_tensor tb = desc(b, TLX_F16, 2, sb, NULL, NULL);
    tlx_tensor tc = desc(c, TLX_F16, 3, sc, lc, NULL);
    tlx_tensor tw = desc(w, TLX_F16, 3, sw, NULL, NULL);
    fillRandom(&ta, 3);
    fillRandom(&tb, 3);
    refOk("contract", tlx_ref_contract(&ta, &tb, 1, ax, bx, &tw));
    tlx_token_t xa = tensor_load(a, TLX_SHAPE(2, 3, 4), TLX_LAYOUT(0, 1, 2),
                                 TLX_ZEROS(3), TLX_ZEROS(3));
    tlx_token_t xb = tensor_load(b, TLX_SHAPE(5, 3), TLX_LAYOUT(0, 1),
                                 TLX_ZEROS(2), TLX_ZEROS(2));
    v40h r = tensor_contract_h40(xa, xb, TLX_DIMS(1), TLX_DIMS(1));
    tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(5, 2, 4),
                                    TLX_LAYOUT(2, 0, 1), TLX_ZEROS(3)),
                 TLX_ZEROS(3));
    compare("contract f16 middle axis", &tc, &tw, 1e-3);
  }
}

static void convolutions(void) {
  { // in [2,3,7,8], kernel [4,3,3,2], strides <2,1>, input dilation <1,2>,
    // kernel dilation <2,1> -> [2,4,2,14]
    float in[336], k[72], o[224], w[224];
    const int64_t si[] = {2, 3, 7, 8}, sk[] = {4, 3, 3, 2},
                  so[] = {2, 4, 2, 14}, st[] = {2, 1}, id[] = {1, 2},
                  kd[] = {2, 1};
    tlx_tensor ti = desc(in, TLX_F32, 4, si, NULL, NULL);
    tlx_tensor tk = desc(k, TLX_F32, 4, sk, NULL, NULL);
    tlx_tensor to = desc(o, TLX_F32, 4, so, NULL, NULL);
    tlx_tensor tw = desc(w, TLX_F32, 4, so, NULL, NULL);
    fillRandom(&ti, 3);
    fillRandom(&tk, 3);
    refOk("conv", tlx_ref_convolution(&ti, &tk, st, id, kd, &tw));
    tlx_token_t xi = tensor_load(in, TLX_SHAPE(2, 3, 7, 8),
                                 TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                                 TLX_ZEROS(4));
    tlx_token_t xk = tensor_load(k, TLX_SHAPE(4, 3, 3, 2),
                                 TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                                 TLX_ZEROS(4));
    v224f r = tensor_convolution_f224(xi, xk, TLX_DIMS(2, 1), TLX_DIMS(1, 2),
                                      TLX_DIMS(2, 1));
    tensor_store(o, tensor_typeinfo(r, TLX_SHAPE(2, 4, 2, 14),
                                    TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4)),
                 TLX_ZEROS(4));
    compare("conv2d strides dilations", &to, &tw, 1e-5);
  }
  { // 1-D: in [1,2,14], kernel [3,2,3], unit strides -> [1,3,12]
    float in[28], k[18], o[36], w[36];
    const int64_t si[] = {1, 2, 14}, sk[] = {3, 2, 3}, so[] = {1, 3, 12};
    tlx_tensor ti = desc(in, TLX_F32, 3, si, NULL, NULL);
    tlx_tensor tk = desc(k, TLX_F32, 3, sk, NULL, NULL);
    tlx_tensor to = desc(o, TLX_F32, 3, so, NULL, NULL);
    tlx_tensor tw = desc(w, TLX_F32, 3, so, NULL, NULL);
    fillRandom(&ti, 3);
    fillRandom(&tk, 3);
    refOk("conv", tlx_ref_convolution(&ti, &tk, NULL, NULL, NULL, &tw));
    tlx_token_t xi = tensor_load(in, TLX_SHAPE(1, 2, 14), TLX_LAYOUT(0, 1, 2),
                                 TLX_ZEROS(3), TLX_ZEROS(3));
    tlx_token_t xk = tensor_load(k, TLX_SHAPE(3, 2, 3), TLX_LAYOUT(0, 1, 2),
                                 TLX_ZEROS(3), TLX_ZEROS(3));
    v36f r = tensor_convolution_f36(xi, xk);
    tensor_store(o, tensor_typeinfo(r, TLX_SHAPE(1, 3, 12),
                                    TLX_LAYOUT(0, 1, 2), TLX_ZEROS(3)),
                 TLX_ZEROS(3));
    compare("conv1d two operands", &to, &tw, 1e-5);
  }
  { // i32, in [1,2,6,6] kernel [3,2,3,3] -> [1,3,4,4], stored with layout
    // <0,3,2,1> (storage [1,4,4,3]: channels innermost, rows transposed).
    int32_t in[72], k[54], o[48], w[48];
    const int64_t si[] = {1, 2, 6, 6}, sk[] = {3, 2, 3, 3},
                  so[] = {1, 4, 4, 3}, lo[] = {0, 3, 2, 1}, sw[] = {1, 3, 4, 4};
    tlx_tensor ti = desc(in, TLX_I32, 4, si, NULL, NULL);
    tlx_tensor tk = desc(k, TLX_I32, 4, sk, NULL, NULL);
    tlx_tensor to = desc(o, TLX_I32, 4, so, lo, NULL);
    tlx_tensor tw = desc(w, TLX_I32, 4, sw, NULL, NULL);
    fillRandom(&ti, 100);
    fillRandom(&tk, 100);
    refOk("conv", tlx_ref_convolution(&ti, &tk, NULL, NULL, NULL, &tw));
    tlx_token_t xi = tensor_load(in, TLX_SHAPE(1, 2, 6, 6),
                                 TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                                 TLX_ZEROS(4));
    tlx_token_t xk = tensor_load(k, TLX_SHAPE(3, 2, 3, 3),
                                 TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                                 TLX_ZEROS(4));
    v48i r = tensor_convolution_i48(xi, xk, TLX_DIMS(1, 1), TLX_DIMS(1, 1),
                                    TLX_DIMS(1, 1));
    tensor_store(o, tensor_typeinfo(r, TLX_SHAPE(1, 4, 4, 3),
                                    TLX_LAYOUT(0, 3, 2, 1), TLX_ZEROS(4)),
                 TLX_ZEROS(4));
    compare("conv2d i32 colmajor out", &to, &tw, 0);
  }
}

static void pointwise(void) {
  { // in [2,5,7,9] kernel [4,5,1,1] -> [2,4,7,9], all NCHW
    static float in[630], k[20], o[504], w[504];
    const int64_t si[] = {2, 5, 7, 9}, sk[] = {4, 5, 1, 1},
                  so[] = {2, 4, 7, 9};
    tlx_tensor ti = desc(in, TLX_F32, 4, si, NULL, NULL);
    tlx_tensor tk = desc(k, TLX_F32, 4, sk, NULL, NULL);
    tlx_tensor to = desc(o, TLX_F32, 4, so, NULL, NULL);
    tlx_tensor tw = desc(w, TLX_F32, 4, so, NULL, NULL);
    fillRandom(&ti, 4);
    fillRandom(&tk, 4);
    refOk("conv", tlx_ref_convolution(&ti, &tk, NULL, NULL, NULL, &tw));
    tlx_token_t xi = tensor_load(in, TLX_SHAPE(2, 5, 7, 9),
                                 TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                                 TLX_ZEROS(4));
    tlx_token_t xk = tensor_load(k, TLX_SHAPE(4, 5, 1, 1),
                                 TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                                 TLX_ZEROS(4));
    v504f r = tensor_convolution_f504(xi, xk, TLX_DIMS(1, 1), TLX_DIMS(1, 1),
                                      TLX_DIMS(1, 1));
    tensor_store(o, tensor_typeinfo(r, TLX_SHAPE(2, 4, 7, 9),
                                    TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4)),
                 TLX_ZEROS(4));
    compare("conv 1x1 nchw batch 2", &to, &tw, 1e-5);
  }
  { // channels-last: logical in [2,6,5,7] stored [2,5,7,6] (layout
    // <0,2,3,1>), kernel [3,6,1,1] -> logical [2,3,5,7] stored [2,5,7,3]
    static float in[420], k[18], o[210], w[210];
    const int64_t si[] = {2, 5, 7, 6}, li[] = {0, 2, 3, 1},
                  sk[] = {3, 6, 1, 1}, so[] = {2, 5, 7, 3},
                  sw[] = {2, 3, 5, 7};
    tlx_tensor ti = desc(in, TLX_F32, 4, si, li, NULL);
    tlx_tensor tk = desc(k, TLX_F32, 4, sk, NULL, NULL);
    tlx_tensor to = desc(o, TLX_F32, 4, so, li, NULL);
    tlx_tensor tw = desc(w, TLX_F32, 4, sw, NULL, NULL);
    fillRandom(&ti, 4);
    fillRandom(&tk, 4);
    refOk("conv", tlx_ref_convolution(&ti, &tk, NULL, NULL, NULL, &tw));
    tlx_token_t xi = tensor_load(in, TLX_SHAPE(2, 5, 7, 6),
                                 TLX_LAYOUT(0, 2, 3, 1), TLX_ZEROS(4),
                                 TLX_ZEROS(4));
    tlx_token_t xk = tensor_load(k, TLX_SHAPE(3, 6, 1, 1),
                                 TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                                 TLX_ZEROS(4));
    v210f r = tensor_convolution_f210(xi, xk, TLX_DIMS(1, 1), TLX_DIMS(1, 1),
                                      TLX_DIMS(1, 1));
    tensor_store(o, tensor_typeinfo(r, TLX_SHAPE(2, 5, 7, 3),
                                    TLX_LAYOUT(0, 2, 3, 1), TLX_ZEROS(4)),
                 TLX_ZEROS(4));
    compare("conv 1x1 channels-last batch 2", &to, &tw, 1e-5);
  }
  { // stride 2: in [1,3,6,6] kernel [4,3,1,1] -> [1,4,3,3] (im2col)
    static float in[108], k[12], o[36], w[36];
    const int64_t si[] = {1, 3, 6, 6}, sk[] = {4, 3, 1, 1},
                  so[] = {1, 4, 3, 3}, st[] = {2, 2};
    tlx_tensor ti = desc(in, TLX_F32, 4, si, NULL, NULL);
    tlx_tensor tk = desc(k, TLX_F32, 4, sk, NULL, NULL);
    tlx_tensor to = desc(o, TLX_F32, 4, so, NULL, NULL);
    tlx_tensor tw = desc(w, TLX_F32, 4, so, NULL, NULL);
    fillRandom(&ti, 4);
    fillRandom(&tk, 4);
    refOk("conv", tlx_ref_convolution(&ti, &tk, st, NULL, NULL, &tw));
    tlx_token_t xi = tensor_load(in, TLX_SHAPE(1, 3, 6, 6),
                                 TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                                 TLX_ZEROS(4));
    tlx_token_t xk = tensor_load(k, TLX_SHAPE(4, 3, 1, 1),
                                 TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                                 TLX_ZEROS(4));
    v36f r = tensor_convolution_f36(xi, xk, TLX_DIMS(2, 2), TLX_DIMS(1, 1),
                                    TLX_DIMS(1, 1));
    tensor_store(o, tensor_typeinfo(r, TLX_SHAPE(1, 4, 3, 3),
                                    TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4)),
                 TLX_ZEROS(4));
    compare("conv 1x1 stride 2", &to, &tw, 1e-5);
  }
  { // i32 [1,2,6,6] * [3,2,1,1] -> [1,3,6,6] stored with layout <0,3,2,1>:
    // its pixels (rows transposed) do not collapse into one dim (im2col)
    int32_t in[72], k[6], o[108], w[108];
    const int64_t si[] = {1, 2, 6, 6}, sk[] = {3, 2, 1, 1},
                  so[] = {1, 6, 6, 3}, lo[] = {0, 3, 2, 1}, sw[] = {1, 3, 6, 6};
    tlx_tensor ti = desc(in, TLX_I32, 4, si, NULL, NULL);
    tlx_tensor tk = desc(k, TLX_I32, 4, sk, NULL, NULL);
    tlx_tensor to = desc(o, TLX_I32, 4, so, lo, NULL);
    tlx_tensor tw = desc(w, TLX_I32, 4, sw, NULL, NULL);
    fillRandom(&ti, 100);
    fillRandom(&tk, 100);
    refOk("conv", tlx_ref_convolution(&ti, &tk, NULL, NULL, NULL, &tw));
    tlx_token_t xi = tensor_load(in, TLX_SHAPE(1, 2, 6, 6),
                                 TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                                 TLX_ZEROS(4));
    tlx_token_t xk = tensor_load(k, TLX_SHAPE(3, 2, 1, 1),
                                 TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                                 TLX_ZEROS(4));
    v108i r = tensor_convolution_i108(xi, xk, TLX_DIMS(1, 1), TLX_DIMS(1, 1),
                                      TLX_DIMS(1, 1));
    tensor_store(o, tensor_typeinfo(r, TLX_SHAPE(1, 6, 6, 3),
                                    TLX_LAYOUT(0, 3, 2, 1), TLX_ZEROS(4)),
                 TLX_ZEROS(4));
    compare("conv 1x1 i32 transposed out", &to, &tw, 0);
  }
}

int main(void) {
  contracts();
  convolutions();
  pointwise();
  return finish();
}
