// Tensors passed or assigned by value in plain C code are copied with a
// vector load and store, which instruction selection cannot handle at tensor
// size; tlx-vector-ops turns such copies into memcpy (memmove when the
// destination may overlap the source), in every function.
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-stop-after=vector-ops -S -emit-llvm -o - %s | FileCheck %s --implicit-check-not="load <6400000" --implicit-check-not="store <6400000"
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-stop-after=vector-ops -S -emit-llvm -o - %s | FileCheck %s --implicit-check-not="load <6400000" --implicit-check-not="store <6400000"

typedef int big_t __attribute__((__vector_size__(25600000)));
typedef int small_t __attribute__((__vector_size__(64)));
void consume(big_t a, big_t b);

// CHECK-LABEL: define {{.*}}void @pass_by_value(
// CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align {{[0-9]+}} [[A:%[0-9]+]], ptr align {{[0-9]+}} %{{[0-9]+}}, i64 25600000, i1 false)
// CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align {{[0-9]+}} [[B:%[0-9]+]], ptr align {{[0-9]+}} %{{[0-9]+}}, i64 25600000, i1 false)
// (tlx-heap-values: the 25.6 MB arguments are heap copies passed by pointer.)
// CHECK: call void @consume(ptr noundef align 64 [[A]], ptr noundef align 64 [[B]])
void pass_by_value(big_t *t) { consume(t[0], t[1]); }

// CHECK-LABEL: define {{.*}}void @assign(
// CHECK: call void @llvm.memmove.p0.p0.i64(ptr align {{[0-9]+}} %{{[0-9]+}}, ptr align {{[0-9]+}} %{{[0-9]+}}, i64 25600000, i1 false)
void assign(big_t *dst, const big_t *src) { *dst = *src; }

// Vectors up to 256 bytes stay values.
// CHECK-LABEL: define {{.*}}void @small(
// CHECK: [[V:%[0-9]+]] = load <16 x i32>, ptr
// CHECK: store <16 x i32> [[V]], ptr
void small(small_t *dst, const small_t *src) { *dst = *src; }
