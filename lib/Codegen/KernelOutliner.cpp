//===- KernelOutliner.cpp - TLX kernels into functions of their own -------===//
//
// Algorithm (KernelRegion):
//  1. At construction, split the block at the builder's insertion point: the
//     kernel's code starts a block of its own. Clear optnone on the
//     enclosing function while the region is open (the AMX emitter picks
//     its -O0 tile form by that attribute; outlined code is optimized).
//  2. At finish(), restore optnone and split again: the blocks reachable
//     from the start without passing the split point are the kernel.
//  3. Entry-block allocas used only inside the kernel move into it (edge
//     buffers, accumulator slots), so they become the kernel's own stack
//     slots, which SROA can then promote. (Never a user variable's: those
//     have debug records, or uses in the user's code.)
//  4. llvm::CodeExtractor outlines the blocks into an internal function
//     (a DISubprogram of its own when the function has debug info; values
//     from outside become arguments). Regions that would pass a token (a
//     TLX op not lowered yet) or that CodeExtractor cannot extract stay
//     inline, as before.
//  5. The kernel (and every function created while the region was open)
//     gets the "tlx-kernel" attribute for tlx-optimize-kernels, and neither
//     optnone nor noinline.
//
//   define void @f(...) #optnone {           define void @f(...) #optnone {
//     ...                                       ...
//     <GEMM loops>                   -->        call void @tlx.gemm.f.0(ptr %a, ...)
//     ...                                       ...
//                                           define internal void @tlx.gemm.f.0(...) "tlx-kernel"
//
//===----------------------------------------------------------------------===//

#include "Codegen/KernelOutliner.h"

#include "Compat.h"
#include "IR/Diagnostics.h"
#include "Plugin/Options.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

using namespace llvm;

static cl::opt<int64_t> KernelMinSteps(
    "tlx-kernel-min-steps", cl::Hidden, cl::init(4096),
    cl::desc("Element steps below which a loop nest stays in an -O0 "
             "function rather than in a kernel optimized as at -O2"));

namespace tlx {

int64_t minKernelSteps() { return KernelMinSteps; }

const Instruction *findAMXOutsideKernels(const Module &M) {
  if (pipelineOptions().Target == TargetKind::AMXEmulate)
    return nullptr;
  for (const Function &Decl : M) {
    if (!Decl.isIntrinsic())
      continue;
    FunctionType *FT = Decl.getFunctionType();
    if (!FT->getReturnType()->isX86_AMXTy() &&
        none_of(FT->params(), [](Type *T) { return T->isX86_AMXTy(); }))
      continue;
    for (const User *U : Decl.users())
      if (auto *I = dyn_cast<Instruction>(U);
          I && !I->getFunction()->hasFnAttribute(KernelAttr))
        return I;
  }
  return nullptr;
}

bool usesX86AMX(const Instruction &I) {
  return I.getType()->isX86_AMXTy() || any_of(I.operands(), [](const Use &U) {
           return U->getType()->isX86_AMXTy();
         });
}

bool kernelsKeepO0CodeGen(const Module &M) {
  if (!compat::OptNoneBF16VectorCallsCrashRaisedCodeGen)
    return false;
  auto IsWideBF16 = [](const Type *Ty) {
    const auto *VT = dyn_cast<FixedVectorType>(Ty);
    return VT && VT->getElementType()->isBFloatTy() && VT->getNumElements() > 4;
  };
  for (const Function &F : M) {
    if (!F.hasOptNone() && !F.hasFnAttribute(OptNoneHostAttr))
      continue;
    for (const Instruction &I : instructions(F))
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (IsWideBF16(Call->getType()) ||
            any_of(Call->args(),
                   [&](const Use &A) { return IsWideBF16(A->getType()); }))
          return true;
  }
  return false;
}

bool outlinesKernels(const Function &F) {
  return pipelineOptions().OptimizeKernels &&
         F.hasFnAttribute(Attribute::OptimizeNone) &&
         !findAMXOutsideKernels(*F.getParent());
}

bool codeGenStaysAtO0(const Function &F) {
  bool InRegion = F.hasFnAttribute(OptNoneHostAttr);
  if (!F.hasOptNone() && !InRegion)
    return false;
  if (!InRegion && !outlinesKernels(F))
    return true;
  return kernelsKeepO0CodeGen(*F.getParent());
}

/// Splits \p B's block at its insertion point; \p B keeps inserting before
/// the same instruction, with the same debug location. In a block still
/// being built (a loop body the lowering is emitting: no terminator yet),
/// the block branches to a new one, where \p B goes on. Returns the new
/// block, or null when there is no place to split at (before a phi).
static BasicBlock *splitAtInsertPoint(IRBuilderBase &B, const Twine &Name) {
  BasicBlock *BB = B.GetInsertBlock();
  if (!BB || (B.GetInsertPoint() != BB->end() &&
              isa<PHINode>(*B.GetInsertPoint())))
    return nullptr;
  if (B.GetInsertPoint() == BB->end()) {
    if (BB->getTerminator())
      return nullptr;
    BasicBlock *New = BasicBlock::Create(BB->getContext(), Name,
                                         BB->getParent(), BB->getNextNode());
    B.CreateBr(New);
    B.SetInsertPoint(New);
    return New;
  }
  Instruction *At = &*B.GetInsertPoint();
  DebugLoc DL = B.getCurrentDebugLocation();
  BasicBlock *New = BB->splitBasicBlock(At, Name);
  B.SetInsertPoint(At);
  B.SetCurrentDebugLocation(DL);
  return New;
}

KernelRegion::KernelRegion(IRBuilderBase &B, StringRef Kind) : Kind(Kind) {
  F = B.GetInsertBlock()->getParent();
  if (!pipelineOptions().OptimizeKernels ||
      !F->hasFnAttribute(Attribute::OptimizeNone))
    return;
  if (const Instruction *AMX = findAMXOutsideKernels(*F->getParent())) {
    if (B.GetInsertPoint() != B.GetInsertBlock()->end())
      emitMissedRemark("tlx-optimize-kernels", "NotOutlined",
                       *B.GetInsertPoint(),
                       Kind + " kernel not outlined: AMX code outside TLX's "
                              "kernels (in '" +
                           AMX->getFunction()->getName() +
                           "') needs the backend at -O0");
    return;
  }
  Start = splitAtInsertPoint(B, "tlx." + Kind);
  if (!Start)
    return;
  LastBefore = &F->getParent()->getFunctionList().back();
  for (const Instruction &I : F->getEntryBlock())
    if (const auto *AI = dyn_cast<AllocaInst>(&I))
      SlotsBefore.insert(AI);
  F->removeFnAttr(Attribute::OptimizeNone);
  F->addFnAttr(OptNoneHostAttr);
  RemovedOptNone = true;
  Active = true;
}

KernelRegion::~KernelRegion() { restoreOptNone(); }

void KernelRegion::restoreOptNone() {
  if (RemovedOptNone) {
    F->removeFnAttr(OptNoneHostAttr);
    F->addFnAttr(Attribute::OptimizeNone);
  }
  RemovedOptNone = false;
}

static bool usedOnlyIn(const Instruction &I,
                       const SmallPtrSetImpl<BasicBlock *> &Blocks) {
  return all_of(I.users(), [&](const User *U) {
    auto *UI = dyn_cast<Instruction>(U);
    return UI && Blocks.contains(UI->getParent());
  });
}

Function *KernelRegion::finish(IRBuilderBase &B) {
  if (!Active)
    return nullptr;
  Active = false;
  restoreOptNone();
  DebugLoc CallLoc = B.getCurrentDebugLocation();
  BasicBlock *Exit = splitAtInsertPoint(B, "tlx." + Kind + ".exit");
  if (!Exit)
    return nullptr;

  // 2. The region: everything reachable from Start before Exit.
  SmallVector<BasicBlock *, 32> Blocks{Start};
  SmallPtrSet<BasicBlock *, 32> InRegion{Start};
  for (unsigned I = 0; I < Blocks.size(); ++I)
    for (BasicBlock *Succ : successors(Blocks[I]))
      if (Succ != Exit && InRegion.insert(Succ).second)
        Blocks.push_back(Succ);
  if (InRegion.contains(&F->getEntryBlock()))
    return nullptr;

  CodeExtractor CE(Blocks, /*DT=*/nullptr, /*AggregateArgs=*/false,
                   /*BFI=*/nullptr, /*BPI=*/nullptr, /*AC=*/nullptr,
                   /*AllowVarArgs=*/false, /*AllowAlloca=*/true);
  if (!CE.isEligible())
    return nullptr;
  {
    // A token (a TLX op the lowering has not reached yet) cannot be an
    // argument.
    CodeExtractorAnalysisCache CEAC(*F);
    SetVector<Value *> Inputs, Outputs, Sinkable;
    CE.findInputsOutputs(Inputs, Outputs, Sinkable);
    for (const SetVector<Value *> *Set : {&Inputs, &Outputs})
      for (Value *V : *Set)
        if (V->getType()->isTokenTy())
          return nullptr;
  }

  // 3. The kernel's own stack slots (created while the region was open)
  // move with it. The function's older ones stay, pinned by a temporary
  // use outside the region: CodeExtractor would sink a slot only the
  // region uses so far, though code emitted after it may use it too.
  Instruction *SlotPos = &*Start->getFirstInsertionPt();
  SmallVector<Instruction *, 8> Pins;
  for (Instruction &I : make_early_inc_range(F->getEntryBlock())) {
    auto *AI = dyn_cast<AllocaInst>(&I);
    if (!AI || AI->use_empty() || AI->isUsedByMetadata() ||
        !usedOnlyIn(*AI, InRegion))
      continue;
    if (SlotsBefore.contains(AI))
      Pins.push_back(
          new FreezeInst(AI, "tlx.pin", std::next(AI->getIterator())));
    else
      compat::moveBefore(AI, SlotPos);
  }

  // 4. Outline.
  CodeExtractorAnalysisCache CEAC(*F);
  Function *K = CE.extractCodeRegion(CEAC);
  for (Instruction *Pin : Pins)
    Pin->eraseFromParent();
  if (!K) {
    // (isEligible said yes: not expected.) Slots back to the entry block.
    Instruction *EntryPos = &*F->getEntryBlock().getFirstInsertionPt();
    for (Instruction &I : make_early_inc_range(*Start))
      if (isa<AllocaInst>(I))
        compat::moveBefore(&I, EntryPos);
    return nullptr;
  }
  Module &M = *F->getParent();
  std::string Base = ("tlx." + Kind + "." + F->getName()).str();
  unsigned N = 0;
  while (M.getNamedValue(Base + "." + std::to_string(N)))
    ++N;
  K->setName(Base + "." + std::to_string(N));
  if (DISubprogram *SP = K->getSubprogram()) {
    // CodeExtractor named it after the old function ("f.extracted"): the
    // debugger shows the kernel's own name. (Operand 2 is the name.)
    MDString *Name = MDString::get(K->getContext(), K->getName());
    SP->replaceOperandWith(2, Name);
    SP->replaceLinkageName(Name);
  }
  K->setLinkage(GlobalValue::InternalLinkage);
  K->removeFnAttr(Attribute::OptimizeNone);
  K->removeFnAttr(Attribute::NoInline);
  K->addFnAttr(KernelAttr);
  // Fixed-size stack slots in the kernel's entry block, where SROA and the
  // backend's static frame see them.
  Instruction *EntryPos = &*K->getEntryBlock().getFirstInsertionPt();
  for (BasicBlock &BB : drop_begin(*K))
    for (Instruction &I : make_early_inc_range(BB))
      if (auto *AI = dyn_cast<AllocaInst>(&I);
          AI && isa<ConstantInt>(AI->getArraySize()))
        compat::moveBefore(AI, EntryPos);
  // The call stands at the user's operation (a call to a function with
  // debug info must have a location).
  for (User *U : K->users())
    if (auto *Call = dyn_cast<CallInst>(U); Call && !Call->getDebugLoc())
      Call->setDebugLoc(CallLoc);

  // 5. Functions the emitter created for this kernel are kernels too.
  markKernelsCreatedAfter(*LastBefore, K);
  return K;
}

void markKernelsCreatedAfter(Function &LastBefore, const Function *Except) {
  Module &M = *LastBefore.getParent();
  for (Function &G : make_range(std::next(LastBefore.getIterator()), M.end()))
    if (&G != Except && !G.isDeclaration() &&
        !G.hasFnAttribute(Attribute::OptimizeNone))
      G.addFnAttr(KernelAttr);
}

} // namespace tlx
