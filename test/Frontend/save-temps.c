// -save-temps compiles in three steps: preprocess (-E: tlx.h knows the
// plugin is loaded through __has_attribute), the preprocessed source to
// bitcode (the element tags are recognized without tlx.h's macros; the TLX
// passes run here, the last step with a plugin action), then the bitcode
// to an object. The program is the same as without -save-temps.
// RUN: rm -rf %t.d && mkdir %t.d && cd %t.d
// RUN: %clang_tlx -O2 -save-temps %s %tlx_rt -o %t.d/prog
// RUN: %t.d/prog | FileCheck %s
// RUN: not grep -q 'tensor_' %t.d/save-temps.s
// RUN: %clang_tlx -O0 -save-temps -c %s -o %t.d/o0.o
// RUN: llvm-nm %t.d/o0.o | FileCheck %s --check-prefix=SYMS --implicit-check-not=tensor_
// SYMS: T main

#include <stdio.h>
#include <tlx.h>

typedef float v4f __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS(v4f)

int main(void) {
  float a[2][2] = {{1, 2}, {3, 4}}, c[2][2];
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  v4f r = tensor_matmul(ta, ta);
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
  printf("%g %g %g %g\n", c[0][0], c[0][1], c[1][0], c[1][1]);
  return 0;
}
// CHECK: 7 10 15 22
