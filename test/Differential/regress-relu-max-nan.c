// Bug (fixed; now a regression test): relu and reduce.max/min on NaN and
// -0.0 gave three different answers. Settled (docs/ops.md): relu(x) =
// x <= 0 ? +0.0 : x - NaN passes unchanged, -0 gives +0; reduce.max/min
// fold with llvm.maximum/minimum - the first NaN wins, -0 < +0. Compiled
// code gave relu(NaN) = 0 and max(NaN, -0) = -0 (the NaN dropped, as
// maxnum would), at every -O level. progs.py compares relu and
// reduce.max/min on NaN inputs only with --nan.
//
// Found by progs.py --nan, e.g.
//   python3 test/Differential/progs.py --nan --seed 104 --case 13 \
//     --disable merge-wide-bf16 -o /tmp/r.c
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O2 \
//     test/Differential/regress-relu-max-nan.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug
// Expected: "OK". Before the fix: "MISMATCH relu[0]: got 0 expected nan",
// "MISMATCH relu[7]: ...", "MISMATCH reduce.max[0]: got -0 expected nan".
//
// RUN: %clang_tlx -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: OK
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tlx.h>

typedef float v8 __attribute__((ext_vector_type(8)));
typedef float v4 __attribute__((ext_vector_type(4)));
TLX_DECLARE_TENSOR_OPS_AS(v8, v8)
TLX_DECLARE_TENSOR_OPS_AS(v4, v4)

/* llvm.maximum / llvm.minimum */
static float maximum(float a, float b) {
  if (a != a || b != b)
    return NAN;
  if (a == b)
    return signbit(a) ? b : a;
  return a > b ? a : b;
}
static float minimum(float a, float b) {
  if (a != a || b != b)
    return NAN;
  if (a == b)
    return signbit(a) ? a : b;
  return a < b ? a : b;
}

static int same(float g, float e) {
  return (isnan(g) && isnan(e)) || (g == e && signbit(g) == signbit(e));
}

int main(void) {
  float a[8] = {NAN, -0.0f, 0.0f, -1.0f, -0.0f, 0.0f, 3.0f, NAN};
  float r[8], mx[4], mn[4];
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(8), TLX_LAYOUT(0), TLX_ZEROS(1),
                               TLX_ZEROS(1));
  v8 vr = tensor_relu_v8(ta);
  tlx_token_t tr =
      tensor_typeinfo(vr, TLX_SHAPE(8), TLX_LAYOUT(0), TLX_ZEROS(1));
  tensor_store(r, tr, TLX_ZEROS(1));
  /* windows of 2 with stride 2: {NaN,-0} {0,-1} {-0,0} {3,NaN} */
  v4 vx = tensor_reduce_max_v4(ta, TLX_DIMS(2), TLX_DIMS(2));
  tlx_token_t tx =
      tensor_typeinfo(vx, TLX_SHAPE(4), TLX_LAYOUT(0), TLX_ZEROS(1));
  tensor_store(mx, tx, TLX_ZEROS(1));
  v4 vn = tensor_reduce_min_v4(ta, TLX_DIMS(2), TLX_DIMS(2));
  tlx_token_t tn =
      tensor_typeinfo(vn, TLX_SHAPE(4), TLX_LAYOUT(0), TLX_ZEROS(1));
  tensor_store(mn, tn, TLX_ZEROS(1));
  int bad = 0;
  for (int i = 0; i < 8; i++) {
    float e = maximum(a[i], 0.0f);
    if (!same(r[i], e) && bad++ < 3)
      printf("MISMATCH relu[%d]: got %g expected %g\n", i, r[i], e);
  }
  for (int i = 0; i < 4; i++) {
    float ex = maximum(a[2 * i], a[2 * i + 1]);
    float en = minimum(a[2 * i], a[2 * i + 1]);
    if (!same(mx[i], ex) && bad++ < 3)
      printf("MISMATCH reduce.max[%d]: got %g expected %g\n", i, mx[i], ex);
    if (!same(mn[i], en) && bad++ < 3)
      printf("MISMATCH reduce.min[%d]: got %g expected %g\n", i, mn[i], en);
  }
  if (!bad)
    printf("OK\n");
  return bad != 0;
}
