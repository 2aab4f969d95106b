//===- Bufferize.cpp - Give every TLX tensor a buffer (DPS form) ----------===//
//
// tlx-bufferize rewrites each function into destination-passing form, where
// every tensor lives in memory and every compute op writes its result
// straight into a destination:
//
//   %r  = call <N x T> @llvm.tensor.OP(token %a, ...)
//   %rt = call token @llvm.tensor.typeinfo(<N x T> %r, shape, layout, pad)
//   call void @llvm.tensor.store(ptr %dst, token %rt, leading dims)
//
// with every token operand either memory (a load, or a typeinfo of a
// pointer) or the typeinfo of a fused producer that its single consumer
// computes element by element (IndexMap.h). The tensor-sized vector %r
// exists only between the op and its typeinfo; the later stages replace
// the triple by loops that write %dst.
//
// The rule (docs/pipeline.md, "Liveness and aliasing"): every tensor value
// lives in exactly one place - user memory, a buffer of this pass, the
// destination of the store that consumes it, or nowhere (fused) - and a
// place is written again, reused or freed only after the value's last read.
// A read is wherever the value is consumed: a TLX op or store that reads
// its token (fused chains read where their consumer computes), a non-TLX
// use of the result vector (a C operator, a call argument, a return, a C
// store, an element read), or the copy at the end of a path into a merge.
// SSA makes the rest follow: a value read after its definition executes
// again is merged by a phi, and phis get buffers of their own.
//
// Algorithm:
//  1. Merges leave SSA (MergeLowering): tensor data merged by phis (and by
//     selects, which become branches) gets one merge buffer per phi; each
//     incoming path stores its tensor there at its end (edges that branch
//     elsewhere too are split first), copies that would overwrite another
//     copy's source on the same edge read a snapshot, and the merged token
//     reads the buffer. Non-TLX uses of the merged vector load it where
//     they are. Merge buffers are allocated once per call of the function.
//  2. Vector data entering TLX (typeinfo or totensor of a vector computed by
//     non-TLX code, e.g. a by-value parameter) is stored once into a buffer;
//     the token becomes a typeinfo of that memory.
//  3. For each compute op, in program order, choose where its result goes:
//     a. fused: a producer that is an index map or elementwise op, whose
//        only user is an op reading it element by element, in the same
//        block, with no write to its inputs in between - no buffer;
//     b. the destination of the store that is its typeinfo's only user (the
//        op moves down to the store; its inputs must not be written in
//        between, and must not be the destination's object);
//     c. otherwise a new buffer: the typeinfo is stored into it and its
//        users read it through a load token. An elementwise op reuses its
//        operand's buffer when that operand is a temporary of the same type
//        whose last read is this op. Non-TLX uses of the result read the
//        buffer where they are (a C store becomes a memcpy, anything else
//        loads the vector right before it).
//  4. A copy (tensor.store of a memory token) between different views of
//     one object goes through a buffer, like memmove.
//  5. Tokens of user memory are read lazily, where their readers
//     materialize; when that memory may be written before, the tensor is
//     copied into a buffer at its definition.
//  6. Heap buffers are freed after their last read when every read is in
//     the block of the allocation; otherwise before the next allocation at
//     the same place and at every return.
//
//===----------------------------------------------------------------------===//

#include "IR/Diagnostics.h"
#include "IR/ShapeInference.h"
#include "IR/TLXOps.h"
#include "Plugin/Options.h"
#include "Codegen/IndexMap.h"
#include "Transforms/Passes.h"
#include "Codegen/RuntimeShapes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

#define DEBUG_TYPE "tlx-bufferize"

namespace tlx {
static void mergeRuntimeTypeInfo(CallBase &First, CallBase &TI);

namespace {

CallInst *createReader(IRBuilderBase &B, Value *Ptr, const TensorType &Ty,
                       ArrayRef<int64_t> LD) {
  LLVMContext &Ctx = B.getContext();
  return createOpCall(B, OpKind::Load, Type::getTokenTy(Ctx),
                      {Ptr, emitShapeVector(B, Ty),
                       getI32Vector(Ctx, Ty.Layout),
                       getI32Vector(Ctx, Ty.Padding), getI32Vector(Ctx, LD)},
                      Ty.Elem, "tlx.buf");
}

CallInst *createStore(IRBuilderBase &B, Value *Ptr, Value *Token,
                      const TensorType &Ty, ArrayRef<int64_t> LD) {
  LLVMContext &Ctx = B.getContext();
  return createOpCall(B, OpKind::Store, Type::getVoidTy(Ctx),
                      {Ptr, Token, getI32Vector(Ctx, LD)}, Ty.Elem);
}

/// Where a non-TLX use \p U of a value reads it: before its user, or at
/// the end of the incoming block for a phi.
Instruction *getReadPoint(const Use &U) {
  auto *I = cast<Instruction>(U.getUser());
  if (auto *Phi = dyn_cast<PHINode>(I))
    return Phi->getIncomingBlock(U)->getTerminator();
  return I;
}

/// An element read `v[i]` of a vector whose flat image is at \p Ptr:
///   extractelement <N x T> %v, %i  -->  load T, ptr (gep %Ptr, %i)
/// Returns the load, or null if \p U is not such a read.
LoadInst *readElement(Use &U, Value *Ptr) {
  auto *EE = dyn_cast<ExtractElementInst>(U.getUser());
  if (!EE || U.getOperandNo() != 0)
    return nullptr;
  IRBuilder<> B(EE);
  Type *Elem = EE->getType();
  LoadInst *Load = B.CreateLoad(
      Elem, B.CreateGEP(Elem, Ptr, EE->getIndexOperand()), EE->getName());
  EE->replaceAllUsesWith(Load);
  EE->eraseFromParent();
  return Load;
}

//===----------------------------------------------------------------------===//
// Step 1: merges leave SSA.
//===----------------------------------------------------------------------===//

/// The merged tensor a phi of tensor data holds: how its consumer reads the
/// vector (typeinfo: storage order, totensor: logical order), its type, and
/// the buffer that holds it.
struct MergedTensor {
  CallBase *Consumer; ///< where remarks and the copies' locations point
  OpKind Kind;
  TensorType Ty;
  Value *Buffer = nullptr;
  /// With run-time extents (isDynamic()): each path's tensor gets a heap
  /// buffer of its size; entry-block slots hold the current one and its
  /// shape vector.
  Value *Slot = nullptr, *ShapeSlot = nullptr;

  bool isDynamic() const { return Ty.isDynamic(); }

  /// Whether the buffer's bytes are the merged vector as C holds it: a
  /// typeinfo's data is in storage order, a totensor's in logical order.
  bool holdsVectorImage() const {
    return Kind == OpKind::TypeInfo || Ty.hasIdentityLayout();
  }
};

class MergeLowering {
public:
  explicit MergeLowering(Function &F) : F(F) {}
  /// Returns true if the function changed (its CFG may have).
  bool run();
  /// The merge buffers: TLX's own memory, written only by the copies into
  /// merges.
  const SmallPtrSetImpl<Value *> &buffers() const { return Buffers; }

private:
  SmallVector<CallBase *, 4> findMergedConsumers();
  SmallVector<Instruction *, 8> collectWeb(Value *Data);
  void selectToBranches(SelectInst &Sel);
  void allocateBuffer(MergedTensor &MT);
  void allocateSlots(MergedTensor &MT);
  CallInst *readBuffer(IRBuilderBase &B, const MergedTensor &MT);
  void emitRuntimeCopies(IRBuilderBase &B,
                         ArrayRef<std::pair<const MergedTensor *, Value *>>
                             Copies);
  Value *loadVector(IRBuilderBase &B, PHINode &Phi);
  void replaceConsumer(CallBase &C, PHINode &Phi);
  void replaceEscapes(PHINode &Phi);
  BasicBlock *getCopyBlock(BasicBlock &Succ, BasicBlock &Pred);
  void emitEdgeCopies(BasicBlock &Succ, BasicBlock &Pred, BasicBlock &At);
  Value *getIncomingToken(IRBuilderBase &B, const MergedTensor &MT,
                          Value *In);
  Value *readMergeAs(IRBuilderBase &B, const MergedTensor &From,
                     const MergedTensor &To, Type *VecTy);
  Value *readImageAs(IRBuilderBase &B, const MergedTensor &From,
                     const TensorType &Ty, Type *VecTy);

  Function &F;
  /// Of the CFG with the edges split, while the copies are emitted.
  std::optional<DominatorTree> DT;
  MapVector<PHINode *, MergedTensor> Merges;
  SmallPtrSet<Value *, 8> Buffers;
};

/// typeinfo / totensor calls whose data is a phi or select.
SmallVector<CallBase *, 4> MergeLowering::findMergedConsumers() {
  SmallVector<CallBase *, 4> Consumers;
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    std::optional<OpKind> K = CB ? getOpKind(*CB) : std::nullopt;
    if (!K || (*K != OpKind::TypeInfo && *K != OpKind::ToTensor))
      continue;
    Value *Data = CB->getArgOperand(0);
    if (isa<VectorType>(Data->getType()) && isMergeInst(Data))
      Consumers.push_back(CB);
  }
  return Consumers;
}

/// The phis and selects that merge \p Data, through each other.
SmallVector<Instruction *, 8> MergeLowering::collectWeb(Value *Data) {
  SmallSetVector<Instruction *, 8> Web;
  auto Visit = [&](Value *V) {
    if (isMergeInst(V) && V->getType() == Data->getType())
      Web.insert(cast<Instruction>(V));
  };
  Visit(Data);
  for (unsigned I = 0; I < Web.size(); ++I) {
    if (auto *Phi = dyn_cast<PHINode>(Web[I]))
      for (Value *In : Phi->incoming_values())
        Visit(In);
    else if (auto *Sel = dyn_cast<SelectInst>(Web[I]))
      for (Value *In : {Sel->getTrueValue(), Sel->getFalseValue()})
        Visit(In);
  }
  return Web.takeVector();
}

//   %m = select i1 %c, <N x T> %x, <N x T> %y
// -->
//   br i1 %c, label %then, label %else
//   then: br label %tail      else: br label %tail
//   tail: %m = phi <N x T> [ %x, %then ], [ %y, %else ]
// A tensor select is a merge too: each side is copied on its own path.
void MergeLowering::selectToBranches(SelectInst &Sel) {
  Instruction *ThenTerm = nullptr, *ElseTerm = nullptr;
  SplitBlockAndInsertIfThenElse(Sel.getCondition(), Sel.getIterator(),
                                &ThenTerm, &ElseTerm);
  auto *Phi = PHINode::Create(Sel.getType(), 2, Sel.getName(),
                              Sel.getParent()->begin());
  Phi->addIncoming(Sel.getTrueValue(), ThenTerm->getParent());
  Phi->addIncoming(Sel.getFalseValue(), ElseTerm->getParent());
  Phi->setDebugLoc(Sel.getDebugLoc());
  Sel.replaceAllUsesWith(Phi);
  Sel.eraseFromParent();
}

// Merge buffers live as long as the function's frame: an entry-block
// alloca, or a malloc at entry freed at every return.
void MergeLowering::allocateBuffer(MergedTensor &MT) {
  if (MT.isDynamic())
    return allocateSlots(MT);
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  Buffer Buf = emitAllocBuffer(B, MT.Ty.Elem, MT.Ty.numElements(), "tlx.merge");
  if (Buf.IsHeap)
    freeAtReturns(F, Buf.Ptr);
  MT.Buffer = Buf.Ptr;
  Buffers.insert(Buf.Ptr);
  emitRemark(DEBUG_TYPE, "Merge", *MT.Consumer,
             "tensor " + formatShape(MT.Ty.Shape) + " " +
                 elementTypeName(MT.Ty.Elem) + " merged across control " +
                 "flow: each path writes it into one " +
                 (Buf.IsHeap ? "heap" : "stack") + " buffer (" +
                 Twine(Buf.Bytes) + " bytes)");
}

// A merge of tensors with run-time extents (tlx-recognize's `totensor(
// phi <1 x T>, phi <n x i32>)`) cannot have one buffer for the function:
// each path copies its tensor into a heap buffer of its own extents, and
// entry-block slots hold the current buffer and its shape vector. The
// buffer a path replaces is freed once every copy on its edge is made (a
// loop's next activation may be computed from the last one), the last one
// at every return:
//   entry: %slot = alloca ptr (null) ; %shape = alloca <n x i32>
//   edge:  %new = tlxrt_alloc_tensor(extents) ; store(%new, %incoming)
//          %old = load %slot ; store %new, %slot ; store extents, %shape
//          tlxrt_temp_free(%old)
//   merge: load(load %slot, load %shape, layout, padding)
void MergeLowering::allocateSlots(MergedTensor &MT) {
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  LLVMContext &Ctx = F.getContext();
  MT.Slot = B.CreateAlloca(PointerType::getUnqual(Ctx), nullptr,
                           "tlx.merge.slot");
  MT.ShapeSlot = B.CreateAlloca(
      FixedVectorType::get(Type::getInt32Ty(Ctx), MT.Ty.rank()), nullptr,
      "tlx.merge.shape");
  B.SetInsertPoint(cast<Instruction>(MT.ShapeSlot)->getNextNode());
  B.CreateStore(ConstantPointerNull::get(PointerType::getUnqual(Ctx)),
                MT.Slot);
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      IRBuilder<> RB(Ret);
      emitFree(RB, RB.CreateLoad(PointerType::getUnqual(Ctx), MT.Slot));
    }
  emitRemark(DEBUG_TYPE, "Merge", *MT.Consumer,
             "tensor " + formatShape(MT.Ty.Shape) + " " +
                 elementTypeName(MT.Ty.Elem) +
                 " with run-time extents merged across control flow: each "
                 "path writes it into a heap buffer of its size");
}

/// A token reading the merge buffer (packed, in storage order).
CallInst *MergeLowering::readBuffer(IRBuilderBase &B, const MergedTensor &MT) {
  Dims LD(MT.Ty.rank(), 0);
  if (!MT.isDynamic())
    return createReader(B, MT.Buffer, MT.Ty, LD);
  LLVMContext &Ctx = F.getContext();
  Value *Ptr = B.CreateLoad(PointerType::getUnqual(Ctx), MT.Slot);
  Buffers.insert(Ptr);
  auto *ShapeTy = FixedVectorType::get(Type::getInt32Ty(Ctx), MT.Ty.rank());
  Value *Shape = B.CreateLoad(ShapeTy, MT.ShapeSlot);
  TensorType Ty = MT.Ty;
  Ty.Padding.assign(Ty.rank(), 0);
  Ty.Shape.assign(Ty.rank(), DynamicExtent);
  Ty.ShapeRefs.clear();
  for (unsigned D = 0; D < Ty.rank(); ++D)
    Ty.ShapeRefs.push_back({Shape, D});
  return createReader(B, Ptr, Ty, LD);
}

/// The copies of tensors with run-time extents on one edge (see
/// allocateSlots): all of them before any slot changes, since one may read
/// another merge's current buffer.
void MergeLowering::emitRuntimeCopies(
    IRBuilderBase &B,
    ArrayRef<std::pair<const MergedTensor *, Value *>> Copies) {
  LLVMContext &Ctx = F.getContext();
  SmallVector<std::tuple<const MergedTensor *, Value *, Value *>, 4> New;
  for (auto &[MT, Token] : Copies) {
    if (!MT->isDynamic())
      continue;
    TensorType Ty = getTensorValue(Token)->Type;
    Ty.Padding.assign(Ty.rank(), 0);
    SmallVector<Value *, 4> Extents;
    for (unsigned D = 0; D < Ty.rank(); ++D)
      Extents.push_back(emitExtent(B, Ty, D));
    Value *Ptr = emitRuntimeTensorAlloc(B, *MT->Consumer, Ty.Elem, Extents);
    Ptr->setName("tlx.merge.buf");
    createStore(B, Ptr, Token, Ty, Dims(Ty.rank(), 0));
    New.push_back({MT, Ptr, emitShapeVector(B, Ty)});
  }
  SmallVector<Value *, 4> Old;
  for (auto &[MT, Ptr, Shape] : New) {
    Old.push_back(B.CreateLoad(PointerType::getUnqual(Ctx), MT->Slot));
    B.CreateStore(Ptr, MT->Slot);
    B.CreateStore(Shape, MT->ShapeSlot);
  }
  for (Value *Ptr : Old)
    emitFree(B, Ptr);
}

/// The merged vector, as its consumer reads it, loaded at \p B.
Value *MergeLowering::loadVector(IRBuilderBase &B, PHINode &Phi) {
  const MergedTensor &MT = Merges.find(&Phi)->second;
  if (MT.holdsVectorImage())
    return B.CreateAlignedLoad(Phi.getType(), MT.Buffer, Align(1));
  // A totensor's data is in logical order: tovector of the buffer.
  return createOpCall(B, OpKind::ToVector, Phi.getType(),
                      {readBuffer(B, MT)});
}

//   %t = call token @llvm.vector.totensor(<N x T> %phi, shape, ...)
// -->
//   %t = call token @llvm.tensor.load(ptr elementtype(T) %merge, shape, ...)
void MergeLowering::replaceConsumer(CallBase &C, PHINode &Phi) {
  const MergedTensor &MT = Merges.find(&Phi)->second;
  std::optional<TensorValue> TV = getTensorValue(&C);
  IRBuilder<> B(&C);
  Value *New;
  if (MT.isDynamic() ||
      (TV && *getOpKind(C) == MT.Kind && TV->Type.Shape == MT.Ty.Shape &&
       TV->Type.Layout == MT.Ty.Layout && TV->Type.Elem == MT.Ty.Elem)) {
    New = readBuffer(B, MT);
  } else {
    // Read differently from the merge's first consumer: from the vector.
    C.setArgOperand(0, loadVector(B, Phi));
    return;
  }
  cast<Instruction>(New)->setDebugLoc(C.getDebugLoc());
  New->takeName(&C);
  C.replaceAllUsesWith(New);
  C.eraseFromParent();
}

/// Non-TLX uses of the merged vector load it where they read it.
void MergeLowering::replaceEscapes(PHINode &Phi) {
  for (Use &U : make_early_inc_range(Phi.uses())) {
    auto *User = cast<Instruction>(U.getUser());
    if (isa<PHINode>(User) && Merges.count(cast<PHINode>(User)))
      continue; // a copy on the edge
    const MergedTensor &MT = Merges.find(&Phi)->second;
    if (MT.holdsVectorImage() && readElement(U, MT.Buffer))
      continue;
    IRBuilder<> B(getReadPoint(U));
    U.set(loadVector(B, Phi));
  }
}

/// Where the copies on the edge from \p Pred to \p Succ go: the end of
/// \p Pred, or of the block before it when \p Pred is only a way through
/// (clang's loop increment blocks: one predecessor, which branches only to
/// it, and no TLX op, merged value or incoming value in it), so that the op
/// computing the incoming tensor can write the merge buffer directly.
BasicBlock *MergeLowering::getCopyBlock(BasicBlock &Succ, BasicBlock &Pred) {
  BasicBlock *BB = &Pred;
  for (unsigned Steps = 0; Steps < 4; ++Steps) {
    BasicBlock *Up = BB->getSinglePredecessor();
    if (!Up || Up->getSingleSuccessor() != BB || Up == BB)
      return BB;
    for (PHINode &Phi : Succ.phis())
      if (auto *In = dyn_cast<Instruction>(Phi.getIncomingValueForBlock(&Pred));
          In && In->getParent() == BB)
        return BB;
    for (Instruction &I : *BB) {
      if (getOpKind(&I))
        return BB;
      for (const Use &Op : I.operands())
        if (auto *Phi = dyn_cast<PHINode>(Op.get()); Phi && Merges.count(Phi))
          return BB;
    }
    BB = Up;
  }
  return BB;
}

/// A token of type \p Ty whose storage holds the bytes of the vector that
/// \p From's buffer holds (the vector read under another name).
Value *MergeLowering::readImageAs(IRBuilderBase &B, const MergedTensor &From,
                                  const TensorType &Ty, Type *VecTy) {
  if (From.holdsVectorImage())
    return createReader(B, From.Buffer, Ty, Dims(Ty.rank(), 0));
  // The buffer holds a totensor's tensor: the vector is its logical order.
  Dims Identity = getLogicalRowMajor(From.Ty).Layout;
  Value *RowMajor =
      createOpCall(B, OpKind::Transpose, VecTy,
                   {readBuffer(B, From), getI32Vector(B.getContext(), Identity)});
  return createTypeInfo(B, RowMajor, Ty);
}

/// The token a path stores into \p To's buffer when the incoming data is
/// the vector merged into \p From's (a merge of a merge, e.g. a loop's phi
/// starting from an if's): \p From's tensor when both name the vector
/// alike, else the vector renamed the way \p To's consumer names it.
Value *MergeLowering::readMergeAs(IRBuilderBase &B, const MergedTensor &From,
                                  const MergedTensor &To, Type *VecTy) {
  if (From.isDynamic()) // one web: one layout, extents of their own
    return readBuffer(B, From);
  if (From.holdsVectorImage() == To.holdsVectorImage() &&
      From.Ty.Shape == To.Ty.Shape && From.Ty.Layout == To.Ty.Layout &&
      From.Ty.Elem == To.Ty.Elem)
    return readBuffer(B, From);
  if (To.holdsVectorImage())
    return readImageAs(B, From, To.Ty, VecTy);
  return createFromLogicalOrder(
      B, readImageAs(B, From, getLogicalRowMajor(To.Ty), VecTy), VecTy, To.Ty);
}

/// The token a path stores into the merge buffer for incoming data \p In.
Value *MergeLowering::getIncomingToken(IRBuilderBase &B,
                                       const MergedTensor &MT, Value *In) {
  if (auto *Q = dyn_cast<PHINode>(In); Q && Merges.count(Q))
    return readMergeAs(B, Merges.find(Q)->second, MT, In->getType());
  // tovector / totensor (both logical order) cancel out; with run-time
  // extents, the <1 x T> only stands for the tensor.
  if (auto *TV = dyn_cast<CallBase>(In);
      TV && getOpKind(*TV) == OpKind::ToVector && MT.isDynamic())
    return TV->getArgOperand(0);
  if (auto *TV = dyn_cast<CallBase>(In);
      TV && getOpKind(*TV) == OpKind::ToVector && MT.Kind == OpKind::ToTensor)
    if (std::optional<TensorValue> Src = getTensorValue(TV->getArgOperand(0));
        Src && Src->Type.Shape == MT.Ty.Shape &&
        Src->Type.Layout == MT.Ty.Layout && Src->Type.Elem == MT.Ty.Elem)
      return TV->getArgOperand(0);
  // With the identity layout, storage order is logical order: a typeinfo
  // of the vector names it, and an op result's own typeinfo may already.
  OpKind Kind = MT.Ty.hasIdentityLayout() ? OpKind::TypeInfo : MT.Kind;
  if (auto *Op = dyn_cast<CallBase>(In); Op && getOpKind(*Op))
    for (User *U : Op->users()) {
      auto *TI = dyn_cast<CallBase>(U);
      std::optional<TensorValue> TV = TI ? getTensorValue(TI) : std::nullopt;
      if (Kind == OpKind::TypeInfo && TV && getOpKind(*TI) == Kind &&
          TV->Type.Shape == MT.Ty.Shape && TV->Type.Layout == MT.Ty.Layout &&
          DT->dominates(TI, &*B.GetInsertPoint()))
        return TI;
    }
  // Any other vector: named the way the merge's consumer names it. (A TLX
  // result's vector holds its positions: a totensor of it reads them in
  // logical row-major order, as tlx-vector-ops rewrites it.)
  if (Kind == OpKind::TypeInfo)
    return createTypeInfo(B, In, MT.Ty);
  if (auto *Op = dyn_cast<CallBase>(In);
      Op && getOpKind(*Op) &&
      getOpDesc(*getOpKind(*Op)).Result == ResultKind::Data)
    return createFromLogicalOrder(
        B, createTypeInfo(B, In, getLogicalRowMajor(MT.Ty)), In->getType(),
        MT.Ty);
  LLVMContext &Ctx = F.getContext();
  return createOpCall(B, Kind, Type::getTokenTy(Ctx),
                      {In, getI32Vector(Ctx, MT.Ty.Shape),
                       getI32Vector(Ctx, MT.Ty.Layout),
                       getI32Vector(Ctx, MT.Ty.Padding)});
}

// At the end of \p At (\p Pred, which branches only to \p Succ, or a block
// that leads only there), every merge in \p Succ gets its incoming tensor:
//   call void @llvm.tensor.store(ptr %merge, token %incoming, zeros)
// These copies happen at once, semantically: a source that reads another
// merge buffer written on this edge is copied aside first.
void MergeLowering::emitEdgeCopies(BasicBlock &Succ, BasicBlock &Pred,
                                   BasicBlock &At) {
  IRBuilder<> B(At.getTerminator());
  SmallPtrSet<Value *, 4> Written;
  SmallVector<std::pair<const MergedTensor *, Value *>, 4> Copies;
  for (PHINode &Phi : Succ.phis()) {
    auto It = Merges.find(&Phi);
    if (It == Merges.end())
      continue;
    Value *In = Phi.getIncomingValueForBlock(&Pred);
    if (isa<UndefValue>(In))
      continue; // no tensor on this path
    B.SetCurrentDebugLocation(It->second.Consumer->getDebugLoc());
    Copies.push_back({&It->second, getIncomingToken(B, It->second, In)});
    if (It->second.Buffer)
      Written.insert(It->second.Buffer);
  }
  SmallVector<Value *, 2> Snapshots;
  for (auto &[MT, Token] : Copies) {
    std::optional<TensorValue> TV = getTensorValue(Token);
    if (MT->isDynamic() || !TV || !TV->isMemory() ||
        !Written.count(TV->Data) || TV->Data == MT->Buffer)
      continue;
    Buffer Tmp = emitAllocBuffer(B, MT->Ty.Elem, MT->Ty.numElements(),
                                 "tlx.merge.tmp");
    Dims LD(MT->Ty.rank(), 0);
    createStore(B, Tmp.Ptr, Token, MT->Ty, LD);
    Token = createReader(B, Tmp.Ptr, MT->Ty, LD);
    if (Tmp.IsHeap)
      Snapshots.push_back(Tmp.Ptr);
  }
  emitRuntimeCopies(B, Copies);
  for (auto &[MT, Token] : Copies)
    if (!MT->isDynamic())
      createStore(B, MT->Buffer, Token, MT->Ty, Dims(MT->Ty.rank(), 0));
  for (Value *Ptr : Snapshots)
    emitFree(B, Ptr);
}

bool MergeLowering::run() {
  SmallVector<CallBase *, 4> Consumers = findMergedConsumers();
  if (Consumers.empty())
    return false;
  // Selects become branches first, so that every merge is a phi.
  for (CallBase *C : Consumers)
    for (Instruction *W : collectWeb(C->getArgOperand(0)))
      if (auto *Sel = dyn_cast<SelectInst>(W);
          Sel && Sel->getCondition()->getType()->isIntegerTy(1))
        selectToBranches(*Sel);
  // Each phi holds the tensor its first consumer names.
  SmallVector<std::pair<CallBase *, PHINode *>, 4> Replace;
  for (CallBase *C : Consumers) {
    auto *Root = dyn_cast<PHINode>(C->getArgOperand(0));
    std::optional<TensorValue> TV = getTensorValue(C);
    if (!Root || !TV)
      continue; // a vector select: an ordinary vector input
    for (Instruction *W : collectWeb(Root))
      if (auto *Phi = dyn_cast<PHINode>(W); Phi && !Merges.count(Phi))
        Merges.insert({Phi, MergedTensor{C, *getOpKind(*C), TV->Type}});
    Replace.push_back({C, Root});
  }
  if (Merges.empty())
    return true;
  for (auto &Entry : Merges)
    allocateBuffer(Entry.second);
  // Copies go at the end of each incoming path: split edges from blocks
  // that also branch elsewhere.
  SmallSetVector<BasicBlock *, 8> MergeBlocks;
  for (auto &Entry : Merges)
    MergeBlocks.insert(Entry.first->getParent());
  for (BasicBlock *Succ : MergeBlocks) {
    SmallSetVector<BasicBlock *, 4> Preds(pred_begin(Succ), pred_end(Succ));
    for (BasicBlock *Pred : Preds)
      if (Pred->getTerminator()->getNumSuccessors() > 1 &&
          !SplitEdge(Pred, Succ))
        emitError(*Pred->getTerminator(),
                  "cannot place the copies of tensors merged after this "
                  "branch");
  }
  DT.emplace(F);
  for (BasicBlock *Succ : MergeBlocks) {
    SmallSetVector<BasicBlock *, 4> Preds(pred_begin(Succ), pred_end(Succ));
    for (BasicBlock *Pred : Preds)
      emitEdgeCopies(*Succ, *Pred, *getCopyBlock(*Succ, *Pred));
  }
  for (auto &[C, Phi] : Replace)
    replaceConsumer(*C, *Phi);
  for (auto &Entry : Merges)
    replaceEscapes(*Entry.first);
  // The phis and the tovectors that fed them are dead now.
  SmallVector<Instruction *, 8> Dead;
  for (auto &Entry : Merges) {
    PHINode *Phi = Entry.first;
    for (Value *In : Phi->incoming_values())
      if (auto *TV = dyn_cast<CallBase>(In);
          TV && getOpKind(*TV) == OpKind::ToVector)
        Dead.push_back(TV);
    Phi->replaceAllUsesWith(PoisonValue::get(Phi->getType()));
  }
  for (auto &Entry : Merges)
    Entry.first->eraseFromParent();
  for (Instruction *I : Dead)
    if (I->use_empty() && I->getParent())
      I->eraseFromParent();
  return true;
}

//===----------------------------------------------------------------------===//
// Steps 2-6.
//===----------------------------------------------------------------------===//

/// A buffer this pass allocated for one value, the tokens that read it
/// (its load token, then memory typeinfos that re-type it), and where
/// non-TLX code reads it.
struct TempBuffer {
  Buffer Buf;
  TensorType Ty;
  SmallVector<CallInst *, 2> Readers;
  SmallVector<Instruction *, 2> EscapeReads;
  /// A matmul/mma result: its elementwise consumers may become a fused
  /// epilogue in tlx-tile, which a consumer writing in place would break.
  bool HoldsContraction = false;
};

class Bufferizer {
public:
  Bufferizer(Function &F, AAResults &AA, const TargetTransformInfo &TTI,
             const SmallPtrSetImpl<Value *> &MergeBuffers)
      : F(F), AA(AA), TTI(TTI), MergeBuffers(MergeBuffers) {}
  bool run();

private:
  void eraseDeadChains();
  void bufferizeVectorInput(CallBase &TI);
  void bufferizeWideToVector(CallBase &ToVec);
  CallInst *writeLogicalOrder(IRBuilderBase &B, Value *Token, Value *Ptr);
  void bufferizeResult(CallBase &Op);
  bool tryFuse(CallBase &Op, CallBase &TI);
  bool tryViewIntoGemm(CallBase &Op, CallBase &TI);
  bool tryStoreDestination(CallBase &Op, CallBase &TI);
  void bufferizeRuntimeResult(CallBase &Op, CallBase &TI);
  void bufferRuntimeResult(CallBase &Op, CallBase &TI, std::string Why = "");
  void writeRuntimeResult(CallBase &Op, CallBase &TI, CallBase &Store);
  CallBase *typeResultAtOp(CallBase &Op, const CallBase &TI);
  bool operandsUnchangedUntil(CallBase &Op, CallBase &TI, Instruction &At,
                              bool Report = true);
  std::pair<CallInst *, CallInst *> copyToRuntimeBuffer(IRBuilderBase &B,
                                                        Value *Token,
                                                        const CallBase &Op,
                                                        const Twine &Name);
  bool readsDestination(CallBase &Op, CallBase &Store);
  std::optional<unsigned> findReusableOperand(CallBase &Op, CallBase &TI,
                                              const TensorType &Ty);
  std::optional<unsigned> getDeadTemp(CallBase &Op, Value *Operand,
                                      const TensorType &Ty);
  void assignBuffer(CallBase &Op, CallBase &TI);
  void readEscapes(TempBuffer &T, ArrayRef<Use *> Escapes, const Value &Op);
  void separateOverlappingCopy(CallBase &Store);
  bool mayClobberInFunction(Value *Root);
  void protectUserMemory(CallBase &Def);
  unsigned addTemp(const Buffer &Buf, const TensorType &Ty, CallInst *Reader);
  void addReader(unsigned Index, CallInst *Reader);
  void emitFrees();

  Instruction *lastReader(Instruction *Token, bool &SameBlock);
  Instruction *lastRead(const TempBuffer &T, bool &SameBlock);

  Function &F;
  AAResults &AA;
  const TargetTransformInfo &TTI;
  const SmallPtrSetImpl<Value *> &MergeBuffers;
  SmallVector<TempBuffer, 8> Temps;
  DenseMap<Value *, unsigned> TempOfReader;
};

unsigned Bufferizer::addTemp(const Buffer &Buf, const TensorType &Ty,
                             CallInst *Reader) {
  Temps.push_back({Buf, Ty, {}, {}});
  addReader(Temps.size() - 1, Reader);
  return Temps.size() - 1;
}

void Bufferizer::addReader(unsigned Index, CallInst *Reader) {
  Temps[Index].Readers.push_back(Reader);
  TempOfReader[Reader] = Index;
}

// The tensor \p Token in logical row-major order at \p Ptr (what its
// tovector holds), written without a tensor-sized vector:
//   %t = transpose(token, identity) ; store(%ptr, typeinfo(%t, logical shape))
// Returns the store.
CallInst *Bufferizer::writeLogicalOrder(IRBuilderBase &B, Value *Token,
                                        Value *Ptr) {
  LLVMContext &Ctx = F.getContext();
  TensorType Ty = getTensorValue(Token)->Type;
  TensorType RowMajor = getLogicalRowMajor(Ty);
  Type *VecTy = FixedVectorType::get(Ty.Elem, Ty.numElements());
  CallInst *T = createOpCall(B, OpKind::Transpose, VecTy,
                             {Token, getI32Vector(Ctx, RowMajor.Layout)});
  T->setDebugLoc(B.getCurrentDebugLocation());
  CallInst *TT = createOpCall(B, OpKind::TypeInfo, Type::getTokenTy(Ctx),
                              {T, getI32Vector(Ctx, RowMajor.Shape),
                               getI32Vector(Ctx, RowMajor.Layout),
                               getI32Vector(Ctx, RowMajor.Padding)});
  return createStore(B, Ptr, TT, RowMajor, Dims(Ty.rank(), 0));
}

// A wide tovector result that C code reads (element reads, stores, by-value
// calls) is written once into a buffer in logical order, and C reads the
// buffer: no tensor-sized vector is assembled for the backend.
//   %v = tovector(%t) ; use(%v)  -->  store(%buf, transpose(%t)) ; use(%buf)
void Bufferizer::bufferizeWideToVector(CallBase &ToVec) {
  if (ToVec.use_empty() || !isWideVector(ToVec.getType(), F.getDataLayout()))
    return;
  TensorType RowMajor =
      getLogicalRowMajor(getTensorValue(ToVec.getArgOperand(0))->Type);
  IRBuilder<> B(&ToVec);
  B.SetCurrentDebugLocation(ToVec.getDebugLoc());
  Buffer Buf =
      emitAllocBuffer(B, RowMajor.Elem, RowMajor.numElements(), "tlx.vec");
  CallInst *Store = writeLogicalOrder(B, ToVec.getArgOperand(0), Buf.Ptr);
  SmallVector<Use *, 4> Escapes;
  for (Use &U : ToVec.uses())
    Escapes.push_back(&U);
  unsigned Index = addTemp(Buf, RowMajor, Store);
  readEscapes(Temps[Index], Escapes, ToVec);
  ToVec.eraseFromParent();
}

// typeinfo(<N x T> %v, ...) --> store <N x T> %v, ptr %buf
//                               typeinfo(ptr elementtype(T) %buf, ...)
void Bufferizer::bufferizeVectorInput(CallBase &TI) {
  std::optional<TensorValue> TV = getTensorValue(&TI);
  if (!TV || TV->isMemory())
    return;
  if (auto *Op = dyn_cast<CallBase>(TV->Data);
      Op && getOpKind(*Op) && getOpKind(*Op) != OpKind::ToVector)
    return; // a TLX result: step 3
  IRBuilder<> B(&TI);
  // A vector the C program loaded from memory is copied from there - when
  // it was loaded, whatever happens to that memory later: no tensor-sized
  // SSA value survives.
  auto *Ld = dyn_cast<LoadInst>(TV->Data);
  if (Ld && !Ld->isSimple())
    Ld = nullptr;
  IRBuilder<> AtLoad(Ld ? Ld->getNextNode() : &TI);
  Buffer Buf = emitAllocBuffer(AtLoad, TV->Type.Elem, TV->Type.numElements(),
                               "tlx.in");
  auto *ToVec = dyn_cast<CallBase>(TV->Data);
  if (Ld) {
    AtLoad.CreateMemCpy(Buf.Ptr, Align(1), Ld->getPointerOperand(),
                        Ld->getAlign(), Buf.Bytes);
  } else if (ToVec && getOpKind(*ToVec) == OpKind::ToVector) {
    writeLogicalOrder(B, ToVec->getArgOperand(0), Buf.Ptr);
  } else if (auto *C = dyn_cast<Constant>(TV->Data)) {
    emitConstantStore(B, Buf.Ptr, Align(1), C, TTI);
  } else {
    B.CreateAlignedStore(TV->Data, Buf.Ptr, Align(1));
  }
  // typeinfo data is in storage order, totensor data in logical row-major
  // order: the memory form keeps the op, so readers know which.
  LLVMContext &Ctx = F.getContext();
  CallInst *New = createOpCall(
      B, *getOpKind(TI), Type::getTokenTy(Ctx),
      {Buf.Ptr, TI.getArgOperand(1), TI.getArgOperand(2), TI.getArgOperand(3)},
      TV->Type.Elem);
  New->setDebugLoc(TI.getDebugLoc());
  New->takeName(&TI);
  TI.replaceAllUsesWith(New);
  TI.eraseFromParent();
  if (Ld && Ld->use_empty())
    Ld->eraseFromParent();
  if (ToVec && getOpKind(*ToVec) == OpKind::ToVector && ToVec->use_empty())
    ToVec->eraseFromParent();
  if (Buf.IsHeap) {
    // What the buffer holds, for a result that would reuse it in place: a
    // typeinfo's data packed (whatever padding it asks for), a totensor's
    // in logical row-major order (whatever layout it names).
    TensorType Held = TV->Type;
    Held.Padding.assign(Held.rank(), 0);
    if (getOpKind(*New) == OpKind::ToTensor)
      Held = getLogicalRowMajor(TV->Type);
    addTemp(Buf, Held, New);
  }
  emitRemark(DEBUG_TYPE, "VectorInput", *New,
             "tensor " + formatShape(TV->Type.Shape) + " " +
                 elementTypeName(TV->Type.Elem) + " passed by value: copied " +
                 "once into a " + (Buf.IsHeap ? "heap" : "stack") +
                 " buffer (" + Twine(Buf.Bytes) + " bytes)");
}

// A 2-D transpose of a tensor in memory that only 2-D matmul / mma
// operands read is no copy: tlx-tile reads the memory through swapped
// strides (getViewThroughIndexMaps), so the GEMM's packing transposes. A
// broadcast likewise (stride 0 along the repeated dims), also as an mma's
// accumulator (the bias of a dense layer): the GEMM reads its first sums
// through those strides.
bool Bufferizer::tryViewIntoGemm(CallBase &Op, CallBase &TI) {
  std::optional<OpKind> Kind = getOpKind(Op);
  bool IsBroadcast = Kind == OpKind::Broadcast && Op.arg_size() == 1;
  if ((Kind != OpKind::Transpose && !IsBroadcast) || TI.use_empty())
    return false;
  std::optional<TensorValue> Result = getTensorValue(&TI);
  std::optional<StridedView> View = getViewThroughIndexMaps(&TI);
  if (!Result || Result->Type.rank() != 2 || !View)
    return false;
  SmallVector<Value *, 2> Roots;
  collectMemoryRoots(Op.getArgOperand(0), Roots);
  for (const Use &U : TI.uses()) {
    auto *User = dyn_cast<CallBase>(U.getUser());
    std::optional<OpKind> K = User ? getOpKind(*User) : std::nullopt;
    bool IsMMA = K && getMMASignedness(*K);
    bool IsGemmOperand = K == OpKind::MatMul || (IsMMA && U.getOperandNo()) ||
                         (IsMMA && IsBroadcast);
    if (!IsGemmOperand || User->getParent() != Op.getParent() ||
        mayClobberBetween(Roots, &Op, User, AA))
      return false;
  }
  emitRemark(DEBUG_TYPE, "ViewIntoGemm", Op,
             getOpDesc(*Kind).shortName() +
                 (IsBroadcast ? ": no buffer, the GEMM reads its operand "
                                "through stride 0 along the repeated dims"
                              : ": no buffer, the GEMM reads its operand "
                                "through swapped strides"));
  return true;
}

/// The one use of \p TI that reads its data (uses that only take its
/// shape, as the splat in `t * 0.5f` does, need no buffer), or null.
static Use *getOnlyDataUse(CallBase &TI) {
  Use *Data = nullptr;
  for (Use &U : TI.uses()) {
    if (readsShapeOnly(U))
      continue;
    if (Data)
      return nullptr;
    Data = &U;
  }
  return Data;
}

bool Bufferizer::tryFuse(CallBase &Op, CallBase &TI) {
  Use *Only = getOnlyDataUse(TI);
  if (!isFusibleProducer(*getOpKind(Op)) || !Only)
    return false;
  auto *User = dyn_cast<CallBase>(Only->getUser());
  std::optional<OpKind> UK = User ? getOpKind(*User) : std::nullopt;
  if (!UK || !isFusibleConsumer(*UK) || User->getParent() != Op.getParent())
    return false;
  if (mayClobberBetween(collectTokenRoots(Op), &Op, User, AA))
    return false;
  emitRemark(DEBUG_TYPE, "Fused", Op,
             getOpDesc(*getOpKind(Op)).shortName() +
                 ": no buffer, fused into its consumer '" +
                 getOpDesc(*UK).shortName() + "' (computed per element)");
  return true;
}

/// Whether \p A and \p B may be the same object as far as the program
/// text shows: one value, or pointers loaded from one variable.
bool maySameObject(const Value *A, const Value *B) {
  A = getUnderlyingObject(A);
  B = getUnderlyingObject(B);
  if (A == B)
    return true;
  const auto *LA = dyn_cast<LoadInst>(A), *LB = dyn_cast<LoadInst>(B);
  return LA && LB &&
         getUnderlyingObject(LA->getPointerOperand()) ==
             getUnderlyingObject(LB->getPointerOperand());
}

/// Whether the memory token \p Token reads exactly the elements of \p Dst.
bool readsSameView(const Value *Token, const StridedView &Dst,
                   AAResults &AA) {
  std::optional<StridedView> In = getMemoryView(Token);
  return In && isSamePointer(In->Ptr, Dst.Ptr, AA) && In->Elem == Dst.Elem &&
         In->Strides == Dst.Strides && In->Shape == Dst.Shape;
}

/// Whether \p Op, writing through \p Store, would overwrite elements it
/// has yet to read: its operands read the destination's object, except an
/// elementwise op reading exactly the elements it writes.
bool Bufferizer::readsDestination(CallBase &Op, CallBase &Store) {
  // (Run-time strides: no view to compare, only the object.)
  std::optional<StridedView> Dst;
  if (!storesThroughRuntimeStrides(Store))
    Dst = getStoreView(Store);
  Value *DstPtr = Store.getArgOperand(0);
  OpKind Kind = *getOpKind(Op);
  bool IsMMA = isContraction(Kind) && Kind != OpKind::MatMul &&
               Kind != OpKind::Contract && Kind != OpKind::Convolution;
  for (unsigned I = 0; I < Op.arg_size(); ++I) {
    Value *Arg = Op.getArgOperand(I);
    if (!Arg->getType()->isTokenTy())
      continue;
    // Read element for element where it is written: an elementwise
    // operand, or the accumulator of an mma.
    if ((isElementwise(Kind) || (IsMMA && I == 0)) && Dst &&
        readsSameView(Arg, *Dst, AA))
      continue;
    SmallVector<Value *, 4> Roots;
    collectMemoryRoots(Arg, Roots);
    for (Value *Root : Roots)
      if (maySameObject(Root, DstPtr))
        return true;
  }
  return false;
}

bool Bufferizer::tryStoreDestination(CallBase &Op, CallBase &TI) {
  if (!TI.hasOneUse())
    return false;
  auto *Store = dyn_cast<CallBase>(TI.user_back());
  if (!Store || getOpKind(*Store) != OpKind::Store ||
      Store->getArgOperand(1) != &TI || Store->getParent() != Op.getParent() ||
      !Op.comesBefore(Store))
    return false;
  if (mayClobberBetween(collectTokenRoots(Op), &Op, Store, AA))
    return false;
  if (readsDestination(Op, *Store)) {
    emitRemark(DEBUG_TYPE, "InPlaceConflict", Op,
               getOpDesc(*getOpKind(Op)).shortName() +
                   ": its destination is also an operand; computed into a "
                   "buffer first");
    return false;
  }
  // The op computes where the store was.
  compat::moveBefore(&Op, Store);
  compat::moveBefore(&TI, Store);
  emitRemark(DEBUG_TYPE, "StoreDestination", Op,
             getOpDesc(*getOpKind(Op)).shortName() +
                 ": result written in place into the destination of its "
                 "tensor.store");
  return true;
}

/// Whether \p Reader broadcasts the result it reads: fused in, the result
/// would be computed again for every element the broadcast repeats it to
/// (softmax's row maximum - a fold of the row - once per column).
static bool isRepeatedByBroadcast(const CallBase &Reader) {
  return getOpKind(Reader) == OpKind::Broadcast && Reader.arg_size() == 1;
}

/// Whether the one reader of \p TI, the typeinfo of a result with run-time
/// extents, takes it without a buffer: a store of it, or an op computing
/// it element by element in the same loop nest (a contraction's result
/// only through unary ops, its GEMM's epilogue), in its block.
static bool readsWithoutBuffer(const CallBase &TI) {
  const auto *Reader =
      TI.hasOneUse() ? dyn_cast<CallBase>(TI.user_back()) : nullptr;
  std::optional<OpKind> K = Reader ? getOpKind(*Reader) : std::nullopt;
  if (!K || Reader->getParent() != TI.getParent() || Reader->comesBefore(&TI))
    return false;
  if (*K == OpKind::Store)
    return Reader->getArgOperand(1) == &TI;
  if (isRepeatedByBroadcast(*Reader))
    return false;
  // A contraction at the root of unary ops: tlx-tile's epilogue (not
  // contract's or convolution's, lowered through buffers by tlx-nd-to-2d).
  const CallBase *Root = walkUnaryChain(&TI).rootOp();
  if (Root && isContraction(*getOpKind(*Root)))
    return isUnaryElementwise(*K) && getOpKind(*Root) != OpKind::Contract &&
           getOpKind(*Root) != OpKind::Convolution;
  return isRuntimeFusible(*K);
}

/// A result with run-time extents is computed into the destination of the
/// store of its typeinfo, with the ops that read it element by element
/// fused in (the last of them, the one stored, handles them here), or into
/// a heap buffer of its run-time size that its readers read. tlx-tile and
/// tlx-legalize check at run time that a destination overlaps no operand.
void Bufferizer::bufferizeRuntimeResult(CallBase &Op, CallBase &TI) {
  if (!Op.hasOneUse())
    return emitError(Op, "a result whose extents are computed at run time "
                         "is named by one tensor_typeinfo in this version");
  if (!readsWithoutBuffer(TI))
    return bufferRuntimeResult(Op, TI);
  auto *Reader = cast<CallBase>(TI.user_back());
  if (getOpKind(*Reader) == OpKind::Store)
    return writeRuntimeResult(Op, TI, *Reader);
  // Fused into its reader, the op reads its operands there.
  if (!operandsUnchangedUntil(Op, TI, *Reader, /*Report=*/false))
    bufferRuntimeResult(Op, TI,
                        "its operands may be written before " +
                            getOpDesc(*getOpKind(*Reader)).shortName().str() +
                            " reads it");
}

/// Allocates a heap buffer for the tensor \p Token (run-time extents) at
/// \p B, checking that its size fits, and writes \p Token into it: returns
/// the store and a load token reading the buffer.
std::pair<CallInst *, CallInst *>
Bufferizer::copyToRuntimeBuffer(IRBuilderBase &B, Value *Token,
                                const CallBase &Op, const Twine &Name) {
  TensorType Ty = getTensorValue(Token)->Type;
  Ty.Padding.assign(Ty.rank(), 0);
  SmallVector<Value *, 4> Extents;
  for (unsigned D = 0; D < Ty.rank(); ++D)
    Extents.push_back(emitExtent(B, Ty, D));
  Buffer Buf;
  Buf.Ptr = emitRuntimeTensorAlloc(B, Op, Ty.Elem, Extents);
  Buf.Ptr->setName(Name);
  Buf.IsHeap = true;
  Buf.Bytes = -1;
  Dims LD(Ty.rank(), 0);
  CallInst *Store = createStore(B, Buf.Ptr, Token, Ty, LD);
  Store->setDebugLoc(Op.getDebugLoc());
  CallInst *Reader = createReader(B, Buf.Ptr, Ty, LD);
  Reader->setDebugLoc(Op.getDebugLoc());
  addTemp(Buf, Ty, Reader);
  return {Store, Reader};
}

/// Why the result \p TI types needs a buffer (readsWithoutBuffer() said
/// no, or its operands change before its store), for the remark.
static std::string whyBuffered(const CallBase &TI) {
  const auto *Reader =
      TI.hasOneUse() ? dyn_cast<CallBase>(TI.user_back()) : nullptr;
  if (!Reader)
    return "read more than once";
  if (Reader->getParent() != TI.getParent())
    return "read in another block";
  OpKind K = *getOpKind(*Reader);
  if (K == OpKind::Store)
    return "its operands may be written before its store";
  if (isRepeatedByBroadcast(*Reader))
    return "repeated by a broadcast: computed once";
  if (isRuntimeFusible(K))
    return "read by " + getOpDesc(K).shortName().str() +
           ", which its GEMM's write-back does not apply";
  return "read by an op that reads memory";
}

// %r = op(...); %t = typeinfo(%r, <run-time shape>); (readers of %t)
// -->
// %buf = malloc(run-time size); store(%buf, %t); %b = load(%buf, shape)
// (readers of %b); free(%buf) after the last
void Bufferizer::bufferRuntimeResult(CallBase &Op, CallBase &TI,
                                     std::string Why) {
  if (Why.empty())
    Why = whyBuffered(TI);
  CallBase *Named = &TI;
  // The program may write what the op reads before it names the result:
  // the result is typed and copied where the op is, and the program's
  // typeinfo is checked to give its extents.
  if (!operandsUnchangedUntil(Op, TI, TI, /*Report=*/false))
    if (CallBase *AtOp = typeResultAtOp(Op, TI)) {
      mergeRuntimeTypeInfo(*AtOp, TI);
      Named = AtOp;
    }
  IRBuilder<> B(Named->getNextNode());
  auto [Store, Reader] = copyToRuntimeBuffer(B, Named, Op, "tlx.rtbuf");
  Named->replaceUsesWithIf(Reader,
                           [&](Use &U) { return U.getUser() != Store; });
  if (!operandsUnchangedUntil(Op, *Named, *Store))
    return;
  emitRemark(DEBUG_TYPE, "RuntimeBuffer", Op,
             getOpDesc(*getOpKind(Op)).shortName() +
                 ": result with run-time extents computed into a heap "
                 "buffer of its run-time size (" +
                 Why + ")");
}

/// A typeinfo right after \p Op of the extents it computes, in the layout
/// and padding of its typeinfo \p TI; null when the op's extents come
/// from \p TI itself (one-operand broadcast, the reshapes).
CallBase *Bufferizer::typeResultAtOp(CallBase &Op, const CallBase &TI) {
  IRBuilder<> B(Op.getNextNode());
  B.SetCurrentDebugLocation(Op.getDebugLoc());
  std::string Why;
  std::optional<TensorType> Ty =
      inferHomedResultTypeAs(B, Op, getTensorValue(&TI)->Type, Why);
  return Ty ? emitTypeInfo(B, &Op, *Ty) : nullptr;
}

/// Whether nothing writes what the ops computing \p TI (\p Op's result)
/// read between each of them and \p At, in one block; else says why when
/// \p Report.
bool Bufferizer::operandsUnchangedUntil(CallBase &Op, CallBase &TI,
                                        Instruction &At, bool Report) {
  // Every op computing the tensor (a contraction at its root included)
  // reads its operands at At: nothing may write them from the op on. (Ops
  // in other blocks have constant extents: fused as such, checked there.)
  FusedTree Tree = walkFusedTree(&TI);
  SmallVector<CallBase *, 8> Ops(Tree.Ops);
  for (const Value *Leaf : Tree.Leaves)
    if (std::optional<TensorValue> TV = getTensorValue(Leaf);
        TV && !TV->isMemory())
      if (auto *Root = dyn_cast<CallBase>(TV->Data))
        Ops.push_back(Root);
  bool Unchanged = Op.getParent() == At.getParent() && Op.comesBefore(&At);
  for (CallBase *C : Ops)
    if (C->getParent() == At.getParent())
      Unchanged &= !mayClobberBetween(collectTokenRoots(*C), C, &At, AA);
  if (!Unchanged && Report)
    emitError(Op, "the operands of " + getOpDesc(*getOpKind(Op)).shortName() +
                      " may be written before its result is stored; with "
                      "extents computed at run time, store the result right "
                      "away (TLX_STORE(dst, tlx_op(...)))");
  return Unchanged;
}

/// Computes \p Op's result, typed by \p TI, where \p Store writes it, or
/// where it is defined, into a buffer, when its operands may change before.
void Bufferizer::writeRuntimeResult(CallBase &Op, CallBase &TI,
                                    CallBase &Store) {
  if (!operandsUnchangedUntil(Op, TI, Store, /*Report=*/false))
    return bufferRuntimeResult(Op, TI);
  compat::moveBefore(&Op, &Store);
  compat::moveBefore(&TI, &Store);
  emitRemark(DEBUG_TYPE, "StoreDestination", Op,
             getOpDesc(*getOpKind(Op)).shortName() +
                 ": result with run-time extents written into the "
                 "destination of its tensor.store");
}

/// An elementwise op may write over an operand's buffer when that is a
/// temporary of the same type whose last read is this op: no other TLX
/// reader, and every non-TLX read before it in its block.
std::optional<unsigned> Bufferizer::findReusableOperand(CallBase &Op,
                                                        CallBase &TI,
                                                        const TensorType &Ty) {
  if (!isElementwise(*getOpKind(Op)))
    return std::nullopt;
  // A chain of single-use elementwise ops after a matmul is the epilogue
  // tlx-tile fuses: keep the GEMM's temporary its own.
  bool MayContinueEpilogue =
      pipelineOptions().FuseEpilogues && getOnlyDataUse(TI);
  for (Value *Operand : Op.args())
    if (std::optional<unsigned> Index = getDeadTemp(Op, Operand, Ty))
      if (!(MayContinueEpilogue && Temps[*Index].HoldsContraction))
        return Index;
  return std::nullopt;
}

/// The temporary \p Operand reads, when it has type \p Ty and \p Op is its
/// last read.
std::optional<unsigned> Bufferizer::getDeadTemp(CallBase &Op, Value *Operand,
                                                const TensorType &Ty) {
  auto It = TempOfReader.find(Operand);
  if (It == TempOfReader.end())
    return std::nullopt;
  TempBuffer &T = Temps[It->second];
  if (T.Ty.Elem != Ty.Elem || T.Ty.Shape != Ty.Shape ||
      T.Ty.Layout != Ty.Layout || T.Ty.Padding != Ty.Padding)
    return std::nullopt;
  for (CallInst *R : T.Readers)
    if (R == Operand ? any_of(R->users(), [&](User *U) { return U != &Op; })
                     : !R->use_empty())
      return std::nullopt;
  for (Instruction *R : T.EscapeReads)
    if (R->getParent() != Op.getParent() || !R->comesBefore(&Op))
      return std::nullopt;
  return It->second;
}

// Non-TLX uses read the buffer where they are:
//   store <N x T> %r, ptr %p   -->  memcpy(%p, %buf)
//   extractelement %r, %i      -->  load T, ptr (gep %buf, %i)
//   use(<N x T> %r)            -->  %v = load <N x T>, ptr %buf ; use(%v)
void Bufferizer::readEscapes(TempBuffer &T, ArrayRef<Use *> Escapes,
                             const Value &Op) {
  const DataLayout &DL = F.getDataLayout();
  for (Use *U : Escapes) {
    if (LoadInst *Load = readElement(*U, T.Buf.Ptr)) {
      T.EscapeReads.push_back(Load);
      continue;
    }
    auto *SI = dyn_cast<StoreInst>(U->getUser());
    if (SI && SI->isSimple() && U->getOperandNo() == 0) {
      IRBuilder<> SB(SI);
      CallInst *Copy = SB.CreateMemCpy(
          SI->getPointerOperand(), SI->getAlign(), T.Buf.Ptr, Align(1),
          paddedNumElements(T.Ty) * DL.getTypeAllocSize(T.Ty.Elem));
      Copy->setDebugLoc(SI->getDebugLoc());
      SI->eraseFromParent();
      T.EscapeReads.push_back(Copy);
      continue;
    }
    IRBuilder<> B(getReadPoint(*U));
    LoadInst *Vec = B.CreateAlignedLoad(Op.getType(), T.Buf.Ptr, Align(1),
                                        Op.getName() + ".vec");
    U->set(Vec);
    T.EscapeReads.push_back(Vec);
  }
}

void Bufferizer::assignBuffer(CallBase &Op, CallBase &TI) {
  std::optional<TensorValue> RT = getTensorValue(&TI);
  TensorType Ty = RT->Type;
  OpKind Kind = *getOpKind(Op);

  SmallVector<Use *, 4> Escapes;
  SmallVector<CallBase *, 2> Retypes;
  for (Use &U : Op.uses()) {
    auto *UC = dyn_cast<CallBase>(U.getUser());
    if (UC == &TI)
      continue;
    if (UC && getOpKind(*UC) == OpKind::TypeInfo)
      Retypes.push_back(UC);
    else
      Escapes.push_back(&U);
  }
  // Vector escapes and re-typings read the buffer as the flat vector: keep
  // it packed.
  bool Packed = !Escapes.empty() || !Retypes.empty();
  if (Packed)
    Ty.Padding.assign(Ty.rank(), 0);

  // Place the typeinfo right after the op so the result is written there.
  TI.moveAfter(&Op);
  IRBuilder<> B(&Op);

  std::optional<unsigned> Reused = findReusableOperand(Op, TI, Ty);
  Buffer Buf = Reused ? Temps[*Reused].Buf
                      : emitAllocBuffer(B, Ty.Elem, paddedNumElements(Ty),
                                        "tlx.tmp");

  Dims LD = paddedLeadingDims(Ty);
  B.SetInsertPoint(TI.getNextNode());
  CallInst *Store = createStore(B, Buf.Ptr, &TI, Ty, LD);
  Store->setDebugLoc(Op.getDebugLoc());
  CallInst *Reader = createReader(B, Buf.Ptr, Ty, LD);
  Reader->setDebugLoc(Op.getDebugLoc());
  TI.replaceUsesWithIf(Reader, [&](Use &U) { return U.getUser() != Store; });

  unsigned Index = addTemp(Buf, Ty, Reader);
  Temps[Index].HoldsContraction = isContraction(Kind);
  readEscapes(Temps[Index], Escapes, Op);
  DominatorTree DT(F);
  for (CallBase *RTI : Retypes) {
    IRBuilder<> RB(RTI);
    if (!DT.dominates(Reader, RTI))
      RB.SetInsertPoint(Reader->getNextNode());
    CallInst *New = createOpCall(RB, OpKind::TypeInfo,
                                 Type::getTokenTy(F.getContext()),
                                 {Buf.Ptr, RTI->getArgOperand(1),
                                  RTI->getArgOperand(2), RTI->getArgOperand(3)},
                                 Ty.Elem);
    New->takeName(RTI);
    RTI->replaceAllUsesWith(New);
    RTI->eraseFromParent();
    // Its readers read this buffer: they are this value's readers.
    addReader(Index, New);
  }

  std::string What = Reused
                         ? std::string("reuses its operand's buffer")
                         : (Twine("into a ") + (Buf.IsHeap ? "heap" : "stack") +
                            " buffer of " + Twine(Buf.Bytes) + " bytes")
                               .str();
  emitRemark(DEBUG_TYPE, "Buffer", Op,
             getOpDesc(Kind).shortName() + ": result " + formatShape(Ty.Shape) +
                 " " + elementTypeName(Ty.Elem) + " " + What +
                 (Escapes.empty() ? ""
                                  : "; non-TLX code reads it from the "
                                    "buffer"));
}

void Bufferizer::bufferizeResult(CallBase &Op) {
  if (const CallBase *TI = getResultTypeInfo(Op))
    if (std::optional<TensorValue> TV = getTensorValue(TI);
        TV && TV->Type.isDynamic())
      return bufferizeRuntimeResult(Op, *const_cast<CallBase *>(TI));
  std::string Why;
  // A typeinfo nothing reads (the C statement `tensor_typeinfo(v, ...);`
  // that only names v) is not a reader: when TLX ops read the result
  // through another one, the op may still fuse into that reader. (With C
  // code reading the vector, each typeinfo may be what says its layout.)
  auto IsTypeInfo = [](User *U) {
    auto *C = dyn_cast<CallBase>(U);
    return C && getOpKind(*C) == OpKind::TypeInfo;
  };
  auto IsDeadTypeInfo = [&](User *U) {
    return IsTypeInfo(U) && U->use_empty();
  };
  // The first typeinfo says how the op writes its result; another one
  // reads those positions with its own type. So the first stays, unused,
  // when another reads with a different type.
  const CallBase *First = getResultTypeInfo(Op);
  std::optional<TensorValue> FirstTV =
      First ? getTensorValue(First) : std::nullopt;
  auto ReadsAsFirst = [&](User *U) {
    std::optional<TensorValue> TV = getTensorValue(U);
    return FirstTV && TV && TV->Type.Shape == FirstTV->Type.Shape &&
           TV->Type.Layout == FirstTV->Type.Layout &&
           TV->Type.Padding == FirstTV->Type.Padding;
  };
  bool KeepFirst = !all_of(Op.users(), [&](User *U) {
    return IsDeadTypeInfo(U) || ReadsAsFirst(U);
  });
  if (all_of(Op.users(), IsTypeInfo) && !all_of(Op.users(), IsDeadTypeInfo))
    for (User *U : make_early_inc_range(Op.users()))
      if (IsDeadTypeInfo(U) && !(KeepFirst && U == First))
        cast<Instruction>(U)->eraseFromParent();
  auto *TI = const_cast<CallBase *>(getResultTypeInfo(Op));
  if (!TI) {
    if (Op.use_empty()) {
      Op.eraseFromParent();
      return;
    }
    // Only non-TLX users: type the result as the op defines it.
    std::optional<TensorType> Ty = getResultTensorType(Op, Why);
    if (!Ty) {
      emitError(Op, "cannot bufferize '" +
                        getOpDesc(*getOpKind(Op)).shortName() + "': " + Why);
      return;
    }
    LLVMContext &Ctx = F.getContext();
    IRBuilder<> B(Op.getNextNode());
    TI = createOpCall(B, OpKind::TypeInfo, Type::getTokenTy(Ctx),
                      {&Op, getI32Vector(Ctx, Ty->Shape),
                       getI32Vector(Ctx, Ty->Layout),
                       getI32Vector(Ctx, Ty->Padding)});
  }
  // A result nothing reads is not computed.
  if (all_of(Op.users(), IsDeadTypeInfo)) {
    emitRemark(DEBUG_TYPE, "Unused", Op,
               getOpDesc(*getOpKind(Op)).shortName() +
                   ": result unused, not computed");
    while (!Op.use_empty())
      cast<Instruction>(Op.user_back())->eraseFromParent();
    Op.eraseFromParent();
    return;
  }
  bool OnlyTI = Op.hasOneUse();
  if (OnlyTI && TI->getParent() == Op.getParent() &&
      (tryViewIntoGemm(Op, *TI) || tryFuse(Op, *TI) ||
       tryStoreDestination(Op, *TI)))
    return;
  assignBuffer(Op, *TI);
}

/// The last instruction (same block) that reads through \p Token, following
/// fused consumers; SameBlock is false when some reader is elsewhere.
Instruction *Bufferizer::lastReader(Instruction *Token, bool &SameBlock) {
  Instruction *Last = Token;
  SmallVector<Instruction *, 8> Work{Token};
  SmallPtrSet<Instruction *, 16> Seen;
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    if (!Seen.insert(I).second)
      continue;
    if (I->getParent() != Token->getParent()) {
      SameBlock = false;
      continue;
    }
    if (Last->comesBefore(I))
      Last = I;
    for (User *U : I->users())
      Work.push_back(cast<Instruction>(U));
  }
  return Last;
}

/// The last read of the value held in \p T: its TLX readers and its
/// non-TLX reads.
Instruction *Bufferizer::lastRead(const TempBuffer &T, bool &SameBlock) {
  Instruction *Last = T.Readers.front();
  auto Visit = [&](Instruction *R) {
    if (R->getParent() != Last->getParent())
      SameBlock = false;
    else if (Last->comesBefore(R))
      Last = R;
  };
  for (CallInst *Reader : T.Readers)
    Visit(lastReader(Reader, SameBlock));
  for (Instruction *R : T.EscapeReads)
    Visit(R);
  return Last;
}

/// Whether two views certainly touch different bytes: constant offsets
/// from one base, and address ranges that do not meet.
bool areDisjoint(const StridedView &A, const StridedView &B,
                 const DataLayout &DL) {
  auto Range = [&](const StridedView &V, const Value *&Base, int64_t &Begin,
                   int64_t &End) {
    Base = GetPointerBaseWithConstantOffset(V.Ptr, Begin, DL);
    int64_t Size = DL.getTypeAllocSize(V.Elem), Last = 0;
    for (unsigned I = 0; I < V.rank(); ++I)
      Last += (V.Shape[I] - 1) * V.Strides[I];
    End = Begin + (Last + 1) * Size;
  };
  const Value *BaseA, *BaseB;
  int64_t BeginA, EndA, BeginB, EndB;
  Range(A, BaseA, BeginA, EndA);
  Range(B, BaseB, BeginB, EndB);
  return BaseA == BaseB && (EndA <= BeginB || EndB <= BeginA);
}

//   store(%dst, load(%dst + 1, ...))   ; overlapping views of one object
// -->
//   store(%tmp, load(%dst + 1, ...)); store(%dst, load(%tmp))
void Bufferizer::separateOverlappingCopy(CallBase &Store) {
  Value *Token = Store.getArgOperand(1);
  std::optional<TensorValue> TV = getTensorValue(Token);
  if (!TV || !TV->isMemory() || MergeBuffers.count(TV->Data))
    return;
  if (TV->hasRuntimeSizes() || storesThroughRuntimeStrides(Store))
    return; // tlx-legalize checks the overlap at run time
  StridedView Dst = getStoreView(Store);
  if (!maySameObject(TV->Data, Dst.Ptr) || readsSameView(Token, Dst, AA) ||
      areDisjoint(*getMemoryView(Token), Dst, F.getDataLayout()))
    return;
  TensorType Ty = TV->Type;
  Ty.Padding.assign(Ty.rank(), 0);
  IRBuilder<> B(&Store);
  Buffer Buf = emitAllocBuffer(B, Ty.Elem, Ty.numElements(), "tlx.overlap");
  Dims LD(Ty.rank(), 0);
  createStore(B, Buf.Ptr, Token, Ty, LD)->setDebugLoc(Store.getDebugLoc());
  CallInst *Reader = createReader(B, Buf.Ptr, Ty, LD);
  Reader->setDebugLoc(Store.getDebugLoc());
  Store.setArgOperand(1, Reader);
  addTemp(Buf, Ty, Reader);
  emitRemark(DEBUG_TYPE, "OverlappingCopy", Store,
             "store: source and destination may overlap in one object; "
             "copied through a " +
                 std::string(Buf.IsHeap ? "heap" : "stack") + " buffer");
}

/// Whether anything in the function may write the memory \p Root points
/// into (readers in other blocks: any path may lead through any write).
bool Bufferizer::mayClobberInFunction(Value *Root) {
  for (Instruction &I : instructions(F)) {
    if (!I.mayWriteToMemory())
      continue;
    if (std::optional<OpKind> K = getOpKind(&I); K && *K != OpKind::Store)
      continue;
    if (isModSet(AA.getModRefInfo(&I, MemoryLocation::getBeforeOrAfter(Root))))
      return true;
  }
  return false;
}

void Bufferizer::protectUserMemory(CallBase &Def) {
  // A load or memory typeinfo of user memory: its readers read it where
  // they materialize. Copy it now when that memory may change before.
  std::optional<TensorValue> TV = getTensorValue(&Def);
  if (!TV || !TV->isMemory() || TempOfReader.count(&Def) ||
      MergeBuffers.count(TV->Data) || Def.use_empty())
    return;
  bool SameBlock = true;
  Instruction *Last = lastReader(&Def, SameBlock);
  if (SameBlock ? !mayClobberBetween({TV->Data}, &Def, Last, AA)
                : !mayClobberInFunction(TV->Data))
    return;
  TensorType Ty = TV->Type;
  IRBuilder<> B(Def.getNextNode());
  if (Ty.isDynamic()) {
    auto [Store, Reader] = copyToRuntimeBuffer(B, &Def, Def, "tlx.copy");
    Def.replaceUsesWithIf(Reader, [&](Use &U) { return U.getUser() != Store; });
    emitRemark(DEBUG_TYPE, "Snapshot", Def,
               "tensor with run-time extents copied at its definition into "
               "a heap buffer of its run-time size: its memory may be "
               "written before its last reader");
    return;
  }
  Buffer Buf = emitAllocBuffer(B, Ty.Elem, paddedNumElements(Ty), "tlx.copy");
  Dims LD = paddedLeadingDims(Ty);
  CallInst *Store = createStore(B, Buf.Ptr, &Def, Ty, LD);
  Store->setDebugLoc(Def.getDebugLoc());
  CallInst *Reader = createReader(B, Buf.Ptr, Ty, LD);
  Reader->setDebugLoc(Def.getDebugLoc());
  Def.replaceUsesWithIf(Reader, [&](Use &U) { return U.getUser() != Store; });
  addTemp(Buf, Ty, Reader);
  emitRemark(DEBUG_TYPE, "Snapshot", Def,
             "tensor " + formatShape(Ty.Shape) + " " +
                 elementTypeName(Ty.Elem) +
                 " copied at its definition: its memory may be written "
                 "before its last reader");
}

// Heap buffers: free(ptr) after the last read in the block; when reads
// are in other blocks, the pointer lives in an entry-block slot that is
// freed before the next malloc of the same buffer and at every return
// (SSA: the value the previous malloc held is dead when the malloc runs
// again - a value live across that is a merge and has its own buffer).
void Bufferizer::emitFrees() {
  DenseSet<Value *> Done;
  for (TempBuffer &T : Temps) {
    if (!T.Buf.IsHeap || !Done.insert(T.Buf.Ptr).second)
      continue;
    // Every value the buffer holds (reuse chains).
    auto *Malloc = cast<Instruction>(T.Buf.Ptr);
    Instruction *Last = Malloc;
    bool SameBlock = true;
    for (TempBuffer &U : Temps)
      if (U.Buf.Ptr == T.Buf.Ptr) {
        Instruction *L = lastRead(U, SameBlock);
        if (L->getParent() == Last->getParent() && Last->comesBefore(L))
          Last = L;
        else if (L->getParent() != Last->getParent())
          SameBlock = false;
      }
    if (SameBlock) {
      IRBuilder<> B(Last->getNextNode());
      emitFree(B, T.Buf.Ptr);
      continue;
    }
    IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().begin());
    AllocaInst *Slot = EB.CreateAlloca(EB.getPtrTy(), nullptr, "tlx.heap.slot");
    EB.SetInsertPoint(Slot->getNextNode());
    EB.CreateStore(Constant::getNullValue(EB.getPtrTy()), Slot);
    IRBuilder<> B(Malloc);
    emitFree(B, B.CreateLoad(B.getPtrTy(), Slot));
    B.SetInsertPoint(Malloc->getNextNode());
    B.CreateStore(Malloc, Slot);
    for (BasicBlock &BB : F)
      if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
        IRBuilder<> RB(Ret);
        emitFree(RB, RB.CreateLoad(RB.getPtrTy(), Slot));
      }
  }
}

/// Whether \p I is a TLX op that computes a value or names one (no
/// effect but its result) and nothing reads it: a data op whose only users
/// are typeinfos nobody reads, or such a typeinfo / load / totensor.
static bool isDeadTensorCode(const Instruction &I) {
  auto *CB = dyn_cast<CallBase>(&I);
  std::optional<OpKind> K = CB ? getOpKind(*CB) : std::nullopt;
  if (!K || *K == OpKind::Store)
    return false;
  if (getOpDesc(*K).Result == ResultKind::Token) {
    // A TLX result's typeinfos go with the result (step 3 keeps the
    // first one, which says how the result is written).
    auto *Data = dyn_cast<CallBase>(CB->getArgOperand(0));
    std::optional<OpKind> DK = Data ? getOpKind(*Data) : std::nullopt;
    return I.use_empty() && !(DK && getOpDesc(*DK).Result == ResultKind::Data);
  }
  return all_of(I.users(), [](const User *U) {
    auto *TI = dyn_cast<CallBase>(U);
    return TI && getOpKind(*TI) == OpKind::TypeInfo && TI->use_empty();
  });
}

// Step 0: chains of ops whose results nothing reads are not computed -
// the last op, then the ops only it read, and so on (a benchmark's unused
// composite ran 15 of its 16 ops when only the last was dropped).
void Bufferizer::eraseDeadChains() {
  for (bool Changed = true; Changed;) {
    Changed = false;
    SmallVector<WeakVH, 16> Dead; // erasing an op erases its typeinfos
    for (Instruction &I : instructions(F))
      if (isDeadTensorCode(I))
        Dead.push_back(&I);
    for (WeakVH &H : reverse(Dead)) {
      auto *I = cast_or_null<Instruction>(H);
      if (!I || !isDeadTensorCode(*I))
        continue;
      auto *CB = cast<CallBase>(I);
      if (getOpDesc(*getOpKind(*CB)).Result == ResultKind::Data)
        emitRemark(DEBUG_TYPE, "Unused", *CB,
                   getOpDesc(*getOpKind(*CB)).shortName() +
                       ": result unused, not computed");
      while (!I->use_empty())
        cast<Instruction>(I->user_back())->eraseFromParent();
      // The C vector a typeinfo named (a by-value parameter's load) goes
      // too: no tensor-sized value may be left for the backend.
      SmallVector<WeakTrackingVH, 2> Operands(I->op_begin(), I->op_end());
      I->eraseFromParent();
      RecursivelyDeleteTriviallyDeadInstructionsPermissive(Operands);
      Changed = true;
    }
  }
}

bool Bufferizer::run() {
  eraseDeadChains();
  SmallVector<CallBase *, 32> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && getOpKind(*CB))
      Calls.push_back(CB);
  if (Calls.empty())
    return false;

  for (CallBase *CB : Calls) {
    OpKind K = *getOpKind(*CB);
    if (K == OpKind::TypeInfo || K == OpKind::ToTensor)
      bufferizeVectorInput(*CB); // may erase CB
  }
  SmallVector<CallBase *, 4> ToVectors;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I);
        CB && getOpKind(*CB) == OpKind::ToVector)
      ToVectors.push_back(CB);
  for (CallBase *CB : ToVectors)
    bufferizeWideToVector(*CB); // may erase CB and its readers
  // Step 3 erases typeinfos of unused results and re-types: collect the
  // compute ops first.
  SmallVector<CallBase *, 16> Results;
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    std::optional<OpKind> K = CB ? getOpKind(*CB) : std::nullopt;
    if (K && getOpDesc(*K).Result == ResultKind::Data && *K != OpKind::ToVector)
      Results.push_back(CB);
  }
  for (CallBase *CB : Results)
    bufferizeResult(*CB);
  SmallVector<CallBase *, 16> Stores, UserMemory;
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    std::optional<OpKind> K = CB ? getOpKind(*CB) : std::nullopt;
    if (K == OpKind::Store)
      Stores.push_back(CB);
    else if (std::optional<TensorValue> TV = K ? getTensorValue(CB)
                                                : std::nullopt;
             TV && TV->isMemory())
      UserMemory.push_back(CB);
  }
  for (CallBase *CB : Stores)
    separateOverlappingCopy(*CB);
  for (CallBase *CB : UserMemory)
    protectUserMemory(*CB);
  emitFrees();
  return true;
}

} // namespace

/// \p TI, one of several typeinfos naming a result with run-time extents
/// after \p First, is checked at run time to give First's extents (a
/// check without a branch: ops stay in their readers' blocks) and becomes
/// First.
static void mergeRuntimeTypeInfo(CallBase &First, CallBase &TI) {
  IRBuilder<> B(&TI);
  emitTypeInfoCheck(B, getTensorValue(&First)->Type, TI);
  TI.replaceAllUsesWith(&First);
  TI.eraseFromParent();
}

/// A result with run-time extents is computed once, typed by its first
/// typeinfo: later ones that nothing reads go (the C statement
/// `tensor_typeinfo(v, ...);`), an unread first goes for the one typeinfo
/// read in the op's block (the program's, after tlx-vector-ops named a C
/// operator's result), others of the same layout and padding that the
/// first dominates become it, checked at run time; any other is an
/// error.
static bool mergeRuntimeTypeInfos(Function &F) {
  SmallVector<CallBase *, 4> Named;
  for (Instruction &I : instructions(F))
    if (auto *Op = dyn_cast<CallBase>(&I);
        Op && getOpKind(*Op) &&
        getOpDesc(*getOpKind(*Op)).Result == ResultKind::Data &&
        !Op->hasOneUse())
      if (const CallBase *TI = getResultTypeInfo(*Op);
          TI && getTensorValue(TI) && getTensorValue(TI)->Type.isDynamic())
        Named.push_back(Op);
  if (Named.empty())
    return false;
  DominatorTree DT(F);
  for (CallBase *Op : Named) {
    auto *First = const_cast<CallBase *>(getResultTypeInfo(*Op));
    SmallVector<CallBase *, 4> Live;
    for (User *U : make_early_inc_range(Op->users()))
      if (auto *TI = dyn_cast<CallBase>(U);
          TI && TI != First && getOpKind(*TI) == OpKind::TypeInfo &&
          getTensorValue(TI)) {
        if (TI->use_empty())
          TI->eraseFromParent();
        else
          Live.push_back(TI);
      }
    // One typeinfo read in the op's block: it alone types the result (and
    // is checked against the extents the op computes when lowered).
    if (First->use_empty() && Live.size() == 1 &&
        Live[0]->getParent() == Op->getParent()) {
      First->eraseFromParent();
      continue;
    }
    TensorType FirstTy = getTensorValue(First)->Type;
    for (CallBase *TI : Live) {
      TensorType Ty = getTensorValue(TI)->Type;
      if (Ty.Layout == FirstTy.Layout && Ty.Padding == FirstTy.Padding &&
          DT.dominates(First, TI))
        mergeRuntimeTypeInfo(*First, *TI);
      else
        emitError(*TI, "a result whose extents are computed at run time is "
                       "named by typeinfos of one layout and padding, after "
                       "its first, in this version");
    }
  }
  return true;
}

PreservedAnalyses BufferizePass::run(Module &M, ModuleAnalysisManager &MAM) {
  return runLoweringStage(
      M, MAM, "bufferize", [](Function &F, FunctionAnalysisManager &FAM) {
        bool Merged = mergeRuntimeTypeInfos(F);
        MergeLowering Merges(F);
        bool Changed = Merges.run() || Merged;
        // Merges may split blocks: alias analysis must see the new CFG.
        if (Changed)
          FAM.invalidate(F, PreservedAnalyses::none());
        Bufferizer B(F, FAM.getResult<AAManager>(F),
                     FAM.getResult<TargetIRAnalysis>(F), Merges.buffers());
        return B.run() || Changed;
      });
}

} // namespace tlx
