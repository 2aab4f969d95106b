// The IR after each lowering stage (-fplugin-arg-tlx-stop-after=<stage>),
// and the remarks each stage gives at the op's source location.
// RUN: %clang_tlx -w -O0 -fplugin-arg-tlx-stop-after=bufferize -S -emit-llvm %s -o - | FileCheck %s --check-prefix=BUF
// RUN: %clang_tlx -w -O0 -fplugin-arg-tlx-stop-after=nd-to-2d -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ND
// RUN: %clang_tlx -w -O0 -fplugin-arg-tlx-stop-after=tile -S -emit-llvm %s -o - | FileCheck %s --check-prefix=TILE
// RUN: %clang_tlx -w -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ALL
// RUN: %clang_tlx -w -O0 -Rpass=tlx -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: not %clang_tlx -w -O0 -fplugin-arg-tlx-stop-after=nd-to-2d -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STOPPED
#include <tlx.h>

typedef int v24i __attribute__((__vector_size__(24 * 4)));
TLX_DECLARE_TENSOR_OPS(v24i)

// BUF-LABEL: define {{.*}}void @bmm(
// BUF: call <24 x i32> @llvm.tensor.matmul{{.*}}(token
// BUF: call token @llvm.tensor.typeinfo{{.*}}(<24 x i32>
// BUF: call void @llvm.tensor.store{{.*}}(ptr elementtype(i32)
// BUF: call <24 x i32> @llvm.tensor.relu

// ND-LABEL: define {{.*}}void @bmm(
// ND: phi i64 [ 0, %{{[0-9]+}} ]
// ND: call token @llvm.tensor.load{{.*}}<2 x i32> <i32 3, i32 4>
// ND: call token @llvm.tensor.load{{.*}}<2 x i32> <i32 4, i32 4>
// ND: call <12 x i32> @llvm.tensor.matmul
// ND: call void @llvm.tensor.store{{.*}}<2 x i32> <i32 0, i32 4>)
// ND: br i1
// ND: call <24 x i32> @llvm.tensor.relu

// TILE-LABEL: define {{.*}}void @bmm(
// TILE-NOT: call {{.*}}@llvm.tensor.matmul
// TILE: call <24 x i32> @llvm.tensor.relu

// ALL-LABEL: define {{.*}}void @bmm(
// ALL-NOT: call {{.*}}@llvm.tensor.
// ALL: ret void

// REMARK: stop-after-stages.c:50:{{[0-9]+}}: remark: matmul: result 2x3x4 i32 into a stack buffer of 96 bytes [-Rpass=tlx-bufferize]
// REMARK: stop-after-stages.c:53:{{[0-9]+}}: remark: relu: result written in place into the destination of its tensor.store [-Rpass=tlx-bufferize]
// REMARK: stop-after-stages.c:50:{{[0-9]+}}: remark: matmul: 2x3x4 -> loop over 2 batch slices of 3x4 2-D matmul [-Rpass=tlx-nd-to-2d]
// REMARK: stop-after-stages.c:50:{{[0-9]+}}: remark: matmul: 3x4x4 (MxKxN) i32 x i32 -> i32 GEMM on vectors, {{.*}} [-Rpass=tlx-tile]
// REMARK: stop-after-stages.c:53:{{[0-9]+}}: remark: relu: 2x3x4 i32 loop nest, 4-lane vectors along the innermost dim {{.*}} [-Rpass=tlx-legalize]

// STOPPED: error: TLX op 'matmul' was not lowered: the pipeline stopped early (stop-after)

void bmm(const int *a, const int *b, int *c) {
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(2, 3, 4), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(2, 4, 4), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  v24i r = tensor_matmul(ta, tb);
  tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(2, 3, 4), TLX_LAYOUT(0, 1, 2),
                                   TLX_ZEROS(3));
  v24i e = tensor_relu(tr);
  tensor_store(c, tensor_typeinfo(e, TLX_SHAPE(2, 3, 4), TLX_LAYOUT(0, 1, 2),
                                  TLX_ZEROS(3)),
               TLX_ZEROS(3));
}
