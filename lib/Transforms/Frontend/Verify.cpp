//===- Verify.cpp - Checks every TLX call ---------------------------------===//
//
// tlx-verify reports every rule a TLX call breaks (lib/IR/Verifier.cpp) as
// an error at the call, "llvm.tensor.<op>: <rule>", so that later stages only
// see well-formed tensors; with -pass-remarks-analysis=tlx-verify each valid
// compute op gets a remark with its inferred result and how it is stored.
// Under opt the pass exits non-zero after the module when errors were
// reported. docs/verifier.md lists the rules and their messages.
//
// Most of these errors reach users of the clang plugin earlier, from its
// AST checks of the same rules (clang-plugin/ShapeChecker.cpp); what the AST
// cannot decide (shapes flowing through memory or control flow) is
// reported here.
//
//===----------------------------------------------------------------------===//

#include "IR/Diagnostics.h"
#include "IR/ShapeInference.h"
#include "IR/TLXOps.h"
#include "IR/Verifier.h"
#include "Transforms/Passes.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

using namespace llvm;

#define DEBUG_TYPE "tlx-verify"

namespace tlx {

/// Prefixes \p Msg with the op's IR name (the callee's name when unknown);
/// in clang, where the op was a C call, with the C function's name.
static void reportError(const CallBase &Call, const Twine &Msg) {
  std::optional<OpKind> Kind = getOpKind(Call);
  if (Kind && hostIsClang())
    return emitError(Call, getUserOpName(Call) + ": " + Msg);
  StringRef Name =
      Kind ? getOpDesc(*Kind).IRName : Call.getCalledFunction()->getName();
  emitError(Call, Name + ": " + Msg);
}

/// -pass-remarks-analysis=tlx-verify (clang: -Rpass-analysis=tlx) shows
/// what each compute op produces and how its result is stored.
static void remarkInferredResult(const CallBase &Call, const OpResult &Result) {
  OptimizationRemarkEmitter ORE(Call.getFunction());
  ORE.emit([&] {
    std::string Why;
    std::optional<TensorType> Stored = getResultTensorType(Call, Why);
    std::string Msg = getOpDesc(*getOpKind(Call)).IRName.str() + ": " +
                      elementTypeName(Result.Elem) + " " +
                      formatShape(Result.LogicalShape);
    if (Stored)
      Msg += ", stored " + formatShape(Stored->Shape) + " layout " +
             formatList(Stored->Layout) + " padding " +
             formatList(Stored->Padding);
    return OptimizationRemarkAnalysis(DEBUG_TYPE, "InferredResult", &Call)
           << Msg;
  });
}

PreservedAnalyses VerifyPass::run(Module &M, ModuleAnalysisManager &) {
  for (const Function &F : M)
    verifyTLXCalls(F, reportError, remarkInferredResult);
  exitIfErrorsOutsideClang();
  return PreservedAnalyses::all();
}

} // namespace tlx
