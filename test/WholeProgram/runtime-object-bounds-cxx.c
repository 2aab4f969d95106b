// The run-time bounds check of runtime-object-bounds.c in C++: the array's
// size comes from a template argument, the extent from the command line.
// RUN: %clang_tlx -x c++ -O0 -c %s -o %t0.o && %clang_tlx %t0.o %tlx_rt -o %t0
// RUN: %clang_tlx -x c++ -O2 -c %s -o %t2.o && %clang_tlx %t2.o %tlx_rt -o %t2
// RUN: %t0 2 | FileCheck %s --check-prefix=OK
// RUN: %t2 2 | FileCheck %s --check-prefix=OK
// RUN: not %t0 3 2>&1 | FileCheck %s
// RUN: not %t2 3 2>&1 | FileCheck %s
// OK: 1
// CHECK: runtime-object-bounds-cxx.c:[[@LINE+9]]:3: error: 'TLX_STORE': the destination spans 9 elements (3x3 float) at run time starting at element 0 of 'd', which has 4 (float[2][2])
#include <cstdio>
#include <cstdlib>
#include <tlx.h>

static float x[64];

template <int N> static int first_of_relu(int n) {
  float d[N][N] = {};
  TLX_STORE(d, tlx_relu(TLX_LOAD(x, n, n)));
  return (int)d[0][0];
}

int main(int argc, char **argv) {
  for (int i = 0; i < 64; ++i)
    x[i] = 1;
  std::printf("%d\n", first_of_relu<2>(argc > 1 ? std::atoi(argv[1]) : 2));
  return 0;
}
