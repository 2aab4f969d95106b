//===- Epilogue.cpp - Elementwise chains fused into contractions ----------===//
//
// Finding a contraction's epilogue (findEpilogue), the checks its fusion
// needs, the chain evaluated over a part of its destination
// (emitEpilogueOn), and the cleanup once fused. Epilogue.h.
//
//===----------------------------------------------------------------------===//

#include "Codegen/Epilogue.h"
#include "IR/TLXOps.h"
#include "Codegen/IndexMap.h"
#include "Codegen/RuntimeShapes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

void collectReadViews(const Value *Token, const Value *Skip,
                      SmallVectorImpl<StridedView> &Views) {
  if (Token == Skip)
    return;
  if (std::optional<StridedView> V = getMemoryView(Token)) {
    Views.push_back(*V);
    return;
  }
  std::optional<TensorValue> TV = getTensorValue(Token);
  const auto *Op = TV ? dyn_cast<CallBase>(TV->Data) : nullptr;
  if (!Op || !getOpKind(*Op))
    return;
  for (const Value *Arg : Op->args())
    if (Arg->getType()->isTokenTy())
      collectReadViews(Arg, Skip, Views);
}

/// Whether \p Ptr is TLX's temporary for one value: every use is \p Store,
/// a token reading it, or its allocation's bookkeeping.
static bool isPrivateTemporary(Value *Ptr, const CallBase &Store) {
  return isTLXOwnedBuffer(Ptr) && all_of(Ptr->users(), [&](const User *U) {
           std::optional<OpKind> K = getOpKind(U);
           return !K || K == OpKind::Load || K == OpKind::TypeInfo ||
                  U == &Store;
         });
}

std::optional<Epilogue> findEpilogue(CallBase &Store, CallBase &Op,
                                     AAResults &AA, std::string &WhyNot) {
  Value *Tmp = Store.getArgOperand(0);
  if (!isPrivateTemporary(Tmp, Store))
    return std::nullopt; // the result is stored where the user asked
  // One token reads the result, each element where the contraction wrote
  // it.
  Epilogue E;
  StridedView C = getStoreView(Store);
  for (User *U : Tmp->users()) {
    auto *CB = dyn_cast<CallBase>(U);
    std::optional<OpKind> K = CB ? getOpKind(*CB) : std::nullopt;
    if ((K != OpKind::Load && K != OpKind::TypeInfo) || CB->use_empty())
      continue;
    std::optional<StridedView> View = getMemoryView(CB);
    if (E.Reader || !View || View->Shape != C.Shape ||
        View->Strides != C.Strides)
      return std::nullopt;
    E.Reader = CB;
  }
  if (!E.Reader)
    return std::nullopt;
  // Everything that reads the result, transitively, is elementwise (its
  // values may be read several times: `t * t + t`) and ends in one store.
  SmallSetVector<CallBase *, 8> Values;
  Values.insert(E.Reader);
  for (unsigned I = 0; I < Values.size(); ++I)
    for (const Use &U : Values[I]->uses()) {
      auto *User = dyn_cast<CallBase>(U.getUser());
      if (!User || !getOpKind(*User) || User->getParent() != Store.getParent())
        return std::nullopt;
      OpKind K = *getOpKind(*User);
      if (readsShapeOnly(U) || (K == OpKind::TypeInfo && User->use_empty()))
        continue;
      if (K == OpKind::Store && U.getOperandNo() == 1 &&
          (!E.Store || E.Store == User)) {
        E.Store = User;
        continue;
      }
      bool TypesOp = K == OpKind::TypeInfo && U.getOperandNo() == 0;
      if (!isElementwise(K) && !TypesOp)
        return std::nullopt;
      Values.insert(User);
    }
  for (CallBase *V : Values)
    if (isElementwise(*getOpKind(*V)))
      E.Chain.push_back(V);
  if (!E.Store || E.Chain.empty())
    return std::nullopt;
  sort(E.Chain, [](CallBase *X, CallBase *Y) { return X->comesBefore(Y); });
  // What only run-time views describe (a destination or an operand with
  // run-time strides) is tlx-legalize's run-time loop nest's to compute.
  if (storesThroughRuntimeStrides(*E.Store) ||
      walkFusedTree(E.Store->getArgOperand(1)).Dynamic) {
    WhyNot = "the consumer reads or writes memory of run-time sizes";
    return std::nullopt;
  }
  StridedView Dst = getStoreView(*E.Store);
  if (E.Store->getParent() != Store.getParent() || Dst.Shape != C.Shape)
    return std::nullopt;
  // The contraction moves to the consumer's store: what it reads must not
  // change in between. Buffers TLX frees in between (the accumulator's, read
  // only by the GEMM) live on until after the store: freeing later is safe.
  SmallVector<Value *, 4> Roots = collectTokenRoots(Op);
  SmallVector<Instruction *, 2> Frees;
  for (Instruction *I = Store.getNextNode(); I != E.Store; I = I->getNextNode())
    if (isFreeCall(I) &&
        is_contained(Roots, cast<CallBase>(I)->getArgOperand(0)))
      Frees.push_back(I);
  for (Instruction *Free : Frees)
    Free->moveAfter(E.Store);
  if (mayClobberBetween(Roots, &Store, E.Store, AA)) {
    WhyNot = "its operands may be written before the consumer's store";
    return std::nullopt;
  }
  collectReadViews(E.Store->getArgOperand(1), E.Reader, E.Reads);
  return E;
}

Value *emitDisjointCheck(IRBuilderBase &B, AAResults &AA,
                         const StridedView &Dst, ArrayRef<StridedView> Reads) {
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  auto Range = [&](const StridedView &V) {
    int64_t Last = 0;
    for (unsigned I = 0; I < V.rank(); ++I)
      Last += (V.Shape[I] - 1) * std::abs(V.Strides[I]);
    int64_t Bytes = (Last + 1) * DL.getTypeAllocSize(V.Elem);
    Value *Begin = B.CreatePtrToInt(V.Ptr, B.getInt64Ty());
    return std::make_pair(Begin, B.CreateAdd(Begin, B.getInt64(Bytes)));
  };
  Value *Disjoint = B.getTrue();
  Value *DstObj = stripParameterSpill(Dst.Ptr);
  for (const StridedView &R : Reads) {
    Value *ReadObj = stripParameterSpill(R.Ptr);
    if (DstObj != ReadObj &&
        (isTLXOwnedBuffer(DstObj) || isTLXOwnedBuffer(ReadObj) ||
         AA.isNoAlias(MemoryLocation::getBeforeOrAfter(DstObj),
                      MemoryLocation::getBeforeOrAfter(ReadObj))))
      continue;
    auto [DB, DE] = Range(Dst);
    auto [RB, RE] = Range(R);
    Disjoint = B.CreateAnd(
        Disjoint, B.CreateOr(B.CreateICmpULE(DE, RB), B.CreateICmpULE(RE, DB)));
  }
  return Disjoint;
}

/// Whether \p V is the constant index 0.
static bool isZeroIndex(const Value *V) {
  const auto *C = dyn_cast<ConstantInt>(V);
  return C && C->isZero();
}

void emitEpilogueOn(IRBuilderBase &B, TensorValues &Values, const Epilogue &E,
                    const StridedView &Part, ArrayRef<Value *> Origin,
                    const StridedView &Sums, ElementCount Lanes) {
  const Value *Result = E.Store->getArgOperand(1);
  auto Relative = [&](IRBuilderBase &B, ArrayRef<Value *> Idx) {
    SmallVector<Value *, 8> Rel;
    for (unsigned D = 0; D < Idx.size(); ++D)
      Rel.push_back(isZeroIndex(Origin[D]) ? Idx[D]
                                           : B.CreateSub(Idx[D], Origin[D]));
    return Rel;
  };
  emitWriteLoop(
      B, Part, Lanes,
      [&](IRBuilderBase &B, ArrayRef<Value *> Idx, unsigned Lanes,
          int LaneDim) {
        SmallVector<Value *, 8> Whole;
        for (unsigned D = 0; D < Idx.size(); ++D)
          Whole.push_back(
              isZeroIndex(Origin[D]) ? Idx[D] : B.CreateAdd(Idx[D], Origin[D]));
        ElementEmitter EE(B, Values);
        EE.substitute(E.Reader, [&](IRBuilderBase &B, ArrayRef<Value *> At,
                                    unsigned VF, int LaneDim) {
          return emitViewLanes(B, Sums, Relative(B, At), VF, LaneDim);
        });
        return EE.emit(Result, Whole, Lanes, LaneDim);
      });
}

void eraseFusedEpilogue(CallBase &ContractionStore, const Epilogue &E) {
  Value *Tmp = ContractionStore.getArgOperand(0);
  ContractionStore.eraseFromParent();
  eraseWithDeadOperands(E.Store); // the chain, and then its reader
  eraseTemporaryIfUnused(Tmp);
}

/// Erases \p I and then the TLX ops and typeinfos only it used.
void eraseWithDeadOperands(Instruction *I) {
  SmallVector<Instruction *, 8> Work{I};
  SmallPtrSet<Instruction *, 8> Erased;
  while (!Work.empty()) {
    Instruction *X = Work.pop_back_val();
    if (Erased.count(X) || !X->use_empty())
      continue;
    for (Value *Op : X->operands())
      if (auto *CB = dyn_cast<CallBase>(Op); CB && getOpKind(*CB))
        Work.push_back(CB);
    Erased.insert(X);
    X->eraseFromParent();
  }
}

/// Erases TLX's temporary \p Ptr (allocation, frees, lifetime markers) once
/// nothing reads or writes it.
void eraseTemporaryIfUnused(Value *Ptr) {
  SmallVector<Instruction *, 4> Bookkeeping;
  for (User *U : Ptr->users()) {
    auto *CB = dyn_cast<CallBase>(U);
    if (!CB)
      return;
    bool Dead = CB->isLifetimeStartOrEnd() || isFreeCall(CB) ||
                (getOpKind(*CB) == OpKind::TypeInfo && CB->use_empty());
    if (!Dead)
      return;
    Bookkeeping.push_back(CB);
  }
  for (Instruction *I : Bookkeeping)
    I->eraseFromParent();
  if (auto *I = dyn_cast<Instruction>(Ptr); I && I->use_empty())
    I->eraseFromParent();
}

/// The chain's ops, for remarks: "fmul, fadd, relu".
std::string describeChain(ArrayRef<CallBase *> Chain) {
  std::string S;
  for (CallBase *Op : Chain)
    S += (Twine(S.empty() ? "" : ", ") + getOpDesc(*getOpKind(*Op)).shortName())
             .str();
  return S;
}

} // namespace tlx
