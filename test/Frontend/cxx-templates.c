// C++ function templates over shapes: each instantiation is checked and
// compiled as a program of its own (the shapes are constants there), and
// the uninstantiated template, where they are not, is not checked. A dummy
// with C++ linkage - a function template returning any vector type, or a
// declaration at block scope - is called by its C name (tensor_matmul_t),
// as tlx.h's extern "C" dummies are. Lambdas and members of class
// templates work alike.
// RUN: %tlx_cxx -x c++ -O2 -DRUN %s -o %t && %t | FileCheck %s --check-prefix=EXEC
// RUN: %tlx_cxx -x c++ -O0 -DRUN %s -o %t0 && %t0 | FileCheck %s --check-prefix=EXEC
// RUN: %tlx_cxx -x c++ -fsyntax-only -Xclang -verify %s
// RUN: %tlx_cxx -x c++ -O1 -DRUN -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck %s --check-prefix=IR
// EXEC: 4 0 10 0
// EXEC-NEXT: 1 5 9
// EXEC-NEXT: 4 5 10 11
// EXEC-NEXT: 6 9
// EXEC-NEXT: 2 5
// IR-NOT: _Z{{[0-9]+}}tensor_
// IR: @llvm.tensor.matmul
// IR-NOT: _Z{{[0-9]+}}tensor_

#include <stdio.h>
#include <tlx.h>

// One dummy for every result type: call it as tensor_matmul_t<V>(...).
template <class V> V tensor_matmul_t(...);

template <int M, int K, int N>
void mm(const float *a, const float *b, float *c) {
  typedef float vMN __attribute__((vector_size(M * N * sizeof(float))));
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(M, K), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(K, N), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  vMN r = tensor_matmul_t<vMN>(ta, tb);
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(M, N), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)), TLX_ZEROS(2));
}

// The style: the op declared at block scope (one result type per
// name in the program: block-scope declarations of one name are one
// function in C++).
template <int M, int K, int N>
void mm_local(const float *a, const float *b, float *c) {
  typedef float vMN __attribute__((vector_size(M * N * 4)));
  vMN tensor_matmul(...);
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(M, K), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(K, N), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  vMN r = tensor_matmul(ta, tb);
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(M, N), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)), TLX_ZEROS(2));
}

template <class T> struct Copy {
  static void run(const T *a, T *c) {
    tlx_token_t ta = tensor_load(a, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
    tensor_store(c, ta, TLX_ZEROS(2));
  }
};

#ifdef RUN
int main() {
  float a[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, b[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  float c[9], d[4];
  mm<2, 3, 2>(a, b, c);
  printf("%g %g %g %g\n", c[0], c[1], c[2], c[3]);
  mm<3, 3, 3>(a, b, c);
  printf("%g %g %g\n", c[0], c[4], c[8]);
  float e[6] = {1, 0, 0, 1, 1, 1};
  mm_local<2, 3, 2>(a, e, c);
  printf("%g %g %g %g\n", c[0], c[1], c[2], c[3]);
  auto copy = [&](const float *p) {
    tlx_token_t t = tensor_load(p, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
    tensor_store(d, t, TLX_ZEROS(2));
  };
  copy(a + 5);
  printf("%g %g\n", d[0], d[3]);
  Copy<float>::run(a + 1, d);
  printf("%g %g\n", d[0], d[3]);
  return 0;
}
#else
// An instantiation whose shapes do not fit is an error there, naming it.
template <int M, int K, int N>
void mm_wrong(const float *a, const float *b, float *c) {
  typedef float vMN __attribute__((vector_size(M * N * sizeof(float))));
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(M, K), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(N, K), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  vMN r = tensor_matmul_t<vMN>(ta, tb); // expected-error {{'tensor_matmul_t': inner dimensions differ: op1 is 2x3 (M=2, K=3), op2 is 2x3 (K=2, N=3)}}
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(M, N), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)), TLX_ZEROS(2));
}
void use(const float *a, float *c) {
  mm_wrong<2, 2, 2>(a, a, c); // square: fine
  mm_wrong<2, 3, 2>(a, a, c); // expected-note {{in instantiation of 'mm_wrong<2, 3, 2>' requested here}}
}
#endif
