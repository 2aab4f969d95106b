// Every elementwise op on every element type it allows, 3x7 tensors (a
// vector body and a scalar tail) written column-major; relu on integers.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: f32 tanh: ok
// CHECK: f64 ceil: ok
// CHECK: f16 sigmoid: ok
// CHECK: bf16 exp: ok
// CHECK: i8 relu: ok
// CHECK: i64 relu: ok
// CHECK: PASSED
#include "Inputs/oracle.h"
#include <tlx.h>

typedef float v21f __attribute__((__vector_size__(21 * 4)));
typedef double v21d __attribute__((__vector_size__(21 * 8)));
typedef _Float16 v21h __attribute__((__vector_size__(21 * 2)));
typedef __bf16 v21b __attribute__((__vector_size__(21 * 2)));
typedef int8_t v21c __attribute__((__vector_size__(21)));
typedef int16_t v21s __attribute__((__vector_size__(21 * 2)));
typedef int32_t v21i __attribute__((__vector_size__(21 * 4)));
typedef int64_t v21l __attribute__((__vector_size__(21 * 8)));
TLX_DECLARE_TENSOR_OPS_AS(v21f, f)
TLX_DECLARE_TENSOR_OPS_AS(v21d, d)
TLX_DECLARE_TENSOR_OPS_AS(v21h, h)
TLX_DECLARE_TENSOR_OPS_AS(v21b, b)
TLX_DECLARE_TENSOR_OPS_AS(v21c, c)
TLX_DECLARE_TENSOR_OPS_AS(v21s, s)
TLX_DECLARE_TENSOR_OPS_AS(v21i, i)
TLX_DECLARE_TENSOR_OPS_AS(v21l, l)

static const int64_t S[] = {3, 7}, SOut[] = {7, 3}, LOut[] = {1, 0};

#define UNARY(T, DT, SFX, OP, KIND, TOL)                                       \
  {                                                                            \
    T in[21], out[21], want[21];                                               \
    tlx_tensor ti = desc(in, DT, 2, S, NULL, NULL);                            \
    tlx_tensor to = desc(out, DT, 2, SOut, LOut, NULL);                        \
    tlx_tensor tw = desc(want, DT, 2, S, NULL, NULL);                          \
    fillRandom(&ti, 3);                                                        \
    refOk(#OP, tlx_ref_unary(KIND, &ti, &tw));                                 \
    tlx_token_t x = tensor_load(in, TLX_SHAPE(3, 7), TLX_LAYOUT(0, 1),         \
                                TLX_ZEROS(2), TLX_ZEROS(2));                   \
    v21##SFX r = tensor_##OP##_##SFX(x);                                       \
    tensor_store(out, tensor_typeinfo(r, TLX_SHAPE(7, 3), TLX_LAYOUT(1, 0),    \
                                      TLX_ZEROS(2)),                           \
                 TLX_ZEROS(2));                                                \
    compare(NAME #OP, &to, &tw, TOL);                                          \
  }

#define ALL_FLOAT(T, DT, SFX, TOL)                                             \
  UNARY(T, DT, SFX, tanh, TLX_TANH, TOL)                                       \
  UNARY(T, DT, SFX, sigmoid, TLX_SIGMOID, TOL)                                 \
  UNARY(T, DT, SFX, relu, TLX_RELU, TOL)                                       \
  UNARY(T, DT, SFX, sin, TLX_SIN, TOL)                                         \
  UNARY(T, DT, SFX, cos, TLX_COS, TOL)                                         \
  UNARY(T, DT, SFX, exp, TLX_EXP, TOL)                                         \
  UNARY(T, DT, SFX, exp2, TLX_EXP2, TOL)                                       \
  UNARY(T, DT, SFX, log, TLX_LOG, TOL)                                         \
  UNARY(T, DT, SFX, log2, TLX_LOG2, TOL)                                       \
  UNARY(T, DT, SFX, log10, TLX_LOG10, TOL)                                     \
  UNARY(T, DT, SFX, sqrt, TLX_SQRT, TOL)                                       \
  UNARY(T, DT, SFX, fabs, TLX_FABS, TOL)                                       \
  UNARY(T, DT, SFX, floor, TLX_FLOOR, TOL)                                     \
  UNARY(T, DT, SFX, ceil, TLX_CEIL, TOL)

int main(void) {
#define NAME "f32 "
  ALL_FLOAT(float, TLX_F32, f, 1e-6)
#undef NAME
#define NAME "f64 "
  ALL_FLOAT(double, TLX_F64, d, 1e-14)
#undef NAME
#define NAME "f16 "
  ALL_FLOAT(_Float16, TLX_F16, h, 1e-3)
#undef NAME
#define NAME "bf16 "
  ALL_FLOAT(__bf16, TLX_BF16, b, 8e-3)
#undef NAME
#define NAME "i8 "
  UNARY(int8_t, TLX_I8, c, relu, TLX_RELU, 0)
#undef NAME
#define NAME "i16 "
  UNARY(int16_t, TLX_I16, s, relu, TLX_RELU, 0)
#undef NAME
#define NAME "i32 "
  UNARY(int32_t, TLX_I32, i, relu, TLX_RELU, 0)
#undef NAME
#define NAME "i64 "
  UNARY(int64_t, TLX_I64, l, relu, TLX_RELU, 0)
#undef NAME
  return finish();
}
