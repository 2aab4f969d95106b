// -O0 modules with outlined kernels: x86 generates their code at -O2
// (tlx-optimize-kernels raises the TargetMachine), but AArch64 selects
// instructions at -O0 with GlobalISel, which LLVM uses only there, and
// LLVM 19's GlobalISel at the raised level miscompiled: the global's
// address folded into the broadcast's LD1R lost its low 12 bits, so it
// read the start of the page (found by the differential tests: seed 11, a
// batched i64 matmul - the kernel - before an i8 broadcast). Such modules
// keep -O0 code generation; the kernels' IR is optimized all the same.
// REQUIRES: aarch64-cross
// RUN: %a64_tlx_cc -w -O0 %s -o %t && %a64_qemu %t | FileCheck %s
// RUN: %a64_tlx_cc -w -O0 -S %s -o - -Rpass=tlx-optimize-kernels 2>&1 | FileCheck %s --check-prefix=ASM
// ASM: remark: kernel 'tlx.gemm.matmul.0' optimized at -O2 (code generation at -O0)
// ASM-LABEL: broadcast:
// ASM: adrp [[IN:x[0-9]+]], in
// ASM-NOT: ld1r {{.*}}{{\[}}[[IN]]{{\]}}
// ASM: ret
// CHECK: matmul: ok
// CHECK: broadcast: ok
#include <stdint.h>
#include <stdio.h>
#include <tlx.h>

typedef int64_t m_t __attribute__((ext_vector_type(2 * 2 * 9)));
typedef int8_t b_t __attribute__((ext_vector_type(4)));
TLX_DECLARE_TENSOR_OPS_AS(m_t, m)
TLX_DECLARE_TENSOR_OPS_AS(b_t, b)

static int64_t ma[2 * 2 * 8], mb[2 * 8 * 9], mc[2 * 2 * 9];

// A batched i64 matmul: an outlined kernel at -O0.
__attribute__((noinline)) void matmul(void) {
  m_t r = tensor_matmul_m(
      tensor_load(ma, TLX_SHAPE(2, 2, 8), TLX_LAYOUT(0, 1, 2), TLX_ZEROS(3),
                  TLX_ZEROS(3)),
      tensor_load(mb, TLX_SHAPE(2, 8, 9), TLX_LAYOUT(0, 1, 2), TLX_ZEROS(3),
                  TLX_ZEROS(3)));
  tensor_store(mc, tensor_typeinfo(r, TLX_SHAPE(2, 2, 9), TLX_LAYOUT(0, 1, 2),
                                   TLX_ZEROS(3)),
               TLX_ZEROS(3));
}

static int8_t in[4], out[8];

// out[1..4] = in[0]: a 1-element tensor broadcast to 4.
__attribute__((noinline)) void broadcast(void) {
  b_t r = tensor_broadcast_b(
      tensor_load(in, TLX_SHAPE(1), TLX_LAYOUT(0), TLX_DIMS(3), TLX_ZEROS(1)));
  tensor_store(out + 1, tensor_typeinfo(r, TLX_SHAPE(4), TLX_LAYOUT(0),
                                        TLX_ZEROS(1)),
               TLX_ZEROS(1));
}

int main(void) {
  for (int i = 0; i < 2 * 2 * 8; ++i)
    ma[i] = i - 7;
  for (int i = 0; i < 2 * 8 * 9; ++i)
    mb[i] = 3 * i - 100;
  matmul();
  int bad = 0;
  for (int n = 0; n < 2; ++n)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 9; ++j) {
        int64_t s = 0;
        for (int k = 0; k < 8; ++k)
          s += ma[(n * 2 + i) * 8 + k] * mb[(n * 8 + k) * 9 + j];
        bad += s != mc[(n * 2 + i) * 9 + j];
      }
  printf("matmul: %s\n", bad ? "FAILED" : "ok");
  in[0] = 13;
  in[1] = in[2] = in[3] = 99;
  for (int i = 0; i < 8; ++i)
    out[i] = 90;
  broadcast();
  bad = out[0] != 90 || out[5] != 90 || out[6] != 90 || out[7] != 90;
  for (int i = 1; i <= 4; ++i)
    bad |= out[i] != 13;
  printf("broadcast: %s\n", bad ? "FAILED" : "ok");
  return 0;
}
