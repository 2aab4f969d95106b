// The RFC's "CURRENT TESTING SUPPORT" program, unchanged but for including
// tlx.h and declaring the data-returning ops for its tensor type. The byval
// tensor parameters stay in memory (memory form), the matmul result is an SSA
// value typed by a typeinfo, and no 25.6 MB vector load, store or alloca is
// left (plain clang needs minutes and gigabytes for those), at every -O level.
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope %s --implicit-check-not="<6400000 x i32>, ptr" --implicit-check-not="load <6400000" --implicit-check-not="alloca <6400000" --implicit-check-not=@tensor_
// RUN: %clang_tlx -O1 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope %s --implicit-check-not="<6400000 x i32>, ptr" --implicit-check-not="load <6400000" --implicit-check-not="alloca <6400000" --implicit-check-not=@tensor_
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope %s --implicit-check-not="<6400000 x i32>, ptr" --implicit-check-not="load <6400000" --implicit-check-not="alloca <6400000" --implicit-check-not=@tensor_
// RUN: %clang_tlx -O3 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope %s --implicit-check-not="<6400000 x i32>, ptr" --implicit-check-not="load <6400000" --implicit-check-not="alloca <6400000" --implicit-check-not=@tensor_
// RUN: %clang_tlx -Os -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope %s --implicit-check-not="<6400000 x i32>, ptr" --implicit-check-not="load <6400000" --implicit-check-not="alloca <6400000" --implicit-check-not=@tensor_
// The TLX calls keep no warning (-Wpsabi, -Wdeprecated-non-prototype).
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o /dev/null %s 2>&1 | count 0

#include <tlx.h>

typedef int _tensor_t __attribute__((__vector_size__(25600000)));
typedef int _shape_t __attribute__((__vector_size__(16), __aligned__(4)));
typedef int _layout_t __attribute__((__vector_size__(16), __aligned__(4)));
typedef int _padding_t __attribute__((__vector_size__(16), __aligned__(4)));
typedef int _token_t;
TLX_DECLARE_TENSOR_OPS(_tensor_t)

void example(_tensor_t tensor1, _tensor_t tensor2) {
_shape_t shape = {1, 10, 800, 800};
_layout_t layout = {0, 1, 2, 3};
_padding_t padding = {0, 0, 0, 1};

/* Define type information for the input tensors */
_token_t tensor1_token = tensor_typeinfo(tensor1, shape, layout, padding);
_token_t tensor2_token = tensor_typeinfo(tensor2, shape, layout, padding);
/* Perform Matmul */
_tensor_t tensor3 = tensor_matmul(tensor1_token, tensor2_token);
/* Define type information for the output tensor */
_token_t tensor3_token = tensor_typeinfo(tensor3, shape, layout, padding);
}

// CHECK-LABEL: define {{.*}}void @example(ptr noundef byval(<6400000 x i32>) align {{[0-9]+}} %0, ptr noundef byval(<6400000 x i32>) align {{[0-9]+}} %1)
// CHECK-NEXT: [[T1:%[0-9]+]] = call token @llvm.tensor.typeinfo.p0.v4i32.v4i32.v4i32(ptr elementtype(i32) %0, <4 x i32> <i32 1, i32 10, i32 800, i32 800>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> <i32 0, i32 0, i32 0, i32 1>)
// CHECK-NEXT: [[T2:%[0-9]+]] = call token @llvm.tensor.typeinfo.p0.v4i32.v4i32.v4i32(ptr elementtype(i32) %1, <4 x i32> <i32 1, i32 10, i32 800, i32 800>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> <i32 0, i32 0, i32 0, i32 1>)
// CHECK-NEXT: [[T3:%[0-9]+]] = call <6400000 x i32> @llvm.tensor.matmul.v6400000i32(token [[T1]], token [[T2]])
// CHECK-NEXT: call token @llvm.tensor.typeinfo.v6400000i32.v4i32.v4i32.v4i32(<6400000 x i32> [[T3]], <4 x i32> <i32 1, i32 10, i32 800, i32 800>, <4 x i32> <i32 0, i32 1, i32 2, i32 3>, <4 x i32> <i32 0, i32 0, i32 0, i32 1>)
// CHECK-NEXT: ret void
