//===- LoweringStage.cpp - The driver shared by the lowering stages -------===//

#include "../IR/Diagnostics.h"
#include "../Plugin/Options.h"
#include "Passes.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

void discardFunctionBody(Function &F) {
  for (BasicBlock &BB : F)
    BB.dropAllReferences();
  while (!F.empty())
    F.begin()->eraseFromParent();
  LLVMContext &Ctx = F.getContext();
  new UnreachableInst(Ctx, BasicBlock::Create(Ctx, "", &F));
}

bool discardBodiesAfterErrors(Module &M) {
  if (errorCount() == 0)
    return false;
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || isa<UnreachableInst>(F.front().front()))
      continue;
    discardFunctionBody(F);
    Changed = true;
  }
  return Changed;
}

PreservedAnalyses runLoweringStage(
    Module &M, ModuleAnalysisManager &MAM, StringRef Stage,
    function_ref<bool(Function &, FunctionAnalysisManager &)> LowerFunction) {
  if (discardBodiesAfterErrors(M))
    return PreservedAnalyses::none();
  if (!runsStage(Stage))
    return PreservedAnalyses::all();
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !LowerFunction(F, FAM))
      continue;
    Changed = true;
    FAM.invalidate(F, PreservedAnalyses::none());
  }
  Changed |= discardBodiesAfterErrors(M);
  exitIfErrorsOutsideClang();
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace tlx
