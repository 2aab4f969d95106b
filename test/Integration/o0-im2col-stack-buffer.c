// At -O0 an im2col copy of at least 4096 elements is a kernel of its own
// (KernelOutliner.h) while the GEMM after it reads its buffer: an int8
// convolution whose column buffer is exactly 4096 bytes keeps it on the
// stack, in the user's function. The outliner used to move that slot into
// the im2col kernel (only the copy used it when the kernel was cut out),
// leaving the GEMM a reference into another function: a backend crash, or
// a read of the wrong stack slot. Checked against plain C loops at -O0
// (kernels outlined; also every loop nest, -tlx-kernel-min-steps=0) and -O2.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O0 -mllvm -tlx-kernel-min-steps=0 %s %tlx_rt -o %tk && %tk | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// RUN: %clang_tlx -w -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: define {{.*}}void @conv(
// IR: %[[COL:.*]] = alloca [4096 x i8]
// IR: call void @tlx.im2col.conv.0({{.*}}ptr %[[COL]]
// IR: call void @tlx.gemm.conv.0({{.*}}ptr %[[COL]]
// CHECK: convolution 1x4x8x67 * 8x4x4x4: 0 wrong
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

// NCHW: im2col buffer [(C, kh, kw), OW] = [64, 64] bytes.
enum { C = 4, H = 8, W = 67, O = 8, K = 4, OH = H - K + 1, OW = W - K + 1 };
typedef int32_t vout __attribute__((ext_vector_type(O * OH * OW)));
TLX_DECLARE_TENSOR_OPS_AS(vout, out)

static int8_t in[C * H * W], ker[O * C * K * K];
static int32_t out[O * OH * OW];

__attribute__((noinline)) void conv(void) {
  tlx_token_t xi = tensor_load(in, TLX_SHAPE(1, C, H, W), TLX_LAYOUT(0, 1, 2, 3),
                               TLX_ZEROS(4), TLX_ZEROS(4));
  tlx_token_t xk = tensor_load(ker, TLX_SHAPE(O, C, K, K),
                               TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4),
                               TLX_ZEROS(4));
  vout r = tensor_convolution_out(xi, xk);
  tensor_store(out, tensor_typeinfo(r, TLX_SHAPE(1, O, OH, OW),
                                    TLX_LAYOUT(0, 1, 2, 3), TLX_ZEROS(4)),
               TLX_ZEROS(4));
}

int main(void) {
  for (int i = 0; i < C * H * W; i++)
    in[i] = (int8_t)((i * 37) % 251 - 125);
  for (int i = 0; i < O * C * K * K; i++)
    ker[i] = (int8_t)((i * 53) % 241 - 120);
  conv();
  int wrong = 0;
  for (int o = 0; o < O; o++)
    for (int y = 0; y < OH; y++)
      for (int x = 0; x < OW; x++) {
        int32_t s = 0;
        for (int c = 0; c < C; c++)
          for (int ky = 0; ky < K; ky++)
            for (int kx = 0; kx < K; kx++)
              s += in[(c * H + y + ky) * W + x + kx] *
                   ker[((o * C + c) * K + ky) * K + kx];
        wrong += out[(o * OH + y) * OW + x] != s;
      }
  printf("convolution 1x%dx%dx%d * %dx%dx%dx%d: %d wrong\n", C, H, W, O, C, K,
         K, wrong);
  return 0;
}
