//===- Recognize.cpp - C dummy calls -> llvm.tensor.* ---------------------===//

#include "Passes.h"

using namespace llvm;

namespace tlx {

PreservedAnalyses RecognizePass::run(Module &, ModuleAnalysisManager &) {
  return PreservedAnalyses::all();
}

} // namespace tlx
