// -fplugin-arg-tlx-stop-after=recognize shows the IR as tlx-recognize left
// it: with -emit-llvm, even at -O2 (where LLVM would otherwise delete the
// unused, readnone TLX calls) the chain stays; code generation instead
// reports every op left unlowered at its source location.
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck %s --check-prefix=IR
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-stop-after=recognize -c -emit-llvm -o %t.bc %s
// RUN: not %clang_tlx -O2 -fplugin-arg-tlx-stop-after=recognize -S -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=ASM

#include <tlx.h>

typedef float v4f __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS(v4f)

void unused_chain(v4f a) {
  tlx_token_t t = tensor_typeinfo(a, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  v4f r = tensor_relu(t);
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
}
// IR-LABEL: define {{.*}}void @unused_chain(<4 x float> noundef %0)
// IR-NEXT: [[T:%[0-9]+]] = call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> %0,
// IR-NEXT: [[R:%[0-9]+]] = call <4 x float> @llvm.tensor.relu.v4f32(token [[T]])
// IR-NEXT: call token @llvm.tensor.typeinfo.v4f32.v2i32.v2i32.v2i32(<4 x float> [[R]],
// IR-NEXT: ret void
// ASM: stop-after-recognize.c:16:11: error: TLX op 'relu' was not lowered: the pipeline stopped early (stop-after)
