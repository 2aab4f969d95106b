//===- Plugin.h - TLX pass registration -------------------------*- C++ -*-===//

#ifndef TLX_PLUGIN_PLUGIN_H
#define TLX_PLUGIN_PLUGIN_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class PassBuilder;
}

namespace tlx {

/// Makes every tlx-* pass name known to -passes= pipelines.
void registerPassNames(llvm::PassBuilder &PB);
/// Names, plus the TLX pipeline at clang's pipeline start and the final
/// check at the optimizer's end.
void registerClangPipeline(llvm::PassBuilder &PB);
/// The TLX pipeline: recognize, verify, then the lowering stages (as far as
/// stop-after allows) and the optimization of the kernels they outlined
/// (with \p PB's -O2 function pipeline).
void addTLXPipeline(llvm::ModulePassManager &MPM, llvm::PassBuilder &PB);

} // namespace tlx

#endif // TLX_PLUGIN_PLUGIN_H
