//===- IndexMap.cpp - Tensors as functions of their logical index ---------===//

#include "Codegen/IndexMap.h"
#include "Codegen/ReduceWindow.h"

#include "Analysis/TensorMemory.h"
#include "IR/ShapeInference.h"
#include "IR/TLXOps.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

#include <functional>

using namespace llvm;

namespace tlx {

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

Buffer emitAllocBuffer(IRBuilderBase &B, Type *Elem, int64_t NumElems,
                       const Twine &Name) {
  Function *F = B.GetInsertBlock()->getParent();
  const DataLayout &DL = F->getParent()->getDataLayout();
  Buffer Buf;
  Buf.Bytes = NumElems * (int64_t)DL.getTypeAllocSize(Elem);
  if (Buf.Bytes <= MaxStackBufferBytes) {
    IRBuilder<> EB(&F->getEntryBlock(), F->getEntryBlock().begin());
    auto *AI = EB.CreateAlloca(ArrayType::get(Elem, NumElems), nullptr, Name);
    AI->setAlignment(Align(64));
    Buf.Ptr = AI;
    return Buf;
  }
  Buffer Heap = emitAllocBuffer(B, Elem, B.getInt64(Buf.Bytes), Name);
  Heap.Bytes = Buf.Bytes;
  return Heap;
}

FunctionCallee getAllocatorFunction(Module &M, StringRef Name,
                                    FunctionType *Ty) {
  FunctionCallee Alloc = M.getOrInsertFunction(Name, Ty);
  // What LLVM's library-call inference says about malloc, so alias
  // analysis knows the call touches no tensor memory (also at -O0).
  if (auto *Fn = dyn_cast<Function>(Alloc.getCallee())) {
    Fn->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
    Fn->setDoesNotThrow();
    Fn->addRetAttr(Attribute::NoAlias);
  }
  return Alloc;
}

/// What LLVM's memory builtins need to treat tlxrt_temp_alloc and
/// tlxrt_temp_free as a pair, as malloc and free (an unused buffer is
/// deleted with its free).
static constexpr const char TempAllocFamily[] = "tlxrt_temp";

CallInst *emitTempAlloc(IRBuilderBase &B, Value *Bytes, const Twine &Name) {
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Alloc = getAllocatorFunction(
      M, TempAllocFunction,
      FunctionType::get(B.getPtrTy(), {B.getInt64Ty()}, false));
  if (auto *Fn = dyn_cast<Function>(Alloc.getCallee());
      Fn && !Fn->hasFnAttribute(Attribute::AllocKind)) {
    LLVMContext &Ctx = M.getContext();
    Fn->addFnAttr(Attribute::get(
        Ctx, Attribute::AllocKind,
        uint64_t(AllocFnKind::Alloc | AllocFnKind::Uninitialized)));
    Fn->addFnAttr(Attribute::getWithAllocSizeArgs(Ctx, 0, std::nullopt));
    Fn->addFnAttr("alloc-family", TempAllocFamily);
  }
  CallInst *Call = B.CreateCall(Alloc, {Bytes}, Name);
  Call->addRetAttr(
      Attribute::getWithAlignment(B.getContext(), Align(TempBufferAlign)));
  return Call;
}

Buffer emitAllocBuffer(IRBuilderBase &B, Type *Elem, Value *Bytes,
                       const Twine &Name) {
  Buffer Buf;
  Buf.Ptr = emitTempAlloc(B, Bytes, Name);
  Buf.IsHeap = true;
  Buf.Bytes = -1;
  return Buf;
}

void emitConstantStore(IRBuilderBase &B, Value *Ptr, Align PtrAlign,
                       Constant *C, const TargetTransformInfo &TTI) {
  Function &F = *B.GetInsertBlock()->getParent();
  const DataLayout &DL = F.getDataLayout();
  auto *VT = cast<FixedVectorType>(C->getType());
  uint64_t Size = DL.getTypeStoreSize(VT);
  if (Value *Byte = isBytewiseValue(C, DL)) {
    B.CreateMemSet(Ptr, Byte, Size, PtrAlign);
    return;
  }
  if (Constant *S = C->getSplatValue()) {
    StridedView View;
    View.Ptr = Ptr;
    View.Elem = VT->getElementType();
    View.Shape = {VT->getNumElements()};
    View.Strides = {1};
    Value *Lane = convertToCompute(B, S);
    emitWriteLoop(B, View, getElementwiseWidth(TTI, F, View.Elem),
                  [&](IRBuilderBase &LB, ArrayRef<Value *>, unsigned Lanes,
                      int) -> Value * {
                    return Lanes == 1 ? Lane
                                      : LB.CreateVectorSplat(Lanes, Lane);
                  });
    return;
  }
  B.CreateMemCpy(Ptr, PtrAlign, createConstantGlobal(*F.getParent(), C),
                 DL.getPrefTypeAlign(VT), Size);
}

GlobalVariable *createConstantGlobal(Module &M, Constant *C) {
  auto *GV = new GlobalVariable(M, C->getType(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, C, "tlx.const");
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return GV;
}

void freeAtReturns(Function &F, Value *Ptr) {
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      IRBuilder<> RB(Ret);
      emitFree(RB, Ptr);
    }
}

void emitFree(IRBuilderBase &B, Value *Ptr) {
  Module &M = *B.GetInsertBlock()->getModule();
  LLVMContext &Ctx = M.getContext();
  FunctionCallee Free = M.getOrInsertFunction(
      TempFreeFunction, Type::getVoidTy(Ctx), PointerType::getUnqual(Ctx));
  if (auto *FF = dyn_cast<Function>(Free.getCallee());
      FF && !FF->hasFnAttribute(Attribute::AllocKind)) {
    FF->setMemoryEffects(MemoryEffects::inaccessibleOrArgMemOnly());
    FF->setDoesNotThrow();
    FF->addFnAttr(
        Attribute::get(Ctx, Attribute::AllocKind, uint64_t(AllocFnKind::Free)));
    FF->addFnAttr("alloc-family", TempAllocFamily);
    FF->addParamAttr(0, Attribute::AllocatedPointer);
  }
  B.CreateCall(Free, {Ptr});
}

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

Type *getComputeType(Type *Elem) {
  if (Elem->isHalfTy() || Elem->isBFloatTy())
    return Type::getFloatTy(Elem->getContext());
  return Elem;
}

Type *getLanesType(Type *Scalar, unsigned VF) {
  return VF == 1 ? Scalar : FixedVectorType::get(Scalar, VF);
}

Value *convertToCompute(IRBuilderBase &B, Value *V) {
  Type *S = V->getType()->getScalarType();
  if (!S->isHalfTy() && !S->isBFloatTy())
    return V;
  Type *F32 = B.getFloatTy();
  if (S->isHalfTy())
    return B.CreateFPExt(V, V->getType()->getWithNewType(F32));
  // bf16 -> f32 is exact: the bf16 bits are the high half of the f32.
  Type *I16 = V->getType()->getWithNewType(B.getInt16Ty());
  Type *I32 = V->getType()->getWithNewType(B.getInt32Ty());
  Value *Bits = B.CreateZExt(B.CreateBitCast(V, I16), I32);
  Bits = B.CreateShl(Bits, ConstantInt::get(I32, 16));
  return B.CreateBitCast(Bits, V->getType()->getWithNewType(F32));
}

Value *convertFromCompute(IRBuilderBase &B, Value *V, Type *Elem) {
  if (Elem->isHalfTy())
    return B.CreateFPTrunc(V, V->getType()->getWithNewType(Elem));
  if (!Elem->isBFloatTy())
    return V;
  // f32 -> bf16, round to nearest even; NaN stays a (quiet) NaN.
  Type *I32 = V->getType()->getWithNewType(B.getInt32Ty());
  Type *I16 = V->getType()->getWithNewType(B.getInt16Ty());
  Value *Bits = B.CreateBitCast(V, I32);
  Value *Lsb = B.CreateAnd(B.CreateLShr(Bits, ConstantInt::get(I32, 16)),
                           ConstantInt::get(I32, 1));
  Value *Rounded =
      B.CreateAdd(Bits, B.CreateAdd(Lsb, ConstantInt::get(I32, 0x7fff)));
  Value *IsNaN = B.CreateFCmpUNO(V, V);
  Value *Quiet = B.CreateOr(Bits, ConstantInt::get(I32, 0x400000));
  Value *Res = B.CreateSelect(IsNaN, Quiet, Rounded);
  Res = B.CreateTrunc(B.CreateLShr(Res, ConstantInt::get(I32, 16)), I16);
  return B.CreateBitCast(Res, V->getType()->getWithNewType(Elem));
}

Value *emitLoadLanes(IRBuilderBase &B, Value *Ptr, Type *Elem, unsigned VF,
                     int64_t ElemStride) {
  Align A =
      B.GetInsertBlock()->getModule()->getDataLayout().getABITypeAlign(Elem);
  if (VF == 1)
    return convertToCompute(B, B.CreateAlignedLoad(Elem, Ptr, A));
  if (ElemStride == 0)
    return B.CreateVectorSplat(
        VF, convertToCompute(B, B.CreateAlignedLoad(Elem, Ptr, A)));
  Type *VecTy = FixedVectorType::get(Elem, VF);
  if (ElemStride == 1)
    return convertToCompute(B, B.CreateAlignedLoad(VecTy, Ptr, A));
  Value *Vec = PoisonValue::get(VecTy);
  for (unsigned L = 0; L < VF; ++L) {
    Value *P = B.CreateInBoundsGEP(Elem, Ptr, B.getInt64(L * ElemStride));
    Vec = B.CreateInsertElement(Vec, B.CreateAlignedLoad(Elem, P, A), L);
  }
  return convertToCompute(B, Vec);
}

Value *emitViewLanes(IRBuilderBase &B, const StridedView &View,
                     ArrayRef<Value *> Idx, unsigned VF, int LaneDim,
                     int64_t LaneStep) {
  int64_t ElemStride = 0;
  if (LaneDim >= 0 && View.Shape[LaneDim] != 1)
    ElemStride = LaneStep * View.Strides[LaneDim];
  return emitLoadLanes(B, emitAddress(B, View, Idx), View.Elem, VF, ElemStride);
}

void emitStoreLanes(IRBuilderBase &B, Value *V, Value *Ptr, Type *Elem,
                    int64_t ElemStride) {
  Align A =
      B.GetInsertBlock()->getModule()->getDataLayout().getABITypeAlign(Elem);
  V = convertFromCompute(B, V, Elem);
  auto *VT = dyn_cast<FixedVectorType>(V->getType());
  if (!VT) {
    B.CreateAlignedStore(V, Ptr, A);
    return;
  }
  if (ElemStride == 1) {
    B.CreateAlignedStore(V, Ptr, A);
    return;
  }
  for (unsigned L = 0; L < VT->getNumElements(); ++L) {
    Value *P = B.CreateInBoundsGEP(Elem, Ptr, B.getInt64(L * ElemStride));
    B.CreateAlignedStore(B.CreateExtractElement(V, L), P, A);
  }
}

Value *emitAddress(IRBuilderBase &B, const StridedView &View,
                   ArrayRef<Value *> Idx) {
  Value *Off = nullptr;
  for (unsigned D = 0; D < View.rank(); ++D) {
    if (View.Strides[D] == 0 || View.Shape[D] == 1)
      continue;
    if (auto *C = dyn_cast<ConstantInt>(Idx[D]); C && C->isZero())
      continue;
    Value *Term = View.Strides[D] == 1
                      ? Idx[D]
                      : B.CreateMul(Idx[D], B.getInt64(View.Strides[D]));
    Off = Off ? B.CreateAdd(Off, Term) : Term;
  }
  if (!Off)
    return View.Ptr;
  return B.CreateInBoundsGEP(View.Elem, View.Ptr, Off);
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

/// Splits \p B's block at its insertion point (nothing to split when the
/// block is still being built) and returns the block that continues it.
static BasicBlock *splitAtInsertPoint(IRBuilderBase &B, const Twine &Name) {
  BasicBlock *Pre = B.GetInsertBlock();
  if (B.GetInsertPoint() == Pre->end())
    return BasicBlock::Create(Pre->getContext(), Name, Pre->getParent(),
                              Pre->getNextNode());
  BasicBlock *Rest = Pre->splitBasicBlock(B.GetInsertPoint(), Name);
  Pre->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Pre);
  return Rest;
}

/// Continues \p B at the start of \p BB.
static void continueAt(IRBuilderBase &B, BasicBlock *BB) {
  if (BB->empty())
    B.SetInsertPoint(BB);
  else
    B.SetInsertPoint(BB, BB->begin());
}

void emitCountedLoop(IRBuilderBase &B, int64_t Begin, int64_t End, int64_t Step,
                     const Twine &Name, LoopBodyFn Body, LoopHint Hint) {
  assert(Begin < End && "empty loop");
  emitCountedLoop(B, B.getInt64(Begin), B.getInt64(End), Step, Name, Body,
                  Hint);
}

void emitCountedLoop(IRBuilderBase &B, Value *Begin, Value *End, int64_t Step,
                     const Twine &Name, LoopBodyFn Body, LoopHint Hint) {
  BasicBlock *Exit = splitAtInsertPoint(B, Name + ".exit");
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Body0 =
      BasicBlock::Create(B.getContext(), Name + ".body", Exit->getParent(), Exit);
  B.CreateBr(Body0);

  B.SetInsertPoint(Body0);
  PHINode *IV = B.CreatePHI(B.getInt64Ty(), 2, Name + ".iv");
  IV->addIncoming(Begin, Pre);
  Body(B, IV);
  Value *Next = B.CreateAdd(IV, B.getInt64(Step), Name + ".next", true, true);
  Value *Cond = B.CreateICmpSLT(Next, End);
  setLoopHint(*B.CreateCondBr(Cond, Body0, Exit), Hint);
  IV->addIncoming(Next, B.GetInsertBlock());
  continueAt(B, Exit);
}

void emitIfThen(IRBuilderBase &B, Value *Cond, const Twine &Name,
                function_ref<void(IRBuilderBase &)> Then) {
  BasicBlock *Cont = splitAtInsertPoint(B, Name + ".end");
  BasicBlock *ThenBB = BasicBlock::Create(B.getContext(), Name + ".then",
                                          Cont->getParent(), Cont);
  B.CreateCondBr(Cond, ThenBB, Cont);
  B.SetInsertPoint(ThenBB);
  Then(B);
  B.CreateBr(Cont);
  continueAt(B, Cont);
}

void emitLaneLoops(
    IRBuilderBase &B, int64_t Ext, unsigned VF, const Twine &Name,
    function_ref<void(IRBuilderBase &, Value *, unsigned)> Body,
    LoopHint VecHint) {
  int64_t Main = Ext - Ext % VF;
  std::string Base = Name.str();
  auto Vec = [&](IRBuilderBase &B, Value *IV) { Body(B, IV, VF); };
  if (Main == VF)
    Vec(B, B.getInt64(0));
  else if (Main > 0)
    emitCountedLoop(B, 0, Main, VF, Base + ".vec", Vec, VecHint);
  auto One = [&](IRBuilderBase &B, Value *IV) { Body(B, IV, 1); };
  if (Ext - Main == 1)
    One(B, B.getInt64(Main));
  else if (Main < Ext)
    emitCountedLoop(B, Main, Ext, 1, Base + ".tail", One);
}

SmallVector<unsigned, 8> inOrder(unsigned N) {
  SmallVector<unsigned, 8> Order(N);
  for (unsigned D = 0; D < N; ++D)
    Order[D] = D;
  return Order;
}

void emitLoopNest(IRBuilderBase &B, ArrayRef<int64_t> Shape,
                  ArrayRef<unsigned> Order, const Twine &Name,
                  function_ref<void(IRBuilderBase &, ArrayRef<Value *>)> Body,
                  const LoopRange *Outermost) {
  SmallVector<Value *, 8> Idx(Shape.size(), B.getInt64(0));
  std::string Base = Name.str();
  std::function<void(unsigned)> Rec = [&](unsigned Level) {
    if (Level == Order.size()) {
      Body(B, Idx);
      return;
    }
    unsigned D = Order[Level];
    if (Level == 0 && Outermost) {
      emitCountedLoop(B, Outermost->Begin, Outermost->End, 1,
                      Base + ".d" + Twine(D), [&](IRBuilderBase &, Value *IV) {
                        Idx[D] = IV;
                        Rec(Level + 1);
                      });
      return;
    }
    if (Shape[D] == 1) {
      Idx[D] = B.getInt64(0);
      Rec(Level + 1);
      return;
    }
    emitCountedLoop(B, 0, Shape[D], 1, Base + ".d" + Twine(D),
                    [&](IRBuilderBase &, Value *IV) {
                      Idx[D] = IV;
                      Rec(Level + 1);
                    });
  };
  Rec(0);
}

unsigned getVectorWidth(const TargetTransformInfo &TTI, Type *Elem) {
  unsigned Bits =
      TTI.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector)
          .getFixedValue();
  if (Bits < 128)
    Bits = 128;
  unsigned EB = getComputeType(Elem)->getPrimitiveSizeInBits();
  unsigned VF = Bits / EB;
  return std::max(1u, std::min(VF, 32u));
}

bool leavesLanesToLoopVectorizer(const TargetTransformInfo &TTI,
                                 const Function &F) {
  // (RISC-V's TTI enables scalable vectorization exactly when V is there.)
  return Triple(F.getParent()->getTargetTriple()).isRISCV() &&
         TTI.enableScalableVectorization();
}

ElementCount getElementwiseWidth(const TargetTransformInfo &TTI,
                                 const Function &F, Type *Elem) {
  if (!leavesLanesToLoopVectorizer(TTI, F))
    return ElementCount::getFixed(getVectorWidth(TTI, Elem));
  // The register budget: with LMUL 4 an element-wise chain has 7 groups of
  // registers besides v0's (LMUL 8: 3, and an exp spills), and LLVM 19's
  // tail folding takes one of them for a vector of 64-bit lane indices.
  unsigned Bits =
      TTI.getRegisterBitWidth(TargetTransformInfo::RGK_ScalableVector)
          .getKnownMinValue();
  unsigned EB = getComputeType(Elem)->getPrimitiveSizeInBits();
  return ElementCount::getScalable(std::max(1u, 2 * Bits / EB));
}

SmallVector<unsigned, 8> storageOrder(const StridedView &Dst) {
  SmallVector<unsigned, 8> Order = inOrder(Dst.rank());
  llvm::stable_sort(Order, [&](unsigned X, unsigned Y) {
    if (Dst.Shape[X] == 1 || Dst.Shape[Y] == 1)
      return Dst.Shape[X] == 1 && Dst.Shape[Y] != 1;
    return Dst.Strides[X] > Dst.Strides[Y];
  });
  return Order;
}

unsigned emitWriteLoop(IRBuilderBase &B, const StridedView &Dst,
                       ElementCount Lanes, ElementFn Elements, int64_t RowBlock,
                       LoopSharer Share) {
  LoopHint LaneHint;
  unsigned VF = Lanes.getKnownMinValue();
  if (Lanes.isScalable()) {
    LaneHint = LoopHint::scalable(VF);
    VF = 1;
  }
  unsigned Rank = Dst.rank();
  if (Rank == 0) {
    emitStoreLanes(B, Elements(B, {}, 1, -1), Dst.Ptr, Dst.Elem, 0);
    return 1;
  }
  SmallVector<unsigned, 8> Order = storageOrder(Dst);
  unsigned LaneDim = Order.back();
  int64_t Ext = Dst.Shape[LaneDim];
  while (VF > 1 && VF > Ext)
    VF /= 2;
  SmallVector<unsigned, 8> Outer(Order.begin(), Order.end() - 1);
  // Extent-1 dims need no loop (their index is 0), and the outermost loop
  // must be one that can be shared out.
  erase_if(Outer, [&](unsigned D) { return Dst.Shape[D] == 1; });
  // Row blocking: the next-outer dim is walked in blocks of T rows inside
  // the lane loop, so lanes gathered from far apart (a transposing read)
  // reuse each cache line T times. T divides the dim: no remainder rows.
  int BlockDim = -1;
  int64_t T = 1;
  if (RowBlock > 1 && !Lanes.isScalable() && !Outer.empty() &&
      Dst.Shape[Outer.back()] > 1) {
    int64_t E = Dst.Shape[Outer.back()];
    for (T = RowBlock; T > 1 && E % T; T /= 2)
      ;
    if (T > 1) {
      BlockDim = Outer.back();
      Outer.pop_back();
    }
  }
  auto Rows = [&](IRBuilderBase &B, ArrayRef<Value *> OuterIdx) {
    SmallVector<Value *, 8> Idx(OuterIdx);
    Value *RowBase = nullptr;
    auto EmitRow = [&](unsigned Lanes, Value *IV) {
      Idx[LaneDim] = IV;
      Value *V = Elements(B, Idx, Lanes, LaneDim);
      emitStoreLanes(B, V, emitAddress(B, Dst, Idx), Dst.Elem,
                     Dst.Strides[LaneDim]);
    };
    auto EmitLanes = [&](unsigned Lanes, Value *IV) {
      if (BlockDim < 0)
        return EmitRow(Lanes, IV);
      emitCountedLoop(B, 0, T, 1, "tlx.row",
                      [&](IRBuilderBase &B, Value *Row) {
                        Idx[BlockDim] = B.CreateAdd(RowBase, Row);
                        EmitRow(Lanes, IV);
                      });
    };
    auto EmitLaneLoops = [&]() {
      emitLaneLoops(
          B, Ext, VF, "tlx",
          [&](IRBuilderBase &, Value *IV, unsigned Lanes) {
            EmitLanes(Lanes, IV);
          },
          LaneHint);
    };
    if (BlockDim < 0)
      return EmitLaneLoops();
    emitCountedLoop(B, 0, Dst.Shape[BlockDim], T, "tlx.blk",
                    [&](IRBuilderBase &, Value *Blk) {
                      RowBase = Blk;
                      EmitLaneLoops();
                    });
  };
  emitSharedLoopNest(B, Dst.Shape, Outer, "tlx.el", Rows, Share);
  return VF;
}

void emitSharedLoopNest(
    IRBuilderBase &B, ArrayRef<int64_t> Shape, ArrayRef<unsigned> Order,
    const Twine &Name,
    function_ref<void(IRBuilderBase &, ArrayRef<Value *>)> Body,
    LoopSharer Share) {
  if (!Share || Order.empty() || Shape[Order.front()] < 2)
    return emitLoopNest(B, Shape, Order, Name, Body);
  std::string N = Name.str();
  Share(B, Shape[Order.front()],
        [&](IRBuilderBase &B, const LoopRange &Range) {
          emitLoopNest(B, Shape, Order, N, Body, &Range);
        });
}

std::optional<StridedView> firstMemoryView(const Value *Tok) {
  if (std::optional<StridedView> V = getMemoryView(Tok))
    return V;
  std::optional<TensorValue> TV = getTensorValue(Tok);
  const auto *Op = TV ? dyn_cast<CallBase>(TV->Data) : nullptr;
  if (!Op || !getOpKind(*Op))
    return std::nullopt;
  for (const Value *Arg : Op->args())
    if (Arg->getType()->isTokenTy())
      if (std::optional<StridedView> V = firstMemoryView(Arg))
        return V;
  return std::nullopt;
}

/// Whether reading \p Src along \p Dst's lane dim gathers: a memory
/// operand of the same rank is not contiguous along that dim (a heuristic
/// for row blocking; index maps that move dims are not followed).
static bool gathersAlongLanes(const Value *Src, const StridedView &Dst) {
  if (Dst.rank() < 2)
    return false;
  unsigned LaneDim = storageOrder(Dst).back();
  std::optional<StridedView> V = firstMemoryView(Src);
  return V && V->rank() == Dst.rank() && V->Shape[LaneDim] > 1 &&
         V->Strides[LaneDim] != 1;
}

unsigned emitMaterialize(IRBuilderBase &B, TensorValues &Values,
                         const Value *Src, const StridedView &Dst,
                         ElementCount Lanes, LoopSharer Share) {
  return emitWriteLoop(
      B, Dst, Lanes,
      [&](IRBuilderBase &B, ArrayRef<Value *> Idx, unsigned Lanes,
          int LaneDim) {
        ElementEmitter EE(B, Values);
        return EE.emit(Src, Idx, Lanes, LaneDim);
      },
      gathersAlongLanes(Src, Dst) ? 8 : 1, Share);
}

//===----------------------------------------------------------------------===//
// Op classes
//===----------------------------------------------------------------------===//

bool isElementwise(OpKind Kind) {
  return isUnaryElementwise(Kind) || getInstructionOpcode(Kind).has_value();
}

bool isContraction(OpKind Kind) {
  switch (Kind) {
  case OpKind::MatMul:
  case OpKind::Contract:
  case OpKind::UMMA:
  case OpKind::SMMA:
  case OpKind::USMMA:
  case OpKind::SUMMA:
  case OpKind::Convolution:
    return true;
  default:
    return false;
  }
}

bool isFusibleProducer(OpKind Kind) {
  switch (Kind) {
  case OpKind::Broadcast:
  case OpKind::Transpose:
  case OpKind::ReshapeBlock:
  case OpKind::ReshapePermute:
  case OpKind::Pad:
  case OpKind::Concat:
    return true;
  default:
    return isElementwise(Kind);
  }
}

bool readsShapeOnly(const Use &U) {
  auto *CB = dyn_cast<CallBase>(U.getUser());
  return CB && getOpKind(*CB) == OpKind::Broadcast && CB->arg_size() == 2 &&
         U.getOperandNo() == 0;
}

bool isFusibleConsumer(OpKind Kind) {
  if (isReduce(Kind))
    return true;
  switch (Kind) {
  case OpKind::ToVector:
    return true;
  default:
    return isFusibleProducer(Kind);
  }
}

//===----------------------------------------------------------------------===//
// ElementEmitter
//===----------------------------------------------------------------------===//

static Value *splatIfNeeded(IRBuilderBase &B, Value *V, unsigned VF) {
  if (VF == 1 || V->getType()->isVectorTy())
    return V;
  return B.CreateVectorSplat(VF, V);
}

Value *ElementEmitter::emit(const Value *Token, ArrayRef<Value *> Idx,
                            unsigned VF, int LaneDim, int64_t LaneStep) {
  if (LaneDim < 0)
    LaneStep = 0;
  if (auto It = Leaves.find(Token); It != Leaves.end())
    return It->second(B, Idx, VF, LaneDim);
  if (const RuntimeTokenExtents *RT = runtimeOf(Token))
    return emitRuntimeLoad(*RT->View, Idx, VF, LaneDim, LaneStep);
  const TokenInfo *Info = Values.get(Token);
  assert(Info && "token of an unknown tensor");
  if (const std::optional<StridedView> &View = Info->Memory)
    return emitViewLanes(B, *View, Idx, VF, LaneDim, LaneStep);
  assert(Info->Op && getOpKind(*Info->Op) &&
         (isFusibleProducer(Info->Kind) || runtimeOf(Info->Op)) &&
         "vector tensor that bufferization did not place in memory");
  return emitOp(*Info, Idx, VF, LaneDim, LaneStep);
}

Value *ElementEmitter::emitPerLane(const TokenInfo &Info,
                                   ArrayRef<Value *> Idx, unsigned VF,
                                   int LaneDim, int64_t LaneStep) {
  if (VF == 1 || LaneDim < 0 || LaneStep == 0)
    return splatIfNeeded(B, emitOp(Info, Idx, 1, -1, 0), VF);
  Value *Vec = nullptr;
  SmallVector<Value *, 8> LaneIdx(Idx);
  for (unsigned L = 0; L < VF; ++L) {
    LaneIdx[LaneDim] = B.CreateAdd(Idx[LaneDim], B.getInt64(L * LaneStep));
    Value *S = emitOp(Info, LaneIdx, 1, -1, 0);
    if (!Vec)
      Vec = PoisonValue::get(FixedVectorType::get(S->getType(), VF));
    Vec = B.CreateInsertElement(Vec, S, L);
  }
  return Vec;
}

/// exp(x) for float lanes in vector instructions (llvm.exp would become one
/// libm call per lane): x = n ln2 + r with ln2 split in two parts (exact
/// n ln2_hi), a degree-6 polynomial for e^r on |r| <= ln2/2, and the scale
/// 2^n applied as two halves so subnormal results round gradually and large
/// ones overflow to inf. Within 2 ulp of the correctly rounded result; NaN
/// propagates.
static Value *emitExpF32(IRBuilderBase &B, Value *X) {
  Type *Ty = X->getType();
  Type *ITy = Ty->getWithNewType(B.getInt32Ty());
  auto C = [&](double V) { return ConstantFP::get(Ty, V); };
  auto CI = [&](int64_t V) { return ConstantInt::get(ITy, V); };
  Value *XC = B.CreateBinaryIntrinsic(Intrinsic::maxnum, X, C(-104.0));
  XC = B.CreateBinaryIntrinsic(Intrinsic::minnum, XC, C(89.0));
  Value *NF = B.CreateUnaryIntrinsic(
      Intrinsic::floor,
      B.CreateFAdd(B.CreateFMul(XC, C(1.44269504088896341)), C(0.5)));
  Value *R = B.CreateFSub(XC, B.CreateFMul(NF, C(0.693359375)));
  R = B.CreateFSub(R, B.CreateFMul(NF, C(-2.12194440e-4)));
  Value *P = C(1.9875691500e-4);
  for (double Coef : {1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2,
                      1.6666665459e-1, 5.0000001201e-1})
    P = B.CreateFAdd(B.CreateFMul(P, R), C(Coef));
  P = B.CreateFAdd(B.CreateFAdd(B.CreateFMul(P, B.CreateFMul(R, R)), R),
                   C(1.0));
  Value *N = B.CreateFPToSI(NF, ITy);
  Value *N1 = B.CreateAShr(N, CI(1));
  Value *N2 = B.CreateSub(N, N1);
  auto Pow2 = [&](Value *E) {
    return B.CreateBitCast(B.CreateShl(B.CreateAdd(E, CI(127)), CI(23)), Ty);
  };
  Value *Res = B.CreateFMul(B.CreateFMul(P, Pow2(N1)), Pow2(N2));
  return B.CreateSelect(B.CreateFCmpUNO(X, X), X, Res);
}

Value *ElementEmitter::emitUnary(OpKind Kind, Value *X) {
  return emitUnaryElementwise(B, Kind, X);
}

Value *emitUnaryElementwise(IRBuilderBase &B, OpKind Kind, Value *X) {
  Type *Ty = X->getType();
  Module *M = B.GetInsertBlock()->getModule();
  auto Intr = [&](Intrinsic::ID ID) {
    return B.CreateCall(Intrinsic::getDeclaration(M, ID, {Ty}), {X});
  };
  // exp on float lanes: inline vector code; other types call llvm.exp.
  auto Exp = [&](Value *V) -> Value * {
    if (Ty->getScalarType()->isFloatTy())
      return emitExpF32(B, V);
    return B.CreateCall(Intrinsic::getDeclaration(M, Intrinsic::exp, {Ty}),
                        {V});
  };
  switch (Kind) {
  case OpKind::Relu:
    if (Ty->isIntOrIntVectorTy())
      return B.CreateBinaryIntrinsic(Intrinsic::smax, X,
                                     Constant::getNullValue(Ty));
    // relu(x) = llvm.maximum(x, +0) with NaN kept as it is (docs/
    // decisions.md): x <= 0 ? +0 : x, an ordered compare so NaN -> x.
    return B.CreateSelect(B.CreateFCmpOLE(X, Constant::getNullValue(Ty)),
                          Constant::getNullValue(Ty), X);
  case OpKind::Sin:
    return Intr(Intrinsic::sin);
  case OpKind::Cos:
    return Intr(Intrinsic::cos);
  case OpKind::Exp:
    return Exp(X);
  case OpKind::Exp2:
    return Intr(Intrinsic::exp2);
  case OpKind::Log:
    return Intr(Intrinsic::log);
  case OpKind::Log2:
    return Intr(Intrinsic::log2);
  case OpKind::Log10:
    return Intr(Intrinsic::log10);
  case OpKind::Sqrt:
    return Intr(Intrinsic::sqrt);
  case OpKind::Fabs:
    return Intr(Intrinsic::fabs);
  case OpKind::Floor:
    return Intr(Intrinsic::floor);
  case OpKind::Ceil:
    return Intr(Intrinsic::ceil);
  case OpKind::Sigmoid: {
    // With e = exp(-|x|) <= 1 (never overflows): s = 1 / (1 + e) is
    // sigmoid(|x|), and sigmoid(-|x|) = e * s keeps full relative precision
    // down to subnormal results.
    Value *One = ConstantFP::get(Ty, 1.0);
    Value *E = Exp(B.CreateFNeg(B.CreateUnaryIntrinsic(Intrinsic::fabs, X)));
    Value *S = B.CreateFDiv(One, B.CreateFAdd(One, E));
    return B.CreateSelect(B.CreateFCmpOGE(X, Constant::getNullValue(Ty)), S,
                          B.CreateFMul(E, S));
  }
  case OpKind::Tanh: {
    if (!Ty->getScalarType()->isFloatTy()) {
      // f64: libm's tanh, lane by lane.
      FunctionCallee Tanh =
          M->getOrInsertFunction("tanh", B.getDoubleTy(), B.getDoubleTy());
      auto *VT = dyn_cast<FixedVectorType>(Ty);
      if (!VT)
        return B.CreateCall(Tanh, {X});
      Value *V = PoisonValue::get(Ty);
      for (unsigned L = 0; L < VT->getNumElements(); ++L)
        V = B.CreateInsertElement(
            V, B.CreateCall(Tanh, {B.CreateExtractElement(X, L)}), L);
      return V;
    }
    // f32: |x| < 0.625: x + x^3 P(x^2) (minimax, as in Cephes tanhf);
    // otherwise 1 - 2 / (exp(2|x|) + 1) with x's sign (exp overflowing to
    // inf gives exactly 1). NaN propagates through both.
    Value *One = ConstantFP::get(Ty, 1.0);
    Value *A = B.CreateUnaryIntrinsic(Intrinsic::fabs, X);
    Value *Z = B.CreateFMul(X, X);
    Value *P = ConstantFP::get(Ty, -5.70498872745e-3);
    for (double Coef : {2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1,
                        -3.33332819422e-1})
      P = B.CreateFAdd(B.CreateFMul(P, Z), ConstantFP::get(Ty, Coef));
    Value *Small = B.CreateFAdd(B.CreateFMul(B.CreateFMul(P, Z), X), X);
    Value *E = Exp(B.CreateFMul(A, ConstantFP::get(Ty, 2.0)));
    Value *Large = B.CreateFSub(
        One, B.CreateFDiv(ConstantFP::get(Ty, 2.0), B.CreateFAdd(E, One)));
    Large = B.CreateBinaryIntrinsic(Intrinsic::copysign, Large, X);
    return B.CreateSelect(B.CreateFCmpOLT(A, ConstantFP::get(Ty, 0.625)), Small,
                          Large);
  }
  default:
    llvm_unreachable("not a unary elementwise op");
  }
}

/// \p V (compute type) rounded to \p Elem when that is computed wider
/// (f16, bf16), so each op made from a C operator rounds like the LLVM
/// instruction it stands for.
static Value *roundToElement(IRBuilderBase &B, Value *V, Type *Elem) {
  if (!Elem->isHalfTy() && !Elem->isBFloatTy())
    return V;
  return convertToCompute(B, convertFromCompute(B, V, Elem));
}

/// Element strides by logical dim of a packed buffer of type \p Ty: the
/// flat position of a logical index is its dot product with them.
static Dims flatPositionStrides(const TensorType &Ty) {
  Dims Storage = packedStrides(Ty.Shape), Logical(Ty.rank(), 0);
  for (unsigned I = 0; I < Ty.rank(); ++I)
    Logical[Ty.Layout[I]] = Storage[I];
  return Logical;
}

// t[i] = x, element by element:
//   lanes = pos(Idx) == i ? x : t[Idx]   (pos: the flat storage position)
Value *ElementEmitter::emitInsertElement(const CallBase &Op,
                                         const TensorType &ResultTy,
                                         ArrayRef<Value *> Idx, unsigned VF,
                                         int LaneDim, int64_t LaneStep) {
  Value *T = emit(Op.getArgOperand(0), Idx, VF, LaneDim, LaneStep);
  Dims Strides = flatPositionStrides(ResultTy);
  Value *Pos = B.getInt64(0);
  for (unsigned D = 0; D < Idx.size(); ++D)
    Pos = B.CreateAdd(Pos, B.CreateMul(Idx[D], B.getInt64(Strides[D])));
  Value *At = B.CreateSExtOrTrunc(Op.getArgOperand(2), B.getInt64Ty());
  Value *X = convertToCompute(B, Op.getArgOperand(1));
  if (VF == 1)
    return B.CreateSelect(B.CreateICmpEQ(Pos, At), X, T);
  SmallVector<Constant *, 32> Steps;
  for (unsigned L = 0; L < VF; ++L)
    Steps.push_back(B.getInt64(L * LaneStep * Strides[LaneDim]));
  Value *Lanes = B.CreateAdd(B.CreateVectorSplat(VF, Pos),
                             ConstantVector::get(Steps));
  Value *Hit = B.CreateICmpEQ(Lanes, B.CreateVectorSplat(VF, At));
  return B.CreateSelect(Hit, B.CreateVectorSplat(VF, X), T);
}

/// fpext/fptrunc of compute-type lanes \p X to \p Elem, rounded once:
/// double to f16/bf16 goes through float rounded to odd (the truncated
/// float with its last bit set when inexact), which the final rounding to
/// nearest even then rounds correctly, as a direct conversion would.
Value *ElementEmitter::emitFPConvert(Value *X, Type *Elem) {
  Type *To = getComputeType(Elem);
  Type *FromTy = X->getType()->getScalarType();
  if (FromTy == To)
    return roundToElement(B, X, Elem);
  Type *ToLanes = X->getType()->getWithNewType(To);
  if (To->getPrimitiveSizeInBits() > FromTy->getPrimitiveSizeInBits())
    return B.CreateFPExt(X, ToLanes);
  Value *F = B.CreateFPTrunc(X, ToLanes);
  if (Elem == To)
    return F;
  Type *I32 = X->getType()->getWithNewType(B.getInt32Ty());
  Value *Back = B.CreateFPExt(F, X->getType());
  Value *Bits = B.CreateBitCast(F, I32);
  // Rounded away from zero: step back toward zero; then mark inexact.
  Value *Away = B.CreateFCmpOGT(B.CreateUnaryIntrinsic(Intrinsic::fabs, Back),
                                B.CreateUnaryIntrinsic(Intrinsic::fabs, X));
  Bits = B.CreateSub(Bits, B.CreateZExt(Away, I32));
  Value *Inexact = B.CreateFCmpONE(Back, X);
  Bits = B.CreateOr(Bits, B.CreateZExt(Inexact, I32));
  Value *Odd = B.CreateBitCast(Bits, ToLanes);
  return roundToElement(B, B.CreateSelect(B.CreateFCmpUNO(X, X), F, Odd),
                        Elem);
}

// The LLVM instruction an op stands for, on compute-type lanes:
//   %r = call <N x half> @llvm.tensor.fadd(token %a, token %b)
// -->
//   %s = fadd <VF x float> %a.lanes, %b.lanes ; f16 computes in float
//   %r.lanes = fpext (fptrunc %s to half) to float
Value *ElementEmitter::emitInstruction(const CallBase &Op, unsigned Opcode,
                                       ArrayRef<Value *> Lanes) {
  auto *ResVT = cast<VectorType>(Op.getType());
  Type *Elem = ResVT->getElementType();
  Type *LaneTy = Lanes[0]->getType();
  auto LanesOf = [&](Type *E) {
    return isa<VectorType>(LaneTy) ? LaneTy->getWithNewType(E) : E;
  };
  switch (Opcode) {
  case Instruction::FNeg:
    return B.CreateFNeg(Lanes[0]);
  case Instruction::ICmp:
  case Instruction::FCmp: {
    auto Pred = (CmpInst::Predicate)cast<ConstantInt>(Op.getArgOperand(2))
                    ->getZExtValue();
    Value *C = Opcode == Instruction::ICmp
                   ? B.CreateICmp(Pred, Lanes[0], Lanes[1])
                   : B.CreateFCmp(Pred, Lanes[0], Lanes[1]);
    return B.CreateSExt(C, LanesOf(Elem)); // C: all ones or zero
  }
  case Instruction::Select: {
    Value *C = B.CreateICmpNE(Lanes[0],
                              Constant::getNullValue(Lanes[0]->getType()));
    return B.CreateSelect(C, Lanes[1], Lanes[2]);
  }
  case Instruction::BitCast: {
    // Reinterpret the element's own bits, not its compute form.
    Type *From = Values.get(Op.getArgOperand(0))->Type.Elem;
    Value *Bits = convertFromCompute(B, Lanes[0], From);
    return convertToCompute(B, B.CreateBitCast(Bits, LanesOf(Elem)));
  }
  case Instruction::FPTrunc:
  case Instruction::FPExt:
    return emitFPConvert(Lanes[0], Elem);
  default:
    break;
  }
  if (Instruction::isCast(Opcode))
    return roundToElement(B,
                          B.CreateCast((Instruction::CastOps)Opcode, Lanes[0],
                                       LanesOf(getComputeType(Elem))),
                          Elem);
  return roundToElement(
      B,
      B.CreateBinOp((Instruction::BinaryOps)Opcode, Lanes[0], Lanes[1]),
      Elem);
}

namespace {
/// Where an op reads its operand for a result index: the operand's index.
struct OperandIndex {
  SmallVector<Value *, 8> Idx;
  int LaneDim;      ///< the lanes' dim in the operand, -1 for one element
  int64_t LaneStep; ///< what each lane adds to that dim's index
};
} // namespace

/// transpose's operand index for result index \p Idx.
static OperandIndex transposeIndex(ArrayRef<Value *> Idx, int LaneDim,
                                   int64_t LaneStep) {
  unsigned Rank = Idx.size();
  // out[.., i, j] = in[.., j, i]
  SmallVector<Value *, 8> InIdx(Idx);
  std::swap(InIdx[Rank - 1], InIdx[Rank - 2]);
  int InLane = LaneDim;
  if (LaneDim == (int)Rank - 1)
    InLane = Rank - 2;
  else if (LaneDim == (int)Rank - 2)
    InLane = Rank - 1;
  return {std::move(InIdx), InLane, LaneStep};
}

/// broadcast's operand index (shape \p InShape) for result index \p Idx.
static OperandIndex broadcastIndex(IRBuilderBase &B, const Dims &InShape,
                                   ArrayRef<Value *> Idx, int LaneDim,
                                   int64_t LaneStep) {
  unsigned Rank = Idx.size();
  // numpy-style: in's dims align with out's trailing dims.
  unsigned Lead = Rank - InShape.size();
  SmallVector<Value *, 8> InIdx;
  int InLane = -1;
  for (unsigned I = 0; I < InShape.size(); ++I) {
    InIdx.push_back(InShape[I] == 1 ? B.getInt64(0) : Idx[Lead + I]);
    if (LaneDim == (int)(Lead + I) && InShape[I] != 1)
      InLane = I;
  }
  return {std::move(InIdx), InLane, LaneStep};
}

/// reshape.block's operand index for result index \p Idx, built at \p B.
static OperandIndex reshapeBlockIndex(IRBuilderBase &B, const Dims &Blocks,
                                      ArrayRef<Value *> Idx, int LaneDim,
                                      int64_t LaneStep) {
  // out has in's dims (blocked ones divided) then one inner dim per
  // blocked dim: in[i] = out[i] * block[i] + out[inner(i)].
  unsigned InRank = Blocks.size();
  SmallVector<Value *, 8> InIdx;
  int InLane = -1;
  int64_t InStep = 0;
  unsigned Inner = InRank;
  for (unsigned I = 0; I < InRank; ++I) {
    if (Blocks[I] <= 1) {
      InIdx.push_back(Idx[I]);
      if (LaneDim == (int)I)
        InLane = I, InStep = LaneStep;
      continue;
    }
    InIdx.push_back(
        B.CreateAdd(B.CreateMul(Idx[I], B.getInt64(Blocks[I])), Idx[Inner]));
    if (LaneDim == (int)I)
      InLane = I, InStep = LaneStep * Blocks[I];
    if (LaneDim == (int)Inner)
      InLane = I, InStep = LaneStep;
    ++Inner;
  }
  return {std::move(InIdx), InLane, InStep};
}

Value *ElementEmitter::emitOp(const TokenInfo &Info, ArrayRef<Value *> Idx,
                              unsigned VF, int LaneDim, int64_t LaneStep) {
  const CallBase &Op = *Info.Op;
  const TensorType &ResultTy = Info.Type;
  OpKind Kind = Info.Kind;
  const Value *In = Op.getArgOperand(0);
  unsigned Rank = Idx.size();
  if (isUnaryElementwise(Kind))
    return emitUnary(Kind, emit(In, Idx, VF, LaneDim, LaneStep));
  if (Kind == OpKind::InsertElement)
    return emitInsertElement(Op, ResultTy, Idx, VF, LaneDim, LaneStep);
  if (isReduce(Kind)) // with run-time extents only
    return emitReduce(Info, Idx, VF, LaneDim, LaneStep);
  if (std::optional<unsigned> Opcode = getInstructionOpcode(Kind)) {
    SmallVector<Value *, 3> Lanes;
    for (const Value *Arg : Op.args())
      if (Arg->getType()->isTokenTy())
        Lanes.push_back(emit(Arg, Idx, VF, LaneDim, LaneStep));
    return emitInstruction(Op, *Opcode, Lanes);
  }

  switch (Kind) {
  case OpKind::Transpose: {
    if (!Info.LogicalTranspose) // a layout change: same logical values
      return emit(In, Idx, VF, LaneDim, LaneStep);
    OperandIndex At = transposeIndex(Idx, LaneDim, LaneStep);
    return emit(In, At.Idx, VF, At.LaneDim, At.LaneStep);
  }
  case OpKind::Broadcast: {
    if (Op.arg_size() == 2) { // fill with a scalar
      Value *S = convertToCompute(B, Op.getArgOperand(1));
      return splatIfNeeded(B, S, VF);
    }
    OperandIndex At =
        broadcastIndex(B, Info.OperandShapes[0], Idx, LaneDim, LaneStep);
    return splatIfNeeded(
        B, emit(In, At.Idx, At.LaneDim < 0 ? 1 : VF, At.LaneDim, At.LaneStep),
        VF);
  }
  case OpKind::ReshapeBlock: {
    OperandIndex At = reshapeBlockIndex(B, Info.Blocks, Idx, LaneDim, LaneStep);
    return emit(In, At.Idx, VF, At.LaneDim, At.LaneStep);
  }
  case OpKind::ReshapePermute: {
    // The k-th logical row-major element of out is in's k-th.
    Dims OutShape = ResultTy.logicalShape();
    const Dims &InShape = Info.OperandShapes[0];
    const RuntimeTokenExtents *RT = runtimeOf(Info.Op);
    auto OutExtent = [&](unsigned D) {
      return RT ? RT->Result[D] : B.getInt64(OutShape[D]);
    };
    // A run of out's last dim stays inside one row of in when in's rows
    // are a multiple of out's: then lanes map to in's last dim.
    bool LanesInRow = LaneDim == (int)Rank - 1 && !InShape.empty() &&
                      InShape.back() != DynamicExtent &&
                      OutShape.back() != DynamicExtent &&
                      InShape.back() % OutShape.back() == 0;
    if (VF > 1 && LaneDim >= 0 && !LanesInRow)
      return emitPerLane(Info, Idx, VF, LaneDim, LaneStep);
    Value *Lin = B.getInt64(0);
    for (unsigned D = 0; D < Rank; ++D)
      Lin = B.CreateAdd(B.CreateMul(Lin, OutExtent(D)), Idx[D]);
    SmallVector<Value *, 8> InIdx(InShape.size());
    for (int D = (int)InShape.size() - 1; D >= 0; --D) {
      if (D == 0) {
        InIdx[D] = Lin;
        break;
      }
      Value *Ext = operandExtent(Info, 0, D);
      InIdx[D] = B.CreateURem(Lin, Ext);
      Lin = B.CreateUDiv(Lin, Ext);
    }
    if (InShape.empty())
      return splatIfNeeded(B, emit(In, {}, 1, -1), VF);
    return emit(In, InIdx, VF, LanesInRow ? (int)InShape.size() - 1 : -1,
                LaneStep);
  }
  case OpKind::Pad:
    return emitPad(Info, Idx, VF, LaneDim, LaneStep);
  case OpKind::Concat:
    return emitConcat(Info, Idx, VF, LaneDim, LaneStep);
  default:
    llvm_unreachable("op is not a fusible producer");
  }
}

Value *ElementEmitter::operandExtent(const TokenInfo &Info, unsigned I,
                                     unsigned Dim) {
  if (const RuntimeTokenExtents *RT = runtimeOf(Info.Op))
    return RT->Operands[I][Dim];
  return B.getInt64(Info.OperandShapes[I][Dim]);
}

Value *ElementEmitter::padAmount(const TokenInfo &Info, bool Second,
                                 unsigned Dim) {
  if (const RuntimeTokenExtents *RT = runtimeOf(Info.Op))
    return (Second ? RT->Param2 : RT->Param1)[Dim];
  return B.getInt64(Second ? Info.Pad.High[Dim] : Info.Pad.Low[Dim]);
}

Value *ElementEmitter::readUnlessEmpty(const TokenInfo &Info, unsigned I,
                                       function_ref<Value *()> Read) {
  const RuntimeTokenExtents *RT = runtimeOf(Info.Op);
  if (!RT)
    return Read();
  Value *NonEmpty = B.getTrue();
  for (Value *E : RT->Operands[I])
    if (!isa<ConstantInt>(E))
      NonEmpty = B.CreateAnd(NonEmpty, B.CreateICmpSGT(E, B.getInt64(0)));
  if (isa<Constant>(NonEmpty))
    return Read();
  BasicBlock *Skip = B.GetInsertBlock();
  Value *V = nullptr;
  BasicBlock *Done = nullptr;
  emitIfThen(B, NonEmpty, "tlx.rt.read", [&](IRBuilderBase &TB) {
    V = Read();
    Done = TB.GetInsertBlock();
  });
  PHINode *Phi = B.CreatePHI(V->getType(), 2, "tlx.rt.lanes");
  Phi->addIncoming(V, Done);
  Phi->addIncoming(PoisonValue::get(V->getType()), Skip);
  return Phi;
}

static bool isZero(const Value *V) {
  const auto *C = dyn_cast<ConstantInt>(V);
  return C && C->isZero();
}

Value *ElementEmitter::emitPad(const TokenInfo &Info, ArrayRef<Value *> Idx,
                               unsigned VF, int LaneDim, int64_t LaneStep) {
  const Value *In = Info.Op->getArgOperand(0);
  unsigned Rank = Idx.size();
  // out[i] = low <= i < low + ext ? in[i - low] : value. The index is
  // clamped so the read stays in bounds; the select picks the value.
  SmallVector<Value *, 8> InIdx, Low, Last;
  SmallVector<bool, 8> Padded;
  Value *InsideS = nullptr; // scalar test over the non-lane dims
  Value *InsideV = nullptr; // lane test along a padded lane dim
  for (unsigned D = 0; D < Rank; ++D) {
    Low.push_back(padAmount(Info, false, D));
    Value *Ext = operandExtent(Info, 0, D);
    Last.push_back(B.CreateSub(Ext, B.getInt64(1)));
    Padded.push_back(!isZero(Low[D]) || !isZero(padAmount(Info, true, D)));
    Value *I = B.CreateSub(Idx[D], Low[D]);
    if (LaneDim == (int)D && VF > 1) {
      if (Padded[D]) {
        SmallVector<Constant *, 16> Steps;
        for (unsigned L = 0; L < VF; ++L)
          Steps.push_back(B.getInt64(L * LaneStep));
        Value *Lanes =
            B.CreateAdd(B.CreateVectorSplat(VF, I), ConstantVector::get(Steps));
        InsideV = B.CreateAnd(
            B.CreateICmpSGE(Lanes, Constant::getNullValue(Lanes->getType())),
            B.CreateICmpSLT(Lanes, B.CreateVectorSplat(VF, Ext)));
      }
    } else if (Padded[D]) {
      Value *In0 = B.CreateAnd(B.CreateICmpSGE(I, B.getInt64(0)),
                               B.CreateICmpSLT(I, Ext));
      InsideS = InsideS ? B.CreateAnd(InsideS, In0) : In0;
    }
    I = B.CreateBinaryIntrinsic(Intrinsic::smax, I, B.getInt64(0));
    I = B.CreateBinaryIntrinsic(Intrinsic::smin, I, Last[D]);
    InIdx.push_back(I);
  }
  Value *Inside = InsideS;
  if (Inside && VF > 1)
    Inside = B.CreateVectorSplat(VF, Inside);
  if (InsideV)
    Inside = Inside ? B.CreateAnd(Inside, InsideV) : InsideV;
  Value *Fill = splatIfNeeded(B, convertToCompute(B, Info.Pad.Value), VF);
  // Lanes along a padded dim may leave the operand: read them one by one
  // (each index clamped); otherwise read the lanes at once.
  Value *V;
  if (LaneDim >= 0 && VF > 1 && Padded[LaneDim]) {
    Value *Vec = PoisonValue::get(Fill->getType());
    SmallVector<Value *, 8> LaneIdx(InIdx);
    for (unsigned L = 0; L < VF; ++L) {
      Value *I = B.CreateSub(
          B.CreateAdd(Idx[LaneDim], B.getInt64(L * LaneStep)), Low[LaneDim]);
      I = B.CreateBinaryIntrinsic(Intrinsic::smax, I, B.getInt64(0));
      I = B.CreateBinaryIntrinsic(Intrinsic::smin, I, Last[LaneDim]);
      LaneIdx[LaneDim] = I;
      Vec = B.CreateInsertElement(
          Vec,
          readUnlessEmpty(Info, 0, [&] { return emit(In, LaneIdx, 1, -1); }),
          L);
    }
    V = Vec;
  } else {
    V = readUnlessEmpty(Info, 0, [&] {
      return splatIfNeeded(B, emit(In, InIdx, VF, LaneDim, LaneStep), VF);
    });
  }
  return Inside ? B.CreateSelect(Inside, V, Fill) : V;
}

Value *ElementEmitter::emitConcat(const TokenInfo &Info, ArrayRef<Value *> Idx,
                                  unsigned VF, int LaneDim, int64_t LaneStep) {
  unsigned Axis = Info.Axis;
  const Value *In1 = Info.Op->getArgOperand(0);
  const Value *In2 = Info.Op->getArgOperand(1);
  if (LaneDim == (int)Axis && VF > 1)
    return emitPerLane(Info, Idx, VF, LaneDim, LaneStep);
  Value *Ext1 = operandExtent(Info, 0, Axis);
  Value *Ext2 = operandExtent(Info, 1, Axis);
  Value *One = B.getInt64(1);
  SmallVector<Value *, 8> Idx1(Idx), Idx2(Idx);
  Value *First = B.CreateICmpSLT(Idx[Axis], Ext1);
  Idx1[Axis] = B.CreateBinaryIntrinsic(Intrinsic::smin, Idx[Axis],
                                       B.CreateSub(Ext1, One));
  Value *I2 = B.CreateSub(Idx[Axis], Ext1);
  I2 = B.CreateBinaryIntrinsic(Intrinsic::smax, I2, B.getInt64(0));
  Idx2[Axis] =
      B.CreateBinaryIntrinsic(Intrinsic::smin, I2, B.CreateSub(Ext2, One));
  Value *V1 = readUnlessEmpty(
      Info, 0, [&] { return emit(In1, Idx1, VF, LaneDim, LaneStep); });
  Value *V2 = readUnlessEmpty(
      Info, 1, [&] { return emit(In2, Idx2, VF, LaneDim, LaneStep); });
  return B.CreateSelect(First, V1, V2);
}

Value *ElementEmitter::emitRuntimeLoad(const RuntimeView &View,
                                       ArrayRef<Value *> Idx, unsigned VF,
                                       int LaneDim, int64_t LaneStep) {
  Value *Ptr = emitViewAddress(B, View, Idx);
  if (VF == 1 || LaneDim < 0)
    return emitLoadLanes(B, Ptr, View.Elem, VF, 0);
  if ((unsigned)LaneDim == View.StorageOrder.back()) // contiguous
    return emitLoadLanes(B, Ptr, View.Elem, VF, LaneStep);
  // Lanes across rows: one element each.
  Value *Step = B.CreateMul(View.Strides[LaneDim], B.getInt64(LaneStep));
  Value *Vec = nullptr;
  for (unsigned L = 0; L < VF; ++L) {
    Value *At = B.CreateGEP(View.Elem, Ptr, B.CreateMul(Step, B.getInt64(L)));
    Value *S = emitLoadLanes(B, At, View.Elem, 1, 0);
    if (!Vec)
      Vec = PoisonValue::get(FixedVectorType::get(S->getType(), VF));
    Vec = B.CreateInsertElement(Vec, S, L);
  }
  return Vec;
}

Value *ElementEmitter::emitReduce(const TokenInfo &Info, ArrayRef<Value *> Idx,
                                  unsigned VF, int LaneDim, int64_t LaneStep) {
  const RuntimeTokenExtents &RT = *runtimeOf(Info.Op);
  const Value *In = Info.Op->getArgOperand(0);
  unsigned Rank = Idx.size();
  // Lanes step the input by the window stride along the lane dim: a
  // constant, or the lanes are computed one at a time.
  int64_t InStep = 0;
  if (LaneDim >= 0 && VF > 1) {
    const auto *Stride = dyn_cast<ConstantInt>(RT.Param2[LaneDim]);
    if (!Stride)
      return emitPerLane(Info, Idx, VF, LaneDim, LaneStep);
    InStep = LaneStep * Stride->getSExtValue();
  }
  Type *LanesTy = getLanesType(getComputeType(Info.Type.Elem), VF);
  Function &F = *B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  AllocaInst *Acc = Entry.CreateAlloca(LanesTy, nullptr, "tlx.acc");
  Constant *Init = reduceIdentity(Info.Kind, LanesTy->getScalarType());
  B.CreateStore(
      VF == 1 ? Init
              : ConstantVector::getSplat(ElementCount::getFixed(VF), Init),
      Acc);
  // out[o] = fold(in[o * strides + w] for w over the window, row-major)
  SmallVector<Value *, 8> InIdx(Rank);
  std::function<void(unsigned)> Level = [&](unsigned D) {
    if (D == Rank) {
      Value *X = splatIfNeeded(B, emit(In, InIdx, VF, LaneDim, InStep), VF);
      B.CreateStore(reduceCombine(B, Info.Kind, B.CreateLoad(LanesTy, Acc), X),
                    Acc);
      return;
    }
    Value *Base = B.CreateMul(Idx[D], RT.Param2[D]);
    const auto *Window = dyn_cast<ConstantInt>(RT.Param1[D]);
    if (Window && Window->isOne()) {
      InIdx[D] = Base;
      return Level(D + 1);
    }
    emitCountedLoop(B, B.getInt64(0), RT.Param1[D], 1, "tlx.rt.window",
                    [&](IRBuilderBase &, Value *W) {
                      InIdx[D] = B.CreateAdd(Base, W);
                      Level(D + 1);
                    });
  };
  Level(0);
  return B.CreateLoad(LanesTy, Acc);
}

SmallVector<std::pair<CallBase *, CallBase *>, 8>
collectStoredContractions(Function &F,
                          function_ref<bool(OpKind, unsigned)> Wanted) {
  SmallVector<std::pair<CallBase *, CallBase *>, 8> Work;
  for (Instruction &I : instructions(F)) {
    auto *S = dyn_cast<CallBase>(&I);
    if (!S || getOpKind(*S) != OpKind::Store)
      continue;
    std::optional<TensorValue> TV = getTensorValue(S->getArgOperand(1));
    if (!TV || TV->isMemory())
      continue;
    auto *Op = dyn_cast<CallBase>(TV->Data);
    std::optional<OpKind> K = Op ? getOpKind(*Op) : std::nullopt;
    if (K && isContraction(*K) && Wanted(*K, TV->Type.rank()))
      Work.push_back({S, Op});
  }
  return Work;
}

void eraseOpIfDead(CallBase &Op) {
  SmallVector<Instruction *, 2> TypeInfos;
  for (User *U : Op.users())
    TypeInfos.push_back(cast<Instruction>(U));
  for (Instruction *TI : TypeInfos)
    if (TI->use_empty())
      TI->eraseFromParent();
  if (Op.use_empty())
    Op.eraseFromParent();
}

} // namespace tlx
