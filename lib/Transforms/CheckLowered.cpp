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

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

PreservedAnalyses CheckLoweredPass::run(Module &M, ModuleAnalysisManager &) {
  if (pipelineOptions().AllowUnlowered)
    return PreservedAnalyses::all();
  StringRef Why = pipelineOptions().StopAfter.empty()
                      ? "no TLX lowering stage handles it yet"
                      : "the pipeline stopped early (stop-after)";
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto Kind = getOpKind(&I))
        emitError(I, "TLX op '" + getOpDesc(*Kind).shortName() +
                         "' was not lowered: " + Why);
  exitIfErrorsOutsideClang();
  return PreservedAnalyses::all();
}

} // namespace tlx
