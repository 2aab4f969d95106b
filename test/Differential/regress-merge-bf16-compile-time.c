// Bug (fixed; now a regression test): merging the token of a loaded bf16 tensor
// with the token of an op result (if/else) materialises the whole tensor as one
// SSA vector - load <N x bfloat>, select, store <N x bfloat> - which reaches
// the x86 backend ("tensor-sized vector loads/stores must never reach the
// backend"). Instruction selection on bfloat vectors is superlinear: at -O2 a
// 23x23 merge compiles in about 1 s, 45x45 (2025 elements, still a stack
// buffer) in about 45 s, 64x64 in more than 2 minutes. f32, i32 and i8 vectors
// of the same size also reach the backend but compile in about a second.
//
// Found by progs.py (feature merge-wide-bf16), e.g.
//   python3 test/Differential/progs.py --seed 105 --case 25 -o /tmp/r.c
//   (-O2: the compile does not end within 120 s)
// Reproduce (from the repository root, with a build in build/):
//   time clang-19 -fplugin=build/lib/libtlx.so -Iheaders -std=c11 -O2 \
//     test/Differential/regress-merge-bf16-compile-time.c \
//     build/lib/libtlxrt.a -lm -o /tmp/bug && /tmp/bug
//   (-S -emit-llvm shows the <4096 x bfloat> select; -DN=23 is fast)
// Expected: compiles within seconds and prints "OK". Before the fix: the
// compile does not finish within the 20 s the RUN line allows.
//
// RUN: timeout 20 %clang_tlx -O2 %s %tlx_rt -o %t && %t | FileCheck %s
// CHECK: OK
#include <stdio.h>
#include <tlx.h>

#ifndef N
#define N 64
#endif

typedef __bf16 vN __attribute__((ext_vector_type(N * N)));
TLX_DECLARE_TENSOR_OPS(vN)

static __bf16 a[N * N], o[N * N];
static volatile int flag = 0;

int main(void) {
  for (int i = 0; i < N * N; i++)
    a[i] = (__bf16)(float)(i % 7 - 3);
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  vN r = tensor_fabs(ta);
  tlx_token_t tr =
      tensor_typeinfo(r, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2));
  tlx_token_t t;
  if (flag)
    t = tr;
  else
    t = ta;
  tensor_store(o, t, TLX_ZEROS(2));
  for (int i = 0; i < N * N; i++)
    if ((float)o[i] != (float)a[i]) {
      printf("MISMATCH at %d: got %g expected %g\n", i, (float)o[i],
             (float)a[i]);
      return 1;
    }
  printf("OK\n");
  return 0;
}
