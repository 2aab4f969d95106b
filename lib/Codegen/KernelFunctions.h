//===- KernelFunctions.h - Functions built beside their caller --*- C++ -*-===//
//
// Kernels that an emitter builds as functions of their own (GEMM dispatch
// versions, MMA and AMX kernels, OpenMP regions): created with the caller's
// target attributes, and made self-contained by passing the caller's values
// through an environment struct.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_CODEGEN_KERNELFUNCTIONS_H
#define TLX_CODEGEN_KERNELFUNCTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/IRBuilder.h"

namespace tlx {

/// An empty internal noinline nounwind function of type \p FT for a kernel
/// the emitter builds outside \p Caller: \p Caller's target CPU and
/// features, plus \p ExtraFeatures ("+avx2,+fma", ...).
llvm::Function *createKernelFunction(llvm::Function &Caller,
                                     llvm::FunctionType *FT,
                                     const llvm::Twine &Name,
                                     llvm::StringRef ExtraFeatures);

/// The module's kernel that serves every caller of one \p Kind and
/// \p Caller's target (CPU, tuning, features): the function marked with
/// that key by markSharedKernel, or null when none is built yet. Kernels
/// are found by their key, not their name: a second target's copy of one
/// kind gets a numbered name.
llvm::Function *findSharedKernel(llvm::Function &Caller, llvm::StringRef Kind);

/// Marks \p Kernel, built for \p Caller's target, as the one findSharedKernel
/// returns for \p Kind.
void markSharedKernel(llvm::Function &Kernel, llvm::Function &Caller,
                      llvm::StringRef Kind);

/// createKernelFunction for `void (ptr %env)` with an entry block holding
/// only `ret void`: a GEMM emitted before that return, with the caller's
/// values passed through passCallerValues (dispatch versions, MMA kernels).
llvm::Function *createEnvKernel(llvm::Function &Caller, const llvm::Twine &Name,
                                llvm::StringRef ExtraFeatures);

/// Makes \p Kernel, a function the emitter built whose body uses values of
/// the function being lowered (a fused epilogue's bias pointer, the GEMM's
/// operands), self-contained: each such value becomes a field of a struct
/// that the caller fills at \p CallerB's insertion point (which those
/// values dominate) and that the kernel receives as its argument
/// \p EnvArg and loads on entry. Returns the struct's address to pass
/// there (null when the kernel uses no outside value).
llvm::Value *passCallerValues(llvm::Function &Kernel, unsigned EnvArg,
                              llvm::IRBuilderBase &CallerB);

} // namespace tlx

#endif // TLX_CODEGEN_KERNELFUNCTIONS_H
