//===- NormalizeClangIR.cpp - Clang versions' IR in one form --------------===//
//
// tlx-normalize-clang-ir runs just before tlx-recognize and rewrites the few
// IR patterns in which the clang versions TLX supports differ, into the form
// tlx-recognize reads (clang 19's):
//
//  - clang 20+ widens a 3-element vector for a store ("vec3" handling) with
//    an undef second operand and lane 3 taken from it; clang 19 with a
//    poison mask lane. The lane lands in the padding of the 4-byte-aligned
//    slot and is never read back as part of the value, so the two are the
//    same program:
//      %w = shufflevector <3 x T> %x, <3 x T> undef, <4 x i32> <0, 1, 2, 3>
//    -->
//      %w = shufflevector <3 x T> %x, <3 x T> poison,
//                         <4 x i32> <0, 1, 2, poison>
//    (only shuffles whose every user is a store, as clang emits them).
//
//  - clang 22 starts the lifetime of a by-value argument's temporary between
//    the load of the value and its store into the temporary; clang 19
//    before the load. tlx-vector-ops turns a tensor-sized load/store pair
//    into a memcpy only when nothing in between may write memory, except
//    stores to and lifetime markers of other stack objects. Starting a
//    lifetime earlier changes nothing, so the marker moves up:
//      %v = load <N x T>, ptr %src
//      call @llvm.lifetime.start(ptr %tmp)
//      store <N x T> %v, ptr %tmp
//    -->
//      call @llvm.lifetime.start(ptr %tmp)
//      %v = load <N x T>, ptr %src
//      store <N x T> %v, ptr %tmp
//
// With clang 19 the pass finds nothing to do.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "../Compat.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

/// clang 20+'s widening of a 3-element vector for a store.
static bool isUndefLaneVec3Widening(const ShuffleVectorInst &SV) {
  auto *Src = cast<FixedVectorType>(SV.getOperand(0)->getType());
  ArrayRef<int> Mask = SV.getShuffleMask();
  if (Src->getNumElements() != 3 || Mask.size() != 4 ||
      !isa<UndefValue>(SV.getOperand(1)) || Mask[0] != 0 || Mask[1] != 1 ||
      Mask[2] != 2 || Mask[3] < 3)
    return false;
  return !SV.use_empty() && all_of(SV.users(), [&](const User *U) {
    const auto *SI = dyn_cast<StoreInst>(U);
    return SI && SI->getValueOperand() == &SV;
  });
}

/// Moves the lifetime starts between a vector load and the store of the
/// loaded value (in one block) above the load.
static bool hoistLifetimeStarts(LoadInst &LI) {
  if (!isa<FixedVectorType>(LI.getType()) || !LI.hasOneUse())
    return false;
  auto *SI = dyn_cast<StoreInst>(LI.user_back());
  if (!SI || SI->getValueOperand() != &LI || SI->getParent() != LI.getParent())
    return false;
  SmallVector<Instruction *, 2> Starts;
  for (Instruction *I = LI.getNextNode(); I && I != SI; I = I->getNextNode())
    if (auto *II = dyn_cast<IntrinsicInst>(I);
        II && II->getIntrinsicID() == Intrinsic::lifetime_start)
      Starts.push_back(II);
  for (Instruction *Start : Starts)
    compat::moveBefore(Start, &LI);
  return !Starts.empty();
}

PreservedAnalyses NormalizeClangIRPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M) {
    // Until no marker is left between any pair: a marker moved above one
    // load may land between another load and its store (clang loads every
    // by-value argument before storing the first).
    for (bool Moved = true; Moved;) {
      Moved = false;
      for (Instruction &I : make_early_inc_range(instructions(F)))
        if (auto *LI = dyn_cast<LoadInst>(&I))
          Moved |= hoistLifetimeStarts(*LI);
      Changed |= Moved;
    }
    for (Instruction &I : instructions(F)) {
      auto *SV = dyn_cast<ShuffleVectorInst>(&I);
      if (!SV || !isUndefLaneVec3Widening(*SV))
        continue;
      SV->setOperand(1, PoisonValue::get(SV->getOperand(1)->getType()));
      SV->setShuffleMask({0, 1, 2, PoisonMaskElem});
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace tlx
