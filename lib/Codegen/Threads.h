//===- Threads.h - OpenMP parallel regions for TLX's kernels ----*- C++ -*-===//
//
// With -fopenmp, TLX runs big kernels on the OpenMP runtime's threads
// through the calls clang emits for `#pragma omp parallel` around
// `#pragma omp for schedule(static)`:
//
//   call @__kmpc_fork_call(ptr @ident, i32 1, ptr @<region>, ptr %env)
//
//   define internal void @<region>(ptr %gtid, ptr %btid, ptr %env) {
//     __kmpc_for_static_init_8(@ident, gtid, 34, &last, &lb, &ub, &st, 1, 1)
//     if (lb <= ub) <this thread's units [lb, ub]>
//     __kmpc_for_static_fini(@ident, gtid)
//   }
//
// docs/pipeline.md, "Threads".
//
//===----------------------------------------------------------------------===//

#ifndef TLX_CODEGEN_THREADS_H
#define TLX_CODEGEN_THREADS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace tlx {

/// True when TLX may fork in \p M: compiled with -fopenmp (clang's
/// "openmp" module flag: libomp is linked) and threads are not turned off
/// (-fplugin-arg-tlx-threads=off).
bool threadsEnabled(const llvm::Module &M);

/// The attribute marking the parallel regions TLX creates; functions built
/// for a region's code (GEMM versions, kernels) carry it too.
inline constexpr const char *ParallelRegionAttr = "tlx-parallel-region";

/// True when \p F is a parallel region TLX created: code in it is one
/// thread's share already, and forks no further.
bool isParallelRegion(const llvm::Function &F);

/// One thread's share [Begin, End) of a forked range (i64 values); the
/// code using it runs only when the thread has one.
struct ThreadShare {
  llvm::Value *Begin, *End;
  llvm::Value *Any; ///< i1: the share is not empty
};

/// Forks at \p B a parallel region named \p Name over the OpenMP threads:
/// \p Units units of \p Unit (\p Extent in all, the last unit possibly
/// shorter) are shared out statically, and \p EmitBody emits, at the
/// builder it gets, what a thread does with its share. The region reads
/// the caller's values from an environment struct (passCallerValues).
void emitParallelRegion(
    llvm::IRBuilderBase &B, const llvm::Twine &Name, int64_t Units,
    int64_t Unit, int64_t Extent,
    llvm::function_ref<void(llvm::IRBuilderBase &, const ThreadShare &)>
        EmitBody);

/// emitParallelRegion with a count of units, a unit and an extent known
/// only at run time (i64 values of the caller).
void emitParallelRegion(
    llvm::IRBuilderBase &B, const llvm::Twine &Name, llvm::Value *Units,
    llvm::Value *Unit, llvm::Value *Extent,
    llvm::function_ref<void(llvm::IRBuilderBase &, const ThreadShare &)>
        EmitBody);

} // namespace tlx

#endif // TLX_CODEGEN_THREADS_H
