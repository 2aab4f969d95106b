// Loads, stores and typeinfo_mem whose extent (shape, strides, and the
// pointer's constant offset) certainly reaches past the C object the
// pointer points into are errors while clang parses: arrays of any rank
// (local, global, static), constant-size malloc/calloc held in a local that
// is never reassigned; [static N] parameters only promise at least N, so
// reaching past N is a warning. Pointers of unknown provenance are left to
// run time (-fsanitize=address), and padding never changes an extent.
// RUN: %clang_tlx -fsyntax-only -Xclang -verify %s
// RUN: %clang_tlx -x c++ -fsyntax-only -Xclang -verify %s
// RUN: not %clang_tlx -fsyntax-only -fno-color-diagnostics %s 2>&1 | FileCheck %s

#include <stdlib.h>
#include <tlx.h>

typedef float v16f __attribute__((__vector_size__(16 * sizeof(float))));
typedef float v4f __attribute__((__vector_size__(4 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(v16f)

float g[3][4]; // expected-note 3 {{'g' is declared here}}

// The two examples.
void store_small(v16f x) {
  float c[2][2]; // expected-note {{'c' is declared here}}
  tlx_token_t tc = tensor_typeinfo(x, TLX_SHAPE(4, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  tensor_store(c, tc, TLX_STRIDES(0, 0)); // expected-error {{'tensor_store' writes 16 elements (4x4 float) starting at element 0 of 'c', which has 4 (float[2][2])}}
}
// CHECK: diag-bounds.c:[[@LINE-2]]:16: error: 'tensor_store' writes 16 elements (4x4 float) starting at element 0 of 'c', which has 4 (float[2][2])
// CHECK-NEXT: tensor_store(c, tc, TLX_STRIDES(0, 0));
// CHECK-NEXT: {{^ +\| +\^$}}
// CHECK: diag-bounds.c:[[@LINE-7]]:9: note: 'c' is declared here

int load_wide(void) {
  float a[3][4] = {{0}}; // expected-note {{'a' is declared here}}
  return tensor_load(a, TLX_SHAPE(3, 8), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2)); // expected-error {{'tensor_load' reads 24 elements (3x8 float) starting at element 0 of 'a', which has 12 (float[3][4])}}
}

// Leading dimensions: rows 5 apart reach element 14.
int load_strided(void) {
  return tensor_load(g, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_STRIDES(0, 5)); // expected-error {{'tensor_load' reads 3x4 float with strides <0, 5>, spanning 14 elements starting at element 0 of 'g', which has 12 (float[3][4])}}
}

// Offsets: &a[1][0], pointer arithmetic, through an unchanged local.
int load_row1(void) {
  return tensor_load(&g[1][0], TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2)); // expected-error {{'tensor_load' reads 12 elements (3x4 float) starting at element 4 of 'g', which has 12 (float[3][4])}}
}
int load_arith(void) {
  const float *p = (const float *)g + 4;
  return tensor_load(p + 1, TLX_SHAPE(2, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2)); // expected-error {{'tensor_load' reads 8 elements (2x4 float) starting at element 5 of 'g', which has 12 (float[3][4])}}
}

void store_static_array(const float *in) {
  static double out[8]; // expected-note {{'out' is declared here}}
  tlx_token_t t = tensor_load((const double *)in, TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  tensor_store(out, t, TLX_ZEROS(2)); // expected-error {{'tensor_store' writes 9 elements (3x3 double) starting at element 0 of 'out', which has 8 (double[8])}}
}

int heap(void) {
  float *p = (float *)malloc(10 * sizeof(float)); // expected-note {{'p' is declared here}}
  p[0] = 1; // writes through p: p still points at the allocation
  return tensor_typeinfo_mem(p, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)); // expected-error {{'tensor_typeinfo_mem' describes 12 elements (3x4 float) starting at element 0 of 'p', which has 10 (malloc(40))}}
}
int heap_before(void) {
  float *p = (float *)calloc(4, 4); // expected-note {{'p' is declared here}}
  return tensor_load(p - 1, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2)); // expected-error {{'tensor_load' reads 4 elements (2x2 float) starting at element -1 of 'p', which has 4 (calloc(4, 4))}}
}

#ifndef __cplusplus
int param_static(const float p[static 8]) { // expected-note {{'p' is declared here}}
  return tensor_load(p, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2)); // expected-warning {{'tensor_load' reads 12 elements (3x4 float) starting at element 0 of 'p', which is declared to have at least 8 (const float[static 8])}}
}
int param_static_ok(const float p[static 12]) {
  return tensor_load(p, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
}
#endif

// Not reported: what fits, and what is not certain.
int fits(const float *unknown, int n) {
  float a[12];
  float b[3][5];
  float *q = (float *)malloc(16);
  if (n)
    q = (float *)malloc(1024); // reassigned: its size is a run-time matter
  int t1 = tensor_load(&g[1][0], TLX_SHAPE(2, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  int t2 = tensor_typeinfo_mem(a, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_PADDING(1, 1));
  int t3 = tensor_load(b, TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_STRIDES(0, 5));
  int t4 = tensor_load(unknown, TLX_SHAPE(64, 64), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  int t5 = tensor_load(q, TLX_SHAPE(8, 8), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  int t6 = tensor_load(&g[n][0], TLX_SHAPE(3, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  return t1 + t2 + t3 + t4 + t5 + t6;
}

// The short form (TLX_LOAD, TLX_STORE: packed) is checked alike.
void short_form(const float *in) {
  float a[3][4]; // expected-note {{'a' is declared here}}
  float c[2][2]; // expected-note {{'c' is declared here}}
  tlx_token_t t = TLX_LOAD(a, 3, 8); // expected-error {{'TLX_LOAD' reads 24 elements (3x8 float) starting at element 0 of 'a', which has 12 (float[3][4])}}
  TLX_STORE(c, TLX_LOAD(in, 4, 4)); // expected-error {{'TLX_STORE' writes 16 elements (4x4 float) starting at element 0 of 'c', which has 4 (float[2][2])}}
  (void)t;
}
