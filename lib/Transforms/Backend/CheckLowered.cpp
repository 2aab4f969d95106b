//===- CheckLowered.cpp - No TLX op may reach the backend -----------------===//
//
// The last TLX pass in clang's pipeline. When the output is machine code,
// any llvm.tensor.* call left (a stage stopped early with stop-after, or an
// op no stage could lower) is reported as an error at its source location
// instead of reaching instruction selection.
//
//===----------------------------------------------------------------------===//

#include "IR/Diagnostics.h"
#include "IR/TLXOps.h"
#include "Plugin/Options.h"
#include "Transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

PreservedAnalyses CheckLoweredPass::run(Module &M, ModuleAnalysisManager &) {
  if (pipelineOptions().AllowUnlowered)
    return PreservedAnalyses::all();
  if (discardBodiesAfterErrors(M)) {
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
  discardBodiesAfterErrors(M);
  exitIfErrorsOutsideClang();
  return PreservedAnalyses::none();
}

} // namespace tlx
