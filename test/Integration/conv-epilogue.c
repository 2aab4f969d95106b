// Convolutions followed by elementwise ops (a per-channel bias, relu, a
// value used twice) that end in one store: tlx-nd-to-2d fuses the chain
// into the convolution's lowering - applied to each output row as its
// GEMMs finish it (row taps, im2col rows), or to each image as the wide
// buffer of shifted GEMMs is copied out - with no temporary of the whole
// result. Channels last and NCHW, a destination in another layout than
// the convolution's rows, a batch of 2, int8 -> int32, a value used twice,
// with threads; a destination alias analysis cannot tell from the
// operands (checked at run time: the values go through a staging buffer
// when it overlaps them - the output written over the input); not fused
// (and still right): a 1x1 convolution. Each against the runtime's
// reference convolution with the chain applied in C, at -O0 and -O2, with
// fusion off as the same results.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -w -O2 -fplugin-arg-tlx-fuse-epilogues=off %s %tlx_rt -o %tu && %tu | FileCheck %s
// RUN: %clang_tlx -w -O2 -c %s -o /dev/null -Rpass=tlx-nd-to-2d -Rpass-missed=tlx-nd-to-2d 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %clang_tlx -w -O2 -fplugin-arg-tlx-fuse-epilogues=off -c %s -o /dev/null -Rpass=tlx-nd-to-2d 2>&1 | FileCheck %s --check-prefix=OFF
// CHECK-NOT: FAIL
// CHECK: row taps nhwc: ok
// CHECK: im2col nchw stride 2: ok
// CHECK: shifted nchw batch 2: ok
// CHECK: nhwc into nchw: ok
// CHECK: i8 -> i32: ok
// CHECK: used twice: ok
// CHECK: 1x1: ok
// CHECK: may alias: ok
// CHECK: in place: ok
// CHECK: PASSED
//
// REMARK-DAG: remark: convolution: fused epilogue (fadd, relu) applied to each output row as it is finished, from cache; no temporary
// REMARK-DAG: remark: convolution: fused epilogue (fadd, relu) applied to each image as its wide buffer is copied out; no temporary
// REMARK-DAG: remark: convolution: fused epilogue (add, relu) applied to each output row
// REMARK-DAG: remark: convolution: fused epilogue (fmul, fadd, relu) applied to each output row
// REMARK-DAG: remark: convolution: its elementwise consumer is not fused: a 1x1 convolution is one GEMM per image
// REMARK-DAG: remark: convolution: fused epilogue (fadd, relu) applied to each output row as it is finished, from cache; no temporary unless the destination overlaps what the convolution or the consumer reads (checked at run time)
// OFF-NOT: fused epilogue
#include "Inputs/conv_case.h"

typedef float v640f __attribute__((__vector_size__(640 * 4)));
typedef float v120f __attribute__((__vector_size__(120 * 4)));
typedef float v1080f __attribute__((__vector_size__(1080 * 4)));
typedef int32_t v280i __attribute__((__vector_size__(280 * 4)));
typedef float v336f __attribute__((__vector_size__(336 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(v640f, f640)
TLX_DECLARE_TENSOR_OPS_AS(v120f, f120)
TLX_DECLARE_TENSOR_OPS_AS(v1080f, f1080)
TLX_DECLARE_TENSOR_OPS_AS(v280i, i280)
TLX_DECLARE_TENSOR_OPS_AS(v336f, f336)

// The expected result: the reference convolution into want, then per
// logical element v -> max(0, REF(v, bias[o])).
#define EXPECT(R, T, REF)                                                      \
  {                                                                            \
    int64_t ext[R], idx[R] = {0};                                              \
    tlx_tensor_logical_shape(&tw, ext);                                        \
    do {                                                                       \
      double v = isIntType(tw.dtype) ? (double)tlx_get_i64(&tw, idx)           \
                                     : tlx_get_f64(&tw, idx);                  \
      double bv = (double)bias[idx[1]];                                        \
      v = REF;                                                                 \
      v = v > 0 ? v : 0;                                                       \
      if (isIntType(tw.dtype))                                                 \
        tlx_set_i64(&tw, idx, (int64_t)v);                                     \
      else                                                                     \
        tlx_set_f64(&tw, idx, v);                                              \
    } while (nextIndex(R, ext, idx));                                          \
  }

// One case: storage shapes and layouts of input, kernel and result (as
// parenthesized lists), strides, kernel dilations, the bias's logical
// shape (O, then 1 per spatial dim); the stored value is
// relu(OP(c, b)) of the convolution c and the broadcast bias b.
#define EPI_CASE(NAME, TIN, TOUT, V, DTIN, DTOUT, SFX, R, SI, LI, SK, LK, SO,  \
                 LO, ST, KD, BS, OP, REF)                                      \
  {                                                                            \
    CONV_CASE_BEGIN(NAME, TIN, TOUT, DTIN, DTOUT, R, SI, LI, SK, LK, SO, LO,   \
                    ST, (0), KD)                                               \
    int64_t oext[R];                                                           \
    tlx_tensor_logical_shape(&tw, oext);                                       \
    TOUT *bias = malloc(sizeof(TOUT) * oext[1]);                               \
    for (int64_t c = 0; c < oext[1]; ++c)                                      \
      bias[c] = (TOUT)(c % 7) - 3;                                             \
    EXPECT(R, TOUT, REF)                                                       \
    tlx_token_t xi = tensor_load(in, TLX_SHAPE SI, TLX_LAYOUT LI,              \
                                 TLX_ZEROS(R), TLX_ZEROS(R));                  \
    tlx_token_t xk = tensor_load(k, TLX_SHAPE SK, TLX_LAYOUT LK,               \
                                 TLX_ZEROS(R), TLX_ZEROS(R));                  \
    tlx_token_t xb = tensor_load(bias, TLX_SHAPE BS, TLX_LAYOUT(0, 1, 2),      \
                                 TLX_ZEROS(3), TLX_ZEROS(3));                  \
    V c = tensor_convolution_##SFX(xi, xk, TLX_DIMS ST, TLX_ZEROS(2),          \
                                   TLX_DIMS KD);                               \
    tensor_typeinfo(c, TLX_SHAPE SO, TLX_LAYOUT LO, TLX_ZEROS(R));             \
    V b = tensor_broadcast_##SFX(xb);                                          \
    tensor_typeinfo(b, TLX_SHAPE SO, TLX_LAYOUT LO, TLX_ZEROS(R));             \
    V z = OP;                                                                  \
    V y = tensor_relu_##SFX(                                                   \
        tensor_typeinfo(z, TLX_SHAPE SO, TLX_LAYOUT LO, TLX_ZEROS(R)));        \
    tensor_store(o, tensor_typeinfo(y, TLX_SHAPE SO, TLX_LAYOUT LO,            \
                                    TLX_ZEROS(R)),                             \
                 TLX_ZEROS(R));                                                \
    compare(NAME, &to, &tw, 1e-3);                                             \
    free(bias);                                                                \
    CONV_CASE_END                                                              \
  }

// The chain writes through a pointer the compiler cannot tell from the
// input's (a row of the output could be an input row still to be read):
// checked at run time.
static void __attribute__((noinline))
convMayAlias(const float *in, const float *k, const float *bias, float *o) {
  tlx_token_t xi = tensor_load(in, TLX_SHAPE(1, 8, 9, 16), TLX_LAYOUT(0, 2, 3, 1),
                               TLX_ZEROS(4), TLX_ZEROS(4));
  tlx_token_t xk = tensor_load(k, TLX_SHAPE(2, 4, 16, 8), TLX_LAYOUT(2, 3, 1, 0),
                               TLX_ZEROS(4), TLX_ZEROS(4));
  tlx_token_t xb = tensor_load(bias, TLX_SHAPE(8, 1, 1), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  v336f c = tensor_convolution_f336(xi, xk, TLX_DIMS(1, 1), TLX_ZEROS(2),
                                    TLX_DIMS(1, 1));
  tensor_typeinfo(c, TLX_SHAPE(1, 7, 6, 8), TLX_LAYOUT(0, 2, 3, 1),
                  TLX_ZEROS(4));
  v336f b = tensor_broadcast_f336(xb);
  tensor_typeinfo(b, TLX_SHAPE(1, 7, 6, 8), TLX_LAYOUT(0, 2, 3, 1),
                  TLX_ZEROS(4));
  v336f z = c + b;
  v336f y = tensor_relu_f336(tensor_typeinfo(
      z, TLX_SHAPE(1, 7, 6, 8), TLX_LAYOUT(0, 2, 3, 1), TLX_ZEROS(4)));
  tensor_store(o, tensor_typeinfo(y, TLX_SHAPE(1, 7, 6, 8),
                                  TLX_LAYOUT(0, 2, 3, 1), TLX_ZEROS(4)),
               TLX_ZEROS(4));
}

// in_place: the output written over the input.
static void mayAlias(int in_place) {
  const char *name = in_place ? "in place" : "may alias";
  CONV_CASE_BEGIN(name, float, float, TLX_F32, TLX_F32, 4, (1, 8, 9, 16),
                  (0, 2, 3, 1), (2, 4, 16, 8), (2, 3, 1, 0), (1, 7, 6, 8),
                  (0, 2, 3, 1), (1, 1), (0), (1, 1))
  float bias[8];
  for (int c = 0; c < 8; ++c)
    bias[c] = (float)(c % 7) - 3;
  EXPECT(4, float, v + bv)
  if (in_place) {
    convMayAlias(in, k, bias, in);
    memcpy(o, in, sizeof(float) * 336);
  } else {
    convMayAlias(in, k, bias, o);
  }
  compare(name, &to, &tw, 1e-3);
  CONV_CASE_END
}

int main(void) {
  // Row taps: runs of 3 x 16 channels; HWIO kernel.
  EPI_CASE("row taps nhwc", float, float, v640f, TLX_F32, TLX_F32, f640, 4,
           (1, 10, 12, 16), (0, 2, 3, 1), (3, 3, 16, 8), (2, 3, 1, 0),
           (1, 8, 10, 8), (0, 2, 3, 1), (1, 1), (1, 1), (8, 1, 1), c + b,
           v + bv)
  // im2col rows: NCHW with strides 2.
  EPI_CASE("im2col nchw stride 2", float, float, v120f, TLX_F32, TLX_F32,
           f120, 4, (1, 5, 11, 13), (0, 1, 2, 3), (4, 5, 3, 3), (0, 1, 2, 3),
           (1, 4, 5, 6), (0, 1, 2, 3), (2, 2), (1, 1), (4, 1, 1), c + b,
           v + bv)
  // Shifted GEMMs: NCHW, 16 channels, unit strides.
  EPI_CASE("shifted nchw batch 2", float, float, v1080f, TLX_F32, TLX_F32,
           f1080, 4, (2, 16, 8, 20), (0, 1, 2, 3), (5, 16, 3, 3),
           (0, 1, 2, 3), (2, 5, 6, 18), (0, 1, 2, 3), (1, 1), (1, 1),
           (5, 1, 1), c + b, v + bv)
  // Channels-last convolution, the chain's values stored NCHW.
  EPI_CASE("nhwc into nchw", float, float, v640f, TLX_F32, TLX_F32, f640, 4,
           (1, 10, 12, 16), (0, 2, 3, 1), (3, 3, 16, 8), (2, 3, 1, 0),
           (1, 8, 8, 10), (0, 1, 2, 3), (1, 1), (1, 1), (8, 1, 1), c + b,
           v + bv)
  EPI_CASE("i8 -> i32", int8_t, int32_t, v280i, TLX_I8, TLX_I32, i280, 4,
           (1, 9, 21, 6), (0, 2, 3, 1), (3, 3, 6, 7), (2, 3, 1, 0),
           (1, 4, 10, 7), (0, 2, 3, 1), (2, 2), (1, 1), (7, 1, 1), c + b,
           v + bv)
  EPI_CASE("used twice", float, float, v640f, TLX_F32, TLX_F32, f640, 4,
           (1, 10, 12, 16), (0, 2, 3, 1), (3, 3, 16, 8), (2, 3, 1, 0),
           (1, 8, 10, 8), (0, 2, 3, 1), (1, 1), (1, 1), (8, 1, 1),
           c * c + b, v * v + bv)
  EPI_CASE("1x1", float, float, v336f, TLX_F32, TLX_F32, f336, 4,
           (1, 7, 6, 16), (0, 2, 3, 1), (1, 1, 16, 8), (2, 3, 1, 0),
           (1, 7, 6, 8), (0, 2, 3, 1), (1, 1), (1, 1), (8, 1, 1), c + b,
           v + bv)
  mayAlias(0);
  mayAlias(1);
  return finish();
}
