//===- OptimizeKernels.cpp - LLVM's -O2 pipeline on outlined kernels ------===//
//
// tlx-optimize-kernels runs at the end of the TLX lowering, in clang's
// pipeline start, at every -O level. It optimizes the functions that carry
// the "tlx-kernel" attribute - the GEMMs and large loop nests tlx-tile and
// tlx-legalize outlined from optnone functions (KernelOutliner.h) - with
//  1. PassBuilder's -O2 function simplification pipeline (SROA, EarlyCSE,
//     InstCombine, SimplifyCFG, loop rotation, LICM, IndVars, full
//     unrolling, GVN, DSE, ...), then
//  2. the loop and vector passes of the -O2 module optimization pipeline
//     (loop vectorization, SLP, partial/runtime unrolling, LICM), which the
//     simplification pipeline leaves to the optimizer's end,
// and drops the attribute. Nothing else is touched: the user's optnone
// functions stay as clang emitted them. With no kernels it does nothing.
//
//  3. The backend: at -O0 clang's TargetMachine generates code at
//     CodeGenOptLevel::None for the whole module - FastISel and the fast
//     register allocator, which spills every value live across a block:
//     optimized IR alone runs a 1024^3 f32 GEMM no faster than before
//     (15 vs 108 GFLOP/s). When it optimized a kernel, the pass raises the
//     TargetMachine of its PassBuilder (the one clang's backend then uses)
//     to CodeGenOptLevel::Default. The user's functions are optnone, and the
//     backend honours that per function as it does for optnone at -O2:
//     FastISel, no machine optimizations (every skippable machine pass
//     skips optnone functions); only the register allocator is the greedy
//     one for them too. Their variables stay in their stack slots, so -O0
//     debugging is unchanged. Not where the -O0 TargetMachine selects
//     instructions with GlobalISel (AArch64): LLVM uses GlobalISel only at
//     -O0 there, and LLVM 19's at the raised level miscompiled (a global's
//     address folded into an LD1R lost its low 12 bits; switching the
//     module to SelectionDAG instead hit "Cannot select" on pre-indexed
//     bf16 stores in the optnone functions): such modules keep -O0 code
//     generation, their kernels optimized IR only
//     (test/AArch64/o0-kernels-codegen.c). Nor when code outside the
//     kernels holds x86_amx values (clang's __tile1024i API in an optnone
//     function):
//     LLVM's optimized tile register allocation rejects that -O0 form
//     ("please define the shape earlier"). tlx-tile and tlx-legalize then
//     outline nothing in the first place (findAMXOutsideKernels, with a
//     missed remark): the module compiles as it did before. Nor, with LLVM
//     19, when an optnone function passes or returns bf16 vectors of more
//     than four elements in calls: LLVM 19's x86 backend crashes on those
//     above -O0 (Compat.h).
//
// Remarks (-Rpass=tlx-optimize-kernels) name each kernel at the call site.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "IR/Diagnostics.h"
#include "Plugin/Options.h"
#include "Codegen/KernelOutliner.h"
#include "Transforms/Passes.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Vectorize/LoopVectorize.h"
#include "llvm/Transforms/Vectorize/SLPVectorizer.h"
#include "llvm/Transforms/Vectorize/VectorCombine.h"

using namespace llvm;

#define DEBUG_TYPE "tlx-optimize-kernels"

namespace {
// PassBuilder keeps the TargetMachine it was made with private (LLVM 19 and
// 22 alike). An explicit instantiation may name a private member (C++17
// [temp.explicit]/12), which reads it without changing LLVM.
struct PassBuilderTM {
  using type = TargetMachine *PassBuilder::*;
  friend type get(PassBuilderTM);
};
template <typename Tag, typename Tag::type Member> struct PrivateMember {
  friend typename Tag::type get(Tag) { return Member; }
};
template struct PrivateMember<PassBuilderTM, &PassBuilder::TM>;
} // namespace

namespace tlx {

OptimizeKernelsPass::OptimizeKernelsPass(PassBuilder &PB)
    : TM(PB.*get(PassBuilderTM())) {
  OptimizationLevel Level = OptimizationLevel::O2;
  // 1.
  Pipeline = PB.buildFunctionSimplificationPipeline(Level,
                                                    ThinOrFullLTOPhase::None);
  // 2. (PassBuilder::addVectorPasses and what follows it, for -O2.)
  Pipeline.addPass(LoopVectorizePass(
      LoopVectorizeOptions(/*InterleaveOnlyWhenForced=*/false,
                           /*VectorizeOnlyWhenForced=*/false)));
  Pipeline.addPass(InstCombinePass());
  Pipeline.addPass(SLPVectorizerPass());
  Pipeline.addPass(VectorCombinePass());
  Pipeline.addPass(InstCombinePass());
  Pipeline.addPass(LoopUnrollPass(LoopUnrollOptions(
      Level.getSpeedupLevel(), /*OnlyWhenForced=*/false,
      /*ForgetSCEV=*/false)));
  Pipeline.addPass(InstCombinePass());
  Pipeline.addPass(createFunctionToLoopPassAdaptor(
      LICMPass(LICMOptions()), /*UseMemorySSA=*/true));
  Pipeline.addPass(SimplifyCFGPass(SimplifyCFGOptions()
                                       .convertSwitchRangeToICmp(true)
                                       .hoistCommonInsts(true)
                                       .sinkCommonInsts(true)));
  Pipeline.addPass(InstCombinePass());
}

/// The first call of \p K (where remarks about it are reported).
static const CallInst *firstCall(Function &K) {
  for (User *U : K.users())
    if (auto *Call = dyn_cast<CallInst>(U))
      return Call;
  return nullptr;
}

PreservedAnalyses OptimizeKernelsPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasFnAttribute(KernelAttr))
      Kernels.push_back(&F);
  if (Kernels.empty())
    return PreservedAnalyses::all();
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  SmallPtrSet<Function *, 8> KernelSet(Kernels.begin(), Kernels.end());
  // (KernelRegion outlines nothing in modules with AMX code of their own;
  // but opt may run this pass on any module.)
  bool RaiseCodeGen = TM && TM->getOptLevel() == CodeGenOptLevel::None &&
                      !TM->Options.EnableGlobalISel &&
                      !findAMXOutsideKernels(M) && !kernelsKeepO0CodeGen(M);
  std::string Note = TM && TM->getOptLevel() == CodeGenOptLevel::None &&
                             !RaiseCodeGen
                         ? " (code generation at -O0)"
                         : "";
  for (Function *K : Kernels) {
    K->removeFnAttr(KernelAttr);
    // optnone would make every pass skip it (a kernel is never optnone,
    // but a user may have given one the attribute by hand).
    if (K->hasFnAttribute(Attribute::OptimizeNone))
      continue;
    Pipeline.run(*K, FAM);
    // (Where the user's code calls it; not the AMX tile functions the
    // kernels call.)
    if (const CallInst *Call = firstCall(*K);
        Call && !KernelSet.contains(Call->getFunction()))
      emitRemark(DEBUG_TYPE, "Kernel", *Call,
                 "kernel '" + K->getName() + "' optimized at -O2" + Note);
  }
  // 3.
  if (RaiseCodeGen) {
    LLVM_DEBUG(dbgs() << DEBUG_TYPE << ": code generation at -O2\n");
    TM->setOptLevel(CodeGenOptLevel::Default);
  }
  return PreservedAnalyses::none();
}

} // namespace tlx
