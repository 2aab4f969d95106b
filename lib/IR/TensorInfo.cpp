//===- TensorInfo.cpp - What a TLX token stands for -----------------------===//

#include "TensorInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace tlx {

int64_t TensorType::numElements() const {
  int64_t N = 1;
  for (int64_t D : Shape)
    N *= D;
  return N;
}

ExtentRefs TensorType::logicalShapeRefs() const {
  if (ShapeRefs.empty())
    return {};
  ExtentRefs Logical(ShapeRefs.size());
  for (unsigned I = 0; I < ShapeRefs.size(); ++I)
    if (Layout[I] >= 0 && Layout[I] < (int64_t)ShapeRefs.size())
      Logical[Layout[I]] = ShapeRefs[I];
  return Logical;
}

bool TensorType::isDynamic() const {
  return is_contained(Shape, DynamicExtent);
}

Dims TensorType::logicalShape() const {
  Dims Logical(Shape.size(), 0);
  for (unsigned I = 0; I < Shape.size(); ++I)
    if (Layout[I] >= 0 && Layout[I] < (int64_t)Shape.size())
      Logical[Layout[I]] = Shape[I];
  return Logical;
}

FixedVectorType *getDataVectorType(const TensorType &Ty) {
  return FixedVectorType::get(Ty.Elem, Ty.isDynamic() ? 1 : Ty.numElements());
}

TensorType getLogicalRowMajor(const TensorType &Ty) {
  TensorType RowMajor = Ty;
  RowMajor.Shape = Ty.logicalShape();
  RowMajor.ShapeRefs = Ty.logicalShapeRefs();
  RowMajor.Padding.assign(Ty.rank(), 0);
  for (unsigned I = 0; I < Ty.rank(); ++I)
    RowMajor.Layout[I] = I;
  return RowMajor;
}

bool TensorType::hasIdentityLayout() const {
  for (unsigned I = 0; I < Layout.size(); ++I)
    if (Layout[I] != I)
      return false;
  return true;
}

bool TensorValue::isMemory() const {
  return Data && Data->getType()->isPointerTy();
}

bool TensorValue::hasRuntimeSizes() const {
  return Type.isDynamic() || is_contained(Strides, DynamicExtent);
}

static Type *scalarOf(Type *Ty) {
  if (auto *VT = dyn_cast_or_null<VectorType>(Ty))
    return VT->getElementType();
  return Ty;
}

Type *getPointerElementType(const CallBase &Call, unsigned ArgNo) {
  if (Type *Ty = Call.getParamElementType(ArgNo))
    return scalarOf(Ty);
  if (Type *Ty = Call.getParamByValType(ArgNo))
    return scalarOf(Ty);
  return nullptr;
}

static bool fail(std::string *Why, const Twine &Msg) {
  if (Why)
    *Why = Msg.str();
  return false;
}

std::optional<Dims> getKnownLanes(const Value *V) {
  auto *VT = dyn_cast<FixedVectorType>(V->getType());
  if (!VT || !VT->getElementType()->isIntegerTy(32) ||
      VT->getNumElements() > MaxConstantIntVectorElements)
    return std::nullopt;
  if (std::optional<Dims> All = getConstantIntVector(V))
    return All;
  Dims Lanes(VT->getNumElements(), DynamicExtent);
  SmallVector<bool, 8> Seen(Lanes.size(), false);
  // insertelement chains, as clang builds (tlx_dims2_t){m, 64}: the last
  // insert into a lane wins.
  while (const auto *IE = dyn_cast<InsertElementInst>(V)) {
    const auto *Idx = dyn_cast<ConstantInt>(IE->getOperand(2));
    if (!Idx || Idx->getZExtValue() >= Lanes.size())
      return Lanes;
    unsigned Lane = Idx->getZExtValue();
    if (!Seen[Lane])
      if (const auto *C = dyn_cast<ConstantInt>(IE->getOperand(1)))
        Lanes[Lane] = C->getSExtValue();
    Seen[Lane] = true;
    V = IE->getOperand(0);
  }
  if (const auto *C = dyn_cast<Constant>(V))
    for (unsigned I = 0; I < Lanes.size(); ++I)
      if (!Seen[I])
        if (const auto *Elt =
                dyn_cast_or_null<ConstantInt>(C->getAggregateElement(I)))
          Lanes[I] = Elt->getSExtValue();
  return Lanes;
}

/// Reads the dimension list \p V into \p Out; with \p Refs (shape and
/// strides), its run-time lanes too.
static bool readDims(const Value *V, Dims &Out, StringRef What,
                     std::string *Why, ExtentRefs *Refs = nullptr) {
  std::optional<Dims> Values =
      Refs ? getKnownLanes(V) : getConstantIntVector(V);
  if (!Values)
    return fail(Why, What + " must be a constant <n x i32> vector");
  Out = *Values;
  if (Refs && is_contained(Out, DynamicExtent))
    for (unsigned I = 0; I < Out.size(); ++I)
      Refs->push_back({V, I});
  return true;
}

std::optional<TensorValue> getTensorValue(const Value *Token,
                                          std::string *Why) {
  const auto *Call = dyn_cast_or_null<CallBase>(Token);
  std::optional<OpKind> Kind = getOpKind(Token);
  if (!Call || !Kind) {
    fail(Why, "token does not come from typeinfo, load or totensor");
    return std::nullopt;
  }
  TensorValue TV;
  TV.Def = Call;
  switch (*Kind) {
  case OpKind::TypeInfo:
  case OpKind::ToTensor:
  case OpKind::Load: {
    if (Call->arg_size() < 4) {
      fail(Why, "too few operands");
      return std::nullopt;
    }
    TV.Data = Call->getArgOperand(0);
    if (TV.isMemory())
      TV.Type.Elem = getPointerElementType(*Call, 0);
    else
      TV.Type.Elem = scalarOf(TV.Data->getType());
    if (!TV.Type.Elem) {
      fail(Why, "pointer operand has no elementtype() attribute");
      return std::nullopt;
    }
    // Which tensors may have run-time extents is the verifier's rule.
    if (!readDims(Call->getArgOperand(1), TV.Type.Shape, "shape", Why,
                  &TV.Type.ShapeRefs) ||
        !readDims(Call->getArgOperand(2), TV.Type.Layout, "layout", Why) ||
        !readDims(Call->getArgOperand(3), TV.Type.Padding, "padding", Why))
      return std::nullopt;
    ExtentRefs StrideRefs;
    if (*Kind == OpKind::Load &&
        (Call->arg_size() < 5 || !readDims(Call->getArgOperand(4), TV.Strides,
                                           "strides", Why, &StrideRefs)))
      return std::nullopt;
    if (!StrideRefs.empty())
      TV.StridesVec = Call->getArgOperand(4);
    return TV;
  }
  default:
    fail(Why, "token comes from '" + getOpDesc(*Kind).shortName() +
                  "', which does not produce a token");
    return std::nullopt;
  }
}

const CallBase *getResultTypeInfo(const CallBase &Op) {
  // The earliest in the op's block, else one elsewhere.
  const CallBase *First = nullptr;
  auto InOpBlock = [&](const CallBase *C) {
    return C->getParent() == Op.getParent();
  };
  for (const User *U : Op.users()) {
    const auto *TI = dyn_cast<CallBase>(U);
    if (!TI || getOpKind(*TI) != OpKind::TypeInfo ||
        TI->getArgOperand(0) != &Op)
      continue;
    if (!First || (InOpBlock(TI) && !InOpBlock(First)) ||
        (TI->getParent() == First->getParent() && TI->comesBefore(First)))
      First = TI;
  }
  return First;
}

Dims packedStrides(ArrayRef<int64_t> Shape) {
  Dims Strides(Shape.size(), 1);
  for (int I = (int)Shape.size() - 2; I >= 0; --I)
    Strides[I] = Strides[I + 1] * Shape[I + 1];
  return Strides;
}

Dims expandLeadingDims(ArrayRef<int64_t> Shape, ArrayRef<int64_t> LeadingDims) {
  unsigned Rank = Shape.size();
  Dims Strides(Rank, 1);
  for (int I = (int)Rank - 2; I >= 0; --I) {
    int64_t LD = I + 1 < (int)LeadingDims.size() ? LeadingDims[I + 1] : 0;
    Strides[I] = LD > 0 ? LD : Strides[I + 1] * Shape[I + 1];
  }
  return Strides;
}

} // namespace tlx
