//===- VectorOps.cpp - C vector code on tensors becomes TLX code ----------===//
//
// tlx-vector-ops runs after tlx-recognize. C programs compute on tensors
// with vector operators (`z = x * 0.5f + b`), pass and return them by value,
// initialize and assign them whole and write single elements. Left to the
// backend, a tensor-sized vector takes minutes and gigabytes to compile and
// fuses with nothing. This pass turns all of it into TLX ops or memory
// traffic:
//
//  1. Returns of vectors wider than LargeVectorBytes become sret: the
//     function writes its result through a pointer (what the backend does
//     with such returns anyway, so the ABI is unchanged) and each caller
//     passes a buffer and loads the result from it.
//  2. Memory accesses of wide vectors that only copy or touch elements:
//       load + store                              --> memcpy / memmove
//       load + extractelement                     --> scalar load
//       load + insertelement + store (one place)  --> scalar store
//       store of a constant --> memset, a fill loop, or a copy of a global
//  3. Tensor values are the vectors TLX makes or reads (data op results,
//     data operands of typeinfo/totensor) and every wide vector; the
//     tensor instructions are the vector instructions that compute them or
//     from them: binary operators, fneg, compares (+ C's sext), selects,
//     conversions and insertelement. Each connected group of tensor
//     instructions gets one tensor type - the first typeinfo that names one
//     of its values, else 1-D [N] - and each instruction becomes its TLX op
//     with token operands of that type: a splat is broadcast(t, s), another
//     constant is read from a constant global, any other vector is named
//     by a typeinfo. C stores of tensor values become tensor.store.
//
// C operators work on flat vector positions. Typing every operand and the
// result of an instruction with one tensor type keeps the positions, so the
// TLX op computes exactly what the C code does, whatever the layout.
//
// The rule behind all of it: a vector's elements are positions. A TLX
// result holds them in the storage order of its first typeinfo; a name
// this pass adds to it comes after that one (a second typeinfo
// reinterprets the positions). Wide constants (C initializers) become a
// broadcast of a one-element tensor or a private global; wide merges only
// C reads are named [N] so that tlx-bufferize gives them a buffer; a
// totensor of a TLX result is a row-major typeinfo plus a transpose.
//
//===----------------------------------------------------------------------===//

#include "Analysis/TensorMemory.h"
#include "Codegen/IndexMap.h"
#include "Codegen/KernelOutliner.h"
#include "IR/Diagnostics.h"
#include "IR/ShapeInference.h"
#include "IR/TLXOps.h"
#include "IR/TensorInfo.h"
#include "Plugin/Options.h"
#include "Transforms/Passes.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

#include <map>

using namespace llvm;

#define DEBUG_TYPE "tlx-vector-ops"

namespace tlx {

bool isWideVector(const Type *Ty, const DataLayout &DL) {
  const auto *VT = dyn_cast<FixedVectorType>(Ty);
  return VT && DL.getTypeAllocSize(const_cast<FixedVectorType *>(VT)) >
                   LargeVectorBytes;
}

namespace {

/// The functions that work on AMX tiles (clang's amxintrin.h: <256 x i32>
/// vectors cast to and from x86_amx, and the wrappers calling them), whose
/// vectors the X86 backend lowers itself.
SmallPtrSet<const Function *, 8> findAMXTileCode(const Module &M) {
  SmallPtrSet<const Function *, 8> AMX;
  for (const Function &F : M)
    if (any_of(instructions(F), usesX86AMX))
      AMX.insert(&F);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Function &F : M)
      if (!AMX.count(&F))
        for (const Instruction &I : instructions(F))
          if (auto *CB = dyn_cast<CallBase>(&I);
              CB && AMX.count(CB->getCalledFunction())) {
            Changed |= AMX.insert(&F).second;
            break;
          }
  }
  return AMX;
}

//===----------------------------------------------------------------------===//
// Step 1: wide vector returns become sret.
//===----------------------------------------------------------------------===//

//   define <N x T> @f(args) { ... ret <N x T> %v }
// -->
//   define void @f(ptr sret(<N x T>) %r, args) { ... store %v, ptr %r; ret }
Function *returnThroughMemory(Function &F) {
  auto *RetTy = cast<FixedVectorType>(F.getReturnType());
  LLVMContext &Ctx = F.getContext();
  SmallVector<Type *, 8> Params{PointerType::getUnqual(Ctx)};
  append_range(Params, F.getFunctionType()->params());
  auto *NewTy = FunctionType::get(Type::getVoidTy(Ctx), Params, F.isVarArg());
  Function *NF = Function::Create(NewTy, F.getLinkage(), F.getAddressSpace(),
                                  "", F.getParent());
  NF->copyAttributesFrom(&F);
  NF->setComdat(F.getComdat());
  AttributeList Attrs = F.getAttributes();
  SmallVector<AttributeSet, 8> ArgAttrs{AttributeSet::get(
      Ctx, {Attribute::getWithStructRetType(Ctx, RetTy),
            Attribute::get(Ctx, Attribute::NoAlias)})};
  for (unsigned I = 0; I < F.arg_size(); ++I)
    ArgAttrs.push_back(Attrs.getParamAttrs(I));
  NF->setAttributes(AttributeList::get(Ctx, Attrs.getFnAttrs(),
                                       AttributeSet(), ArgAttrs));
  NF->takeName(&F);
  NF->splice(NF->begin(), &F);
  NF->setSubprogram(F.getSubprogram());
  F.setSubprogram(nullptr);
  for (auto [Old, New] : zip(F.args(), drop_begin(NF->args()))) {
    New.takeName(&Old);
    Old.replaceAllUsesWith(&New);
  }
  Argument *Out = NF->getArg(0);
  Out->setName("tlx.sret");
  for (BasicBlock &BB : *NF)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      IRBuilder<> B(Ret);
      B.CreateAlignedStore(Ret->getReturnValue(), Out, Align(1))
          ->setDebugLoc(Ret->getDebugLoc());
      B.CreateRetVoid()->setDebugLoc(Ret->getDebugLoc());
      Ret->eraseFromParent();
    }
  return NF;
}

//   %v = call <N x T> @f(args)
// -->
//   call void @f(ptr sret(<N x T>) %tmp, args) ; %v = load <N x T>, ptr %tmp
void callThroughMemory(CallBase &Call, Function *Callee) {
  auto *RetTy = cast<FixedVectorType>(Call.getType());
  LLVMContext &Ctx = Call.getContext();
  Function &Caller = *Call.getFunction();
  IRBuilder<> EB(&*Caller.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Tmp = EB.CreateAlloca(RetTy, nullptr, "tlx.ret");
  SmallVector<Value *, 8> Args{Tmp};
  append_range(Args, Call.args());
  SmallVector<Type *, 8> Params;
  for (Value *A : Args)
    Params.push_back(A->getType());
  auto *FTy = FunctionType::get(Type::getVoidTy(Ctx), Params,
                                Call.getFunctionType()->isVarArg());
  AttributeList Attrs = Call.getAttributes();
  SmallVector<AttributeSet, 8> ArgAttrs{AttributeSet::get(
      Ctx, {Attribute::getWithStructRetType(Ctx, RetTy),
            Attribute::get(Ctx, Attribute::NoAlias)})};
  for (unsigned I = 0; I < Call.arg_size(); ++I)
    ArgAttrs.push_back(Attrs.getParamAttrs(I));
  IRBuilder<> B(&Call);
  Value *CalleeOp = Callee ? Callee : Call.getCalledOperand();
  CallInst *New = B.CreateCall(FTy, CalleeOp, Args);
  New->setAttributes(
      AttributeList::get(Ctx, Attrs.getFnAttrs(), AttributeSet(), ArgAttrs));
  New->setCallingConv(Call.getCallingConv());
  New->setDebugLoc(Call.getDebugLoc());
  Value *Result = B.CreateAlignedLoad(RetTy, Tmp, Align(1));
  Result->takeName(&Call);
  Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();
}

/// Every function returning a wide vector, defined or declared, and every
/// call of one (direct or indirect) returns through memory instead (the
/// backend demotes such returns to exactly this, so other translation
/// units agree).
bool returnWideVectorsThroughMemory(
    Module &M, const SmallPtrSetImpl<const Function *> &AMXCode) {
  const DataLayout &DL = M.getDataLayout();
  DenseMap<Function *, Function *> Replaced;
  for (Function &F : make_early_inc_range(M))
    if (!F.isIntrinsic() && !F.isVarArg() &&
        isWideVector(F.getReturnType(), DL) && !AMXCode.count(&F)) {
      if (F.isDeclaration()) {
        auto *RetTy = cast<FixedVectorType>(F.getReturnType());
        LLVMContext &Ctx = M.getContext();
        SmallVector<Type *, 8> Params{PointerType::getUnqual(Ctx)};
        append_range(Params, F.getFunctionType()->params());
        Function *NF = Function::Create(
            FunctionType::get(Type::getVoidTy(Ctx), Params, F.isVarArg()),
            F.getLinkage(), F.getAddressSpace(), "", &M);
        NF->copyAttributesFrom(&F);
        NF->addParamAttr(0, Attribute::getWithStructRetType(Ctx, RetTy));
        NF->takeName(&F);
        Replaced[&F] = NF;
        continue;
      }
      Replaced[&F] = returnThroughMemory(F);
    }
  SmallVector<CallBase *, 8> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I);
          CB && !CB->getFunctionType()->isVarArg() &&
          isWideVector(CB->getType(), DL) && isa<CallInst>(CB) &&
          (CB->isIndirectCall() || Replaced.count(CB->getCalledFunction())))
        Calls.push_back(CB);
  for (CallBase *CB : Calls)
    callThroughMemory(*CB, Replaced.lookup(CB->getCalledFunction()));
  for (auto &[Old, New] : Replaced) {
    Old->replaceAllUsesWith(New);
    Old->eraseFromParent();
  }
  return !Replaced.empty() || !Calls.empty();
}

//===----------------------------------------------------------------------===//
// Steps 2 and 3, per function.
//===----------------------------------------------------------------------===//

class VectorLowering {
public:
  VectorLowering(Function &F, const TargetTransformInfo &TTI, AAResults &AA)
      : F(F), TTI(TTI), AA(AA), DL(F.getDataLayout()), Ctx(F.getContext()) {}
  bool run();

private:
  // Step 2.
  bool lowerMemoryAccesses();
  bool copyInMemory(LoadInst &LI, StoreInst &SI);
  bool storeConstant(StoreInst &SI);
  bool accessElement(LoadInst &LI);
  Value *snapshotAtLoad(LoadInst &LI);
  // Step 3.
  void collectTensorValues();
  bool isTensorInstruction(Instruction &I) const;
  bool isConvertible(Instruction &I) const;
  void expandMulAdds();
  void assignTypes();
  TensorType getGroupType(Instruction &I, Type *Elem);
  void convert(Instruction &I);
  void erase(Instruction &I);
  Value *getToken(Value *V, const TensorType &Ty, ArrayRef<Value *> Peers,
                  Instruction &User);
  Value *getRuntimeToken(Value *V, Instruction &User);
  TensorType getValueType(Value *V);
  std::optional<TensorType> getNaturalType(Value *V);
  Value *getSplatScalar(Value *V) const;
  Instruction *getNamingPoint(Value *V);
  CallInst *nameVector(Value *V, const TensorType &Ty);
  CallInst *nameResult(CallInst *Op, const TensorType &Ty);
  CallInst *broadcastScalar(Value *S, Type *VecTy, Instruction &At);
  bool nameConstantInputs();
  bool splatBitcastScalars();
  bool foldMaskTests();
  bool readConstantElements();
  bool nameMergedVectors();
  bool retypeToTensorOfResults();
  void storeTensor(StoreInst &SI);

  Function &F;
  const TargetTransformInfo &TTI;
  AAResults &AA;
  const DataLayout &DL;
  LLVMContext &Ctx;
  SetVector<Value *> TensorValues;
  SmallVector<Instruction *, 16> TensorInsts;
  /// Each tensor instruction's group: an index into GroupTypes. Entries go
  /// with their instruction (erase()), so that an instruction created later
  /// at a freed address is never taken for a member of a group.
  DenseMap<Instruction *, unsigned> GroupOf;
  SmallVector<TensorType, 8> GroupTypes;
  /// Vectors already named with a type, and the token naming them (entries
  /// go with their vector, likewise).
  std::map<std::pair<Value *, Dims>, CallInst *> Names;
  /// Compares made TLX ops, and the op (all ones or zero).
  DenseMap<Instruction *, CallInst *> CmpResults;
};

/// Whether nothing between \p From and \p To (one block) may write memory.
bool noWriteBetween(const Instruction *From, const Instruction *To) {
  if (From->getParent() != To->getParent() || !From->comesBefore(To))
    return false;
  for (const Instruction *I = From->getNextNode(); I != To;
       I = I->getNextNode())
    if (I->mayWriteToMemory())
      return false;
  return true;
}

//   %v = load <N x T>, ptr %src ; store <N x T> %v, ptr %dst
// --> call void @llvm.memcpy(ptr %dst, ptr %src, N * sizeof(T))
bool VectorLowering::copyInMemory(LoadInst &LI, StoreInst &SI) {
  if (SI.getValueOperand() != &LI || SI.getParent() != LI.getParent() ||
      !SI.isSimple())
    return false;
  // Writes in between must go to other stack objects (clang copies both
  // by-value arguments of a call before storing either).
  const Value *SrcObj = getUnderlyingObject(LI.getPointerOperand());
  for (Instruction *I = LI.getNextNode(); I != &SI; I = I->getNextNode()) {
    if (!I->mayWriteToMemory())
      continue;
    const Value *Obj = nullptr;
    if (auto *Store = dyn_cast<StoreInst>(I))
      Obj = getUnderlyingObject(Store->getPointerOperand());
    else if (auto *MI = dyn_cast<MemIntrinsic>(I)) // a copy made just before
      Obj = getUnderlyingObject(MI->getDest());
    else if (auto *II = dyn_cast<IntrinsicInst>(I);
             II && II->isLifetimeStartOrEnd()) // the pointer is last
      Obj = getUnderlyingObject(II->getArgOperand(II->arg_size() - 1));
    if (!Obj || !isa<AllocaInst>(Obj) || Obj == SrcObj)
      return false;
  }
  IRBuilder<> B(&SI);
  Value *Src = LI.getPointerOperand(), *Dst = SI.getPointerOperand();
  uint64_t Size = DL.getTypeStoreSize(LI.getType());
  const Value *DstObj = getUnderlyingObject(Dst);
  bool Distinct = isa<AllocaInst>(DstObj) && DstObj != SrcObj;
  CallInst *Copy =
      Distinct ? B.CreateMemCpy(Dst, SI.getAlign(), Src, LI.getAlign(), Size)
               : B.CreateMemMove(Dst, SI.getAlign(), Src, LI.getAlign(), Size);
  Copy->setDebugLoc(SI.getDebugLoc());
  SI.eraseFromParent();
  return true;
}

//   store <N x T> C, ptr %p
// --> memset, a fill loop, or a copy of a private constant (IndexMap)
bool VectorLowering::storeConstant(StoreInst &SI) {
  auto *C = dyn_cast<Constant>(SI.getValueOperand());
  if (!C || !SI.isSimple())
    return false;
  IRBuilder<> B(&SI);
  B.SetCurrentDebugLocation(SI.getDebugLoc());
  emitConstantStore(B, SI.getPointerOperand(), SI.getAlign(), C, TTI);
  SI.eraseFromParent();
  return true;
}

//   %v = load <N x T>, ptr %p ; %e = extractelement %v, %i
// --> %e = load T, ptr (gep %p, %i)
//   %v = load ... ; %w = insertelement %v, %x, %i ; store %w, ptr %p
// --> store T %x, ptr (gep %p, %i)
bool VectorLowering::accessElement(LoadInst &LI) {
  auto *VT = cast<FixedVectorType>(LI.getType());
  Type *Elem = VT->getElementType();
  Value *Ptr = LI.getPointerOperand();
  bool Changed = false;
  Value *Snapshot = nullptr;
  for (User *U : make_early_inc_range(LI.users())) {
    if (auto *EE = dyn_cast<ExtractElementInst>(U)) {
      // Read where the vector was loaded (the index known there), or where
      // the element is used when nothing may write that memory in between;
      // else from a copy made at the load.
      Value *Index = EE->getIndexOperand();
      auto *IndexDef = dyn_cast<Instruction>(Index);
      bool KnownAtLoad = isa<Constant>(Index) || isa<Argument>(Index) ||
                         (IndexDef && IndexDef->getParent() == LI.getParent() &&
                          IndexDef->comesBefore(&LI));
      Value *From = Ptr;
      Align At = LI.getAlign();
      if (!KnownAtLoad && mayClobberBetween({Ptr}, &LI, EE, AA)) {
        if (!Snapshot)
          Snapshot = snapshotAtLoad(LI);
        From = Snapshot;
        At = Align(64);
      }
      IRBuilder<> B(KnownAtLoad ? static_cast<Instruction *>(&LI) : EE);
      Value *Addr = B.CreateGEP(Elem, From, EE->getIndexOperand());
      LoadInst *New = B.CreateAlignedLoad(
          Elem, Addr, commonAlignment(At, DL.getTypeStoreSize(Elem)));
      New->takeName(EE);
      EE->replaceAllUsesWith(New);
      EE->eraseFromParent();
      Changed = true;
      continue;
    }
    auto *IE = dyn_cast<InsertElementInst>(U);
    if (!IE || !IE->hasOneUse() || IE->getOperand(0) != &LI || !LI.hasOneUse())
      continue;
    auto *SI = dyn_cast<StoreInst>(IE->user_back());
    if (!SI || SI->getPointerOperand() != Ptr || !SI->isSimple() ||
        !noWriteBetween(&LI, SI))
      continue;
    IRBuilder<> B(SI);
    Value *Addr = B.CreateGEP(Elem, Ptr, IE->getOperand(2));
    B.CreateAlignedStore(
         IE->getOperand(1), Addr,
         commonAlignment(SI->getAlign(), DL.getTypeStoreSize(Elem)))
        ->setDebugLoc(SI->getDebugLoc());
    SI->eraseFromParent();
    IE->eraseFromParent();
    Changed = true;
  }
  if (LI.use_empty())
    LI.eraseFromParent();
  return Changed;
}

//   %v = load <N x T>, ptr %p
// --> memcpy(%copy, %p) right after it; %copy: a stack buffer up to
//     MaxStackBufferBytes, else heap allocated at entry, freed at returns
// (one per load: the load's value is dead whenever the load runs again).
Value *VectorLowering::snapshotAtLoad(LoadInst &LI) {
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  auto *VT = cast<FixedVectorType>(LI.getType());
  Buffer Buf = emitAllocBuffer(EB, VT->getElementType(), VT->getNumElements(),
                               "tlx.elems");
  if (Buf.IsHeap)
    freeAtReturns(F, Buf.Ptr);
  IRBuilder<> B(LI.getNextNode());
  B.CreateMemCpy(Buf.Ptr, Align(64), LI.getPointerOperand(), LI.getAlign(),
                 Buf.Bytes)
      ->setDebugLoc(LI.getDebugLoc());
  return Buf.Ptr;
}

bool VectorLowering::lowerMemoryAccesses() {
  bool Changed = false;
  SmallVector<WeakVH, 16> Work; // copies erase the stores they replace
  for (Instruction &I : instructions(F))
    if ((isa<LoadInst>(I) && isWideVector(I.getType(), DL)) ||
        (isa<StoreInst>(I) &&
         isWideVector(cast<StoreInst>(I).getValueOperand()->getType(), DL)))
      Work.push_back(&I);
  for (WeakVH &H : Work) {
    auto *I = cast_or_null<Instruction>(H);
    if (!I)
      continue;
    if (auto *SI = dyn_cast<StoreInst>(I)) {
      Changed |= storeConstant(*SI);
      continue;
    }
    auto *LI = cast<LoadInst>(I);
    if (!LI->isSimple())
      continue;
    if (LI->hasOneUse())
      if (auto *SI = dyn_cast<StoreInst>(LI->user_back());
          SI && copyInMemory(*LI, *SI)) {
        LI->eraseFromParent();
        Changed = true;
        continue;
      }
    Changed |= accessElement(*LI);
  }
  return Changed;
}

/// Whether \p I is the insertelement of clang's splat idiom (a scalar in
/// lane 0, read only by zero-mask shuffles).
bool startsSplat(const Instruction &I) {
  return isa<InsertElementInst>(I) && !I.use_empty() &&
         all_of(I.users(), [](const User *U) {
           auto *SV = dyn_cast<ShuffleVectorInst>(U);
           return SV && SV->isZeroEltSplat();
         });
}

/// The scalar a splat vector holds: a splat constant, or clang's
/// shufflevector of an insertelement with a zero mask.
Value *VectorLowering::getSplatScalar(Value *V) const {
  if (auto *C = dyn_cast<Constant>(V))
    return C->getSplatValue();
  auto *SV = dyn_cast<ShuffleVectorInst>(V);
  if (!SV || !SV->isZeroEltSplat())
    return nullptr;
  auto *IE = dyn_cast<InsertElementInst>(SV->getOperand(0));
  auto *Idx = IE ? dyn_cast<ConstantInt>(IE->getOperand(2)) : nullptr;
  if (!Idx || !Idx->isZero())
    return nullptr;
  return IE->getOperand(1);
}

/// clang's `c ? x : s` on ext vectors with a scalar variable `s` splats
/// it and selects with bitwise operators on integer bitcasts; a bitcast of
/// a splat is made a splat of the scalar's bitcast, so that the operators
/// read it as a scalar (as they read a constant splat, which folds).
//   %v = shufflevector (insertelement poison, float %s, 0), zeroinitializer
//   %b = bitcast <N x float> %v to <N x i32>
// -->
//   %c = bitcast float %s to i32
//   %b = shufflevector (insertelement poison, i32 %c, 0), zeroinitializer
bool VectorLowering::splatBitcastScalars() {
  SmallVector<BitCastInst *, 4> Casts;
  for (Instruction &I : instructions(F))
    if (auto *BC = dyn_cast<BitCastInst>(&I);
        BC && isa<FixedVectorType>(BC->getType()) &&
        isa<FixedVectorType>(BC->getSrcTy()) &&
        cast<FixedVectorType>(BC->getType())->getNumElements() ==
            cast<FixedVectorType>(BC->getSrcTy())->getNumElements() &&
        getSplatScalar(BC->getOperand(0)) &&
        !isa<Constant>(BC->getOperand(0)))
      Casts.push_back(BC);
  for (BitCastInst *BC : Casts) {
    auto *VT = cast<FixedVectorType>(BC->getType());
    IRBuilder<> B(BC);
    B.SetCurrentDebugLocation(BC->getDebugLoc());
    Value *S = B.CreateBitCast(getSplatScalar(BC->getOperand(0)),
                               VT->getElementType());
    BC->replaceAllUsesWith(B.CreateVectorSplat(VT->getNumElements(), S));
    BC->eraseFromParent();
  }
  return !Casts.empty();
}

/// clang tests a C compare's mask again before it selects on it (`a > b ?
/// a : b`): LLVM 19 then selects with bitwise operators on the sext of the
/// test, LLVM 22 with a select. The test of a compare's mask is the compare
/// itself, whichever way it is used.
//   %m = sext <N x i1> %c to <N x i32>
//   %t = icmp slt <N x i32> %m, zeroinitializer     (or icmp ne)
// -->
//   uses of %t read %c
bool VectorLowering::foldMaskTests() {
  bool Changed = false;
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *Test = dyn_cast<ICmpInst>(&I);
    auto *Mask = Test ? dyn_cast<SExtInst>(Test->getOperand(0)) : nullptr;
    auto *Zero = Test ? dyn_cast<Constant>(Test->getOperand(1)) : nullptr;
    if (!Mask || !isa<VectorType>(Test->getType()) || !Zero ||
        !Zero->isNullValue() ||
        !Mask->getSrcTy()->getScalarType()->isIntegerTy(1) ||
        (Test->getPredicate() != ICmpInst::ICMP_SLT &&
         Test->getPredicate() != ICmpInst::ICMP_NE))
      continue;
    Test->replaceAllUsesWith(Mask->getOperand(0));
    Test->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

/// A C vector variable the program initialized and TLX reads (`v80 z =
/// {0}; ... vector_totensor(z, ...)`) is promoted to its constant, which C
/// then reads element by element at a run-time index: a splat's element,
/// or one element of the constant in memory.
//   %e = extractelement <80 x float> zeroinitializer, i32 %i  -->  0.0
//   %e = extractelement <80 x float> <...>, i32 %i
// -->
//   %p = getelementptr float, ptr @tlx.const, i32 %i ; %e = load float, %p
bool VectorLowering::readConstantElements() {
  SmallVector<ExtractElementInst *, 4> Reads;
  for (Instruction &I : instructions(F))
    if (auto *EE = dyn_cast<ExtractElementInst>(&I);
        EE && isa<Constant>(EE->getVectorOperand()) &&
        isWideVector(EE->getVectorOperand()->getType(), DL))
      Reads.push_back(EE);
  for (ExtractElementInst *EE : Reads) {
    auto *C = cast<Constant>(EE->getVectorOperand());
    Value *Elem = C->getSplatValue();
    if (!Elem) {
      IRBuilder<> B(EE);
      B.SetCurrentDebugLocation(EE->getDebugLoc());
      Type *Ty = EE->getType();
      Value *Ptr = B.CreateGEP(Ty, createConstantGlobal(*F.getParent(), C),
                               EE->getIndexOperand());
      Elem = B.CreateLoad(Ty, Ptr);
    }
    EE->replaceAllUsesWith(Elem);
    EE->eraseFromParent();
  }
  return !Reads.empty();
}

/// The C operators TLX has ops for, on vectors of its element types.
bool VectorLowering::isConvertible(Instruction &I) const {
  auto *VT = dyn_cast<FixedVectorType>(I.getType());
  auto Supported = [](Type *Ty) {
    return isSupportedElementType(Ty->getScalarType());
  };
  if (VT && getVectorIntrinsicOp(I))
    return Supported(VT);
  if (!VT || !getInstructionOp(I.getOpcode()))
    return false;
  switch (I.getOpcode()) {
  case Instruction::ICmp:
  case Instruction::FCmp:
    // C compares give all ones or zero: a sext of the i1 result, or a
    // select condition.
    return Supported(I.getOperand(0)->getType()) &&
           all_of(I.users(), [&](User *U) {
             auto *Sel = dyn_cast<SelectInst>(U);
             return isa<SExtInst>(U) || (Sel && Sel->getCondition() == &I);
           });
  case Instruction::Select: {
    auto *Cond = dyn_cast<CmpInst>(cast<SelectInst>(I).getCondition());
    return Supported(VT) && Cond && isa<VectorType>(Cond->getType()) &&
           isConvertible(*Cond);
  }
  case Instruction::InsertElement:
    // Not the start of a small splat or of a small vector built element by
    // element: LLVM handles those. A wide one is a tensor.
    return Supported(VT) && !startsSplat(I) &&
           (!isa<Constant>(I.getOperand(0)) || isWideVector(VT, DL));
  case Instruction::BitCast: {
    auto *From = dyn_cast<FixedVectorType>(I.getOperand(0)->getType());
    return From && From->getNumElements() == VT->getNumElements() &&
           Supported(From) && Supported(VT);
  }
  default:
    if (auto *Cast = dyn_cast<CastInst>(&I))
      return Supported(Cast->getSrcTy()) && Supported(VT);
    return Supported(VT);
  }
}

/// Vectors TLX makes or reads, and wide vectors.
void VectorLowering::collectTensorValues() {
  for (Instruction &I : instructions(F)) {
    if (auto *CB = dyn_cast<CallBase>(&I); CB && getOpKind(*CB)) {
      OpKind K = *getOpKind(*CB);
      if (getOpDesc(K).Result == ResultKind::Data)
        TensorValues.insert(CB);
      if ((K == OpKind::TypeInfo || K == OpKind::ToTensor) &&
          isa<VectorType>(CB->getArgOperand(0)->getType()))
        TensorValues.insert(CB->getArgOperand(0));
    }
    if (isWideVector(I.getType(), DL))
      TensorValues.insert(&I);
    for (Value *Op : I.operands())
      if (isWideVector(Op->getType(), DL) && !isa<Constant>(Op))
        TensorValues.insert(Op);
  }
  // Close over the convertible instructions, through operands and users.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Instruction &I : instructions(F)) {
      if (!isConvertible(I) || is_contained(TensorInsts, &I))
        continue;
      bool Touches = TensorValues.count(&I);
      for (Value *Op : I.operands())
        Touches |= TensorValues.count(Op) && !getSplatScalar(Op);
      if (!Touches)
        continue;
      TensorInsts.push_back(&I);
      TensorValues.insert(&I);
      if (isa<CmpInst>(I)) // C's sext of a compare is its value
        for (User *U : I.users())
          if (isa<SExtInst>(U))
            TensorValues.insert(U);
      for (Value *Op : I.operands())
        if (isa<VectorType>(Op->getType()) && !isa<Constant>(Op) &&
            !getSplatScalar(Op))
          TensorValues.insert(Op);
      Changed = true;
    }
  }
}

//   %r = call <N x float> @llvm.fmuladd(%a, %b, %c)
// --> %m = fmul <N x float> %a, %b ; %r = fadd <N x float> %m, %c
// (fmuladd may be fused or not; TLX keeps the two roundings of C's a*b+c)
void VectorLowering::expandMulAdds() {
  for (unsigned N = 0, E = TensorInsts.size(); N < E; ++N) {
    auto *II = dyn_cast<IntrinsicInst>(TensorInsts[N]);
    if (!II || II->getIntrinsicID() != Intrinsic::fmuladd)
      continue;
    // Not through IRBuilder: operands that are constants must not fold.
    auto *Mul =
        BinaryOperator::Create(Instruction::FMul, II->getArgOperand(0),
                               II->getArgOperand(1), "", II->getIterator());
    auto *Add = BinaryOperator::Create(
        Instruction::FAdd, Mul, II->getArgOperand(2), "", II->getIterator());
    Mul->copyFastMathFlags(II);
    Add->copyFastMathFlags(II);
    Mul->setDebugLoc(II->getDebugLoc());
    Add->setDebugLoc(II->getDebugLoc());
    Add->takeName(II);
    II->replaceAllUsesWith(Add);
    TensorValues.insert(Mul);
    TensorValues.insert(Add);
    TensorInsts[N] = Add;
    TensorInsts.push_back(Mul);
    TensorValues.remove(II);
    II->eraseFromParent();
  }
}

bool VectorLowering::isTensorInstruction(Instruction &I) const {
  return is_contained(TensorInsts, &I);
}

/// The representative of \p I's group in the union-find \p Parent.
static Instruction *findLeader(DenseMap<Instruction *, Instruction *> &Parent,
                               Instruction *I) {
  Instruction *P = Parent.lookup(I);
  if (!P || P == I)
    return Parent[I] = I;
  Instruction *Root = findLeader(Parent, P);
  Parent[I] = Root;
  return Root;
}

/// One tensor type per group of connected tensor instructions.
void VectorLowering::assignTypes() {
  DenseMap<Instruction *, Instruction *> Parent;
  for (Instruction *I : TensorInsts)
    for (Value *Op : I->operands()) {
      auto *OI = dyn_cast<Instruction>(Op);
      if (auto *SE = dyn_cast_or_null<SExtInst>(OI))
        OI = dyn_cast<CmpInst>(SE->getOperand(0));
      if (OI && isTensorInstruction(*OI))
        Parent[findLeader(Parent, I)] = findLeader(Parent, OI);
    }
  DenseMap<Instruction *, SmallVector<Instruction *, 8>> Members;
  for (Instruction *I : TensorInsts)
    Members[findLeader(Parent, I)].push_back(I);
  // The first typeinfo naming a value of the group, or the type of an
  // operand that TLX computed.
  // A group computing on a run-time-sized value is run-time-sized: its
  // values are named by their own typeinfos (getRuntimeToken).
  auto TypeOf = [&](Value *V) -> std::optional<TensorType> {
    std::optional<TensorType> Ty = getNaturalType(V);
    if (Ty && !Ty->isDynamic() &&
        Ty->numElements() !=
            cast<FixedVectorType>(V->getType())->getNumElements())
      return std::nullopt;
    return Ty;
  };
  auto Better = [](const std::optional<TensorType> &Found,
                   const std::optional<TensorType> &Ty) {
    return Ty && (!Found || (Ty->isDynamic() && !Found->isDynamic()));
  };
  DenseMap<Instruction *, unsigned> GroupOfLeader;
  for (Instruction *I : TensorInsts) {
    Instruction *Leader = findLeader(Parent, I);
    auto [It, IsNew] = GroupOfLeader.try_emplace(Leader, GroupTypes.size());
    GroupOf[I] = It->second;
    if (!IsNew)
      continue;
    std::optional<TensorType> Found;
    for (Instruction *Member : Members[Leader]) {
      if (std::optional<TensorType> Ty = TypeOf(Member); Better(Found, Ty))
        Found = Ty;
      for (Value *Op : Member->operands())
        if (isa<FixedVectorType>(Op->getType()))
          if (std::optional<TensorType> Ty = TypeOf(Op); Better(Found, Ty))
            Found = Ty;
    }
    TensorType Ty;
    if (Found) {
      Ty = *Found;
    } else {
      int64_t N = cast<FixedVectorType>(I->getType())->getNumElements();
      Ty.Shape = {N};
      Ty.Layout = {0};
      Ty.Padding = {0};
    }
    GroupTypes.push_back(Ty);
  }
}

/// Erases \p I and what the lowering knows of it (its group, its names).
void VectorLowering::erase(Instruction &I) {
  GroupOf.erase(&I);
  for (auto It = Names.begin(); It != Names.end();)
    It = It->first.first == &I ? Names.erase(It) : std::next(It);
  I.eraseFromParent();
}

TensorType VectorLowering::getGroupType(Instruction &I, Type *Elem) {
  assert(GroupOf.count(&I) && "not a tensor instruction");
  TensorType Ty = GroupTypes[GroupOf.lookup(&I)];
  Ty.Elem = Elem;
  return Ty;
}

/// Where a typeinfo naming \p V goes: right after its definition. An op's
/// first typeinfo fixes how the op writes its result (its storage order),
/// so for an op the program names itself, that typeinfo comes first: it
/// moves up to the op (or, in another block, is repeated there) and the
/// new name reads the same positions after it.
Instruction *VectorLowering::getNamingPoint(Value *V) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return &*F.getEntryBlock().getFirstInsertionPt();
  if (isa<PHINode>(I))
    return &*I->getParent()->getFirstInsertionPt();
  auto *Op = dyn_cast<CallBase>(I);
  if (!Op || !getOpKind(*Op) ||
      getOpDesc(*getOpKind(*Op)).Result != ResultKind::Data)
    return I->getNextNode();
  auto *First = const_cast<CallBase *>(getResultTypeInfo(*Op));
  if (!First || !all_of(drop_begin(First->args()),
                        [](const Use &A) { return isa<Constant>(A); }))
    return I->getNextNode();
  if (First->getParent() == Op->getParent()) {
    First->moveAfter(Op);
    return First->getNextNode();
  }
  Instruction *Copy = First->clone();
  Copy->insertAfter(Op);
  Copy->setDebugLoc(Op->getDebugLoc());
  return Copy->getNextNode();
}

/// The key of \p V named with type \p Ty in Names.
static std::pair<Value *, Dims> getNameKey(Value *V, const TensorType &Ty) {
  auto Key = std::make_pair(V, Ty.Shape);
  Key.second.append(Ty.Layout.begin(), Ty.Layout.end());
  Key.second.append(Ty.Padding.begin(), Ty.Padding.end());
  return Key;
}

/// A typeinfo naming vector \p V with type \p Ty, where V is defined.
CallInst *VectorLowering::nameVector(Value *V, const TensorType &Ty) {
  auto Key = getNameKey(V, Ty);
  if (auto It = Names.find(Key); It != Names.end())
    return It->second;
  IRBuilder<> B(getNamingPoint(V));
  if (auto *I = dyn_cast<Instruction>(V))
    B.SetCurrentDebugLocation(I->getDebugLoc());
  CallInst *TI = createTypeInfo(B, V, Ty);
  Names[Key] = TI;
  return TI;
}

/// The first typeinfo of \p Op, a TLX op computing C vector code: its
/// result holds the same positions as its operands (typed \p Ty), so it is
/// written in their storage order, whatever the layout.
CallInst *VectorLowering::nameResult(CallInst *Op, const TensorType &Ty) {
  IRBuilder<> B(Op->getNextNode());
  B.SetCurrentDebugLocation(Op->getDebugLoc());
  CallInst *TI = emitTypeInfo(B, Op, Ty);
  Names[getNameKey(Op, Ty)] = TI;
  return TI;
}

//   <N x T> splat(%s), typed Ty
// -->
//   %one = typeinfo(<1 x T> %s, [1]) ; %b = broadcast(%one) ; typeinfo(%b, Ty)
// A splat with no tensor of its shape beside it (a zero accumulator, a
// vector initialized with one value): no tensor-sized constant.
CallInst *VectorLowering::broadcastScalar(Value *S, Type *VecTy,
                                          Instruction &At) {
  IRBuilder<> B(&At);
  B.SetCurrentDebugLocation(At.getDebugLoc());
  return createScalarBroadcast(B, S, VecTy);
}

/// \p Old's uses, name and location go to \p New, and \p Old goes.
static void replaceWith(CallBase &Old, CallInst *New) {
  New->setDebugLoc(Old.getDebugLoc());
  New->takeName(&Old);
  Old.replaceAllUsesWith(New);
  Old.eraseFromParent();
}

//   typeinfo(<N x T> C, shape, layout, padding)        ; C a wide constant
// --> typeinfo(broadcast(typeinfo(<1 x T> s, [1])), shape, ...)   (a splat)
// --> typeinfo(ptr elementtype(T) @tlx.const, shape, ...)          (other)
// The same for totensor (a splat reads alike in any order): a vector the
// program initialized (`acc_t zero = {0}`) reaches TLX as a constant.
bool VectorLowering::nameConstantInputs() {
  SmallVector<CallBase *, 4> Work;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      std::optional<OpKind> K = getOpKind(*CB);
      Value *Data = CB->arg_empty() ? nullptr : CB->getArgOperand(0);
      if ((K == OpKind::TypeInfo || K == OpKind::ToTensor) &&
          isa<Constant>(Data) && isWideVector(Data->getType(), DL))
        Work.push_back(CB);
    }
  for (CallBase *CB : Work) {
    auto *C = cast<Constant>(CB->getArgOperand(0));
    auto *VT = cast<FixedVectorType>(C->getType());
    SmallVector<Value *, 4> Args(CB->args());
    OpKind Kind = *getOpKind(*CB);
    Type *Elem = nullptr;
    if (Constant *S = C->getSplatValue()) {
      Args[0] = broadcastScalar(S, VT, *CB);
      Kind = OpKind::TypeInfo;
    } else {
      Args[0] = createConstantGlobal(*F.getParent(), C);
      Elem = VT->getElementType();
    }
    IRBuilder<> B(CB);
    replaceWith(*CB, createOpCall(B, Kind, Type::getTokenTy(Ctx), Args, Elem));
  }
  return !Work.empty();
}

//   %t = totensor(<N x T> %r, shape, layout, padding)  ; %r a TLX result
// -->
//   %rm = typeinfo(%r, logical shape)     ; %r's positions, row-major
//   %p  = transpose(%rm, layout)          ; (for a non-identity layout)
//   %t  = typeinfo(%p, shape, layout, padding)
// A totensor's data is in logical row-major order; a TLX result's vector
// holds its positions (C may have computed it: `p[3] = x`, `a * b`).
bool VectorLowering::retypeToTensorOfResults() {
  SmallVector<CallBase *, 4> Work;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I);
        CB && getOpKind(*CB) == OpKind::ToTensor)
      if (auto *Data = dyn_cast<CallBase>(CB->getArgOperand(0));
          Data && getOpKind(*Data) &&
          getOpDesc(*getOpKind(*Data)).Result == ResultKind::Data)
        Work.push_back(CB);
  for (CallBase *TT : Work) {
    std::optional<TensorValue> TV = getTensorValue(TT);
    if (!TV)
      continue; // the verifier says why
    Value *Data = TT->getArgOperand(0);
    Value *Named = nameVector(Data, getLogicalRowMajor(TV->Type));
    IRBuilder<> B(TT);
    B.SetCurrentDebugLocation(TT->getDebugLoc());
    replaceWith(*TT,
                createFromLogicalOrder(B, Named, Data->getType(), TV->Type));
  }
  return !Work.empty();
}

// A wide vector merged across control flow (a phi, or a select on one
// condition) that no typeinfo names - C code assigned TLX results to one
// variable in both branches, or in a loop, and reads it - is named [N]:
// tlx-bufferize then gives it a merge buffer like any merged tensor, and
// the C reads read that buffer.
bool VectorLowering::nameMergedVectors() {
  SmallVector<Instruction *, 4> Merged;
  for (Instruction &I : instructions(F)) {
    if (!isMergeInst(&I) || !isWideVector(I.getType(), DL))
      continue;
    if (none_of(I.users(), [&](User *U) {
          auto *CB = dyn_cast<CallBase>(U);
          std::optional<OpKind> K = CB ? getOpKind(*CB) : std::nullopt;
          return (K == OpKind::TypeInfo || K == OpKind::ToTensor) &&
                 CB->getArgOperand(0) == &I;
        }))
      Merged.push_back(&I);
  }
  for (Instruction *I : Merged) {
    TensorType Ty;
    Ty.Elem = I->getType()->getScalarType();
    Ty.Shape = {(int64_t)cast<FixedVectorType>(I->getType())->getNumElements()};
    Ty.Layout = {0};
    Ty.Padding = {0};
    nameVector(I, Ty);
  }
  return !Merged.empty();
}

/// The token of operand \p V typed \p Ty, for \p User: broadcast(t, s)
/// for a splat (t: one of \p Peers, tokens with the element type; without
/// one, a broadcast of the scalar), a private constant in memory for
/// another constant, else a typeinfo.
Value *VectorLowering::getToken(Value *V, const TensorType &Ty,
                                ArrayRef<Value *> Peers, Instruction &User) {
  if (Value *S = getSplatScalar(V)) {
    for (Value *Peer : Peers) {
      std::optional<TensorValue> PV = getTensorValue(Peer);
      if (!PV || PV->Type.Elem != S->getType())
        continue;
      IRBuilder<> B(&User);
      B.SetCurrentDebugLocation(User.getDebugLoc());
      CallInst *Fill = createOpCall(B, OpKind::Broadcast, V->getType(),
                                    {Peer, S});
      Fill->setDebugLoc(User.getDebugLoc());
      return nameVector(Fill, Ty);
    }
    return nameResult(broadcastScalar(S, V->getType(), User), Ty);
  }
  if (auto *C = dyn_cast<Constant>(V)) {
    IRBuilder<> B(&User);
    return createOpCall(
        B, OpKind::TypeInfo, Type::getTokenTy(Ctx),
        {createConstantGlobal(*F.getParent(), C), getI32Vector(Ctx, Ty.Shape),
         getI32Vector(Ctx, Ty.Layout), getI32Vector(Ctx, Ty.Padding)},
        Ty.Elem);
  }
  return nameVector(V, Ty);
}

//   %z = fadd <N x float> %x, <splat 0.5>
// -->
//   %tx = call token @llvm.tensor.typeinfo(<N x float> %x, shape, ...)
//   %h  = call <N x float> @llvm.tensor.broadcast(token %tx, float 0.5)
//   %th = call token @llvm.tensor.typeinfo(<N x float> %h, shape, ...)
//   %z  = call <N x float> @llvm.tensor.fadd(token %tx, token %th)
void VectorLowering::convert(Instruction &I) {
  std::optional<OpKind> Intr = getVectorIntrinsicOp(I);
  OpKind Kind = Intr ? *Intr : *getInstructionOp(I.getOpcode());
  SmallVector<Value *, 3> Operands;
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    Operands.assign(II->arg_begin(), II->arg_end());
  else if (auto *Sel = dyn_cast<SelectInst>(&I))
    Operands = {CmpResults.lookup(cast<Instruction>(Sel->getCondition())),
                Sel->getTrueValue(), Sel->getFalseValue()};
  else if (auto *Cmp = dyn_cast<CmpInst>(&I))
    Operands = {Cmp->getOperand(0), Cmp->getOperand(1)};
  else if (isa<InsertElementInst>(I))
    Operands = {I.getOperand(0)}; // then the scalar and the position
  else
    Operands.assign(I.op_begin(), I.op_end());
  if (!Operands[0])
    return; // a select on a compare that stayed C code
  // A run-time-sized group: each operand keeps its own typeinfo, and the
  // op's result has the first one's type.
  bool Runtime = GroupTypes[GroupOf.lookup(&I)].isDynamic();
  std::optional<TensorType> RuntimeTy;
  auto TypeFor = [&](Value *V) {
    Type *Elem = cast<VectorType>(V->getType())->getElementType();
    if (!RuntimeTy)
      return getGroupType(I, Elem);
    TensorType Ty = *RuntimeTy;
    Ty.Elem = Elem;
    return Ty;
  };
  // Non-splat operands first: splats take their shape from them.
  SmallVector<Value *, 3> Tokens(Operands.size(), nullptr);
  SmallVector<Value *, 3> Peers;
  for (auto [N, V] : enumerate(Operands))
    if (!getSplatScalar(V)) {
      Tokens[N] =
          Runtime ? getRuntimeToken(V, I) : getToken(V, TypeFor(V), {}, I);
      if (!Tokens[N])
        return; // said why
      Peers.push_back(Tokens[N]);
    }
  if (Peers.empty() && none_of(Operands, [&](Value *V) {
        return isWideVector(V->getType(), DL);
      }))
    return; // only splats of a small vector: left to LLVM
  if (Runtime) {
    RuntimeTy = getTensorValue(Peers[0])->Type;
    RuntimeTy->Padding.assign(RuntimeTy->rank(), 0);
  }
  for (auto [N, V] : enumerate(Operands))
    if (!Tokens[N])
      Tokens[N] = getToken(V, TypeFor(V), Peers, I);
  if (isa<InsertElementInst>(I))
    Tokens.append({I.getOperand(1), I.getOperand(2)});
  // Compares give integers as wide as their operands.
  Type *ResTy = I.getType();
  if (auto *Cmp = dyn_cast<CmpInst>(&I)) {
    ResTy = cast<VectorType>(Cmp->getOperand(0)->getType())
                ->getWithNewType(IntegerType::get(
                    Ctx, Cmp->getOperand(0)->getType()->getScalarSizeInBits()));
    Tokens.push_back(
        ConstantInt::get(Type::getInt32Ty(Ctx), Cmp->getPredicate()));
  }
  IRBuilder<> B(&I);
  CallInst *New =
      createOpCall(B, Kind, ResTy, Tokens, nullptr, I.getName() + ".tlx");
  New->setDebugLoc(I.getDebugLoc());
  nameResult(New, TypeFor(New));
  TensorType Ty = TypeFor(Operands[isa<SelectInst>(I) ? 1 : 0]);
  emitRemark(DEBUG_TYPE, "Operator", *New,
             getOpDesc(Kind).shortName() + ": C vector code on a " +
                 formatShape(Ty.Shape) + " " + elementTypeName(Ty.Elem) +
                 " tensor, computed as a TLX op");
  if (!isa<CmpInst>(&I)) {
    I.replaceAllUsesWith(New);
    erase(I);
    return;
  }
  // C's sext of the compare is the op itself (or a conversion of it);
  // selects on the compare read the op when they are converted.
  CmpResults[&I] = New;
  for (User *U : make_early_inc_range(I.users()))
    if (auto *SE = dyn_cast<SExtInst>(U)) {
      Value *R = New;
      if (SE->getType() != ResTy) {
        B.SetInsertPoint(SE);
        OpKind Conv = SE->getType()->getScalarSizeInBits() >
                              ResTy->getScalarSizeInBits()
                          ? OpKind::SExt
                          : OpKind::Trunc;
        R = createOpCall(B, Conv, SE->getType(),
                         {nameVector(New, TypeFor(New))});
        nameResult(cast<CallInst>(R), TypeFor(R));
      }
      SE->replaceAllUsesWith(R);
      erase(*SE);
    }
}

/// The token of \p V, a TLX result that a C operator \p User reads in a
/// run-time-sized group: its first typeinfo where that comes before User
/// (it names the result with its own extents), else a typeinfo of the type
/// TLX infers for it, right after it. Null, after an error, for C vector
/// data, whose constant length cannot meet run-time extents.
Value *VectorLowering::getRuntimeToken(Value *V, Instruction &User) {
  auto *Op = dyn_cast<CallBase>(V);
  std::optional<OpKind> K = Op ? getOpKind(*Op) : std::nullopt;
  if (!K || getOpDesc(*K).Result != ResultKind::Data) {
    emitError(User, "a C operator on a tensor whose extents are computed at "
                    "run time reads a C vector: its other operands are TLX "
                    "results or scalars");
    return nullptr;
  }
  if (const CallBase *TI = getResultTypeInfo(*Op)) {
    bool Precedes = TI->getParent() == User.getParent()
                        ? TI->comesBefore(&User)
                        : TI->getParent() == Op->getParent();
    if (Precedes)
      return const_cast<CallBase *>(TI);
  }
  std::string Why;
  IRBuilder<> B(Op->getNextNode());
  B.SetCurrentDebugLocation(Op->getDebugLoc());
  std::optional<TensorType> Ty = inferHomedResultType(B, *Op, Why);
  if (!Ty) {
    emitError(*Op, Why);
    return nullptr;
  }
  return emitTypeInfo(B, Op, *Ty);
}

/// How \p V is a tensor already: the type of its first typeinfo, or of the
/// TLX op that computes it.
std::optional<TensorType> VectorLowering::getNaturalType(Value *V) {
  if (auto *Op = dyn_cast<CallBase>(V); Op && getOpKind(*Op)) {
    std::string Why;
    return getResultTensorType(*Op, Why);
  }
  for (User *U : V->users())
    if (auto *TI = dyn_cast<CallBase>(U);
        TI && getOpKind(*TI) == OpKind::TypeInfo && TI->getArgOperand(0) == V)
      if (std::optional<TensorValue> TV = getTensorValue(TI))
        return TV->Type;
  return std::nullopt;
}

/// The tensor type of the tensor value \p V for a store: its group's, its
/// natural one, or [N].
TensorType VectorLowering::getValueType(Value *V) {
  auto *VT = cast<FixedVectorType>(V->getType());
  if (auto *I = dyn_cast<Instruction>(V); I && GroupOf.count(I))
    return getGroupType(*I, VT->getElementType());
  if (std::optional<TensorType> Ty = getNaturalType(V);
      Ty && (Ty->isDynamic() || Ty->numElements() == VT->getNumElements()))
    return *Ty;
  TensorType Ty;
  Ty.Elem = VT->getElementType();
  Ty.Shape = {(int64_t)VT->getNumElements()};
  Ty.Layout = {0};
  Ty.Padding = {0};
  return Ty;
}

//   store <N x T> %r, ptr %p    ; %r computed by TLX, or wide
// --> call void @llvm.tensor.store(ptr %p, token (typeinfo %r), zeros)
void VectorLowering::storeTensor(StoreInst &SI) {
  Value *V = SI.getValueOperand();
  TensorType Ty = getValueType(V);
  if (Ty.isDynamic())
    return emitError(SI, "a result whose extents are computed at run time "
                         "is stored with tensor_store, not by a C "
                         "assignment: its C vector type does not hold it");
  Ty.Padding.assign(Ty.rank(), 0); // the C store writes the flat vector
  IRBuilder<> B(&SI);
  B.SetCurrentDebugLocation(SI.getDebugLoc());
  Value *Token = getToken(V, Ty, {}, SI);
  CallInst *Store = createOpCall(B, OpKind::Store, Type::getVoidTy(Ctx),
                                 {SI.getPointerOperand(), Token,
                                  getI32Vector(Ctx, Dims(Ty.rank(), 0))},
                                 Ty.Elem);
  emitRemark(DEBUG_TYPE, "Store", *Store,
             "store: C store of a " + formatShape(Ty.Shape) + " " +
                 elementTypeName(Ty.Elem) + " tensor, a tensor.store");
  SI.eraseFromParent();
}

bool VectorLowering::run() {
  bool Changed = lowerMemoryAccesses();
  if (any_of(instructions(F), [&](Instruction &I) {
        return getOpKind(&I) || isWideVector(I.getType(), DL);
      }))
    F.addFnAttr(TensorCodeAttr);
  Changed |= nameConstantInputs();
  Changed |= splatBitcastScalars();
  Changed |= foldMaskTests();
  Changed |= readConstantElements();
  collectTensorValues();
  expandMulAdds();
  assignTypes();
  // Definitions before uses.
  DenseMap<BasicBlock *, unsigned> Order;
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
    Order[BB] = Order.size();
  stable_sort(TensorInsts, [&](Instruction *A, Instruction *B) {
    if (A->getParent() != B->getParent())
      return Order.lookup(A->getParent()) < Order.lookup(B->getParent());
    return A->comesBefore(B);
  });
  for (Instruction *I : TensorInsts)
    convert(*I);
  for (auto &[Cmp, Op] : CmpResults)
    if (Cmp->use_empty())
      erase(*Cmp);
  // C stores of what TLX computes, and of wide vectors.
  SmallVector<StoreInst *, 8> Stores;
  for (Instruction &I : instructions(F))
    if (auto *SI = dyn_cast<StoreInst>(&I); SI && SI->isSimple()) {
      Value *V = SI->getValueOperand();
      if (isa<FixedVectorType>(V->getType()) && !isa<Constant>(V) &&
          (isWideVector(V->getType(), DL) || getOpKind(V)))
        Stores.push_back(SI);
    }
  for (StoreInst *SI : Stores)
    storeTensor(*SI);
  bool Named = retypeToTensorOfResults();
  Named |= nameMergedVectors();
  if (TensorInsts.empty() && Stores.empty() && !Named)
    return Changed;
  // Splats the TLX ops read as scalars are dead now (also at -O0, where
  // nothing else would delete them before instruction selection).
  SmallVector<WeakTrackingVH, 16> Dead;
  for (Instruction &I : instructions(F))
    if (isa<VectorType>(I.getType()) && isInstructionTriviallyDead(&I))
      Dead.push_back(&I);
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Dead);
  return true;
}

} // namespace

PreservedAnalyses VectorOpsPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (!runsStage("vector-ops") || discardBodiesAfterErrors(M))
    return PreservedAnalyses::all();
  SmallPtrSet<const Function *, 8> AMXCode = findAMXTileCode(M);
  bool Changed = returnWideVectorsThroughMemory(M, AMXCode);
  PreservedAnalyses PA = runLoweringStage(
      M, MAM, "vector-ops", [&](Function &F, FunctionAnalysisManager &FAM) {
        return !AMXCode.count(&F) &&
               VectorLowering(F, FAM.getResult<TargetIRAnalysis>(F),
                              FAM.getResult<AAManager>(F))
                   .run();
      });
  return Changed ? PreservedAnalyses::none() : PA;
}

} // namespace tlx
