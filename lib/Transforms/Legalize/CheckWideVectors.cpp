//===- CheckWideVectors.cpp - No tensor-sized vector left in TLX code -----===//
//
// tlx-check-wide-vectors ends the TLX lowering. In functions with TLX code
// (marked by tlx-vector-ops), a vector wider than LargeVectorBytes that is
// still computed or used is C code tlx-vector-ops could not make TLX ops
// (a shuffle, an intrinsic it does not know): reported at its source
// location, before LLVM's optimizer moves it, instead of minutes and
// gigabytes in instruction selection.
//
//===----------------------------------------------------------------------===//

#include "IR/Diagnostics.h"
#include "Plugin/Options.h"
#include "Codegen/IndexMap.h"
#include "Transforms/Passes.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tlx {

/// "<10000 x i32>" for diagnostics.
static std::string typeString(const Type *Ty) {
  std::string S;
  raw_string_ostream OS(S);
  Ty->print(OS);
  return S;
}

/// A vector wider than LargeVectorBytes left in TLX code: reported where it
/// is computed or used, naming the instruction tlx-vector-ops could not
/// lower (instruction selection would take minutes and gigabytes).
static void reportWideVectors(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  auto WideTypeOf = [&](const Instruction &I) -> const Type * {
    if (isWideVector(I.getType(), DL))
      return I.getType();
    for (const Value *Op : I.operands())
      if (isWideVector(Op->getType(), DL))
        return Op->getType();
    return nullptr;
  };
  // The computation is what the user wrote; loads and stores only move it.
  Instruction *Culprit = nullptr;
  for (Instruction &I : instructions(F)) {
    if (isa<AllocaInst>(I) || !WideTypeOf(I))
      continue;
    if (!isa<LoadInst>(I) && !isa<StoreInst>(I)) {
      Culprit = &I;
      break;
    }
    Culprit = Culprit ? Culprit : &I;
  }
  if (Culprit)
    emitError(*Culprit, "C vector code on a tensor-sized " +
                            typeString(WideTypeOf(*Culprit)) +
                            " value that TLX cannot lower ('" +
                            Culprit->getOpcodeName() +
                            "'): write it with TLX ops or through memory");
}

PreservedAnalyses CheckWideVectorsPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  // After stop-after the IR is left as the stages made it, on purpose.
  if (pipelineOptions().StopAfter.empty() && errorCount() == 0)
    for (Function &F : M)
      if (F.hasFnAttribute(TensorCodeAttr))
        reportWideVectors(F);
  for (Function &F : M)
    F.removeFnAttr(TensorCodeAttr);
  discardBodiesAfterErrors(M);
  exitIfErrorsOutsideClang();
  return PreservedAnalyses::all();
}

} // namespace tlx
