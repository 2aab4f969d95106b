/* research_prototype.c - TLX code in the style of the research prototype's
 * C tests: no tlx.h, its own vector typedefs and its own suffixed
 * prototypes of the dummy functions (any name tensor_<op> followed by a
 * digit is op <op>), tensors passed around as flattened vector values.
 * It uses the prototype's operand forms: one-operand transpose (a logical
 * transpose of the last two dims), two-operand convolution (unit strides,
 * no dilation) and broadcast(token, scalar). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlxrt.h>

#include "sample_check.h"

typedef float _tensor_t100 __attribute__((__vector_size__(100 * 4)));
typedef float _tensor_t36 __attribute__((__vector_size__(36 * 4)));
typedef float _tensor_t24 __attribute__((__vector_size__(24 * 4)));
typedef float _tensor_t16 __attribute__((__vector_size__(16 * 4)));
typedef float _tensor_t9 __attribute__((__vector_size__(9 * 4)));
typedef int _shape_t __attribute__((__vector_size__(8), __aligned__(4)));
typedef int _layout_t __attribute__((__vector_size__(8), __aligned__(4)));
typedef int _padding_t __attribute__((__vector_size__(8), __aligned__(4)));
typedef int _shape4_t __attribute__((__vector_size__(16), __aligned__(4)));
typedef int _token_t;

_token_t tensor_typeinfo10000(_tensor_t100, _shape_t, _layout_t, _padding_t);
_tensor_t100 tensor_matmul10000(_token_t, _token_t);
_token_t tensor_typeinfo2400(_tensor_t24, _shape_t, _layout_t, _padding_t);
_tensor_t24 tensor_transpose2400(_token_t);
_token_t tensor_typeinfo3600(_tensor_t36, _shape4_t, _shape4_t, _shape4_t);
_token_t tensor_typeinfo900(_tensor_t9, _shape4_t, _shape4_t, _shape4_t);
_token_t tensor_typeinfo1600(_tensor_t16, _shape4_t, _shape4_t, _shape4_t);
_tensor_t16 tensor_convolution1600(_token_t, _token_t);
_token_t tensor_typeinfo1601(_tensor_t16, _shape_t, _layout_t, _padding_t);
_tensor_t16 tensor_broadcast1601(_token_t, float);

/* 10x10 matmul of two column-major matrices, result column-major. */
static _tensor_t100 matmul_colmajor(_tensor_t100 a, _tensor_t100 b) {
  _shape_t shape = {10, 10};
  _layout_t colmajor = {1, 0};
  _padding_t padding = {0, 0};
  _token_t ta = tensor_typeinfo10000(a, shape, colmajor, padding);
  _token_t tb = tensor_typeinfo10000(b, shape, colmajor, padding);
  _tensor_t100 c = tensor_matmul10000(ta, tb);
  tensor_typeinfo10000(c, shape, colmajor, padding);
  return c;
}

/* [4 x 6] -> [6 x 4]. */
static _tensor_t24 transpose_4x6(_tensor_t24 a) {
  _shape_t shape = {4, 6}, tshape = {6, 4};
  _layout_t layout = {0, 1};
  _padding_t padding = {0, 0};
  _token_t ta = tensor_typeinfo2400(a, shape, layout, padding);
  _tensor_t24 t = tensor_transpose2400(ta);
  tensor_typeinfo2400(t, tshape, layout, padding);
  return t;
}

/* [1 x 1 x 6 x 6] (*) [1 x 1 x 3 x 3] -> [1 x 1 x 4 x 4]. */
static _tensor_t16 conv_6x6(_tensor_t36 in, _tensor_t9 k) {
  _shape4_t ishape = {1, 1, 6, 6}, kshape = {1, 1, 3, 3},
            oshape = {1, 1, 4, 4}, layout = {0, 1, 2, 3}, padding = {0};
  _token_t ti = tensor_typeinfo3600(in, ishape, layout, padding);
  _token_t tk = tensor_typeinfo900(k, kshape, layout, padding);
  _tensor_t16 o = tensor_convolution1600(ti, tk);
  tensor_typeinfo1600(o, oshape, layout, padding);
  return o;
}

/* A 4x4 tensor of the shape of `like`, every element 2.5. */
static _tensor_t16 fill_4x4(_tensor_t16 like) {
  _shape_t shape = {4, 4};
  _layout_t layout = {0, 1};
  _padding_t padding = {0, 0};
  _token_t t = tensor_typeinfo1601(like, shape, layout, padding);
  _tensor_t16 f = tensor_broadcast1601(t, 2.5f);
  tensor_typeinfo1601(f, shape, layout, padding);
  return f;
}

int main(void) {
  static float a[100], b[100], c[100], rc[100], x[24], xt[24], rxt[24];
  static float in[36], k[9], o[16], ro[16], f[16], rf[16];
  _tensor_t100 va, vb, vc;
  _tensor_t24 vx, vxt;
  _tensor_t36 vin;
  _tensor_t9 vk;
  _tensor_t16 vo, vf;
  sample_fill_f32(a, 100, 51);
  sample_fill_f32(b, 100, 52);
  sample_fill_f32(x, 24, 53);
  sample_fill_f32(in, 36, 54);
  sample_fill_f32(k, 9, 55);
  memcpy(&va, a, sizeof va);
  memcpy(&vb, b, sizeof vb);
  memcpy(&vx, x, sizeof vx);
  memcpy(&vin, in, sizeof vin);
  memcpy(&vk, k, sizeof vk);

  vc = matmul_colmajor(va, vb);
  vxt = transpose_4x6(vx);
  vo = conv_6x6(vin, vk);
  vf = fill_4x4(vo);
  memcpy(c, &vc, sizeof c);
  memcpy(xt, &vxt, sizeof xt);
  memcpy(o, &vo, sizeof o);
  memcpy(f, &vf, sizeof f);

  const int64_t sq[] = {10, 10}, cm[] = {1, 0};
  tlx_tensor da, db, dc, dx, dxt, din, dk, dout, df;
  tlx_tensor_init(&da, a, TLX_F32, 2, sq, cm, 0, 0);
  tlx_tensor_init(&db, b, TLX_F32, 2, sq, cm, 0, 0);
  tlx_tensor_init(&dc, rc, TLX_F32, 2, sq, cm, 0, 0);
  SAMPLE_CHECK_REF(tlx_ref_matmul(&da, &db, &dc));
  tlx_tensor_init(&dx, x, TLX_F32, 2, (const int64_t[]){4, 6}, 0, 0, 0);
  tlx_tensor_init(&dxt, rxt, TLX_F32, 2, (const int64_t[]){6, 4}, 0, 0, 0);
  SAMPLE_CHECK_REF(tlx_ref_transpose(&dx, NULL, &dxt));
  tlx_tensor_init(&din, in, TLX_F32, 4, (const int64_t[]){1, 1, 6, 6}, 0, 0, 0);
  tlx_tensor_init(&dk, k, TLX_F32, 4, (const int64_t[]){1, 1, 3, 3}, 0, 0, 0);
  tlx_tensor_init(&dout, ro, TLX_F32, 4, (const int64_t[]){1, 1, 4, 4}, 0, 0,
                  0);
  SAMPLE_CHECK_REF(tlx_ref_convolution(&din, &dk, NULL, NULL, NULL, &dout));
  tlx_tensor_init(&df, rf, TLX_F32, 2, (const int64_t[]){4, 4}, 0, 0, 0);
  SAMPLE_CHECK_REF(tlx_ref_fill_f64(&df, 2.5));

  sample_print_f32("matmul (column-major storage, first 4x4)", c, 4, 4, 10);
  sample_print_f32("transpose", xt, 6, 4, 4);
  sample_print_f32("convolution", o, 4, 4, 4);
  int bad = sample_compare_f32("matmul", c, rc, 100, 0, 0) +
            sample_compare_f32("transpose", xt, rxt, 24, 0, 0) +
            sample_compare_f32("convolution", o, ro, 16, 0, 0) +
            sample_compare_f32("broadcast", f, rf, 16, 0, 0);
  return sample_result("research_prototype", bad);
}
