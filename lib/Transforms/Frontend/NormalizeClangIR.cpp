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
// And it rewrites the calling conventions of other targets into x86-64's
// (tlx-recognize was written against its forms), for calls to TLX's dummy
// functions only:
//
//  - AAPCS64 returns a vector wider than 16 bytes through memory the caller
//    provides (sret); x86-64 returns it as a value:
//      call void @tensor_matmul(ptr sret(<N x T>) %tmp, args...)
//    -->
//      %v = call <N x T> (args...) @tensor_matmul(args...)
//      store <N x T> %v, ptr %tmp
//  - AAPCS64 passes such a vector as a pointer to a copy the caller made
//    (an alloca of the vector type, written by one store, read by nothing
//    but the call); x86-64 passes it byval, which is what that copy is:
//      call @tensor_typeinfo(ptr %copy, ...)
//    -->
//      call @tensor_typeinfo(ptr byval(<N x T>) %copy, ...)
//  - AAPCS64 widens a 3-element vector argument (a 3-D shape) to 4 lanes
//    through a stack slot; x86-64 passes the <3 x T> (passVec3Unwidened).
//  - AAPCS64 copies a vector narrower than its register form into the
//    coercion slot with memcpy; x86-64 stores it there
//    (storeInsteadOfCoercingCopy).
//  - RISC-V's LP64 returns a vector of up to 16 bytes as an integer (i128,
//    or an i64 truncated to the vector's size) read back through a
//    temporary; x86-64 returns the vector or a scalar of its size
//    (returnIntegerAsVector).
//
// With clang 19 for x86-64 the pass finds nothing to do.
//
//===----------------------------------------------------------------------===//

#include "Transforms/Passes.h"

#include "Compat.h"
#include "IR/TLXOps.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

/// Whether \p SV widens a 3-element vector to 4 lanes, lane 3 undefined.
static bool isVec3Widening(const ShuffleVectorInst &SV) {
  auto *Src = dyn_cast<FixedVectorType>(SV.getOperand(0)->getType());
  ArrayRef<int> Mask = SV.getShuffleMask();
  return Src && Src->getNumElements() == 3 && Mask.size() == 4 &&
         Mask[0] == 0 && Mask[1] == 1 && Mask[2] == 2 &&
         (Mask[3] == PoisonMaskElem || Mask[3] >= 3);
}

/// clang 20+'s widening of a 3-element vector for a store: lane 3 taken
/// from an undef second operand.
static bool isUndefLaneVec3Widening(const ShuffleVectorInst &SV) {
  if (!isVec3Widening(SV) || SV.getShuffleMask()[3] == PoisonMaskElem ||
      !isa<UndefValue>(SV.getOperand(1)))
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

/// \p CI again with \p Args (its own from \p FirstArg on, when empty) and
/// result type \p RetTy: a dummy takes whatever it is given (tlx.h declares
/// them without prototypes), so the call's type follows the arguments.
static CallInst *recreateCall(CallInst &CI, Type *RetTy, unsigned FirstArg,
                              ArrayRef<Value *> Args) {
  SmallVector<Value *, 8> NewArgs(Args.begin(), Args.end());
  if (NewArgs.empty())
    NewArgs.append(CI.arg_begin() + FirstArg, CI.arg_end());
  SmallVector<Type *, 8> Types;
  for (Value *A : NewArgs)
    Types.push_back(A->getType());
  auto *FT = FunctionType::get(RetTy, Types, CI.getFunctionType()->isVarArg());
  IRBuilder<> B(&CI);
  CallInst *New = B.CreateCall(FT, CI.getCalledOperand(), NewArgs);
  New->setDebugLoc(CI.getDebugLoc());
  AttributeList Attrs = CI.getAttributes();
  SmallVector<AttributeSet, 8> Params;
  for (unsigned I = FirstArg; I < CI.arg_size(); ++I)
    Params.push_back(Attrs.getParamAttrs(I));
  New->setAttributes(AttributeList::get(CI.getContext(), Attrs.getFnAttrs(),
                                        AttributeSet(), Params));
  return New;
}

/// An sret call to a dummy as a call returning the vector, stored where
/// the sret pointer points.
static bool returnSRetAsValue(CallInst &CI) {
  if (CI.arg_size() == 0 || !CI.paramHasAttr(0, Attribute::StructRet))
    return false;
  auto *VT = dyn_cast_or_null<FixedVectorType>(CI.getParamStructRetType(0));
  if (!VT)
    return false;
  CallInst *Result = recreateCall(CI, VT, /*FirstArg=*/1, {});
  IRBuilder<> B(&CI);
  B.CreateAlignedStore(Result, CI.getArgOperand(0),
                       CI.getParamAlign(0).valueOrOne());
  CI.eraseFromParent();
  return true;
}

/// Marks a dummy's argument that points at the caller's by-value copy of
/// a vector (AAPCS64's indirect argument) as byval.
static bool markIndirectVectorsByVal(CallInst &CI) {
  bool Changed = false;
  for (unsigned I = 0; I < CI.arg_size(); ++I) {
    auto *Copy = dyn_cast<AllocaInst>(CI.getArgOperand(I));
    auto *VT = Copy ? dyn_cast<FixedVectorType>(Copy->getAllocatedType())
                    : nullptr;
    if (!VT || CI.paramHasAttr(I, Attribute::ByVal))
      continue;
    unsigned Stores = 0;
    bool OnlyCopy = all_of(Copy->users(), [&](const User *U) {
      if (const auto *SI = dyn_cast<StoreInst>(U))
        return SI->getPointerOperand() == Copy && ++Stores == 1;
      if (const auto *II = dyn_cast<IntrinsicInst>(U))
        return II->isLifetimeStartOrEnd();
      return U == &CI;
    });
    if (!OnlyCopy || Stores != 1)
      continue;
    CI.addParamAttr(I, Attribute::getWithByValType(CI.getContext(), VT));
    CI.addParamAttr(I, Attribute::getWithAlignment(CI.getContext(),
                                                   Copy->getAlign()));
    Changed = true;
  }
  return Changed;
}

/// Erases \p V, a load of a stack slot nothing reads any more, and then the
/// slot (its stores and lifetime markers) once nothing else uses it.
static void eraseDeadSlotRead(Value *V) {
  auto *Load = dyn_cast<LoadInst>(V);
  if (!Load || !Load->use_empty())
    return;
  auto *Slot = dyn_cast<AllocaInst>(Load->getPointerOperand());
  Load->eraseFromParent();
  if (!Slot || any_of(Slot->users(), [](const User *U) {
        auto *II = dyn_cast<IntrinsicInst>(U);
        return !isa<StoreInst>(U) && !(II && II->isLifetimeStartOrEnd());
      }))
    return;
  for (User *U : make_early_inc_range(Slot->users()))
    cast<Instruction>(U)->eraseFromParent();
  Slot->eraseFromParent();
}

/// The one store into \p AI, when every other use is \p Except, a load or
/// a lifetime marker.
static StoreInst *getOnlyStore(AllocaInst &AI, const Instruction *Except) {
  StoreInst *Store = nullptr;
  for (User *U : AI.users()) {
    auto *II = dyn_cast<IntrinsicInst>(U);
    if (U == Except || isa<LoadInst>(U) || (II && II->isLifetimeStartOrEnd()))
      continue;
    auto *SI = dyn_cast<StoreInst>(U);
    if (Store || !SI || SI->getPointerOperand() != &AI)
      return nullptr;
    Store = SI;
  }
  return Store;
}

/// The <3 x T> that every load of \p Tmp (of type \p VT, <4 x T>) is
/// narrowed to by a shuffle of its first three lanes - a 3-element vector
/// returned in a 16-byte register pair - or else \p VT.
static Type *getNarrowedVec3(AllocaInst &Tmp, FixedVectorType *VT) {
  if (VT->getNumElements() != 4)
    return VT;
  for (User *U : Tmp.users()) {
    auto *LI = dyn_cast<LoadInst>(U);
    if (!LI)
      continue;
    if (LI->use_empty())
      return VT;
    for (User *LU : LI->users()) {
      auto *SV = dyn_cast<ShuffleVectorInst>(LU);
      if (!SV || SV->getOperand(0) != LI ||
          SV->getShuffleMask() != ArrayRef<int>({0, 1, 2}))
        return VT;
    }
  }
  return FixedVectorType::get(VT->getElementType(), 3);
}

/// RISC-V's LP64 returns a vector of up to 16 bytes as an integer register
/// pair or register (i128, i64), which the caller stores into a temporary
/// - truncated to the vector's size first when smaller - and reads back as
/// the vector. x86-64 returns a 16-byte vector as itself (a 3-element one
/// as <3 x T>) and a smaller one as a scalar of its size, stored directly
/// (which tlx-recognize reads through the temporary: getResultType):
///   %r = call i128 @tensor_matmul(args...)
///   store i128 %r, ptr %tmp
///   %v = load <4 x i32>, ptr %tmp
/// -->
///   %r = call <4 x i32> @tensor_matmul(args...)
///   store <4 x i32> %r, ptr %tmp
/// and
///   %r = call i64 @tensor_relu(args...)
///   %n = trunc i64 %r to i16
///   store i16 %n, ptr %tmp
///   %v = load <2 x i8>, ptr %tmp
/// -->
///   %r = call i16 @tensor_relu(args...)
///   store i16 %r, ptr %tmp
static bool returnIntegerAsVector(CallInst &CI) {
  auto *IntTy = dyn_cast<IntegerType>(CI.getType());
  if (!IntTy || !CI.hasOneUse())
    return false;
  Instruction *Stored = &CI;
  auto *Trunc = dyn_cast<TruncInst>(CI.user_back());
  if (Trunc) {
    if (!Trunc->hasOneUse())
      return false;
    Stored = Trunc;
  } else if (IntTy->getBitWidth() <= 64) {
    return false; // x86-64's own form
  }
  auto *SI = dyn_cast<StoreInst>(Stored->user_back());
  auto *Tmp = SI ? dyn_cast<AllocaInst>(SI->getPointerOperand()) : nullptr;
  if (!Tmp || SI->getValueOperand() != Stored ||
      getOnlyStore(*Tmp, nullptr) != SI)
    return false;
  FixedVectorType *VT = nullptr;
  for (User *U : Tmp->users())
    if (auto *LI = dyn_cast<LoadInst>(U)) {
      auto *Loaded = dyn_cast<FixedVectorType>(LI->getType());
      if (!Loaded || (VT && Loaded != VT))
        return false;
      VT = Loaded;
    }
  const DataLayout &DL = CI.getDataLayout();
  if (!VT || DL.getTypeStoreSize(VT) != DL.getTypeStoreSize(Stored->getType()))
    return false;
  if (Trunc) {
    Trunc->replaceAllUsesWith(recreateCall(CI, Trunc->getType(), 0, {}));
    Trunc->eraseFromParent();
  } else {
    IRBuilder<> B(SI);
    B.CreateAlignedStore(recreateCall(CI, getNarrowedVec3(*Tmp, VT), 0, {}),
                         Tmp, SI->getAlign());
    SI->eraseFromParent();
  }
  CI.eraseFromParent();
  return true;
}

/// Whether \p Load reads the 4-lane vector \p Widened stored in its slot:
/// as that vector (AAPCS64), or as one integer wider than x86-64's scalars
/// (RISC-V's i128).
static bool readsWholeSlot(const LoadInst &Load, Type *Widened) {
  Type *Ty = Load.getType();
  if (Ty == Widened)
    return true;
  const DataLayout &DL = Load.getDataLayout();
  return Ty->isIntegerTy() && Ty->getIntegerBitWidth() > 64 &&
         DL.getTypeStoreSize(Ty) == DL.getTypeStoreSize(Widened);
}

/// AAPCS64 passes a 3-element vector (a shape, a layout) widened to 4 and
/// round-tripped through a stack slot; x86-64 passes the <3 x T> itself:
///   %w = shufflevector <3 x T> %x, poison, <0, 1, 2, poison>
///   store <4 x T> %w, ptr %slot
///   %a = load <4 x T>, ptr %slot          ; the call's argument
/// becomes the argument %x. Returns the call (a new one when changed).
static CallInst *passVec3Unwidened(CallInst &CI) {
  bool Changed = false;
  SmallVector<Value *, 8> Args(CI.args());
  for (unsigned I = 0; I < CI.arg_size(); ++I) {
    auto *Load = dyn_cast<LoadInst>(CI.getArgOperand(I));
    auto *Slot = Load ? dyn_cast<AllocaInst>(Load->getPointerOperand())
                      : nullptr;
    if (!Slot)
      continue;
    StoreInst *Store = getOnlyStore(*Slot, nullptr);
    auto *SV = Store ? dyn_cast<ShuffleVectorInst>(Store->getValueOperand())
                     : nullptr;
    if (!SV || Store->getParent() != Load->getParent() ||
        !Store->comesBefore(Load))
      continue;
    // (x86-64 reads a small such slot as a scalar: tlx-recognize's
    // coercions. RISC-V reads a 16-byte one as an i128.)
    if (!isVec3Widening(*SV) || !readsWholeSlot(*Load, SV->getType()))
      continue;
    Args[I] = SV->getOperand(0);
    Changed = true;
  }
  if (!Changed)
    return &CI;
  SmallSetVector<Value *, 8> Old(CI.arg_begin(), CI.arg_end());
  CallInst *New = recreateCall(CI, CI.getType(), 0, Args);
  CI.replaceAllUsesWith(New);
  CI.eraseFromParent();
  for (Value *V : Old)
    eraseDeadSlotRead(V);
  return New;
}

/// AAPCS64 coerces a vector smaller than its register form (<1 x half>,
/// <3 x i8>) through memory with a memcpy of its bytes into the wider slot
/// the argument is loaded from; x86-64 (and tlx-recognize) store the
/// vector into that slot directly:
///   store <1 x half> %v, ptr %a ; memcpy(ptr %b, ptr %a, 2) ; load i32 %b
/// -->
///   store <1 x half> %v, ptr %b ; load i32 %b
/// (the slot's bytes past the value are undefined either way).
static bool storeInsteadOfCoercingCopy(MemCpyInst &Copy) {
  auto *Src = dyn_cast<AllocaInst>(Copy.getSource());
  auto *Dst = dyn_cast<AllocaInst>(Copy.getDest());
  auto *Len = dyn_cast<ConstantInt>(Copy.getLength());
  if (!Src || !Dst || !Len || Copy.isVolatile() ||
      getOnlyStore(*Dst, &Copy) != nullptr)
    return false;
  StoreInst *Store = getOnlyStore(*Src, &Copy);
  if (!Store || !Store->getValueOperand()->getType()->isVectorTy() ||
      Store->getParent() != Copy.getParent() || !Store->comesBefore(&Copy))
    return false;
  const DataLayout &DL = Copy.getDataLayout();
  Type *Ty = Store->getValueOperand()->getType();
  if (DL.getTypeStoreSize(Ty) != Len->getZExtValue() ||
      DL.getTypeAllocSize(Dst->getAllocatedType()) < Len->getZExtValue())
    return false;
  // A 3-element vector widened for its 4-byte-aligned slot (RISC-V copies
  // a <3 x i8> so) is stored as itself, as x86-64 passes it.
  Value *V = Store->getValueOperand();
  if (auto *SV = dyn_cast<ShuffleVectorInst>(V); SV && isVec3Widening(*SV))
    V = SV->getOperand(0);
  IRBuilder<> B(&Copy);
  B.CreateAlignedStore(V, Dst, Dst->getAlign());
  Copy.eraseFromParent();
  return true;
}

PreservedAnalyses NormalizeClangIRPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M) {
    for (Instruction &I : make_early_inc_range(instructions(F)))
      if (auto *Copy = dyn_cast<MemCpyInst>(&I))
        Changed |= storeInsteadOfCoercingCopy(*Copy);
    // (Collected first: the rewrites erase instructions after the call.)
    SmallVector<CallInst *, 16> Dummies;
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallInst>(&I); CI && getDummyKind(*CI))
        Dummies.push_back(CI);
    for (CallInst *CI : Dummies) {
      Changed |= markIndirectVectorsByVal(*CI);
      CallInst *Now = passVec3Unwidened(*CI); // may replace the call
      Changed |= Now != CI;
      Changed |= returnSRetAsValue(*Now) || returnIntegerAsVector(*Now);
    }
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
