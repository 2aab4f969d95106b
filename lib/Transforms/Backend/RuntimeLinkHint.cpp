//===- RuntimeLinkHint.cpp - Names the runtime where it is missing --------===//
//
// Lowered TLX code may call the runtime, libtlxrt: GEMM scratch buffers
// (tlxrt_scratch), AMX enablement, the AMX emulator. A program linked
// without it fails with "undefined reference to `tlxrt_scratch'", which
// does not say what to do. tlx-runtime-link-hint gives every module that
// calls into the runtime one more reference, to a symbol whose name is the
// advice:
//
//   @tlx.runtime.link.hint = private constant ptr @<RuntimeLinkHintSymbol>
//   (kept by llvm.compiler.used)
//
// The runtime defines that symbol (lib/Runtime/version.c), so with -ltlxrt
// nothing changes; without it the linker lists
//   undefined reference to `tlxrt_missing__add_ltlxrt_lm_or_use_tlx_cc'
// beside the others. Runs last in clang's pipeline, after the AMX emulator
// added its calls; modules that do not call the runtime are left alone.
//
//===----------------------------------------------------------------------===//

#include "Transforms/Passes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace tlx {

/// Also spelled in lib/Runtime/version.c and docs/errors.md.
static const char RuntimeLinkHintSymbol[] =
    "tlxrt_missing__add_ltlxrt_lm_or_use_tlx_cc";

static bool callsRuntime(const Module &M) {
  for (const Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with("tlxrt_") &&
        !F.use_empty())
      return true;
  return false;
}

PreservedAnalyses RuntimeLinkHintPass::run(Module &M,
                                           ModuleAnalysisManager &) {
  if (!callsRuntime(M) || M.getNamedGlobal("tlx.runtime.link.hint"))
    return PreservedAnalyses::all();
  LLVMContext &Ctx = M.getContext();
  Constant *Hint =
      M.getOrInsertGlobal(RuntimeLinkHintSymbol, Type::getInt8Ty(Ctx));
  auto *Ref = new GlobalVariable(M, PointerType::getUnqual(Ctx),
                                 /*isConstant=*/true,
                                 GlobalValue::PrivateLinkage, Hint,
                                 "tlx.runtime.link.hint");
  appendToCompilerUsed(M, {Ref});
  return PreservedAnalyses::none();
}

} // namespace tlx
