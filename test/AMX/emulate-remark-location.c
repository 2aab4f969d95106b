// The AMX emulator's remark says where: for the GEMM kernels the lowering
// outlines into functions of their own (without debug locations), at the
// user's operation that called the kernel.
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-target=amx-emulate -Rpass=tlx-amx-emulate -c -o /dev/null %s 2>&1 | FileCheck %s
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-target=amx-emulate -Rpass=tlx-amx-emulate -c -o /dev/null %s 2>&1 | FileCheck %s

#include <stdint.h>
#include <tlx.h>

typedef int32_t acc_t __attribute__((__vector_size__(32 * 32 * sizeof(int32_t))));
TLX_DECLARE_TENSOR_OPS(acc_t)

void gemm(const int8_t *a, const int8_t *b, int32_t *c) {
  tlx_token_t tc = tensor_load(c, TLX_SHAPE(32, 32), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(32, 64), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(64, 32), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  tensor_store(c, tensor_typeinfo(tensor_smma(tc, ta, tb), TLX_SHAPE(32, 32), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)), TLX_ZEROS(2));
}
// CHECK: emulate-remark-location.c:[[@LINE-2]]:{{[0-9]+}}: remark: AMX emulated: {{[0-9]+}} AMX intrinsic call(s) in 'tlx.amx.gemm{{[.0-9]*}}' replaced by calls into libtlxrt's AMX emulator
// CHECK-NOT: {{^}}remark:
