//===- Elementwise.cpp - The short form's elementwise arithmetic ----------===//

#include "Elementwise.h"

#include "IR/Diagnostics.h"
#include "IR/ShapeInference.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace tlx {

static bool fail(std::string &Why, const Twine &Msg) {
  Why = Msg.str();
  return false;
}

namespace {

/// The broadcast of the operands' logical shapes, dimension by dimension
/// from the last.
struct BroadcastShape {
  Dims Shape;
  ExtentRefs Refs;

  /// Joins \p In (with its run-time extents \p InRefs) into the shape.
  bool join(ArrayRef<int64_t> In, ArrayRef<ExtentRef> InRefs,
            std::string &Why) {
    Dims Before = Shape;
    if (In.size() > Shape.size()) {
      Shape.insert(Shape.begin(), In.size() - Shape.size(), 1);
      Refs.insert(Refs.begin(), In.size() - Refs.size(), ExtentRef());
    }
    unsigned Offset = Shape.size() - In.size();
    for (unsigned I = 0; I < In.size(); ++I) {
      int64_t &Out = Shape[Offset + I];
      int64_t E = In[I];
      ExtentRef R = E == DynamicExtent ? InRefs[I] : ExtentRef();
      if (E == 1 || E == Out)
        continue; // a run-time extent against another: checked when it runs
      if (Out == 1 || (Out == DynamicExtent && E != DynamicExtent)) {
        // A constant extent fixes a run-time one, which must equal it.
        Out = E;
        Refs[Offset + I] = R;
        continue;
      }
      if (E == DynamicExtent)
        continue; // must equal the constant one
      return fail(Why, "cannot broadcast the shapes " + formatShape(Before) +
                           " and " + formatShape(In) +
                           ": trailing dimensions are aligned, and each "
                           "pair of extents must be equal or one of them 1");
    }
    return true;
  }
};

} // namespace

/// Whether the scalar operand \p S may join tensors of \p Elem: not a
/// floating-point one with integer elements (C would compute in floating
/// point; the result keeps the tensor's element type).
static bool checkScalar(const Value *S, Type *Elem, std::string &Why) {
  Type *Ty = S->getType();
  if (!Ty->isIntegerTy() && !Ty->isFloatingPointTy())
    return fail(Why, "a scalar operand must be an integer or floating-point "
                     "value");
  if (Ty->isFloatingPointTy() && Elem->isIntegerTy())
    return fail(Why, "a floating-point scalar with a tensor of " +
                         userTypeName(Elem) +
                         " elements: the result keeps the tensor's element "
                         "type, so write an integer scalar");
  return true;
}

std::optional<TensorType>
inferElementwiseType(OpKind Kind, ArrayRef<Value *> Operands,
                     std::string &Why) {
  assert(isShortElementwise(Kind) && "not a short-form elementwise op");
  (void)Kind;
  Type *Elem = nullptr;
  BroadcastShape Shape;
  for (Value *V : Operands) {
    if (!V->getType()->isTokenTy())
      continue;
    std::optional<TensorValue> TV = getTensorValue(V, &Why);
    if (!TV)
      return std::nullopt;
    if (Elem && TV->Type.Elem != Elem) {
      fail(Why, "the tensors' element types differ: " + userTypeName(Elem) +
                    " and " + userTypeName(TV->Type.Elem));
      return std::nullopt;
    }
    Elem = TV->Type.Elem;
    if (!Shape.join(TV->Type.logicalShape(), TV->Type.logicalShapeRefs(),
                    Why))
      return std::nullopt;
  }
  if (!Elem) {
    fail(Why, "one operand at least must be a tensor");
    return std::nullopt;
  }
  for (Value *V : Operands)
    if (!V->getType()->isTokenTy() && !checkScalar(V, Elem, Why))
      return std::nullopt;
  TensorType Ty;
  Ty.Elem = Elem;
  Ty.Shape = Shape.Shape;
  for (unsigned I = 0; I < Ty.rank(); ++I)
    Ty.Layout.push_back(I);
  Ty.Padding.assign(Ty.rank(), 0);
  if (is_contained(Ty.Shape, DynamicExtent))
    Ty.ShapeRefs = Shape.Refs;
  return Ty;
}

/// Whether a tensor of type \p In must be broadcast to \p Result's type
/// (row-major) to be read position by position: it has fewer dims, an
/// extent 1 to stretch, or another layout or padding. Extents that differ
/// only in being known at run time are checked by the op when it runs.
static bool needsBroadcast(const TensorType &In, const TensorType &Result) {
  if (In.rank() != Result.rank() || In.Layout != Result.Layout ||
      In.Padding != Result.Padding)
    return true;
  for (unsigned D = 0; D < In.rank(); ++D)
    if (In.Shape[D] == 1 && Result.Shape[D] != 1)
      return true;
  return false;
}

/// The op C's operator for \p Kind is on \p Elem tensors (not max/min).
static OpKind getOperatorOp(OpKind Kind, const Type *Elem) {
  bool FP = Elem->isFloatingPointTy();
  switch (Kind) {
  case OpKind::ShortAdd:
    return FP ? OpKind::FAdd : OpKind::Add;
  case OpKind::ShortSub:
    return FP ? OpKind::FSub : OpKind::Sub;
  case OpKind::ShortMul:
    return FP ? OpKind::FMul : OpKind::Mul;
  default:
    assert(Kind == OpKind::ShortDiv && "max and min are a compare");
    return FP ? OpKind::FDiv : OpKind::SDiv;
  }
}

CallInst *emitElementwise(IRBuilderBase &B, OpKind Kind,
                          ArrayRef<Value *> Operands, std::string &Why,
                          SmallVectorImpl<CallInst *> *Emitted) {
  std::optional<TensorType> Ty = inferElementwiseType(Kind, Operands, Why);
  if (!Ty)
    return nullptr;
  Type *VecTy = getDataVectorType(*Ty);
  auto Record = [&](CallInst *CI) {
    if (Emitted)
      Emitted->push_back(CI);
    return CI;
  };
  auto Named = [&](CallInst *Data, const TensorType &As) {
    Record(Data);
    return Record(emitTypeInfo(B, Data, As));
  };
  // Tensors of another shape, layout or padding are broadcast to the
  // result's type: C operator ops read their operands position by position.
  SmallVector<Value *, 2> Typed(Operands.begin(), Operands.end());
  Value *First = nullptr;
  for (Value *&V : Typed) {
    if (!V->getType()->isTokenTy())
      continue;
    if (needsBroadcast(getTensorValue(V)->Type, *Ty))
      V = Named(createOpCall(B, OpKind::Broadcast, VecTy, {V}), *Ty);
    if (!First)
      First = V;
  }
  // A scalar fills the result's shape: broadcast(t, s).
  for (Value *&V : Typed)
    if (!V->getType()->isTokenTy())
      V = Named(createOpCall(B, OpKind::Broadcast, VecTy,
                             {First, convertScalarToElement(B, V, Ty->Elem)}),
                *Ty);
  if (Kind != OpKind::ShortMax && Kind != OpKind::ShortMin)
    return Record(
        createOpCall(B, getOperatorOp(Kind, Ty->Elem), VecTy, Typed));
  // max: a > b ? a : b, as C writes it (min: <); integers signed.
  bool FP = Ty->Elem->isFloatingPointTy();
  bool Max = Kind == OpKind::ShortMax;
  CmpInst::Predicate Pred =
      FP ? (Max ? CmpInst::FCMP_OGT : CmpInst::FCMP_OLT)
         : (Max ? CmpInst::ICMP_SGT : CmpInst::ICMP_SLT);
  TensorType CondTy = *Ty;
  CondTy.Elem = B.getIntNTy(Ty->Elem->getPrimitiveSizeInBits());
  CallInst *Cond = createOpCall(
      B, FP ? OpKind::FCmp : OpKind::ICmp, getDataVectorType(CondTy),
      {Typed[0], Typed[1], B.getInt32(Pred)});
  return Record(createOpCall(B, OpKind::Select, VecTy,
                             {Named(Cond, CondTy), Typed[0], Typed[1]}));
}

CallInst *emitScalarAccumulator(IRBuilderBase &B, Value *S, Value *A,
                                Value *Bt, std::string &Why) {
  std::optional<TensorType> Ty =
      inferUntypedResult(B, OpKind::MatMul, {A, Bt}, Why);
  if (!Ty)
    return nullptr;
  if (!Ty->Elem->isIntegerTy()) {
    fail(Why, "the mma ops multiply integers, not " + userTypeName(Ty->Elem));
    return nullptr;
  }
  if (Ty->Elem->getIntegerBitWidth() < 32)
    Ty->Elem = B.getInt32Ty();
  if (!checkScalar(S, Ty->Elem, Why))
    return nullptr;
  CallInst *Fill = createScalarBroadcast(
      B, convertScalarToElement(B, S, Ty->Elem), getDataVectorType(*Ty));
  return emitTypeInfo(B, Fill, *Ty);
}

} // namespace tlx
