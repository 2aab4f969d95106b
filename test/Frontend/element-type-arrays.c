// tlx.h's element tag reads the scalar element type through any number of
// array extents: a 2-D or 3-D C array passed as it is, a pointer to rows
// (float (*)[3]) and &array all give elementtype(float) or (i8), in C and
// C++, and preprocessed input (-save-temps) is recognized the same way.
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s
// RUN: %clang_tlx -x c++ -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s
// RUN: rm -rf %t.d && mkdir %t.d && cd %t.d && %clang_tlx -O0 -save-temps -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o - %s | FileCheck --enable-var-scope --implicit-check-not=@tensor_ %s
// A pointer that says nothing about the element type (void *), or points to
// something that is not a scalar, is an error at the argument (not an
// "invalid vector element type" inside tlx.h's macros):
// RUN: not %clang_tlx -fsyntax-only -DBAD %s 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not=error:
// RUN: %clang_tlx -fsyntax-only -DBAD -Xclang -verify %s

#include <stdint.h>
#include <tlx.h>

float grid[4][6];
int8_t cube[2][3][4];

// CHECK-LABEL: define {{.*}}copy_grid
// CHECK: call token @llvm.tensor.load{{.*}}(ptr elementtype(float) {{.*}}, <2 x i32> <i32 4, i32 6>
// CHECK: call void @llvm.tensor.store{{.*}}(ptr elementtype(float)
void copy_grid(float out[4][6]) {
  tlx_token_t t = tensor_load(grid, TLX_SHAPE(4, 6), TLX_IDENTITY_LAYOUT(2),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  tensor_store(out, t, TLX_ZEROS(2));
}

// CHECK-LABEL: define {{.*}}copy_rows
// CHECK: call token @llvm.tensor.load{{.*}}(ptr elementtype(float) {{.*}}, <2 x i32> <i32 2, i32 3>
// CHECK: call void @llvm.tensor.store{{.*}}(ptr elementtype(float)
void copy_rows(const float (*rows)[3], float (*out)[2][3]) {
  tlx_token_t t = tensor_load(rows, TLX_SHAPE(2, 3), TLX_IDENTITY_LAYOUT(2),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  tensor_store(out, t, TLX_ZEROS(2));
}

// CHECK-LABEL: define {{.*}}copy_cube
// CHECK: call token @llvm.tensor.typeinfo{{.*}}(ptr elementtype(i8) {{.*}}, <3 x i32> <i32 2, i32 3, i32 4>
// CHECK: call void @llvm.tensor.store{{.*}}(ptr elementtype(i8)
void copy_cube(uint8_t out[2][3][4]) {
  tlx_token_t t = tensor_typeinfo_mem(&cube, TLX_SHAPE(2, 3, 4),
                                      TLX_IDENTITY_LAYOUT(3), TLX_ZEROS(3));
  tensor_store(out, t, TLX_ZEROS(3));
}

#ifdef BAD
struct pixel {
  float r, g, b;
};

void bad(void *raw, const struct pixel *img, _Bool *mask, float *out) {
  tlx_token_t a = tensor_load(raw, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2)); // expected-error {{'tensor_load' needs a typed pointer: argument 1 is 'void *', which does not say what the tensor holds; cast it to a pointer to the element type, for example (const float *)}}
  tlx_token_t b = tensor_load(img, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2)); // expected-error {{argument 1 of 'tensor_load' points to 'struct pixel', which cannot be a tensor's element type (int8_t, uint8_t, int16_t, int32_t, int64_t, _Float16, __bf16, float, double)}}
  tlx_token_t c = tensor_typeinfo_mem(mask, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2)); // expected-error {{argument 1 of 'tensor_typeinfo_mem' points to '_Bool', which cannot be a tensor's element type}}
  tensor_store(raw, a, TLX_ZEROS(2)); // expected-error {{'tensor_store' needs a typed pointer: argument 1 is 'void *'}}
  (void)b, (void)c, (void)out;
}
// BAD: element-type-arrays.c:[[@LINE-6]]:31: error: 'tensor_load' needs a typed pointer: argument 1 is 'void *'
// BAD: element-type-arrays.c:[[@LINE-6]]:31: error: argument 1 of 'tensor_load' points to 'struct pixel'
// BAD: element-type-arrays.c:[[@LINE-6]]:39: error: argument 1 of 'tensor_typeinfo_mem' points to '_Bool'
// BAD: element-type-arrays.c:[[@LINE-6]]:16: error: 'tensor_store' needs a typed pointer
#endif
