//===- LoweringStage.cpp - The driver shared by the lowering stages -------===//

#include "../IR/Diagnostics.h"
#include "../Plugin/Options.h"
#include "Passes.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

PreservedAnalyses runLoweringStage(
    Module &M, ModuleAnalysisManager &MAM, StringRef Stage,
    function_ref<bool(Function &, FunctionAnalysisManager &)> LowerFunction) {
  if (!runsStage(Stage) || errorCount())
    return PreservedAnalyses::all();
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !LowerFunction(F, FAM))
      continue;
    Changed = true;
    FAM.invalidate(F, PreservedAnalyses::none());
  }
  exitIfErrorsOutsideClang();
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace tlx
