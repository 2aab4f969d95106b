// Wide vector variables with constant initializer lists: clang (19 and 22)
// emits a vector initializer list as one insertelement per element, each
// folding into a new constant vector - time and memory grow with the square
// of the length (a 65536-byte vector initialized with {1, -1, 3} needs
// about 140 GB; progs.py seed 1014, case 525). The plugin's AST side hands
// clang the list's value as one constant (clang-plugin/WideInitializers.cpp).
// Under the 1 GB memory limit, at -O0 and -O2, the values are checked.
// RUN: %limit_memory %clang_tlx -std=c11 -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %limit_memory %clang_tlx -std=c11 -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// CHECK: i8 partial: ok
// CHECK: f32 partial: ok
// CHECK: f32 zeros: ok
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

typedef int8_t v64k __attribute__((ext_vector_type(65536)));
typedef float v16k __attribute__((ext_vector_type(16384)));
TLX_DECLARE_TENSOR_OPS_AS(v64k, c)
TLX_DECLARE_TENSOR_OPS_AS(v16k, f)

static int8_t rowmax[256];
static float sum[1];

int main(int argc, char **argv) {
  (void)argv;
  v64k a = {1, -1, 3};
  a[300 + (argc - 1)] = 7;
  tlx_token_t ta = tensor_typeinfo(a, TLX_SHAPE(256, 256), TLX_LAYOUT(0, 1),
                                   TLX_ZEROS(2));
  TLX_STORE(rowmax, tlx_reduce_max(ta, TLX_DIMS(1, 256), TLX_DIMS(1, 1)));
  int ok = rowmax[0] == 3 && rowmax[1] == 7;
  for (int i = 2; i < 256; i++)
    ok &= rowmax[i] == 0;
  printf("i8 partial: %s\n", ok && a[2] == 3 && a[65535] == 0 ? "ok" : "wrong");

  v16k f = {0.5f, -2.0f, 0.25f, 8.0f};
  v16k r = tensor_relu_f(tensor_typeinfo(f, TLX_SHAPE(128, 128),
                                         TLX_LAYOUT(0, 1), TLX_ZEROS(2)));
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(128, 128), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  TLX_STORE(sum, tlx_reduce_add(tr, TLX_DIMS(128, 128), TLX_DIMS(1, 1)));
  printf("f32 partial: %s\n",
         sum[0] == 8.75f && r[1] == 0.0f && r[3] == 8.0f ? "ok" : "wrong");

  v16k z = {0.0f, 0};
  printf("f32 zeros: %s\n", z[0] == 0 && z[16383] == 0 ? "ok" : "wrong");
  return 0;
}
