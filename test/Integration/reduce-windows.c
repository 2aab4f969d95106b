// reduce.* as reduce-window over every dim: overlapping and strided
// windows, global reductions, every reduce op on types it allows, and a
// reduce reading a fused transpose.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: f32 max 3x3/2: ok
// CHECK: f32 add 3x3/2: ok
// CHECK: i32 xor 3x3/2: ok
// CHECK: bf16 add global: ok
// CHECK: i8 and: ok
// CHECK: f64 min of transpose: ok
// CHECK: PASSED
#include "Inputs/oracle.h"
#include <tlx.h>

typedef float v12f __attribute__((__vector_size__(12 * 4)));
typedef int32_t v12i __attribute__((__vector_size__(12 * 4)));
typedef int8_t v12c __attribute__((__vector_size__(12)));
typedef __bf16 v8b __attribute__((__vector_size__(8 * 2)));
typedef int8_t v16c __attribute__((__vector_size__(16)));
typedef double v10d __attribute__((__vector_size__(10 * 8)));
typedef double v40d __attribute__((__vector_size__(40 * 8)));
TLX_DECLARE_TENSOR_OPS_AS(v12f, f)
TLX_DECLARE_TENSOR_OPS_AS(v12i, i)
TLX_DECLARE_TENSOR_OPS_AS(v12c, c)
TLX_DECLARE_TENSOR_OPS_AS(v8b, b)
TLX_DECLARE_TENSOR_OPS_AS(v16c, c16)
TLX_DECLARE_TENSOR_OPS_AS(v10d, d)
TLX_DECLARE_TENSOR_OPS_AS(v40d, d40)

// [7, 9] -> windows 3x3, strides 2x2 -> [3, 4].
#define WIN(T, DT, SFX, OP, KIND, NAME, TOL)                                   \
  {                                                                            \
    T in[63], out[12], want[12];                                               \
    const int64_t s[] = {7, 9}, so[] = {3, 4}, w[] = {3, 3}, st[] = {2, 2};   \
    tlx_tensor ti = desc(in, DT, 2, s, NULL, NULL);                            \
    tlx_tensor to = desc(out, DT, 2, so, NULL, NULL);                          \
    tlx_tensor tw = desc(want, DT, 2, so, NULL, NULL);                         \
    fillRandom(&ti, 50);                                                       \
    refOk(NAME, tlx_ref_reduce(KIND, &ti, w, st, &tw));                        \
    tlx_token_t x = tensor_load(in, TLX_SHAPE(7, 9), TLX_LAYOUT(0, 1),         \
                                TLX_ZEROS(2), TLX_ZEROS(2));                   \
    v12##SFX r = tensor_reduce_##OP##_##SFX(x, TLX_DIMS(3, 3), TLX_DIMS(2, 2)); \
    tensor_store(out, tensor_typeinfo(r, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1),    \
                                      TLX_ZEROS(2)),                           \
                 TLX_ZEROS(2));                                                \
    compare(NAME, &to, &tw, TOL);                                              \
  }

int main(void) {
  WIN(float, TLX_F32, f, max, TLX_REDUCE_MAX, "f32 max 3x3/2", 0)
  WIN(float, TLX_F32, f, add, TLX_REDUCE_ADD, "f32 add 3x3/2", 1e-6)
  WIN(float, TLX_F32, f, mul, TLX_REDUCE_MUL, "f32 mul 3x3/2", 1e-6)
  WIN(int32_t, TLX_I32, i, min, TLX_REDUCE_MIN, "i32 min 3x3/2", 0)
  WIN(int32_t, TLX_I32, i, or, TLX_REDUCE_OR, "i32 or 3x3/2", 0)
  WIN(int32_t, TLX_I32, i, xor, TLX_REDUCE_XOR, "i32 xor 3x3/2", 0)
  WIN(int32_t, TLX_I32, i, mul, TLX_REDUCE_MUL, "i32 mul 3x3/2", 0)

  { // global sum over the last dim of a [8, 40] bf16 tensor -> [8, 1]
    __bf16 in[320], out[8], want[8];
    const int64_t s[] = {8, 40}, so[] = {8, 1}, w[] = {1, 40}, st[] = {1, 1};
    tlx_tensor ti = desc(in, TLX_BF16, 2, s, NULL, NULL);
    tlx_tensor to = desc(out, TLX_BF16, 2, so, NULL, NULL);
    tlx_tensor tw = desc(want, TLX_BF16, 2, so, NULL, NULL);
    fillRandom(&ti, 4);
    refOk("add", tlx_ref_reduce(TLX_REDUCE_ADD, &ti, w, st, &tw));
    tlx_token_t x = tensor_load(in, TLX_SHAPE(8, 40), TLX_LAYOUT(0, 1),
                                TLX_ZEROS(2), TLX_ZEROS(2));
    v8b r = tensor_reduce_add_b(x, TLX_DIMS(1, 40), TLX_DIMS(1, 1));
    tensor_store(out, tensor_typeinfo(r, TLX_SHAPE(8, 1), TLX_LAYOUT(0, 1),
                                      TLX_ZEROS(2)),
                 TLX_ZEROS(2));
    compare("bf16 add global", &to, &tw, 8e-3);
  }
  { // i8 and, [2, 3, 16] window <1, 2, 4> strides <1, 1, 4> -> [2, 2, 4]
    int8_t in[96], out[16], want[16];
    const int64_t s[] = {2, 3, 16}, so[] = {2, 2, 4}, w[] = {1, 2, 4},
                  st[] = {1, 1, 4};
    tlx_tensor ti = desc(in, TLX_I8, 3, s, NULL, NULL);
    tlx_tensor to = desc(out, TLX_I8, 3, so, NULL, NULL);
    tlx_tensor tw = desc(want, TLX_I8, 3, so, NULL, NULL);
    fillRandom(&ti, 127);
    refOk("and", tlx_ref_reduce(TLX_REDUCE_AND, &ti, w, st, &tw));
    tlx_token_t x = tensor_load(in, TLX_SHAPE(2, 3, 16), TLX_LAYOUT(0, 1, 2),
                                TLX_ZEROS(3), TLX_ZEROS(3));
    v16c r = tensor_reduce_and_c16(x, TLX_DIMS(1, 2, 4), TLX_DIMS(1, 1, 4));
    tensor_store(out, tensor_typeinfo(r, TLX_SHAPE(2, 2, 4),
                                      TLX_LAYOUT(0, 1, 2), TLX_ZEROS(3)),
                 TLX_ZEROS(3));
    compare("i8 and", &to, &tw, 0);
  }
  { // min over windows of transpose(x): [5, 8] -> transpose -> [8, 5] in
    // storage, logical [5, 8]; windows <2, 4> strides <1, 4> -> [4, 2]...
    double in[40], t[40], out[10], want[10];
    const int64_t s[] = {5, 8}, st_[] = {8, 5}, lt[] = {1, 0}, so[] = {5, 2},
                  w[] = {1, 4}, str[] = {1, 4};
    tlx_tensor ti = desc(in, TLX_F64, 2, s, NULL, NULL);
    tlx_tensor tt = desc(t, TLX_F64, 2, st_, lt, NULL);
    tlx_tensor to = desc(out, TLX_F64, 2, so, NULL, NULL);
    tlx_tensor tw = desc(want, TLX_F64, 2, so, NULL, NULL);
    fillRandom(&ti, 9);
    refOk("transpose", tlx_ref_transpose(&ti, lt, &tt));
    refOk("min", tlx_ref_reduce(TLX_REDUCE_MIN, &tt, w, str, &tw));
    tlx_token_t x = tensor_load(in, TLX_SHAPE(5, 8), TLX_LAYOUT(0, 1),
                                TLX_ZEROS(2), TLX_ZEROS(2));
    v40d r1 = tensor_transpose_d40(x, TLX_LAYOUT(1, 0));
    tlx_token_t x1 = tensor_typeinfo(r1, TLX_SHAPE(8, 5), TLX_LAYOUT(1, 0),
                                     TLX_ZEROS(2));
    v10d r = tensor_reduce_min_d(x1, TLX_DIMS(1, 4), TLX_DIMS(1, 4));
    tensor_store(out, tensor_typeinfo(r, TLX_SHAPE(5, 2), TLX_LAYOUT(0, 1),
                                      TLX_ZEROS(2)),
                 TLX_ZEROS(2));
    compare("f64 min of transpose", &to, &tw, 0);
  }
  return finish();
}
