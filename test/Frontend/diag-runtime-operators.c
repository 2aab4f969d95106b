// C operators on results whose extents are C variables (docs/ops.md,
// "Run-time sizes"), a run-time-sized convolution and tovector: what they
// cannot compute is an error at the operator or call, at every -O level. (Apart from diag-runtime-sizes.c: these are found
// when the lowering starts, which an earlier error stops: one case per
// compile.)
// RUN: not %clang_tlx -O0 -DCASE=1 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=READ --implicit-check-not=error:
// RUN: not %clang_tlx -O2 -DCASE=1 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=READ --implicit-check-not=error:
// RUN: not %clang_tlx -O0 -DCASE=2 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=CVEC --implicit-check-not=error:
// RUN: not %clang_tlx -O2 -DCASE=2 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=CVEC --implicit-check-not=error:
// RUN: not %clang_tlx -O0 -DCASE=3 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=LAYOUT --implicit-check-not=error:
// RUN: not %clang_tlx -O2 -DCASE=3 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=LAYOUT --implicit-check-not=error:
// RUN: not %clang_tlx -O0 -DCASE=4 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=STORE --implicit-check-not=error:
// RUN: not %clang_tlx -O2 -DCASE=4 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=STORE --implicit-check-not=error:
// RUN: not %clang_tlx -O0 -DCASE=5 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=CONV --implicit-check-not=error:
// RUN: not %clang_tlx -O2 -DCASE=5 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=CONV --implicit-check-not=error:
// RUN: not %clang_tlx -O0 -DCASE=6 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=TOVECTOR --implicit-check-not=error:
// RUN: not %clang_tlx -O2 -DCASE=7 -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=TOVECTOR-LD --implicit-check-not=error:
#include <tlx.h>

TLX_DECLARE_TENSOR_OPS_AS(tlx_float_result_t, f32)

// C operators on such results are TLX ops; their results are not C data
// either.
#if CASE == 1
float read_sum(const float *a, int m, int n) {
  tlx_float_result_t r = tensor_relu_f32(TLX_LOAD(a, m, n));
  tensor_typeinfo(r, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tlx_float_result_t s = r + r;
  return s[2];
}
#endif
// READ: diag-runtime-operators.c:[[@LINE-4]]:28: error: operator '+': a result whose extents are computed at run time is read by TLX ops, C operators and tensor_store only, not as C data (element reads, C stores, by value to a function)

// A C vector has a constant length: it cannot meet run-time extents.
#if CASE == 2
void with_c_vector(const float *a, float *c, int m, int n,
                   tlx_float_result_t v) {
  tlx_float_result_t r = tensor_relu_f32(TLX_LOAD(a, m, n));
  tensor_typeinfo(r, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tlx_float_result_t s = r * v;
  tensor_store(c, tensor_typeinfo(s, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1),
                                  TLX_ZEROS(2)), TLX_ZEROS(2));
}
#endif
// CVEC: diag-runtime-operators.c:[[@LINE-5]]:28: error: a C operator on a tensor whose extents are computed at run time reads a C vector: its other operands are TLX results or scalars

// C operators work on storage positions: one layout for all operands.
#if CASE == 3
void two_layouts(const float *a, const float *b, float *c, int m, int n) {
  tlx_float_result_t x = tensor_relu_f32(TLX_LOAD(a, m, n));
  tensor_typeinfo(x, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tlx_float_result_t y = tensor_transpose_f32(TLX_LOAD(b, m, n));
  tensor_typeinfo(y, TLX_SHAPE(m, n), TLX_LAYOUT(1, 0), TLX_ZEROS(2));
  tlx_float_result_t s = x - y;
  tensor_store(c, tensor_typeinfo(s, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1),
                                  TLX_ZEROS(2)), TLX_ZEROS(2));
}
#endif
// LAYOUT: diag-runtime-operators.c:[[@LINE-5]]:28: error: operator '-': operands whose extents are computed at run time have one layout here: op1 has layout <0, 1>, op2 has layout <1, 0>

// A C assignment would write sizeof the vector type, not the tensor.
#if CASE == 4
void c_store(const float *a, float *c, int m, int n) {
  tlx_float_result_t r = tensor_relu_f32(TLX_LOAD(a, m, n));
  tensor_typeinfo(r, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  *(tlx_float_result_t *)c = r * 2.0f;
}
#endif
// STORE: diag-runtime-operators.c:[[@LINE-3]]:28: error: a result whose extents are computed at run time is stored with tensor_store, not by a C assignment: its C vector type does not hold it

// A run-time-sized convolution takes unit input dilations in this version.
#if CASE == 5
void dilated_input(const float *x, const float *w, float *y, int h) {
  TLX_STORE(y, tlx_convolution(TLX_LOAD(x, 1, 3, h, h),
                               TLX_LOAD(w, 8, 3, 3, 3), TLX_DIMS(1, 1),
                               TLX_DIMS(2, 2)));
}
#endif
// CONV: diag-runtime-operators.c:[[@LINE-5]]:16: error: 'tlx_convolution': with sizes computed at run time, a convolution takes input dilations of 1 and kernel taps of constant extents in this version

// tovector would make a C vector of a tensor whose length C cannot know.
#if CASE == 6
tlx_float_result_t to_vector(const float *x, int h) {
  return tensor_tovector_f32(TLX_LOAD(x, h, 3));
}
#endif
// TOVECTOR: diag-runtime-operators.c:[[@LINE-3]]:10: error: 'tensor_tovector_f32': the elements of a tensor whose extents are computed at run time cannot be read as a C vector

// Nor loads of constant extents through run-time leading dimensions:
// their memory has a run-time view only.
#if CASE == 7
typedef float f32x6 __attribute__((vector_size(24)));
TLX_DECLARE_TENSOR_OPS_AS(f32x6, v6)
f32x6 to_vector_ld(const float *x, int ld) {
  return tensor_tovector_v6(tensor_load(x, TLX_SHAPE(2, 3), TLX_LAYOUT(0, 1),
                                        TLX_ZEROS(2), TLX_STRIDES(0, ld)));
}
#endif
// TOVECTOR-LD: diag-runtime-operators.c:[[@LINE-4]]:10: error: 'tensor_tovector_v6': operand strides computed at run time are not supported by this operation yet
