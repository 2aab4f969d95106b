// tensor_load / tensor_store between overlapping views of one array copy
// like memmove (the load reads the old contents), also through a merge and
// with strides; disjoint views of one array are copied directly (no
// buffer: see the remarks run). Shapes, layouts and strides may live in
// file-scope statics that nothing writes.
// RUN: %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O1 %s %tlx_rt -o %t1 && %t1 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O3 %s %tlx_rt -o %t3 && %t3 | FileCheck %s
// RUN: %clang_tlx -std=c11 -w -O2 -Rpass=tlx-bufferize -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// CHECK: shift right: ok
// CHECK: shift left: ok
// CHECK: strided overlap: ok
// CHECK: disjoint: ok
// CHECK: static shapes: ok
// CHECK-NOT: bad
// REMARK-NOT: overlap

#include <stdio.h>
#include <tlx.h>

typedef int v12i __attribute__((__vector_size__(12 * sizeof(int))));
TLX_DECLARE_TENSOR_OPS(v12i)

static int failures;
static void expect(const char *what, int bad) {
  printf("%s: %s\n", what, bad ? "bad" : "ok");
  failures += bad;
}

static int buf[64];
static void reset(void) {
  for (int i = 0; i < 64; ++i)
    buf[i] = i;
}

// memmove(buf + 1, buf, 12 ints) through TLX.
__attribute__((noinline)) static void shift_right(void) {
  tlx_token_t t = tensor_load(buf, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  // REMARK: [[@LINE+1]]:3: remark: store: source and destination may overlap in one object; copied through a stack buffer
  tensor_store(buf + 1, t, TLX_ZEROS(2));
}
// memmove(buf, buf + 1, 12 ints).
__attribute__((noinline)) static void shift_left(void) {
  tlx_token_t t = tensor_load(buf + 1, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  // REMARK: [[@LINE+1]]:3: remark: store: source and destination may overlap in one object; copied through a stack buffer
  tensor_store(buf, t, TLX_ZEROS(2));
}
// Rows 8 apart read, written 5 further: rows overlap the next read row.
__attribute__((noinline)) static void strided_overlap(void) {
  tlx_token_t t = tensor_load(buf, TLX_SHAPE(3, 6), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_STRIDES(0, 8));
  // REMARK: [[@LINE+1]]:3: remark: store: source and destination may overlap in one object; copied through a stack buffer
  tensor_store(buf + 5, t, TLX_STRIDES(0, 8));
}
// Two halves of one array: disjoint, no buffer.
// REMARK-NOT: overlap
__attribute__((noinline)) static void disjoint(void) {
  tlx_token_t t = tensor_load(buf, TLX_SHAPE(4, 8), TLX_LAYOUT(0, 1),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  tensor_store(buf + 32, t, TLX_ZEROS(2));
}

static tlx_dims2_t shape = {3, 4};
static const tlx_dims2_t layout = {0, 1};
static tlx_dims2_t zeros;
__attribute__((noinline)) static void static_shapes(const int *a, int *out) {
  tlx_token_t t = tensor_load(a, shape, layout, zeros, zeros);
  v12i r = tensor_relu(t);
  tensor_store(out, tensor_typeinfo(r, shape, layout, zeros), zeros);
}

int main(void) {
  int bad = 0;
  reset();
  shift_right();
  for (int i = 0; i < 13; ++i)
    bad += buf[i] != (i == 0 ? 0 : i - 1);
  expect("shift right", bad);

  reset();
  shift_left();
  bad = 0;
  for (int i = 0; i < 13; ++i)
    bad += buf[i] != (i < 12 ? i + 1 : 12);
  expect("shift left", bad);

  reset();
  strided_overlap();
  int ref[64];
  for (int i = 0; i < 64; ++i)
    ref[i] = i;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 6; ++c)
      ref[5 + r * 8 + c] = r * 8 + c;
  bad = 0;
  for (int i = 0; i < 64; ++i)
    bad += buf[i] != ref[i];
  expect("strided overlap", bad);

  reset();
  disjoint();
  bad = 0;
  for (int i = 0; i < 64; ++i)
    bad += buf[i] != (i < 32 ? i : i - 32);
  expect("disjoint", bad);

  int a[12], out[12];
  for (int i = 0; i < 12; ++i)
    a[i] = i % 2 ? i : -i;
  static_shapes(a, out);
  bad = 0;
  for (int i = 0; i < 12; ++i)
    bad += out[i] != (a[i] > 0 ? a[i] : 0);
  expect("static shapes", bad);
  return failures != 0;
}
