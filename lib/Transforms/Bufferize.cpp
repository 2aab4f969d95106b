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
// Algorithm:
//  1. Vector data entering TLX (typeinfo or totensor of a vector computed by
//     non-TLX code, e.g. a by-value parameter) is stored once into a buffer;
//     the token becomes a typeinfo of that memory.
//  2. For each compute op, in program order, choose where its result goes:
//     a. fused: a producer that is an index map or elementwise op, whose
//        only user is an op reading it element by element, in the same
//        block, with no write to its inputs in between - no buffer;
//     b. the destination of the store that is its typeinfo's only user (the
//        op moves down to the store; its inputs must not be written in
//        between);
//     c. otherwise a new buffer: the typeinfo is stored into it and its
//        users read it through a load token. An elementwise op reuses its
//        operand's buffer when that operand is a dead temporary of the same
//        type. Buffers up to MaxStackBufferBytes are entry-block allocas,
//        larger ones malloc'd and freed after their last reader.
//     Where the result vector escapes to non-TLX code (a return, a C
//     store) it is loaded from the buffer right after the store.
//  3. Tokens of user memory are read lazily, where their readers
//     materialize; when that memory may be written before, the tensor is
//     copied into a buffer at its definition.
//
//===----------------------------------------------------------------------===//

#include "../IR/Diagnostics.h"
#include "../IR/ShapeInference.h"
#include "../IR/TLXOps.h"
#include "../Plugin/Options.h"
#include "IndexMap.h"
#include "Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

#define DEBUG_TYPE "tlx-bufferize"

namespace tlx {
namespace {

/// A buffer this pass allocated and the token its readers use.
struct TempBuffer {
  Buffer Buf;
  TensorType Ty;
  CallInst *Reader = nullptr; ///< load token on the buffer
};

class Bufferizer {
public:
  Bufferizer(Function &F, AAResults &AA) : F(F), AA(AA) {}
  bool run();

private:
  void bufferizeVectorInput(CallBase &TI);
  void bufferizeResult(CallBase &Op);
  bool tryFuse(CallBase &Op, CallBase &TI);
  bool tryStoreDestination(CallBase &Op, CallBase &TI);
  bool readsDestination(CallBase &Op, CallBase &Store);
  void assignBuffer(CallBase &Op, CallBase &TI);
  void protectUserMemory(CallBase &Def);
  CallInst *createReader(IRBuilderBase &B, Value *Ptr, const TensorType &Ty,
                         ArrayRef<int64_t> LD);
  void emitFrees();

  Instruction *lastReader(Instruction *Token, bool &SameBlock);

  Function &F;
  AAResults &AA;
  SmallVector<TempBuffer, 8> Temps;
  DenseMap<Value *, unsigned> TempOfReader;
};

static SmallVector<Value *, 4> tokenRoots(const CallBase &Op) {
  SmallVector<Value *, 4> Roots;
  for (const Value *Arg : Op.args())
    if (Arg->getType()->isTokenTy())
      collectMemoryRoots(Arg, Roots);
  return Roots;
}

CallInst *Bufferizer::createReader(IRBuilderBase &B, Value *Ptr,
                                   const TensorType &Ty, ArrayRef<int64_t> LD) {
  LLVMContext &Ctx = F.getContext();
  return createOpCall(B, OpKind::Load, Type::getTokenTy(Ctx),
                      {Ptr, getI32Vector(Ctx, Ty.Shape),
                       getI32Vector(Ctx, Ty.Layout),
                       getI32Vector(Ctx, Ty.Padding), getI32Vector(Ctx, LD)},
                      Ty.Elem, "tlx.buf");
}

// typeinfo(<N x T> %v, ...) --> store <N x T> %v, ptr %buf
//                               typeinfo(ptr elementtype(T) %buf, ...)
void Bufferizer::bufferizeVectorInput(CallBase &TI) {
  std::optional<TensorValue> TV = getTensorValue(&TI);
  if (!TV || TV->isMemory())
    return;
  if (auto *Op = dyn_cast<CallBase>(TV->Data); Op && getOpKind(*Op))
    return; // a TLX result: step 2
  IRBuilder<> B(&TI);
  Buffer Buf =
      emitAllocBuffer(B, TV->Type.Elem, TV->Type.numElements(), "tlx.in");
  // A vector the C program just loaded from memory is copied from there:
  // no tensor-sized SSA value survives.
  auto *Ld = dyn_cast<LoadInst>(TV->Data);
  if (Ld && Ld->isSimple() && Ld->getParent() == TI.getParent() &&
      !mayClobberBetween({Ld->getPointerOperand()}, Ld, &TI, AA)) {
    B.CreateMemCpy(Buf.Ptr, Align(1), Ld->getPointerOperand(), Ld->getAlign(),
                   Buf.Bytes);
  } else {
    B.CreateAlignedStore(TV->Data, Buf.Ptr, Align(1));
    Ld = nullptr;
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
  if (Buf.IsHeap) {
    Temps.push_back({Buf, TV->Type, New});
    TempOfReader[New] = Temps.size() - 1;
  }
  emitRemark(DEBUG_TYPE, "VectorInput", *New,
             "tensor " + shapeString(TV->Type.Shape) + " " +
                 elementTypeName(TV->Type.Elem) + " passed by value: copied " +
                 "once into a " + (Buf.IsHeap ? "heap" : "stack") +
                 " buffer (" + Twine(Buf.Bytes) + " bytes)");
}

bool Bufferizer::tryFuse(CallBase &Op, CallBase &TI) {
  if (!isFusibleProducer(*getOpKind(Op)) || !TI.hasOneUse())
    return false;
  auto *User = dyn_cast<CallBase>(TI.user_back());
  std::optional<OpKind> UK = User ? getOpKind(*User) : std::nullopt;
  if (!UK || !isFusibleConsumer(*UK) || User->getParent() != Op.getParent())
    return false;
  if (mayClobberBetween(tokenRoots(Op), &Op, User, AA))
    return false;
  emitRemark(DEBUG_TYPE, "Fused", Op,
             getOpDesc(*getOpKind(Op)).shortName() +
                 ": no buffer, fused into its consumer '" +
                 getOpDesc(*UK).shortName() + "' (computed per element)");
  return true;
}

/// Whether \p A and \p B may be the same object as far as the program
/// text shows: one value, or pointers loaded from one variable.
static bool maySameObject(const Value *A, const Value *B) {
  A = getUnderlyingObject(A);
  B = getUnderlyingObject(B);
  if (A == B)
    return true;
  const auto *LA = dyn_cast<LoadInst>(A), *LB = dyn_cast<LoadInst>(B);
  return LA && LB &&
         getUnderlyingObject(LA->getPointerOperand()) ==
             getUnderlyingObject(LB->getPointerOperand());
}

/// Whether \p Op, writing through \p Store, would overwrite elements it
/// has yet to read: its operands read the destination's object, except an
/// elementwise op reading exactly the elements it writes.
bool Bufferizer::readsDestination(CallBase &Op, CallBase &Store) {
  StridedView Dst = getStoreView(Store);
  OpKind Kind = *getOpKind(Op);
  bool IsMMA = isContraction(Kind) && Kind != OpKind::MatMul &&
               Kind != OpKind::Contract && Kind != OpKind::Convolution;
  for (unsigned I = 0; I < Op.arg_size(); ++I) {
    Value *Arg = Op.getArgOperand(I);
    if (!Arg->getType()->isTokenTy())
      continue;
    // Read element for element where it is written: an elementwise
    // operand, or the accumulator of an mma.
    if (I == 0 && (isUnaryElementwise(Kind) || IsMMA))
      if (auto In = getMemoryView(Arg))
        if (isSamePointer(In->Ptr, Dst.Ptr, AA) && In->Elem == Dst.Elem &&
            In->Strides == Dst.Strides)
          continue;
    SmallVector<Value *, 4> Roots;
    collectMemoryRoots(Arg, Roots);
    for (Value *Root : Roots)
      if (maySameObject(Root, Dst.Ptr))
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
  if (mayClobberBetween(tokenRoots(Op), &Op, Store, AA))
    return false;
  if (readsDestination(Op, *Store)) {
    emitRemark(DEBUG_TYPE, "InPlaceConflict", Op,
               getOpDesc(*getOpKind(Op)).shortName() +
                   ": its destination is also an operand; computed into a "
                   "buffer first");
    return false;
  }
  // The op computes where the store was.
  Op.moveBefore(Store);
  TI.moveBefore(Store);
  emitRemark(DEBUG_TYPE, "StoreDestination", Op,
             getOpDesc(*getOpKind(Op)).shortName() +
                 ": result written in place into the destination of its "
                 "tensor.store");
  return true;
}

void Bufferizer::assignBuffer(CallBase &Op, CallBase &TI) {
  LLVMContext &Ctx = F.getContext();
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

  // An elementwise op may write over its operand when that is a temporary
  // of the same type nobody reads later.
  std::optional<unsigned> Reused;
  if (isUnaryElementwise(Kind)) {
    auto It = TempOfReader.find(Op.getArgOperand(0));
    if (It != TempOfReader.end() && Op.getArgOperand(0)->hasOneUse()) {
      TempBuffer &T = Temps[It->second];
      if (T.Ty.Elem == Ty.Elem && T.Ty.Shape == Ty.Shape &&
          T.Ty.Layout == Ty.Layout && T.Ty.Padding == Ty.Padding)
        Reused = It->second;
    }
  }
  Buffer Buf;
  if (Reused)
    Buf = Temps[*Reused].Buf;
  else
    Buf = emitAllocBuffer(B, Ty.Elem, paddedNumElements(Ty), "tlx.tmp");

  Dims LD = paddedLeadingDims(Ty);
  B.SetInsertPoint(TI.getNextNode());
  CallInst *Store =
      createOpCall(B, OpKind::Store, Type::getVoidTy(Ctx),
                   {Buf.Ptr, &TI, getI32Vector(Ctx, LD)}, Ty.Elem);
  Store->setDebugLoc(Op.getDebugLoc());
  CallInst *Reader = createReader(B, Buf.Ptr, Ty, LD);
  Reader->setDebugLoc(Op.getDebugLoc());
  TI.replaceUsesWithIf(Reader, [&](Use &U) { return U.getUser() != Store; });

  // Escapes: a C store of the vector becomes a memcpy from the buffer;
  // anything else reads the vector from it.
  Value *Vec = nullptr;
  for (Use *U : Escapes) {
    auto *SI = dyn_cast<StoreInst>(U->getUser());
    if (SI && SI->isSimple() && U->getOperandNo() == 0) {
      IRBuilder<> SB(SI);
      SB.CreateMemCpy(
          SI->getPointerOperand(), SI->getAlign(), Buf.Ptr, Align(1),
          paddedNumElements(Ty) *
              F.getParent()->getDataLayout().getTypeAllocSize(Ty.Elem));
      SI->eraseFromParent();
      continue;
    }
    if (!Vec)
      Vec = B.CreateAlignedLoad(Op.getType(), Buf.Ptr, Align(1),
                                Op.getName() + ".vec");
    U->set(Vec);
  }
  for (CallBase *RTI : Retypes) {
    IRBuilder<> RB(RTI);
    if (!DominatorTree(F).dominates(Reader, RTI))
      RB.SetInsertPoint(Reader->getNextNode());
    CallInst *New = createOpCall(RB, OpKind::TypeInfo, Type::getTokenTy(Ctx),
                                 {Buf.Ptr, RTI->getArgOperand(1),
                                  RTI->getArgOperand(2), RTI->getArgOperand(3)},
                                 Ty.Elem);
    New->takeName(RTI);
    RTI->replaceAllUsesWith(New);
    RTI->eraseFromParent();
  }

  if (Reused) {
    Temps[*Reused].Reader = Reader;
    TempOfReader[Reader] = *Reused;
  } else {
    Temps.push_back({Buf, Ty, Reader});
    TempOfReader[Reader] = Temps.size() - 1;
  }
  std::string What = Reused
                         ? std::string("reuses its operand's buffer")
                         : (Twine("into a ") + (Buf.IsHeap ? "heap" : "stack") +
                            " buffer of " + Twine(Buf.Bytes) + " bytes")
                               .str();
  emitRemark(DEBUG_TYPE, "Buffer", Op,
             getOpDesc(Kind).shortName() + ": result " + shapeString(Ty.Shape) +
                 " " + elementTypeName(Ty.Elem) + " " + What +
                 (Escapes.empty() ? ""
                                  : "; loaded as a vector where it "
                                    "escapes to non-TLX code"));
}

void Bufferizer::bufferizeResult(CallBase &Op) {
  std::string Why;
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
  if (all_of(Op.users(), [](User *U) {
        auto *C = dyn_cast<CallBase>(U);
        return C && getOpKind(*C) == OpKind::TypeInfo && C->use_empty();
      })) {
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
      (tryFuse(Op, *TI) || tryStoreDestination(Op, *TI)))
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

void Bufferizer::protectUserMemory(CallBase &Def) {
  // A load or memory typeinfo of user memory: its readers read it where
  // they materialize. Copy it now when that memory may change before.
  std::optional<TensorValue> TV = getTensorValue(&Def);
  if (!TV || !TV->isMemory() || TempOfReader.count(&Def) || Def.use_empty())
    return;
  bool SameBlock = true;
  Instruction *Last = lastReader(&Def, SameBlock);
  if (SameBlock && !mayClobberBetween({TV->Data}, &Def, Last, AA))
    return;
  LLVMContext &Ctx = F.getContext();
  TensorType Ty = TV->Type;
  IRBuilder<> B(Def.getNextNode());
  Buffer Buf = emitAllocBuffer(B, Ty.Elem, paddedNumElements(Ty), "tlx.copy");
  Dims LD = paddedLeadingDims(Ty);
  CallInst *Store =
      createOpCall(B, OpKind::Store, Type::getVoidTy(Ctx),
                   {Buf.Ptr, &Def, getI32Vector(Ctx, LD)}, Ty.Elem);
  Store->setDebugLoc(Def.getDebugLoc());
  CallInst *Reader = createReader(B, Buf.Ptr, Ty, LD);
  Reader->setDebugLoc(Def.getDebugLoc());
  Def.replaceUsesWithIf(Reader, [&](Use &U) { return U.getUser() != Store; });
  Temps.push_back({Buf, Ty, Reader});
  TempOfReader[Reader] = Temps.size() - 1;
  emitRemark(DEBUG_TYPE, "Snapshot", Def,
             "tensor " + shapeString(Ty.Shape) + " " +
                 elementTypeName(Ty.Elem) +
                 " copied at its definition: its memory may be written "
                 "before its last reader");
}

// Heap buffers: free(ptr) after the last reader in the block; when readers
// are in other blocks, the pointer lives in an entry-block slot that is
// freed before the next malloc of the same buffer and at every return.
void Bufferizer::emitFrees() {
  DenseSet<Value *> Done;
  for (TempBuffer &T : Temps) {
    if (!T.Buf.IsHeap || !Done.insert(T.Buf.Ptr).second)
      continue;
    // Every reader token sharing this buffer (reuse chains).
    Instruction *Last = cast<Instruction>(T.Buf.Ptr);
    bool SameBlock = true;
    for (TempBuffer &U : Temps)
      if (U.Buf.Ptr == T.Buf.Ptr && U.Reader) {
        Instruction *L = lastReader(U.Reader, SameBlock);
        if (L->getParent() == Last->getParent() && Last->comesBefore(L))
          Last = L;
      }
    if (SameBlock) {
      IRBuilder<> B(Last->getNextNode());
      emitFree(B, T.Buf.Ptr);
      continue;
    }
    auto *Malloc = cast<Instruction>(T.Buf.Ptr);
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

bool Bufferizer::run() {
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
  // Step 2 erases typeinfos of unused results and re-types: collect the
  // compute ops and the tokens of user memory first.
  SmallVector<CallBase *, 16> Results, UserMemory;
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    std::optional<OpKind> K = CB ? getOpKind(*CB) : std::nullopt;
    if (!K)
      continue;
    if (getOpDesc(*K).Result == ResultKind::Data && *K != OpKind::ToVector)
      Results.push_back(CB);
    else if (std::optional<TensorValue> TV = getTensorValue(CB);
             TV && TV->isMemory())
      UserMemory.push_back(CB);
  }
  for (CallBase *CB : Results)
    bufferizeResult(*CB);
  for (CallBase *CB : UserMemory)
    protectUserMemory(*CB);
  emitFrees();
  return true;
}

} // namespace

PreservedAnalyses BufferizePass::run(Module &M, ModuleAnalysisManager &MAM) {
  return runLoweringStage(
      M, MAM, "bufferize", [](Function &F, FunctionAnalysisManager &FAM) {
        return Bufferizer(F, FAM.getResult<AAManager>(F)).run();
      });
}

} // namespace tlx
