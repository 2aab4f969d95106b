//===- Loops.h - Loops and ifs built at an IRBuilder ------------*- C++ -*-===//
//
// The control flow every emitter builds: counted loops with values carried
// through them, and if/else. Shared by the GEMM emitter (lib/Gemm), the
// element emitter and run-time checks (lib/Codegen) and the lowering
// stages.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_CODEGEN_LOOPS_H
#define TLX_CODEGEN_LOOPS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

namespace tlx {

using LoopBody = llvm::function_ref<llvm::SmallVector<llvm::Value *, 8>(
    llvm::IRBuilderBase &, llvm::Value *IV, llvm::ArrayRef<llvm::Value *>)>;

/// What a loop asks of LLVM's loop passes (its llvm.loop metadata).
struct LoopHint {
  /// Never unrolled (llvm.loop.unroll.disable): loops whose iterations
  /// each use every register of a kind that cannot be spilled freely (an
  /// AMX kernel's 32 x 32 blocks use all eight tiles).
  bool NoUnroll = false;
  /// Non-zero: a scalar loop the loop vectorizer is to vectorize in vectors
  /// of vscale x ScalableVF elements, its tail folded into them
  /// (llvm.loop.vectorize.width, .scalable.enable, .predicate.enable):
  /// element-wise loops on scalable vectors (IndexMap.h,
  /// getElementwiseWidth). Folded, because the scalar remainder would be up
  /// to a whole vector long (127 floats at RISC-V's VLEN 1024, LMUL 4) -
  /// and a short loop's all of it. LLVM 19 masks the last iteration,
  /// LLVM 22 shortens it (vl: EVL tail folding). Not forced: a loop the
  /// vectorizer cannot vectorize stays scalar, without a warning.
  unsigned ScalableVF = 0;

  static LoopHint noUnroll() { return {true, 0}; }
  static LoopHint scalable(unsigned VF) { return {false, VF}; }
};

/// Gives the loop whose back edge is \p Back the metadata of \p Hint.
void setLoopHint(llvm::Instruction &Back, LoopHint Hint);

/// Emits `for (IV = Begin; IV < End; IV += Step)` (signed compare) at \p B's
/// insertion point, threading \p Inits through the iterations: \p Body gets
/// the current values and returns the next ones. Returns the values after
/// the loop; \p B is left at the start of the exit block.
llvm::SmallVector<llvm::Value *, 8>
emitLoop(llvm::IRBuilderBase &B, llvm::Value *Begin, llvm::Value *End,
         llvm::Value *Step, const llvm::Twine &Name,
         llvm::ArrayRef<llvm::Value *> Inits, const LoopBody &Body,
         LoopHint Hint = {});

/// The same without loop-carried values.
void emitLoop(
    llvm::IRBuilderBase &B, llvm::Value *Begin, llvm::Value *End,
    llvm::Value *Step, const llvm::Twine &Name,
    llvm::function_ref<void(llvm::IRBuilderBase &, llvm::Value *)> Body,
    LoopHint Hint = {});

/// Emits `if (Cond) Then(); else Else();` at \p B's insertion point (no
/// else branch when \p Else is null); \p B is left after the if.
void emitIf(llvm::IRBuilderBase &B, llvm::Value *Cond,
            llvm::function_ref<void()> Then,
            llvm::function_ref<void()> Else = nullptr);

/// emitIf where \p Cond may be a constant (extents known when compiling, or
/// at run time): then only the branch it picks is emitted, unconditionally.
void emitIfFolded(llvm::IRBuilderBase &B, llvm::Value *Cond,
                  llvm::function_ref<void()> Then,
                  llvm::function_ref<void()> Else = nullptr);

} // namespace tlx

#endif // TLX_CODEGEN_LOOPS_H
