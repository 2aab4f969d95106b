//===- KernelOutliner.h - TLX kernels into functions of their own -*- C++ -*-===//
//
// At -O0 clang marks every function optnone, so the loops TLX emits into the
// user's function would reach the backend unoptimized. A lowering brackets
// the code it emits for one kernel (a GEMM, a large loop nest) with a
// KernelRegion; when the enclosing function is optnone, the region is
// outlined into an internal function of its own, named tlx.<kind>.<fn>.<n>
// and marked "tlx-kernel", which tlx-optimize-kernels then optimizes with
// LLVM's -O2 function pipeline. The user's function stays optnone.
// docs/pipeline.md, "Kernels at every -O level".
//
//===----------------------------------------------------------------------===//

#ifndef TLX_CODEGEN_KERNELOUTLINER_H
#define TLX_CODEGEN_KERNELOUTLINER_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"
#include <string>

namespace tlx {

/// The function attribute that marks a kernel tlx-optimize-kernels has not
/// optimized yet.
inline constexpr const char *KernelAttr = "tlx-kernel";
/// Marks an optnone function while a KernelRegion in it is open (its
/// optnone removed meanwhile), so that it still counts as optnone code.
inline constexpr const char *OptNoneHostAttr = "tlx-optnone-host";

/// Loop nests outlined at -O0: those doing at least this many element
/// steps (outputs, times the window for reduce.*; elements copied for an
/// im2col); smaller ones cost little unoptimized, and a kernel each would
/// only add calls and compile time. 4096, or -tlx-kernel-min-steps (0:
/// every nest, as the differential tests use it).
int64_t minKernelSteps();

/// True when code emitted into \p F is outlined: \p F is optnone,
/// -tlx-optimize-kernels is on, and the module has no AMX code of its own
/// (below).
bool outlinesKernels(const llvm::Function &F);

/// A call with x86_amx values outside TLX's kernels (clang's __tile1024i
/// API), or null. Such code in an optnone function is in the form LLVM's
/// -O0 tile register allocation needs, which its optimized one rejects
/// ("please define the shape earlier"); since the backend's -O level is the
/// module's, such a module is compiled as before: nothing outlined. (Unless
/// the target is amx-emulate, which removes all AMX code before the
/// backend.)
const llvm::Instruction *findAMXOutsideKernels(const llvm::Module &M);

/// Whether \p I produces or reads an AMX tile (a value of type x86_amx).
bool usesX86AMX(const llvm::Instruction &I);

/// True when \p M's code generation stays at -O0 even where
/// tlx-optimize-kernels optimizes kernels of it: with LLVM 19, an optnone
/// function passes or returns a vector of more than four bfloat in a call
/// (compat::OptNoneBF16VectorCallsCrashRaisedCodeGen). LLVM's -O0 tile
/// code (X86LowerAMXType's volatile model, X86FastPreTileConfig) handles
/// only AMX code in the -O0 form, so GemmAMX emits its tile kernels in that
/// form there. (Also true at -O2 where the user wrote such an optnone
/// function by hand: the -O0 tile form then costs speed, not correctness.)
bool kernelsKeepO0CodeGen(const llvm::Module &M);

/// True when code emitted into \p F is code-generated at -O0: \p F is an
/// optnone function (or hosts an open KernelRegion) and the code is not
/// outlined into a kernel whose code generation tlx-optimize-kernels raises.
bool codeGenStaysAtO0(const llvm::Function &F);

/// Marks as kernels (KernelAttr) the functions an emitter created after
/// \p LastBefore in its module - GemmAMX's tile kernels, GemmDispatch's
/// versions - except \p Except and optnone ones.
void markKernelsCreatedAfter(llvm::Function &LastBefore,
                             const llvm::Function *Except = nullptr);

/// One kernel's code, from \p B's insertion point at construction to its
/// insertion point at finish(). While it is open, the enclosing function is
/// not optnone, so that emitters choosing a code form by that attribute
/// (GemmAMX's -O0 tile form) emit the optimized one; every function created
/// while it is open (GemmAMX's tile kernels) is a kernel too.
class KernelRegion {
public:
  /// \p Kind names the kernel ("gemm", "loop").
  KernelRegion(llvm::IRBuilderBase &B, llvm::StringRef Kind);
  ~KernelRegion();
  KernelRegion(const KernelRegion &) = delete;
  KernelRegion &operator=(const KernelRegion &) = delete;

  /// Ends the region at \p B's insertion point and outlines it (if this
  /// function outlines kernels); \p B then inserts at the same point of the
  /// enclosing function. Returns the kernel, or null if nothing was
  /// outlined (the code then stays where it was emitted).
  llvm::Function *finish(llvm::IRBuilderBase &B);

private:
  void restoreOptNone();

  llvm::Function *F = nullptr;
  std::string Kind;
  llvm::BasicBlock *Start = nullptr;
  llvm::Function *LastBefore = nullptr;
  /// The enclosing function's stack slots when the region began: they stay
  /// there even when only the region uses them so far (an im2col buffer
  /// the GEMM after it reads).
  llvm::SmallPtrSet<const llvm::AllocaInst *, 16> SlotsBefore;
  bool Active = false;
  bool RemovedOptNone = false;
};

} // namespace tlx

#endif // TLX_CODEGEN_KERNELOUTLINER_H
