//===- CheckLowered.cpp - No TLX op may reach the backend -----------------===//
//
// The last TLX pass in clang's pipeline. When the output is machine code,
// any llvm.tensor.* call left (a stage stopped early with stop-after, or an
// op no stage could lower) is reported as an error at its source location
// instead of reaching instruction selection.
//
//===----------------------------------------------------------------------===//

#include "../IR/Diagnostics.h"
#include "../IR/TLXOps.h"
#include "../Plugin/Options.h"
#include "Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

/// After errors the compile fails anyway, but clang still runs the backend:
/// drop the TLX calls left behind so instruction selection never sees them.
///   %r = call <9 x float> @llvm.tensor.matmul(...)  -->  (uses get poison)
static void dropTLXCalls(Module &M) {
  SmallVector<Instruction *, 16> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (getOpKind(&I))
        Calls.push_back(&I);
  for (Instruction *I : reverse(Calls)) {
    Type *Ty = I->getType();
    I->replaceAllUsesWith(
        Ty->isTokenTy()
            ? static_cast<Value *>(ConstantTokenNone::get(Ty->getContext()))
            : PoisonValue::get(Ty));
    I->eraseFromParent();
  }
}

PreservedAnalyses CheckLoweredPass::run(Module &M, ModuleAnalysisManager &) {
  if (pipelineOptions().AllowUnlowered)
    return PreservedAnalyses::all();
  if (errorCount() > 0) {
    dropTLXCalls(M);
    exitIfErrorsOutsideClang();
    return PreservedAnalyses::none();
  }
  StringRef Why = pipelineOptions().StopAfter.empty()
                      ? "no TLX lowering stage handles it yet"
                      : "the pipeline stopped early (stop-after)";
  for (Function &F : M) {
    // A leftover typeinfo only matters when nothing else is reported: it is
    // type information, lowered together with the ops that use it.
    Instruction *LeftoverTypeInfo = nullptr;
    bool Reported = false;
    for (Instruction &I : instructions(F)) {
      std::optional<OpKind> Kind = getOpKind(&I);
      if (!Kind)
        continue;
      if (*Kind == OpKind::TypeInfo) {
        LeftoverTypeInfo = LeftoverTypeInfo ? LeftoverTypeInfo : &I;
        continue;
      }
      emitError(I, "TLX op '" + getOpDesc(*Kind).shortName() +
                       "' was not lowered: " + Why);
      Reported = true;
    }
    if (LeftoverTypeInfo && !Reported)
      emitError(*LeftoverTypeInfo, "TLX op 'typeinfo' was not lowered: " + Why);
  }
  if (errorCount() > 0)
    dropTLXCalls(M);
  exitIfErrorsOutsideClang();
  return PreservedAnalyses::none();
}

} // namespace tlx
