//===- TensorMemory.cpp - Where tensors live, what touches them ----------===//

#include "TensorMemory.h"

#include "../IR/ShapeInference.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

StridedView makeView(Value *Ptr, const TensorType &Ty,
                     ArrayRef<int64_t> StorageStrides) {
  StridedView V;
  V.Ptr = Ptr;
  V.Elem = Ty.Elem;
  V.Shape = Ty.logicalShape();
  V.Strides.assign(Ty.rank(), 0);
  for (unsigned I = 0; I < Ty.rank(); ++I)
    V.Strides[Ty.Layout[I]] = StorageStrides[I];
  return V;
}

std::optional<StridedView> getMemoryView(const Value *Token) {
  std::optional<TensorValue> TV = getTensorValue(Token);
  if (!TV || !TV->isMemory() || TV->hasRuntimeSizes())
    return std::nullopt;
  if (getOpKind(*TV->Def) == OpKind::ToTensor) {
    // totensor's data is the tensor in logical row-major order.
    StridedView V;
    V.Ptr = TV->Data;
    V.Elem = TV->Type.Elem;
    V.Shape = TV->Type.logicalShape();
    V.Strides = packedStrides(V.Shape);
    return V;
  }
  Dims Strides = TV->Def && getOpKind(*TV->Def) == OpKind::Load
                     ? expandLeadingDims(TV->Type.Shape, TV->Strides)
                     : packedStrides(TV->Type.Shape);
  return makeView(TV->Data, TV->Type, Strides);
}

std::optional<StridedView> getViewThroughIndexMaps(const Value *Token) {
  if (std::optional<StridedView> V = getMemoryView(Token))
    return V;
  std::optional<TensorValue> TV = getTensorValue(Token);
  const auto *Op = TV ? dyn_cast<CallBase>(TV->Data) : nullptr;
  std::optional<OpKind> Kind = Op ? getOpKind(*Op) : std::nullopt;
  if (Kind == OpKind::Broadcast && Op->arg_size() == 1) {
    // numpy-style: the input's dims align with the trailing dims; new and
    // extent-1 dims repeat, i.e. have stride 0.
    std::optional<StridedView> In =
        getViewThroughIndexMaps(Op->getArgOperand(0));
    Dims Shape = TV->Type.logicalShape();
    if (!In || In->rank() > Shape.size())
      return std::nullopt;
    unsigned Lead = Shape.size() - In->rank();
    Dims Strides(Shape.size(), 0);
    for (unsigned I = 0; I < In->rank(); ++I) {
      if (In->Shape[I] != 1 && In->Shape[I] != Shape[Lead + I])
        return std::nullopt;
      Strides[Lead + I] = In->Shape[I] == 1 ? 0 : In->Strides[I];
    }
    In->Shape = Shape;
    In->Strides = Strides;
    return In;
  }
  if (Kind != OpKind::Transpose)
    return std::nullopt;
  std::optional<StridedView> In =
      getViewThroughIndexMaps(Op->getArgOperand(0));
  if (!In || In->rank() != 2)
    return std::nullopt;
  // With a permutation the logical tensor is the input's; without, the
  // last two dims swap.
  if (Op->arg_size() == 1) {
    std::swap(In->Shape[0], In->Shape[1]);
    std::swap(In->Strides[0], In->Strides[1]);
  }
  if (In->Shape != TV->Type.logicalShape())
    return std::nullopt;
  return In;
}

bool storesThroughRuntimeStrides(const CallBase &Store) {
  return !getConstantIntVector(Store.getArgOperand(2));
}

StridedView getStoreView(const CallBase &Store) {
  std::optional<TensorValue> TV = getTensorValue(Store.getArgOperand(1));
  assert(TV && "store of a token that is not a tensor");
  std::optional<Dims> LD = getConstantIntVector(Store.getArgOperand(2));
  assert(LD && "a store through run-time strides has no StridedView");
  Dims Strides = expandLeadingDims(TV->Type.Shape, LD ? *LD : Dims());
  TensorType Ty = TV->Type;
  Ty.Elem = getPointerElementType(Store, 0);
  if (!Ty.Elem)
    Ty.Elem = TV->Type.Elem;
  return makeView(Store.getArgOperand(0), Ty, Strides);
}

Dims paddedStrides(const TensorType &Ty) {
  Dims Padded(Ty.Shape);
  for (unsigned I = 0; I < Ty.rank(); ++I)
    Padded[I] += I < Ty.Padding.size() ? Ty.Padding[I] : 0;
  return packedStrides(Padded);
}

int64_t paddedNumElements(const TensorType &Ty) {
  int64_t N = 1;
  for (unsigned I = 0; I < Ty.rank(); ++I)
    N *= Ty.Shape[I] + (I < Ty.Padding.size() ? Ty.Padding[I] : 0);
  return N;
}

Dims paddedLeadingDims(const TensorType &Ty) {
  Dims Strides = paddedStrides(Ty);
  Dims LD(Ty.rank(), 0);
  for (unsigned I = 1; I < Ty.rank(); ++I)
    LD[I] = Strides[I - 1];
  return LD;
}

//===----------------------------------------------------------------------===//
// Memory dependences
//===----------------------------------------------------------------------===//

void collectMemoryRoots(const Value *Token, SmallVectorImpl<Value *> &Roots) {
  std::optional<TensorValue> TV = getTensorValue(Token);
  if (!TV)
    return;
  if (TV->isMemory()) {
    Roots.push_back(TV->Data);
    return;
  }
  const auto *Op = dyn_cast<CallBase>(TV->Data);
  if (!Op || !getOpKind(*Op))
    return;
  for (const Value *Arg : Op->args())
    if (Arg->getType()->isTokenTy())
      collectMemoryRoots(Arg, Roots);
}

SmallVector<Value *, 4> collectTokenRoots(const CallBase &Op) {
  SmallVector<Value *, 4> Roots;
  for (const Value *Arg : Op.args())
    if (Arg->getType()->isTokenTy())
      collectMemoryRoots(Arg, Roots);
  return Roots;
}

bool isFreeCall(const Value *V) {
  const auto *Call = dyn_cast<CallBase>(V);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee &&
         (Callee->getName() == "free" || Callee->getName() == TempFreeFunction);
}

bool isTLXOwnedBuffer(const Value *Ptr) {
  const auto *Call = dyn_cast<CallInst>(Ptr);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!isa<AllocaInst>(Ptr) &&
      !(Callee && (Callee->getName() == "malloc" ||
                   Callee->getName() == TempAllocFunction ||
                   Callee->getName() == "tlxrt_alloc_tensor")))
    return false;
  return all_of(Ptr->users(), [](const User *U) {
    const auto *CB = dyn_cast<CallBase>(U);
    return CB && (getOpKind(*CB) || CB->isLifetimeStartOrEnd() ||
                  isFreeCall(CB));
  });
}

/// The object \p Ptr addresses, seen through a parameter's stack slot so
/// that its noalias (restrict) attribute applies (stripParameterSpill).
static const Value *getAccessedObject(const Value *Ptr) {
  const Value *Obj = getUnderlyingObject(Ptr);
  return stripParameterSpill(const_cast<Value *>(Obj));
}

/// Whether the objects behind \p A and \p B are certainly distinct: alias
/// analysis on the objects themselves, where a restrict parameter is seen
/// through its stack slot (clang's IR reloads it at every use, which hides
/// the attribute from a query on the loaded pointers).
static bool objectsDistinct(const Value *A, const Value *B, AAResults &AA) {
  const Value *ObjA = getAccessedObject(A), *ObjB = getAccessedObject(B);
  if (ObjA == ObjB || (ObjA == getUnderlyingObject(A) &&
                       ObjB == getUnderlyingObject(B)))
    return false; // nothing gained over the query on the pointers
  return AA.isNoAlias(MemoryLocation::getBeforeOrAfter(ObjA),
                      MemoryLocation::getBeforeOrAfter(ObjB));
}

/// The pointer \p I writes through, when it writes through one only.
static const Value *getWrittenPointer(const Instruction &I) {
  if (const auto *SI = dyn_cast<StoreInst>(&I))
    return SI->getPointerOperand();
  if (const auto *MI = dyn_cast<MemIntrinsic>(&I))
    return MI->getRawDest();
  if (const auto *CB = dyn_cast<CallBase>(&I);
      CB && getOpKind(*CB) == OpKind::Store)
    return CB->getArgOperand(0);
  return nullptr;
}

/// Whether \p Store (a tensor.store) may write memory \p Root points into.
/// A TLX-owned buffer and any other pointer never meet (its address reaches
/// no program code): alias analysis cannot tell, since the address is
/// passed to intrinsic calls.
static bool storeMayWrite(const Instruction &Store, Value *Root,
                          AAResults &AA) {
  const Value *Dst = cast<CallBase>(Store).getArgOperand(0);
  if (Dst != Root && (isTLXOwnedBuffer(Dst) || isTLXOwnedBuffer(Root)))
    return false;
  return isModSet(
      AA.getModRefInfo(&Store, MemoryLocation::getBeforeOrAfter(Root)));
}

bool mayClobberBetween(ArrayRef<Value *> Roots, const Instruction *From,
                       const Instruction *To, AAResults &AA) {
  if (Roots.empty() || From == To)
    return false;
  if (From->getParent() != To->getParent() || !From->comesBefore(To))
    return true;
  for (const Instruction *I = From->getNextNode(); I && I != To;
       I = I->getNextNode()) {
    if (!I->mayWriteToMemory())
      continue;
    std::optional<OpKind> Kind = getOpKind(I);
    if (Kind && *Kind != OpKind::Store)
      continue;
    const Value *Written = getWrittenPointer(*I);
    for (Value *Root : Roots)
      if ((Kind ? storeMayWrite(*I, Root, AA)
                : isModSet(AA.getModRefInfo(
                      I, MemoryLocation::getBeforeOrAfter(Root)))) &&
          !(Written && objectsDistinct(Written, Root, AA)))
        return true;
  }
  return false;
}

Value *stripParameterSpill(Value *Ptr) {
  auto *Load = dyn_cast<LoadInst>(Ptr);
  auto *Slot = Load ? dyn_cast<AllocaInst>(Load->getPointerOperand()) : nullptr;
  if (!Slot || !Load->isSimple())
    return Ptr;
  Value *Stored = nullptr;
  for (User *U : Slot->users()) {
    if (isa<LoadInst>(U))
      continue;
    auto *Store = dyn_cast<StoreInst>(U);
    if (!Store || Store->getPointerOperand() != Slot || Stored ||
        !isa<Argument>(Store->getValueOperand()))
      return Ptr;
    Stored = Store->getValueOperand();
  }
  return Stored ? Stored : Ptr;
}

bool isSamePointer(Value *A, Value *B, AAResults &AA) {
  if (A == B)
    return true;
  auto *LA = dyn_cast<LoadInst>(A), *LB = dyn_cast<LoadInst>(B);
  if (!LA || !LB || !LA->isSimple() || !LB->isSimple() ||
      LA->getPointerOperand() != LB->getPointerOperand() ||
      LA->getType() != LB->getType() || LA->getParent() != LB->getParent())
    return false;
  if (LB->comesBefore(LA))
    std::swap(LA, LB);
  return !mayClobberBetween({LA->getPointerOperand()}, LA, LB, AA);
}

} // namespace tlx
