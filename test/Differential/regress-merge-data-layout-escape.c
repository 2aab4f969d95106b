// Bug (fixed; now a regression test): d = f ? x : y of two TLX results typed
// with a non-identity layout (column-major 7x7 f32, padded), passed by value
// to C code, reached C in logical order instead of the storage order the
// typeinfo names (32 of 49 elements transposed, -O0 and -O2): the merge
// buffer was read back through tovector, which gives logical order.
//
// Found by progs.py --seed 1 --case 151 (features: merge-data,
// merge-layout, escape-arg).
// Reproduce (from the repository root, with a build in build/):
//   clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O2 \
//     test/Differential/regress-merge-data-layout-escape.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug && /tmp/bug x
// Expected: "OK" twice.
//
// RUN: %clang_tlx -O0 %s %tlx_rt -o %t0 && %t0 && %t0 x | FileCheck %s
// RUN: %clang_tlx -O2 %s %tlx_rt -o %t2 && %t2 && %t2 x | FileCheck %s
// CHECK: OK
#include <stdio.h>
#include <string.h>
#include <tlx.h>

typedef float v49 __attribute__((ext_vector_type(49)));
TLX_DECLARE_TENSOR_OPS(v49)

#define SHAPE TLX_SHAPE(7, 7)
#define COLUMN_MAJOR TLX_LAYOUT(1, 0)

static float a[49], b[49], seen[49];

__attribute__((noinline)) static void show(v49 v) { memcpy(seen, &v, 196); }

int main(int argc, char **argv) {
  (void)argv;
  for (int i = 0; i < 49; i++) {
    a[i] = (float)(i % 9) - 4;
    b[i] = (float)(i % 5) - 1;
  }
  tlx_token_t ta = tensor_load(a, SHAPE, TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                               TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, SHAPE, TLX_LAYOUT(0, 1), TLX_ZEROS(2),
                               TLX_ZEROS(2));
  v49 x = tensor_relu(ta);
  tlx_token_t tx = tensor_typeinfo(x, SHAPE, COLUMN_MAJOR, TLX_PADDING(1, 1));
  v49 y = tensor_relu(tb);
  tlx_token_t ty = tensor_typeinfo(y, SHAPE, COLUMN_MAJOR, TLX_PADDING(1, 1));
  v49 d = argc == 1 ? x : y;
  tlx_token_t td = tensor_typeinfo(d, SHAPE, COLUMN_MAJOR, TLX_PADDING(1, 1));
  show(d);
  (void)tx;
  (void)ty;
  (void)td;
  const float *in = argc == 1 ? a : b;
  /* Storage element (i, j) of a column-major result is logical (j, i). */
  for (int i = 0; i < 7; i++)
    for (int j = 0; j < 7; j++) {
      float v = in[j * 7 + i], want = v > 0 ? v : 0;
      if (seen[i * 7 + j] != want) {
        printf("MISMATCH at %d: got %g expected %g\n", i * 7 + j,
               seen[i * 7 + j], want);
        return 1;
      }
    }
  printf("OK\n");
  return 0;
}
