// f16 element-wise kernels at -O0 on armv8.6-a (+bf16, no +fullfp16):
// the kernels' IR is optimized (fpext, floor, fptrunc becomes floor on
// half vectors) while LLVM 19's GlobalISel selects their instructions, and
// it computes f16 vector arithmetic in f32 and narrows it with BFCVTN - a
// conversion to bf16 (found by the cross OpenMP differential run: floor
// and sigmoid on f16 at -O0). tlx-backend-workarounds makes such ops one
// per lane; with +fp16 the arithmetic is native. Each result is checked
// against plain C on float, rounded once to _Float16.
// REQUIRES: aarch64-cross
// RUN: %a64_tlx_cc -march=armv8.6-a -std=c11 -w -O0 %s -lm -o %t0 && %a64_qemu %t0 | FileCheck %s
// RUN: %a64_tlx_cc -march=armv8.6-a -std=c11 -w -O2 %s -lm -o %t2 && %a64_qemu %t2 | FileCheck %s
// RUN: %a64_tlx_cc -march=armv8.6-a+fp16 -std=c11 -w -O0 %s -lm -o %th && %a64_qemu %th | FileCheck %s
// RUN: %a64_tlx_cc -march=armv8.6-a -std=c11 -w -O0 -S %s -o - -Rpass=tlx-optimize-kernels 2>&1 | FileCheck %s --check-prefix=ASM
// ASM: remark: kernel 'tlx.loop.{{.*}}' optimized at -O2 (code generation at -O0)
// ASM-NOT: bfcvtn
// CHECK: floor: 0 wrong
// CHECK: sqrt: 0 wrong
// CHECK: sum: 0 wrong
// CHECK: product: 0 wrong
// CHECK: relu: 0 wrong
#include <math.h>
#include <stdio.h>
#include <tlx.h>

#define N 64
typedef _Float16 vh __attribute__((ext_vector_type(N * N)));
TLX_DECLARE_TENSOR_OPS_AS(vh, h)

#define LOAD(p) tensor_load(p, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2), TLX_ZEROS(2))
#define INFO(v) tensor_typeinfo(v, TLX_SHAPE(N, N), TLX_LAYOUT(0, 1), TLX_ZEROS(2))

static _Float16 x[N * N], y[N * N], out[5][N * N];

__attribute__((noinline)) void kernels(void) {
  vh f = tensor_floor_h(LOAD(x));
  tensor_store(out[0], INFO(f), TLX_ZEROS(2));
  vh s = tensor_sqrt_h(LOAD(y));
  tensor_store(out[1], INFO(s), TLX_ZEROS(2));
  vh b = tensor_fabs_h(LOAD(y)); // y > 0: y itself, as a vector
  vh sum = f + b, prod = f * b;
  tensor_store(out[2], INFO(sum), TLX_ZEROS(2));
  tensor_store(out[3], INFO(prod), TLX_ZEROS(2));
  vh r = tensor_relu_h(LOAD(x));
  tensor_store(out[4], INFO(r), TLX_ZEROS(2));
}

static void report(const char *name, int which) {
  int wrong = 0;
  for (int i = 0; i < N * N; i++) {
    float a = (float)x[i], b = (float)y[i], e;
    switch (which) {
    case 0: e = floorf(a); break;
    case 1: e = sqrtf(b); break;
    case 2: e = floorf(a) + b; break;
    case 3: e = floorf(a) * b; break;
    default: e = a > 0 ? a : 0; break;
    }
    if ((float)out[which][i] != (float)(_Float16)e)
      wrong++;
  }
  printf("%s: %d wrong\n", name, wrong);
}

int main(void) {
  for (int i = 0; i < N * N; i++) {
    x[i] = (_Float16)((float)(i % 97) * 0.173f - 8.3f);
    y[i] = (_Float16)((float)(i % 89) * 0.311f + 0.01f);
  }
  kernels();
  report("floor", 0);
  report("sqrt", 1);
  report("sum", 2);
  report("product", 3);
  report("relu", 4);
  return 0;
}
