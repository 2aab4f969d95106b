//===- ReduceWindow.cpp - reduce.* as vector loop nests -------------------===//
//
// %r = reduce.OP(token %in, window, strides) computes
//   out[o] = fold(OP, in[o * strides + w] for w over the window, row-major)
// tlx-legalize writes it into its destination with one of three loop
// structures, chosen from the destination's lane dim L (its innermost
// storage dim) and the input's contiguous dim C (stride 1 in memory):
//
//  - lanes on outputs (pooling windows; the general case): VF neighbouring
//    outputs along L at once, each folding its window in order. Used when
//    neither of the next two applies.
//  - along the window (row and full reductions, any window spanning C with
//    at least a vector of elements, when the outputs along L are not
//    contiguous vectors): one output at a time, the window's run along C
//    read VF lanes x U accumulators at a time and the partial results
//    combined once (XLA's row-reduction emitter). Integer ops are exact in
//    any order; float add and mul are reassociated (docs/ops.md); float
//    max and min use a plain compare-select and walk the window again in
//    order for an output whose window held a NaN (or an infinity: both
//    show in a running sum of x * 0) or whose result is a zero, so the
//    first NaN and -0 < +0 stay exactly as specified.
//  - by window rows (column reductions: the outputs along L are contiguous
//    and each folds a long window outside L): the outputs along L in blocks
//    of a stack buffer of accumulators, the window walked outermost, each
//    window step reading one contiguous row segment. Every output still
//    folds its window in order: the results are the in-order ones.
//
//===----------------------------------------------------------------------===//

#include "Codegen/ReduceWindow.h"

#include "IR/Diagnostics.h"
#include "IR/ShapeInference.h"
#include "IR/TLXOps.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;

#define DEBUG_TYPE "tlx-legalize"

namespace tlx {
namespace {

/// Outputs folding at least this many window elements outside the lane dim
/// are computed by window rows: walking such a window per output vector
/// jumps a row per element, by rows reads memory in order.
constexpr int64_t ByRowsMinWindow = 16;
/// Independent accumulators of the along-window walk: enough chains to
/// hide the latency of the combining instruction.
constexpr unsigned AlongWindowAccumulators = 4;
/// The stack block of accumulators of the by-rows walk: up to half of a
/// 32 KiB L1 data cache, so that a row of up to 4096 f32 outputs is one
/// block and the input is read in one sequential sweep.
constexpr int64_t ByRowsBlockBytes = 16 * 1024;

enum class Strategy { LanesOnOutputs, AlongWindow, ByWindowRows };

} // namespace

Constant *reduceIdentity(OpKind Kind, Type *Ty) {
  bool IsFP = Ty->isFloatingPointTy();
  unsigned Bits = Ty->getPrimitiveSizeInBits();
  switch (Kind) {
  case OpKind::ReduceMax:
    return IsFP ? ConstantFP::getInfinity(Ty, /*Negative=*/true)
                : ConstantInt::get(Ty, APInt::getSignedMinValue(Bits));
  case OpKind::ReduceMin:
    return IsFP ? ConstantFP::getInfinity(Ty)
                : ConstantInt::get(Ty, APInt::getSignedMaxValue(Bits));
  case OpKind::ReduceAdd:
    return IsFP ? ConstantFP::getNegativeZero(Ty) : ConstantInt::get(Ty, 0);
  case OpKind::ReduceMul:
    return IsFP ? ConstantFP::get(Ty, 1.0) : ConstantInt::get(Ty, 1);
  case OpKind::ReduceAnd:
    return ConstantInt::get(Ty, APInt::getAllOnes(Bits));
  default:
    return Constant::getNullValue(Ty);
  }
}

/// llvm.maximum / llvm.minimum of \p Acc and \p X, spelled out so the NaN
/// that wins is exactly the first in window order (the accumulator's if it
/// has one), kept as it is, as the reference computes it:
///   r = (Acc > X || Acc is NaN) ? Acc : X      (X's NaN wins over a number)
///   r = Acc == X ? Acc & X : r                 (max(-0, +0) = +0; min: |)
static Value *emitFMaximum(IRBuilderBase &B, Value *Acc, Value *X, bool IsMax) {
  Value *Wins = IsMax ? B.CreateFCmpOGT(Acc, X) : B.CreateFCmpOLT(Acc, X);
  Value *R = B.CreateSelect(B.CreateOr(Wins, B.CreateFCmpUNO(Acc, Acc)), Acc, X);
  Type *IntTy = Acc->getType()->getWithNewType(
      B.getIntNTy(Acc->getType()->getScalarSizeInBits()));
  Value *AI = B.CreateBitCast(Acc, IntTy), *XI = B.CreateBitCast(X, IntTy);
  Value *Zeros =
      B.CreateBitCast(IsMax ? B.CreateAnd(AI, XI) : B.CreateOr(AI, XI),
                      Acc->getType());
  return B.CreateSelect(B.CreateFCmpOEQ(Acc, X), Zeros, R);
}

Value *reduceCombine(IRBuilderBase &B, OpKind Kind, Value *Acc, Value *X) {
  bool IsFP = X->getType()->isFPOrFPVectorTy();
  switch (Kind) {
  case OpKind::ReduceMax:
    return IsFP ? emitFMaximum(B, Acc, X, /*IsMax=*/true)
                : B.CreateBinaryIntrinsic(Intrinsic::smax, Acc, X);
  case OpKind::ReduceMin:
    return IsFP ? emitFMaximum(B, Acc, X, /*IsMax=*/false)
                : B.CreateBinaryIntrinsic(Intrinsic::smin, Acc, X);
  case OpKind::ReduceAdd:
    return IsFP ? B.CreateFAdd(Acc, X) : B.CreateAdd(Acc, X);
  case OpKind::ReduceMul:
    return IsFP ? B.CreateFMul(Acc, X) : B.CreateMul(Acc, X);
  case OpKind::ReduceAnd:
    return B.CreateAnd(Acc, X);
  case OpKind::ReduceOr:
    return B.CreateOr(Acc, X);
  case OpKind::ReduceXor:
    return B.CreateXor(Acc, X);
  default:
    llvm_unreachable("not a reduce op");
  }
}

namespace {

class ReduceEmitter {
public:
  ReduceEmitter(TensorValues &Values, const TargetTransformInfo &TTI,
                const CallBase &Op, const StridedView &Dst);
  void emit(IRBuilderBase &B, LoopSharer Share);

private:
  /// Accumulator slots, one of each per function (a thread's share of the
  /// outputs runs in a function of its own).
  enum SlotId : unsigned {
    InOrderAcc,
    Result,
    RowBlock,
    FirstAcc,
    FirstNaNSum = FirstAcc + AlongWindowAccumulators
  };

  Strategy choose();
  unsigned contiguousDim() const;
  unsigned emitLanesOnOutputs(IRBuilderBase &B, LoopSharer Share);
  Value *emitAlongWindowOne(IRBuilderBase &B, ArrayRef<Value *> Base);
  void emitByWindowRows(IRBuilderBase &B, LoopSharer Share);
  void emitRowBlock(IRBuilderBase &B, SmallVectorImpl<Value *> &Idx,
                    Value *First, int64_t N);
  Value *emitInOrder(IRBuilderBase &B, ArrayRef<Value *> Base,
                     unsigned Lanes, int LaneDim);
  SmallVector<Value *, 8> windowBase(IRBuilderBase &B,
                                     ArrayRef<Value *> OutIdx) const;
  Constant *identity(unsigned Lanes) const;
  Value *combineFast(IRBuilderBase &B, Value *Acc, Value *X) const;
  Value *combineLanes(IRBuilderBase &B, Value *V) const;
  bool isFloatMaxMin() const;
  AllocaInst *slot(IRBuilderBase &B, unsigned Id, Type *Ty);

  TensorValues &Values;
  const CallBase &Op;
  const StridedView &Dst;
  OpKind Kind;
  ReduceWindow W;
  const Value *In;
  Type *CT;
  unsigned Rank, VF;
  int64_t WindowSize = 1;
  unsigned AlongDim = 0;
  DenseMap<std::pair<Function *, unsigned>, AllocaInst *> Slots;
};

ReduceEmitter::ReduceEmitter(TensorValues &Values,
                             const TargetTransformInfo &TTI,
                             const CallBase &Op, const StridedView &Dst)
    : Values(Values), Op(Op), Dst(Dst), Kind(*getOpKind(Op)),
      In(Op.getArgOperand(0)), CT(getComputeType(Dst.Elem)),
      Rank(Dst.rank()), VF(getVectorWidth(TTI, Dst.Elem)) {
  std::string Why;
  W = *getReduceWindow(Op, Why);
  for (int64_t E : W.Window)
    WindowSize *= E;
}

AllocaInst *ReduceEmitter::slot(IRBuilderBase &B, unsigned Id, Type *Ty) {
  Function &F = *B.GetInsertBlock()->getParent();
  AllocaInst *&Slot = Slots[{&F, Id}];
  if (!Slot) {
    IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().begin());
    Slot = EB.CreateAlloca(Ty, nullptr, "tlx.acc");
    Slot->setAlignment(Align(64));
  }
  return Slot;
}

Constant *ReduceEmitter::identity(unsigned Lanes) const {
  Constant *Init = reduceIdentity(Kind, CT);
  return Lanes == 1 ? Init
                    : ConstantVector::getSplat(ElementCount::getFixed(Lanes),
                                               Init);
}

bool ReduceEmitter::isFloatMaxMin() const {
  return CT->isFloatingPointTy() &&
         (Kind == OpKind::ReduceMax || Kind == OpKind::ReduceMin);
}

/// OP(Acc, X) where the order of NaNs and zeros does not matter (the caller
/// checks for them): one compare-select for float max and min.
Value *ReduceEmitter::combineFast(IRBuilderBase &B, Value *Acc,
                                  Value *X) const {
  if (!isFloatMaxMin())
    return reduceCombine(B, Kind, Acc, X);
  Value *KeepAcc = Kind == OpKind::ReduceMax ? B.CreateFCmpOGT(Acc, X)
                                             : B.CreateFCmpOLT(Acc, X);
  return B.CreateSelect(KeepAcc, Acc, X);
}

/// The lanes of \p V folded into one (halving: log2(VF) steps).
Value *ReduceEmitter::combineLanes(IRBuilderBase &B, Value *V) const {
  unsigned N = cast<FixedVectorType>(V->getType())->getNumElements();
  while (N > 1) {
    N /= 2;
    SmallVector<int, 32> Lo, Hi;
    for (unsigned I = 0; I < N; ++I) {
      Lo.push_back(I);
      Hi.push_back(I + N);
    }
    V = combineFast(B, B.CreateShuffleVector(V, Lo),
                    B.CreateShuffleVector(V, Hi));
  }
  return B.CreateExtractElement(V, uint64_t(0));
}

/// The input index where output \p OutIdx's window starts.
SmallVector<Value *, 8>
ReduceEmitter::windowBase(IRBuilderBase &B, ArrayRef<Value *> OutIdx) const {
  SmallVector<Value *, 8> Base;
  for (unsigned D = 0; D < Rank; ++D)
    Base.push_back(W.Strides[D] == 1
                       ? OutIdx[D]
                       : B.CreateMul(OutIdx[D], B.getInt64(W.Strides[D])));
  return Base;
}

/// The logical dim along which the input is contiguous: the stride-1 dim
/// of the memory it reads (through fused producers), else the last one.
unsigned ReduceEmitter::contiguousDim() const {
  if (std::optional<StridedView> V = firstMemoryView(In);
      V && V->rank() == Rank)
    for (unsigned D = Rank; D-- > 0;)
      if (V->Strides[D] == 1 && V->Shape[D] > 1)
        return D;
  return Rank - 1;
}

Strategy ReduceEmitter::choose() {
  if (Rank == 0)
    return Strategy::LanesOnOutputs;
  unsigned L = storageOrder(Dst).back();
  unsigned C = contiguousDim();
  bool ContiguousOutputs =
      Dst.Shape[L] >= VF && W.Strides[L] == 1 && L == C;
  if (!ContiguousOutputs && W.Window[C] >= VF) {
    AlongDim = C;
    return Strategy::AlongWindow;
  }
  if (ContiguousOutputs && WindowSize / W.Window[L] >= ByRowsMinWindow)
    return Strategy::ByWindowRows;
  return Strategy::LanesOnOutputs;
}

/// Folds the window starting at \p Base in order: \p Lanes outputs at once
/// along \p LaneDim (the window base moves by that dim's stride per lane).
Value *ReduceEmitter::emitInOrder(IRBuilderBase &B, ArrayRef<Value *> Base,
                                  unsigned Lanes, int LaneDim) {
  Type *LT = getLanesType(CT, Lanes);
  AllocaInst *Acc = slot(B, InOrderAcc, FixedVectorType::get(CT, VF));
  B.CreateStore(identity(Lanes), Acc);
  emitLoopNest(B, W.Window, inOrder(Rank), "tlx.win",
               [&](IRBuilderBase &B, ArrayRef<Value *> WIdx) {
                 SmallVector<Value *, 8> Idx;
                 for (unsigned D = 0; D < Rank; ++D)
                   Idx.push_back(B.CreateAdd(Base[D], WIdx[D]));
                 Value *X = ElementEmitter(B, Values).emit(
                     In, Idx, Lanes, LaneDim,
                     LaneDim >= 0 ? W.Strides[LaneDim] : 0);
                 B.CreateStore(
                     reduceCombine(B, Kind, B.CreateLoad(LT, Acc), X), Acc);
               });
  return B.CreateLoad(LT, Acc);
}

unsigned ReduceEmitter::emitLanesOnOutputs(IRBuilderBase &B,
                                           LoopSharer Share) {
  return emitWriteLoop(
      B, Dst, ElementCount::getFixed(VF),
      [&](IRBuilderBase &B, ArrayRef<Value *> Idx, unsigned Lanes,
          int LaneDim) {
        return emitInOrder(B, windowBase(B, Idx), Lanes, LaneDim);
      },
      /*RowBlock=*/1, Share);
}

/// One output of the along-window walk, its window starting at \p Base.
Value *ReduceEmitter::emitAlongWindowOne(IRBuilderBase &B,
                                         ArrayRef<Value *> Base) {
  unsigned D = AlongDim;
  int64_t Ext = W.Window[D];
  unsigned U = std::min<int64_t>(AlongWindowAccumulators, Ext / VF);
  auto *VT = FixedVectorType::get(CT, VF);
  SmallVector<AllocaInst *, 4> Accs;
  for (unsigned I = 0; I < U; ++I) {
    Accs.push_back(slot(B, FirstAcc + I, VT));
    B.CreateStore(identity(VF), Accs.back());
  }
  // Float max/min: NaNs in the window show in a sum of X * 0 (NaN for a
  // NaN or an infinity, else a zero) - one FMA per vector, where a compare
  // and a mask OR took two ops (row max of 2048x2048 f32 on Zen 5: 86 ->
  // 110 GB/s, the plain C loop's speed). An infinity redoes the output in
  // order too, needlessly but exactly. One sum per accumulator: a single
  // one would chain the FMAs' latency (full max: 62 GB/s).
  SmallVector<AllocaInst *, 4> NaNSums;
  if (isFloatMaxMin())
    for (unsigned I = 0; I < U; ++I) {
      NaNSums.push_back(slot(B, FirstNaNSum + I, VT));
      B.CreateStore(Constant::getNullValue(VT), NaNSums.back());
    }
  auto Fold = [&](IRBuilderBase &B, Value *X, unsigned I) {
    B.CreateStore(combineFast(B, B.CreateLoad(VT, Accs[I]), X), Accs[I]);
    if (!NaNSums.empty())
      B.CreateStore(B.CreateIntrinsic(Intrinsic::fmuladd, {VT},
                                      {X, Constant::getNullValue(VT),
                                       B.CreateLoad(VT, NaNSums[I])}),
                    NaNSums[I]);
  };
  Dims Outer(W.Window.begin(), W.Window.end());
  Outer[D] = 1;
  int64_t Step = int64_t(VF) * U, MainEnd = Ext - Ext % Step,
          VecEnd = Ext - Ext % VF;
  emitLoopNest(B, Outer, inOrder(Rank), "tlx.win",
               [&](IRBuilderBase &B, ArrayRef<Value *> WIdx) {
    SmallVector<Value *, 8> Idx;
    for (unsigned I = 0; I < Rank; ++I)
      Idx.push_back(B.CreateAdd(Base[I], WIdx[I]));
    Value *RunStart = Idx[D];
    auto Read = [&](IRBuilderBase &B, Value *Offset, unsigned Lanes) {
      Idx[D] = B.CreateAdd(RunStart, Offset);
      return ElementEmitter(B, Values).emit(In, Idx, Lanes, D, 1);
    };
    auto MainStep = [&](IRBuilderBase &B, Value *J) {
      for (unsigned I = 0; I < U; ++I)
        Fold(B, Read(B, B.CreateAdd(J, B.getInt64(I * VF)), VF), I);
    };
    if (MainEnd == Step)
      MainStep(B, B.getInt64(0));
    else
      emitCountedLoop(B, 0, MainEnd, Step, "tlx.win.vec", MainStep);
    for (int64_t J = MainEnd; J < VecEnd; J += VF)
      Fold(B, Read(B, B.getInt64(J), VF), (J - MainEnd) / VF);
    // The last elements, each as lane 0 of an otherwise neutral vector.
    auto TailStep = [&](IRBuilderBase &B, Value *J) {
      Fold(B, B.CreateInsertElement(identity(VF), Read(B, J, 1), uint64_t(0)),
           0);
    };
    if (Ext - VecEnd == 1)
      TailStep(B, B.getInt64(VecEnd));
    else if (VecEnd < Ext)
      emitCountedLoop(B, VecEnd, Ext, 1, "tlx.win.tail", TailStep);
  });
  Value *V = B.CreateLoad(VT, Accs[0]);
  for (unsigned I = 1; I < U; ++I)
    V = combineFast(B, V, B.CreateLoad(VT, Accs[I]));
  Value *R = combineLanes(B, V);
  if (NaNSums.empty())
    return R;
  Value *NaNSum = B.CreateLoad(VT, NaNSums[0]);
  for (unsigned I = 1; I < U; ++I)
    NaNSum = B.CreateFAdd(NaNSum, B.CreateLoad(VT, NaNSums[I]));
  // A NaN's payload and the sign of a zero result depend on the order:
  // such an output folds its window again, in order.
  Value *Redo = B.CreateOr(B.CreateOrReduce(B.CreateFCmpUNO(NaNSum, NaNSum)),
                           B.CreateFCmpOEQ(R, ConstantFP::getZero(CT)));
  AllocaInst *Res = slot(B, Result, CT);
  B.CreateStore(R, Res);
  emitIfThen(B, Redo, "tlx.win.inorder", [&](IRBuilderBase &B) {
    B.CreateStore(emitInOrder(B, Base, 1, -1), Res);
  });
  return B.CreateLoad(CT, Res);
}

/// Outputs First .. First+N-1 along the lane dim of the output row \p Idx,
/// by window rows through a block of accumulators.
void ReduceEmitter::emitRowBlock(IRBuilderBase &B,
                                 SmallVectorImpl<Value *> &Idx, Value *First,
                                 int64_t N) {
  unsigned L = storageOrder(Dst).back();
  int64_t Capacity = ByRowsBlockBytes / CT->getPrimitiveSizeInBits() * 8;
  AllocaInst *Acc = slot(B, RowBlock, ArrayType::get(CT, Capacity));
  Align ElemAlign(CT->getPrimitiveSizeInBits() / 8);
  auto ForLanes = [&](IRBuilderBase &B,
                      function_ref<void(IRBuilderBase &, Value *, unsigned)>
                          Body) { emitLaneLoops(B, N, VF, "tlx.red", Body); };
  auto AccAt = [&](IRBuilderBase &B, Value *J) {
    return B.CreateInBoundsGEP(CT, Acc, J);
  };
  ForLanes(B, [&](IRBuilderBase &B, Value *J, unsigned Lanes) {
    B.CreateAlignedStore(identity(Lanes), AccAt(B, J), ElemAlign);
  });
  SmallVector<Value *, 8> Base = windowBase(B, Idx);
  emitLoopNest(B, W.Window, inOrder(Rank), "tlx.win",
               [&](IRBuilderBase &B, ArrayRef<Value *> WIdx) {
    SmallVector<Value *, 8> InIdx;
    for (unsigned D = 0; D < Rank; ++D)
      InIdx.push_back(B.CreateAdd(Base[D], WIdx[D]));
    Value *RowStart = B.CreateAdd(First, WIdx[L]);
    ForLanes(B, [&](IRBuilderBase &B, Value *J, unsigned Lanes) {
      InIdx[L] = B.CreateAdd(RowStart, J);
      Value *X = ElementEmitter(B, Values).emit(In, InIdx, Lanes, L, 1);
      Value *P = AccAt(B, J);
      Type *LT = getLanesType(CT, Lanes);
      B.CreateAlignedStore(
          reduceCombine(B, Kind, B.CreateAlignedLoad(LT, P, ElemAlign), X), P,
          ElemAlign);
    });
  });
  ForLanes(B, [&](IRBuilderBase &B, Value *J, unsigned Lanes) {
    Idx[L] = B.CreateAdd(First, J);
    Value *V = B.CreateAlignedLoad(getLanesType(CT, Lanes), AccAt(B, J),
                                   ElemAlign);
    emitStoreLanes(B, V, emitAddress(B, Dst, Idx), Dst.Elem, Dst.Strides[L]);
  });
}

void ReduceEmitter::emitByWindowRows(IRBuilderBase &B, LoopSharer Share) {
  SmallVector<unsigned, 8> Order = storageOrder(Dst);
  unsigned L = Order.back();
  int64_t Ext = Dst.Shape[L];
  int64_t Capacity = ByRowsBlockBytes / CT->getPrimitiveSizeInBits() * 8;
  int64_t Block = std::min(Ext, Capacity - Capacity % VF);
  int64_t Full = Ext - Ext % Block;
  SmallVector<unsigned, 8> Outer(Order.begin(), Order.end() - 1);
  erase_if(Outer, [&](unsigned D) { return Dst.Shape[D] == 1; });
  auto Row = [&](IRBuilderBase &B, ArrayRef<Value *> OuterIdx) {
    SmallVector<Value *, 8> Idx(OuterIdx);
    auto FullBlock = [&](IRBuilderBase &B, Value *First) {
      emitRowBlock(B, Idx, First, Block);
    };
    if (Full == Block)
      FullBlock(B, B.getInt64(0));
    else
      emitCountedLoop(B, 0, Full, Block, "tlx.red.blk", FullBlock);
    if (Full < Ext)
      emitRowBlock(B, Idx, B.getInt64(Full), Ext - Full);
  };
  emitSharedLoopNest(B, Dst.Shape, Outer, "tlx.el", Row, Share);
}

void ReduceEmitter::emit(IRBuilderBase &B, LoopSharer Share) {
  std::string How;
  switch (choose()) {
  case Strategy::LanesOnOutputs:
    How = std::to_string(emitLanesOnOutputs(B, Share)) +
          " outputs per vector";
    break;
  case Strategy::AlongWindow: {
    emitWriteLoop(
        B, Dst, ElementCount::getFixed(1),
        [&](IRBuilderBase &B, ArrayRef<Value *> Idx, unsigned, int) {
          return emitAlongWindowOne(B, windowBase(B, Idx));
        },
        /*RowBlock=*/1, Share);
    unsigned U = std::min<int64_t>(AlongWindowAccumulators,
                                   W.Window[AlongDim] / VF);
    How = "vectorized along the window (logical dim " +
          std::to_string(AlongDim) + "): " + std::to_string(VF) +
          " lanes x " + std::to_string(U) +
          (U == 1 ? " accumulator" : " accumulators") + " per output";
    break;
  }
  case Strategy::ByWindowRows:
    emitByWindowRows(B, Share);
    How = "folded a window row at a time into blocks of outputs, " +
          std::to_string(VF) + " per vector";
    break;
  }
  emitRemark(DEBUG_TYPE, "Reduce", Op,
             getOpDesc(Kind).shortName() + ": " + formatShape(Dst.Shape) + " " +
                 elementTypeName(Dst.Elem) + " outputs, window of " +
                 Twine(WindowSize) + " elements, " + How);
}

} // namespace

void emitReduceWindow(IRBuilderBase &B, TensorValues &Values,
                      const TargetTransformInfo &TTI, const CallBase &Op,
                      const StridedView &Dst, LoopSharer Share) {
  ReduceEmitter(Values, TTI, Op, Dst).emit(B, Share);
}

} // namespace tlx
