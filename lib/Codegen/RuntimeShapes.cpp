//===- RuntimeShapes.cpp - Extents the program computes -------------------===//

#include "Codegen/RuntimeShapes.h"

#include "Analysis/TensorMemory.h"
#include "IR/Diagnostics.h"
#include "IR/ShapeInference.h"
#include "IR/TLXOps.h"
#include "Plugin/Options.h"
#include "Codegen/Loops.h"
#include "Codegen/IndexMap.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

Value *emitExtent(IRBuilderBase &B, const TensorType &Ty, unsigned Dim) {
  return B.CreateSExt(emitExtentI32(B, Ty, Dim), B.getInt64Ty());
}

/// \p Ty's memory at \p Ptr through the leading dims \p LD (a load's
/// strides operand; null: packed): storage dim r-1 is contiguous, storage
/// dim i steps LD[i+1] elements, or the span of the dims inside it when
/// that is 0.
static RuntimeView emitView(IRBuilderBase &B, Value *Ptr, const TensorType &Ty,
                            const Value *LD) {
  unsigned Rank = Ty.rank();
  std::optional<Dims> Known = LD ? getKnownLanes(LD) : std::nullopt;
  SmallVector<Value *, 4> Extents(Rank), Strides(Rank);
  for (unsigned I = 0; I < Rank; ++I)
    Extents[I] = emitExtent(B, Ty, I);
  Value *Zero = B.getInt64(0);
  for (int I = int(Rank) - 1; I >= 0; --I) {
    if (I == int(Rank) - 1) {
      Strides[I] = B.getInt64(1);
      continue;
    }
    Value *Packed = B.CreateMul(Strides[I + 1], Extents[I + 1]);
    int64_t Lane = Known ? (*Known)[I + 1] : 0;
    if (Lane == 0) {
      Strides[I] = Packed;
      continue;
    }
    Value *Step = Lane == DynamicExtent
                      ? B.CreateSExt(B.CreateExtractElement(
                                         const_cast<Value *>(LD),
                                         uint64_t(I + 1), "tlx.ld"),
                                     B.getInt64Ty())
                      : B.getInt64(Lane);
    Strides[I] = Lane == DynamicExtent
                     ? B.CreateSelect(B.CreateICmpEQ(Step, Zero), Packed, Step,
                                      "tlx.stride")
                     : Step;
  }
  // Logical dim Layout[I] is storage dim I.
  RuntimeView V;
  V.Ptr = Ptr;
  V.Elem = Ty.Elem;
  V.Extents.resize(Rank);
  V.Strides.resize(Rank);
  for (unsigned I = 0; I < Rank; ++I) {
    V.Extents[Ty.Layout[I]] = Extents[I];
    V.Strides[Ty.Layout[I]] = Strides[I];
    V.StorageOrder.push_back(Ty.Layout[I]);
  }
  return V;
}

/// Whether some token operand of \p Op satisfies \p Pred.
static bool anyTokenOperand(const CallBase &Op,
                            function_ref<bool(const TensorValue &)> Pred) {
  return any_of(Op.args(), [&](const Use &A) {
    std::optional<TensorValue> TV =
        A->getType()->isTokenTy() ? getTensorValue(A.get()) : std::nullopt;
    return TV && Pred(*TV);
  });
}

bool readsRuntimeExtents(const CallBase &Op) {
  return anyTokenOperand(
      Op, [](const TensorValue &TV) { return TV.Type.isDynamic(); });
}

bool readsRuntimeSizes(const CallBase &Op) {
  return anyTokenOperand(
      Op, [](const TensorValue &TV) { return TV.hasRuntimeSizes(); });
}

UnaryChain walkUnaryChain(const Value *Token) {
  UnaryChain C;
  C.Root = Token;
  while (std::optional<TensorValue> TV = getTensorValue(C.Root)) {
    C.Dynamic |= TV->hasRuntimeSizes();
    auto *Op = TV->isMemory() ? nullptr : dyn_cast<CallBase>(TV->Data);
    std::optional<OpKind> K = Op ? getOpKind(*Op) : std::nullopt;
    if (K && !isUnaryElementwise(*K))
      C.Dynamic |= readsRuntimeSizes(*Op);
    if (!K || !isUnaryElementwise(*K))
      break;
    C.Ops.push_back(Op);
    C.TypeInfos.push_back(TV->Def);
    C.Root = Op->getArgOperand(0);
  }
  return C;
}

/// Whether \p Op computes each element of its result from the same
/// position of its operands, in the same width: the unary elementwise
/// ops, the C operators' arithmetic, compares and selects, and a fill.
static bool isPositionwise(const CallBase &Op) {
  OpKind Kind = *getOpKind(Op);
  switch (Kind) {
  case OpKind::Broadcast: // the fill form reads no element
    return Op.arg_size() == 2;
  case OpKind::ICmp:
  case OpKind::FCmp:
  case OpKind::Select:
  case OpKind::FNeg:
    return true;
  default:
    // The arithmetic C operators (add .. frem), not the conversions, whose
    // elements change width, nor insertelement.
    return isUnaryElementwise(Kind) ||
           (isCOperatorOp(Kind) && getOpDesc(Kind).Signature == "TT");
  }
}

/// Whether \p Named (a token of \p Op's result) names it as the op
/// computes it: another typeinfo would reinterpret the positions.
static bool namesNaturally(const TensorValue &Named, const CallBase &Op) {
  std::string Why;
  std::optional<TensorType> Natural = getResultTensorType(Op, Why);
  return Natural && Natural->Shape == Named.Type.Shape &&
         Natural->Layout == Named.Type.Layout &&
         Natural->Padding == Named.Type.Padding;
}

/// Adds \p Token's ops and leaves to \p T, once each. \p Shifted: the
/// token is read through an op that reads other elements than those it
/// writes (its leaves go to ShiftedLeaves; a token reached both ways is
/// walked again to mark them).
static void walkFused(const Value *Token, FusedTree &T,
                      DenseMap<const Value *, bool> &Seen, bool Shifted) {
  auto [It, First] = Seen.try_emplace(Token, Shifted);
  if (!First && (It->second || !Shifted))
    return;
  It->second |= Shifted;
  std::optional<TensorValue> TV = getTensorValue(Token);
  if (!TV)
    return;
  T.Dynamic |= TV->hasRuntimeSizes();
  auto *Op = TV->isMemory() ? nullptr : dyn_cast<CallBase>(TV->Data);
  std::optional<OpKind> K = Op ? getOpKind(*Op) : std::nullopt;
  if (!K || !(isRuntimeFusible(*K) || isFusibleProducer(*K))) {
    if (First)
      T.Leaves.push_back(Token);
    if (Shifted)
      T.ShiftedLeaves.insert(Token);
    return;
  }
  if (First) {
    T.Ops.push_back(Op);
    T.TypeInfos.push_back(TV->Def);
  }
  bool Below = Shifted || !isPositionwise(*Op) || !namesNaturally(*TV, *Op);
  for (const Use &Arg : Op->args())
    if (Arg->getType()->isTokenTy() && !readsShapeOnly(Arg))
      walkFused(Arg.get(), T, Seen, Below);
}

FusedTree walkFusedTree(const Value *Token) {
  FusedTree T;
  DenseMap<const Value *, bool> Seen;
  walkFused(Token, T, Seen, /*Shifted=*/false);
  return T;
}

CallBase *UnaryChain::rootOp() const {
  std::optional<TensorValue> TV = getTensorValue(Root);
  auto *Op = TV && !TV->isMemory() ? dyn_cast<CallBase>(TV->Data) : nullptr;
  return Op && getOpKind(*Op) ? Op : nullptr;
}

Value *emitViewAddress(IRBuilderBase &B, const RuntimeView &V,
                       ArrayRef<Value *> Idx) {
  Value *Offset = B.getInt64(0);
  for (unsigned D = 0; D < Idx.size(); ++D)
    Offset = B.CreateAdd(Offset, B.CreateMul(Idx[D], V.Strides[D]));
  return B.CreateGEP(V.Elem, V.Ptr, Offset);
}

SmallVector<Value *, 4> emitLogicalExtents(IRBuilderBase &B,
                                           const TensorType &Ty) {
  SmallVector<Value *, 4> Extents(Ty.rank());
  for (unsigned I = 0; I < Ty.rank(); ++I)
    Extents[Ty.Layout[I]] = emitExtent(B, Ty, I);
  return Extents;
}

Value *emitRuntimeDisjoint(IRBuilderBase &B, const RuntimeView &X,
                           const RuntimeView &Y, AAResults &AA) {
  Value *XObj = stripParameterSpill(X.Ptr), *YObj = stripParameterSpill(Y.Ptr);
  if (XObj != YObj && AA.isNoAlias(MemoryLocation::getBeforeOrAfter(XObj),
                                   MemoryLocation::getBeforeOrAfter(YObj)))
    return B.getTrue();
  const DataLayout &DL = B.GetInsertBlock()->getDataLayout();
  auto Range = [&](const RuntimeView &V) {
    Value *One = B.getInt64(1), *Zero = B.getInt64(0);
    Value *Empty = B.getFalse(), *Last = Zero;
    for (unsigned D = 0; D < V.rank(); ++D) {
      Empty = B.CreateOr(Empty, B.CreateICmpSLE(V.Extents[D], Zero));
      Last = B.CreateAdd(
          Last, B.CreateMul(B.CreateSub(V.Extents[D], One), V.Strides[D]));
    }
    Value *Bytes = B.CreateMul(B.CreateAdd(Last, One),
                               B.getInt64(DL.getTypeAllocSize(V.Elem)));
    Value *Begin = B.CreatePtrToInt(V.Ptr, B.getInt64Ty());
    return std::make_pair(
        Begin, B.CreateAdd(Begin, B.CreateSelect(Empty, Zero, Bytes)));
  };
  auto [XB, XE] = Range(X);
  auto [YB, YE] = Range(Y);
  return B.CreateOr(B.CreateICmpULE(XE, YB), B.CreateICmpULE(YE, XB));
}

void emitTypeInfoCheck(IRBuilderBase &B, const TensorType &Actual,
                       const CallBase &TI) {
  SmallVector<Value *, 8> Args = emitLogicalExtents(B, Actual);
  SmallVector<Value *, 4> Said =
      emitLogicalExtents(B, getTensorValue(&TI)->Type);
  Value *Same = emitSameExtents(B, Args, Said);
  if (isa<Constant>(Same))
    return;
  Args.append(Said.begin(), Said.end());
  std::string Shape = shapeFormat(Said.size());
  RuntimeChecker(B, TI).requireInline(
      Same,
      "the result is " + Shape + " at run time, but this typeinfo says " +
          Shape,
      Args);
}

RuntimeMatrix asMatrix(const RuntimeView &V) {
  unsigned R = V.rank();
  assert(R >= 2 && "a matrix has two dims");
  return {V.Ptr, V.Elem, V.Extents[R - 2], V.Extents[R - 1],
          V.Strides[R - 2], V.Strides[R - 1]};
}

std::optional<RuntimeView> emitTokenView(IRBuilderBase &B,
                                         const Value *Token) {
  std::optional<TensorValue> TV = getTensorValue(Token);
  if (!TV || !TV->isMemory())
    return std::nullopt;
  RuntimeView V;
  switch (*getOpKind(*TV->Def)) {
  case OpKind::Load:
    V = emitView(B, TV->Data, TV->Type, TV->Def->getArgOperand(4));
    break;
  case OpKind::ToTensor: // its data is the tensor in logical row-major order
    return emitView(B, TV->Data, getLogicalRowMajor(TV->Type), nullptr);
  default:
    V = emitView(B, TV->Data, TV->Type, nullptr);
    break;
  }
  V.KnownObjectOp = TV->Def;
  return V;
}

std::optional<RuntimeView> emitViewThroughIndexMaps(IRBuilderBase &B,
                                                    const Value *Token) {
  if (std::optional<RuntimeView> V = emitTokenView(B, Token))
    return V;
  std::optional<StridedView> S = getViewThroughIndexMaps(Token);
  if (!S)
    return std::nullopt;
  RuntimeView V;
  V.Ptr = S->Ptr;
  V.Elem = S->Elem;
  for (unsigned D = 0; D < S->rank(); ++D) {
    V.Extents.push_back(B.getInt64(S->Shape[D]));
    V.Strides.push_back(B.getInt64(S->Strides[D]));
    V.StorageOrder.push_back(D);
  }
  // Outermost first: the largest strides (repeated dims, stride 0, last).
  stable_sort(V.StorageOrder, [&](unsigned X, unsigned Y) {
    return S->Strides[X] > S->Strides[Y];
  });
  return V;
}

RuntimeView emitStoreView(IRBuilderBase &B, const CallBase &Store) {
  std::optional<TensorValue> TV = getTensorValue(Store.getArgOperand(1));
  RuntimeView V =
      emitView(B, Store.getArgOperand(0), TV->Type, Store.getArgOperand(2));
  V.KnownObjectOp = &Store;
  return V;
}

bool isPackedMemory(const TensorValue &TV) {
  // (TV.Strides has a lane per dim of a load, DynamicExtent where the
  // program computes it; a typeinfo has none.)
  return TV.isMemory() && getOpKind(*TV.Def) != OpKind::ToTensor &&
         all_of(TV.Strides, [](int64_t S) { return S == 0; }) &&
         all_of(TV.Type.Padding, [](int64_t P) { return P == 0; });
}

//===----------------------------------------------------------------------===//
// RuntimeChecker
//===----------------------------------------------------------------------===//

RuntimeChecker::RuntimeChecker(IRBuilderBase &B, const CallBase &Op)
    : B(B), OpName(getUserOpName(Op)) {
  if (const DILocation *Loc = Op.getDebugLoc())
    Where = (Loc->getFilename() + ":" + Twine(Loc->getLine()) + ":" +
             Twine(Loc->getColumn()))
                .str();
  else
    Where = Op.getFunction()->getName().str();
}

/// Whether a check of \p Cond emits nothing: checks are off, or it holds.
static bool skipsCheck(Value *Cond) {
  auto *C = dyn_cast<ConstantInt>(Cond);
  return !pipelineOptions().RuntimeChecks || (C && C->isOne());
}

void RuntimeChecker::require(Value *Cond, const Twine &Format,
                             ArrayRef<Value *> Args) {
  report(Cond, "tlxrt_shape_error", Format, Args);
}

void RuntimeChecker::warnUnless(Value *Cond, const Twine &Format,
                                ArrayRef<Value *> Args) {
  report(Cond, "tlxrt_shape_warning", Format, Args);
}

/// A call of the runtime's \p Reporter (tlxrt_shape_error, which does not
/// return, or tlxrt_shape_warning) where \p Cond fails.
void RuntimeChecker::report(Value *Cond, StringRef Reporter,
                            const Twine &Format, ArrayRef<Value *> Args) {
  if (skipsCheck(Cond))
    return;
  bool Fatal = Reporter == "tlxrt_shape_error";
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Report = M.getOrInsertFunction(
      Reporter, FunctionType::get(B.getVoidTy(), {B.getPtrTy(), B.getPtrTy()},
                                  /*isVarArg=*/true));
  if (auto *Fn = dyn_cast<Function>(Report.getCallee())) {
    if (Fatal)
      Fn->setDoesNotReturn();
    Fn->setDoesNotThrow();
    Fn->addFnAttr(Attribute::Cold);
  }
  std::string Message = (OpName + ": " + Format).str();
  Value *At = whereString();
  emitIf(B, B.CreateNot(Cond), [&] {
    SmallVector<Value *, 8> CallArgs{
        At, B.CreateGlobalString(Message, "tlx.check")};
    CallArgs.append(Args.begin(), Args.end());
    CallInst *Call = B.CreateCall(Report, CallArgs);
    if (Fatal)
      Call->setDoesNotReturn();
  });
}

Value *emitRuntimeTensorAlloc(IRBuilderBase &B, const CallBase &Op, Type *Elem,
                              ArrayRef<Value *> Extents) {
  const DataLayout &DL = Op.getModule()->getDataLayout();
  Value *Bytes = B.getInt64(DL.getTypeAllocSize(Elem));
  Value *Overflow = B.getFalse(), *Negative = B.getFalse();
  for (Value *E : Extents) {
    Negative = B.CreateOr(Negative, B.CreateICmpSLT(E, B.getInt64(0)));
    Value *Product = B.CreateIntrinsic(Intrinsic::umul_with_overflow,
                                       {B.getInt64Ty()}, {Bytes, E});
    Bytes = B.CreateExtractValue(Product, 0);
    Overflow = B.CreateOr(Overflow, B.CreateExtractValue(Product, 1));
  }
  std::string Shape = shapeFormat(Extents.size());
  return RuntimeChecker(B, Op).emitCheckedAlloc(
      Bytes,
      {{Negative, "the result has a negative extent at run time: " + Shape},
       {Overflow, "a tensor of " + Shape +
                      " elements does not fit in memory at run time"}},
      Extents);
}

void RuntimeChecker::requireInline(Value *Cond, const Twine &Format,
                                   ArrayRef<Value *> Args) {
  if (skipsCheck(Cond))
    return;
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Check = M.getOrInsertFunction(
      "tlxrt_shape_check",
      FunctionType::get(B.getVoidTy(),
                        {B.getInt32Ty(), B.getPtrTy(), B.getPtrTy()},
                        /*isVarArg=*/true));
  // It reads its strings and may end the program: it writes no tensor.
  if (auto *Fn = dyn_cast<Function>(Check.getCallee())) {
    Fn->setMemoryEffects(MemoryEffects::argMemOnly(ModRefInfo::Ref) |
                         MemoryEffects::inaccessibleMemOnly());
    Fn->setDoesNotThrow();
  }
  SmallVector<Value *, 8> CallArgs{
      B.CreateZExt(Cond, B.getInt32Ty()), whereString(),
      B.CreateGlobalString((OpName + ": " + Format).str(), "tlx.check")};
  CallArgs.append(Args.begin(), Args.end());
  B.CreateCall(Check, CallArgs);
}

Value *emitSameExtents(IRBuilderBase &B, ArrayRef<Value *> X,
                       ArrayRef<Value *> Y) {
  Value *Same = B.getTrue();
  for (auto [A, C] : zip(X, Y))
    Same = B.CreateAnd(Same, B.CreateICmpEQ(A, C));
  return Same;
}

std::string shapeFormat(unsigned Rank) {
  std::string S;
  for (unsigned D = 0; D < Rank; ++D)
    S += D ? "x%lld" : "%lld";
  return S;
}

/// One string of the op's location for all its checks.
Value *RuntimeChecker::whereString() {
  if (!WhereString)
    WhereString = B.CreateGlobalString(Where, "tlx.where");
  return WhereString;
}

Value *RuntimeChecker::emitCheckedAlloc(Value *Bytes,
                                        ArrayRef<AllocFailure> Failures,
                                        ArrayRef<Value *> Args) {
  Module &M = *B.GetInsertBlock()->getModule();
  if (!pipelineOptions().RuntimeChecks) {
    Buffer Buf = emitAllocBuffer(B, B.getInt8Ty(), Bytes, "tlx.rtbuf");
    return Buf.Ptr;
  }
  FunctionCallee Alloc =
      getAllocatorFunction(M, "tlxrt_alloc_tensor",
                           FunctionType::get(B.getPtrTy(),
                                             {B.getInt64Ty(), B.getInt32Ty(),
                                              B.getPtrTy(), B.getPtrTy()},
                                             /*isVarArg=*/true));
  // The message of the first failure that holds (the last's otherwise).
  Value *Failed = B.getFalse(), *Message = nullptr;
  for (const AllocFailure &F : reverse(Failures)) {
    Value *Text = B.CreateGlobalString(OpName + ": " + F.Format, "tlx.check");
    Message = Message ? B.CreateSelect(F.Cond, Text, Message) : Text;
    Failed = B.CreateOr(Failed, F.Cond);
  }
  SmallVector<Value *, 8> CallArgs{Bytes, B.CreateZExt(Failed, B.getInt32Ty()),
                                   whereString(), Message};
  CallArgs.append(Args.begin(), Args.end());
  return B.CreateCall(Alloc, CallArgs, "tlx.rtbuf");
}

void RuntimeChecker::requireValidView(const RuntimeView &V, StringRef What) {
  Value *Zero = B.getInt64(0), *One = B.getInt64(1);
  Value *NonNegative = B.getTrue();
  for (Value *E : V.Extents)
    NonNegative = B.CreateAnd(NonNegative, B.CreateICmpSGE(E, Zero));
  require(NonNegative,
          What + " has a negative extent at run time: " + shapeFormat(V.rank()),
          V.Extents);
  // Walking the storage dims outwards, each must step over the span of
  // the ones inside it, unless it has at most one index (or the tensor
  // none).
  Value *Empty = B.getFalse();
  for (Value *E : V.Extents)
    Empty = B.CreateOr(Empty, B.CreateICmpEQ(E, Zero));
  Value *Span = One;
  for (int I = int(V.rank()) - 1; I >= 0; --I) {
    unsigned D = V.StorageOrder[I];
    if (I + 1 < int(V.rank()))
      require(B.CreateOr(B.CreateOr(Empty, B.CreateICmpSLE(V.Extents[D], One)),
                         B.CreateICmpSGE(V.Strides[D], Span)),
              What + " has a leading dimension of %lld at run time, less "
                     "than the %lld elements it must step over: elements "
                     "would share addresses",
              {V.Strides[D], Span});
    Value *Reach = B.CreateMul(
        B.CreateSub(B.CreateIntrinsic(Intrinsic::smax, {B.getInt64Ty()},
                                      {V.Extents[D], One}),
                    One),
        V.Strides[D]);
    Span = B.CreateAdd(Span, Reach);
  }
  requireInsideObject(V, Span, Empty, What);
}

/// The view \p V, \p Span elements from its first on (unless \p Empty),
/// inside the C object its op's pointer points into, where the frontend
/// knows that object: "the result spans 9 elements (3x3 float) at run time
/// starting at element 0 of 'd', which has 4 (float[2][2])". (Called
/// after the extents and strides are checked: Span does not overflow.)
void RuntimeChecker::requireInsideObject(const RuntimeView &V, Value *Span,
                                         Value *Empty, StringRef What) {
  std::optional<ObjectBound> Obj;
  if (V.KnownObjectOp)
    Obj = getObjectBound(*V.KnownObjectOp);
  if (!Obj)
    return;
  const DataLayout &DL = B.GetInsertBlock()->getDataLayout();
  int64_t ElemBytes = DL.getTypeAllocSize(V.Elem);
  // Where the view starts in the object: the op's pointer is OffsetBytes
  // into it, and the view may start further on.
  Type *I64 = B.getInt64Ty();
  Value *OpPtr = V.KnownObjectOp->getArgOperand(0);
  Value *Start = B.CreateAdd(
      B.getInt64(Obj->OffsetBytes),
      B.CreateSub(B.CreatePtrToInt(V.Ptr, I64), B.CreatePtrToInt(OpPtr, I64)));
  Value *End = B.CreateAdd(Start, B.CreateMul(Span, B.getInt64(ElemBytes)));
  Value *Inside = B.CreateAnd(B.CreateICmpSGE(Start, B.getInt64(0)),
                              B.CreateICmpSLE(End, B.getInt64(Obj->SizeBytes)));
  std::string Shape = shapeFormat(V.rank());
  std::string Has = std::to_string(Obj->SizeBytes / ElemBytes);
  if (Obj->SizeBytes % ElemBytes)
    Has += " (" + std::to_string(Obj->SizeBytes) + " bytes)";
  SmallVector<Value *, 6> Args{Span};
  Args.append(V.Extents.begin(), V.Extents.end());
  Args.push_back(B.CreateSDiv(Start, B.getInt64(ElemBytes)));
  std::string Message =
      (What + " spans %lld elements (" + Shape + " " + userTypeName(V.Elem) +
       ") at run time starting at element %lld of '" + Obj->Name + "', which " +
       (Obj->AtLeast ? "is declared to have at least " : "has ") + Has + " (" +
       Obj->Origin + ")")
          .str();
  // A store is what writes past the object: it names the message (the
  // op that reads an operand does for a load). A [static N] parameter
  // promises at least N elements: more is suspect, not certainly wrong (a
  // warning, as at compile time).
  RuntimeChecker StoreCheck(B, *V.KnownObjectOp);
  RuntimeChecker &Check =
      getOpKind(*V.KnownObjectOp) == OpKind::Store ? StoreCheck : *this;
  if (Obj->AtLeast)
    Check.warnUnless(B.CreateOr(Empty, Inside), Message, Args);
  else
    Check.require(B.CreateOr(Empty, Inside), Message, Args);
}

void RuntimeChecker::requireEqual(Value *A, Value *Bv, const Twine &Format,
                                  ArrayRef<Value *> Args) {
  require(B.CreateICmpEQ(A, Bv), Format, Args);
}

} // namespace tlx
