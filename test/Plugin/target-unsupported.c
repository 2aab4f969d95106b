// -fplugin-arg-tlx-target=sme needs an AArch64 target and target=amx an
// x86-64 one. On another target the plugin says so once, as a warning
// printed without any -R flag (also at -fsyntax-only), and uses vector
// code: before, sme fell back silently and amx on AArch64 crashed LLVM's
// backend. amx-emulate runs anywhere; a supported choice says nothing,
// and -w silences the warning.
// RUN: %clang_tlx --target=x86_64-linux-gnu -fplugin-arg-tlx-target=sme -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=SME
// RUN: %clang_tlx --target=x86_64-linux-gnu -fplugin-arg-tlx-target=sme -O2 -c -o %t.o %s -Rpass=tlx-tile 2>&1 | FileCheck %s --check-prefixes=SME,VEC
// RUN: %tlx_clang -fplugin=%tlx_plugin -I%tlx_headers --target=aarch64-linux-gnu -fplugin-arg-tlx-target=amx -O2 -c -o %t.o %s -Rpass=tlx-tile 2>&1 | FileCheck %s --check-prefixes=AMX,VEC
// RUN: %tlx_clang -fplugin=%tlx_plugin -I%tlx_headers --target=aarch64-linux-gnu -fplugin-arg-tlx-target=sme -fsyntax-only %s 2>&1 | FileCheck %s --allow-empty --check-prefix=NONE
// RUN: %clang_tlx --target=x86_64-linux-gnu -fplugin-arg-tlx-target=amx -fsyntax-only %s 2>&1 | FileCheck %s --allow-empty --check-prefix=NONE
// RUN: %clang_tlx --target=x86_64-linux-gnu -fplugin-arg-tlx-target=sme -fsyntax-only -w %s 2>&1 | FileCheck %s --allow-empty --check-prefix=NONE
// RUN: %tlx_clang -fplugin=%tlx_plugin -I%tlx_headers --target=aarch64-linux-gnu -fplugin-arg-tlx-target=amx-emulate -fsyntax-only %s 2>&1 | FileCheck %s --allow-empty --check-prefix=NONE
// SME: warning: TLX plugin argument 'target=sme' needs an AArch64 target, but the target is x86_64-{{.*}}linux-gnu: TLX uses vector code instead{{$}}
// SME-NOT: warning:
// AMX: warning: TLX plugin argument 'target=amx' needs an x86-64 target, but the target is aarch64-{{.*}}linux-gnu: TLX uses vector code instead (target=amx-emulate runs AMX code through the runtime's emulator on any target)
// AMX-NOT: warning:
// VEC: remark: matmul: 16x64x16 (MxKxN) {{.*}} GEMM on vectors
// NONE-NOT: warning

#include <tlx.h>
typedef int v256i __attribute__((__vector_size__(256 * sizeof(int))));
TLX_DECLARE_TENSOR_OPS(v256i)

void mm(const signed char *a, const signed char *b, int *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(16, 64), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(64, 16), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2));
  v256i r = tensor_matmul(ta, tb);
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(16, 16), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)), TLX_ZEROS(2));
}
