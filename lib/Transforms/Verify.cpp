//===- Verify.cpp - Checks every TLX call ---------------------------------===//

#include "Passes.h"

using namespace llvm;

namespace tlx {

PreservedAnalyses VerifyPass::run(Module &, ModuleAnalysisManager &) {
  return PreservedAnalyses::all();
}

} // namespace tlx
