//===- HeapValues.cpp - Tensor-sized values live on the heap --------------===//
//
// tlx-heap-values runs right after tlx-vector-ops (stage vector-ops). C
// tensors are vector values, and clang keeps every vector local on the
// stack, as well as the copies by-value arguments make (x86-64: a `byval`
// copy in the caller's outgoing argument area; AArch64: a caller temporary
// passed by pointer) and the sret temporaries of tlx-vector-ops. A 16 MiB
// tensor overflows the default 8 MiB stack. This pass moves every such
// value above MaxStackValueBytes to the heap:
//
//  1. ABI: a by-value parameter above the limit is passed by pointer to a
//     copy the caller owns, on every definition, declaration and call
//     (direct or indirect) of the module, so translation units compiled by
//     tlx-cc agree:
//       define @f(ptr byval(<N x T>) align A %p)
//         --> define @f(ptr noalias align 64 dereferenceable(S) %p)
//       call @f(ptr byval(<N x T>) %tmp)  --> call @f(ptr %tmp)
//     The caller's argument must be a temporary that only this call reads
//     (clang's byval copy); anything else is copied into a new temporary
//     first. A callee that copies such a parameter into its local variable
//     (clang's spill at entry) uses the caller's copy instead.
//  2. Stack slots: a static alloca above the limit whose type holds a
//     vector becomes a heap buffer allocated in the entry block and freed
//     before every return (so a loop reuses it and nothing leaks):
//       %a = alloca <N x T>, align A
//         --> %a = call align 64 ptr @tlxrt_temp_alloc(i64 S)
//       ret ...  --> call void @tlxrt_temp_free(ptr %a) ; ret ...
//     Accesses through it keep at most 64-byte alignment; lifetime markers
//     (which only stack slots have) go.
//  3. What cannot move is an error at its source location, naming the size
//     and the memory-form alternative: a by-value tensor above the limit
//     passed to or returned from a variadic function, a vector value above
//     it passed or returned in registers (IR from other front ends), and a
//     variable-length array of tensors.
//
//===----------------------------------------------------------------------===//

#include "IR/Diagnostics.h"
#include "IR/TLXOps.h"
#include "Plugin/Options.h"
#include "Codegen/IndexMap.h"
#include "Transforms/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

#define DEBUG_TYPE "tlx-heap-values"

namespace tlx {
namespace {

/// Alignment of the heap buffers (a cache line, as tlx-bufferize's stack
/// buffers) and the most any access through them may assume.
constexpr uint64_t HeapAlign = TempBufferAlign;

/// Whether \p Ty is or holds a vector (a C tensor, or a struct or array of
/// them).
bool holdsVector(Type *Ty) {
  if (isa<VectorType>(Ty))
    return true;
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return holdsVector(AT->getElementType());
  if (auto *ST = dyn_cast<StructType>(Ty))
    return any_of(ST->elements(), holdsVector);
  return false;
}

/// Whether a value of type \p Ty is a tensor too big for the stack.
bool isHeapValue(Type *Ty, const DataLayout &DL) {
  return Ty && Ty->isSized() && holdsVector(Ty) &&
         DL.getTypeAllocSize(Ty).getKnownMinValue() > MaxStackValueBytes;
}

/// "16 MiB", "25600000 bytes": the size as a C programmer reads it.
std::string sizeString(uint64_t Bytes) {
  if (Bytes % (1024 * 1024) == 0)
    return std::to_string(Bytes / (1024 * 1024)) + " MiB";
  if (Bytes % 1024 == 0)
    return std::to_string(Bytes / 1024) + " KiB";
  return std::to_string(Bytes) + " bytes";
}

std::string describe(Type *Ty, const DataLayout &DL) {
  std::string S;
  raw_string_ostream OS(S);
  OS << "a " << sizeString(DL.getTypeAllocSize(Ty).getKnownMinValue())
     << " tensor (" << *Ty << ")";
  return S;
}

/// What to do instead, appended to every error of this pass.
const char *const Alternative =
    "tensors larger than 64 KiB cannot live on the stack: pass a pointer to "
    "the data instead and read it with tensor_typeinfo_mem or tensor_load";

/// A location for errors about \p F: its declaration line, when known.
DebugLoc functionLoc(const Function &F) {
  if (DISubprogram *SP = F.getSubprogram())
    return DILocation::get(F.getContext(), SP->getLine(), 0, SP);
  return DebugLoc();
}

void errorAt(Function &F, const Twine &Msg) {
  if (DebugLoc Loc = functionLoc(F)) {
    // Errors are reported at an instruction; the entry block's first one
    // stands for the function, at the function's own line.
    if (!F.isDeclaration()) {
      Instruction &I = *F.getEntryBlock().getFirstInsertionPt();
      DebugLoc Old = I.getDebugLoc();
      I.setDebugLoc(Loc);
      emitError(I, Msg);
      I.setDebugLoc(Old);
      return;
    }
  }
  emitError(F, Msg);
}

class HeapValues {
public:
  explicit HeapValues(Module &M) : M(M), DL(M.getDataLayout()) {}
  bool run();

private:
  void diagnose();
  bool passArgumentsByPointer();
  bool passParametersByPointer();
  bool useParameterCopy(Argument &A);
  bool moveAllocasToHeap(Function &F);
  void moveToHeap(AllocaInst &AI, uint64_t Bytes);

  Module &M;
  const DataLayout &DL;
  /// Parameters that were byval and now point to the caller's copy.
  SmallVector<Argument *, 8> ByPointer;
};

/// Whether \p F's calls and definition can get the pointer ABI.
bool canChangeSignature(const FunctionType *FTy) { return !FTy->isVarArg(); }

void HeapValues::diagnose() {
  for (Function &F : M) {
    if (F.isIntrinsic())
      continue;
    if (!F.isDeclaration()) {
      FunctionType *FTy = F.getFunctionType();
      for (Argument &A : F.args()) {
        Type *Ty = A.hasByValAttr() ? A.getParamByValType() : A.getType();
        if (!isHeapValue(Ty, DL) ||
            (A.hasByValAttr() && canChangeSignature(FTy)))
          continue;
        errorAt(F, describe(Ty, DL) + " parameter of " +
                       (FTy->isVarArg() ? "variadic " : "") + "function '" +
                       F.getName() + "' is passed on the stack; " +
                       Alternative);
      }
      if (isHeapValue(F.getReturnType(), DL))
        errorAt(F, describe(F.getReturnType(), DL) + " returned by " +
                       (FTy->isVarArg() ? "variadic " : "") + "function '" +
                       F.getName() + "' is returned through the stack; " +
                       Alternative);
    }
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || CB->isInlineAsm() || getOpKind(*CB))
        continue;
      if (Function *Callee = CB->getCalledFunction();
          Callee && Callee->isIntrinsic())
        continue;
      bool VarArg = CB->getFunctionType()->isVarArg();
      std::string Callee =
          CB->getCalledFunction()
              ? ("'" + CB->getCalledFunction()->getName() + "'").str()
              : std::string("through a function pointer");
      for (unsigned ArgNo = 0; ArgNo < CB->arg_size(); ++ArgNo) {
        bool ByVal = CB->isByValArgument(ArgNo);
        Type *Ty = ByVal ? CB->getParamByValType(ArgNo)
                         : CB->getArgOperand(ArgNo)->getType();
        if (!isHeapValue(Ty, DL) || (ByVal && !VarArg))
          continue;
        emitError(*CB, describe(Ty, DL) + " passed by value to " +
                           (VarArg ? "variadic function " : "function ") +
                           Callee + " is copied onto the stack; " +
                           Alternative);
      }
      if (isHeapValue(CB->getType(), DL))
        emitError(*CB, describe(CB->getType(), DL) + " returned by " +
                           (VarArg ? "variadic function " : "function ") +
                           Callee + " is returned through the stack; " +
                           Alternative);
    }
  }
}

/// Whether \p Tmp is a temporary that only the call \p CB reads, as its
/// argument \p ArgNo: everything else only writes it (clang's byval copy,
/// filled by a store, a memcpy or a tensor.store).
bool isCallTemporary(const AllocaInst &Tmp, const CallBase &CB,
                     unsigned ArgNo) {
  for (const Use &U : Tmp.uses()) {
    const User *Usr = U.getUser();
    if (Usr == &CB) {
      if (U.getOperandNo() != ArgNo)
        return false;
      continue;
    }
    if (const auto *SI = dyn_cast<StoreInst>(Usr)) {
      if (U.getOperandNo() != SI->getPointerOperandIndex())
        return false;
      continue;
    }
    if (const auto *MI = dyn_cast<MemIntrinsic>(Usr)) {
      if (MI->getRawDest() != &Tmp || MI->isVolatile())
        return false;
      if (const auto *MT = dyn_cast<MemTransferInst>(MI);
          MT && MT->getRawSource() == &Tmp)
        return false;
      continue;
    }
    if (const auto *II = dyn_cast<IntrinsicInst>(Usr);
        II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
      continue;
    if (std::optional<OpKind> Kind = getOpKind(Usr);
        Kind && *Kind == OpKind::Store && U.getOperandNo() == 0)
      continue;
    return false;
  }
  return true;
}

//   call @f(ptr byval(<N x T>) align A %tmp)
// --> call @f(ptr %tmp)               ; %tmp: a temporary of this call only
//   call @f(ptr byval(<N x T>) align A %p)
// --> memcpy(%copy, %p) ; call @f(ptr %copy)   ; %copy: a new temporary
bool HeapValues::passArgumentsByPointer() {
  bool Changed = false;
  LLVMContext &Ctx = M.getContext();
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || !canChangeSignature(CB->getFunctionType()))
        continue;
      for (unsigned ArgNo = 0; ArgNo < CB->arg_size(); ++ArgNo) {
        if (!CB->isByValArgument(ArgNo))
          continue;
        Type *Ty = CB->getParamByValType(ArgNo);
        if (!isHeapValue(Ty, DL))
          continue;
        Value *Arg = CB->getArgOperand(ArgNo);
        auto *Tmp = dyn_cast<AllocaInst>(Arg);
        if (!Tmp || !isCallTemporary(*Tmp, *CB, ArgNo)) {
          IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
          AllocaInst *Copy = EB.CreateAlloca(Ty, nullptr, "tlx.byval.copy");
          IRBuilder<> B(CB);
          B.CreateMemCpy(Copy, Copy->getAlign(), Arg,
                         CB->getParamAlign(ArgNo).valueOrOne(),
                         DL.getTypeAllocSize(Ty))
              ->setDebugLoc(CB->getDebugLoc());
          CB->setArgOperand(ArgNo, Copy);
        }
        CB->removeParamAttr(ArgNo, Attribute::ByVal);
        CB->removeParamAttr(ArgNo, Attribute::Alignment);
        CB->addParamAttr(ArgNo,
                         Attribute::getWithAlignment(Ctx, Align(HeapAlign)));
        Changed = true;
      }
    }
  return Changed;
}

//   define @f(ptr byval(<N x T>) align A %p)
// --> define @f(ptr noalias align 64 dereferenceable(S) %p)
bool HeapValues::passParametersByPointer() {
  bool Changed = false;
  LLVMContext &Ctx = M.getContext();
  for (Function &F : M) {
    if (F.isIntrinsic() || !canChangeSignature(F.getFunctionType()))
      continue;
    for (Argument &A : F.args()) {
      if (!A.hasByValAttr() || !isHeapValue(A.getParamByValType(), DL))
        continue;
      uint64_t Bytes = DL.getTypeAllocSize(A.getParamByValType());
      unsigned ArgNo = A.getArgNo();
      F.removeParamAttr(ArgNo, Attribute::ByVal);
      F.removeParamAttr(ArgNo, Attribute::Alignment);
      F.addParamAttr(ArgNo, Attribute::getWithAlignment(Ctx, Align(HeapAlign)));
      F.addParamAttr(ArgNo, Attribute::NoAlias);
      F.addDereferenceableParamAttr(ArgNo, Bytes);
      if (!F.isDeclaration())
        ByPointer.push_back(&A);
      Changed = true;
    }
  }
  return Changed;
}

/// Lowers the alignment every access through \p Ptr assumes to at most
/// \p Max (the object it points to is no longer aligned as its type).
void clampAlignments(Value *Ptr, Align Max) {
  SmallVector<Value *, 8> Work{Ptr};
  SmallPtrSet<Value *, 16> Seen{Ptr};
  auto Clamp = [&](Align A) { return std::min(A, Max); };
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (Use &U : V->uses()) {
      User *Usr = U.getUser();
      if (isa<GetElementPtrInst>(Usr) || isa<BitCastInst>(Usr) ||
          isa<AddrSpaceCastInst>(Usr) || isa<PHINode>(Usr) ||
          isa<SelectInst>(Usr)) {
        if (Seen.insert(Usr).second)
          Work.push_back(Usr);
        continue;
      }
      if (auto *LI = dyn_cast<LoadInst>(Usr)) {
        LI->setAlignment(Clamp(LI->getAlign()));
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(Usr)) {
        if (U.getOperandNo() == SI->getPointerOperandIndex())
          SI->setAlignment(Clamp(SI->getAlign()));
        continue;
      }
      if (auto *MI = dyn_cast<MemIntrinsic>(Usr)) {
        if (MI->getRawDest() == V)
          MI->setDestAlignment(Clamp(MI->getDestAlign().valueOrOne()));
        if (auto *MT = dyn_cast<MemTransferInst>(MI); MT && MT->getRawSource() == V)
          MT->setSourceAlignment(Clamp(MT->getSourceAlign().valueOrOne()));
        continue;
      }
      if (auto *CB = dyn_cast<CallBase>(Usr); CB && CB->isArgOperand(&U)) {
        unsigned ArgNo = CB->getArgOperandNo(&U);
        if (MaybeAlign A = CB->getParamAlign(ArgNo); A && *A > Max) {
          CB->removeParamAttr(ArgNo, Attribute::Alignment);
          CB->addParamAttr(ArgNo, Attribute::getWithAlignment(
                                      CB->getContext(), Max));
        }
      }
    }
  }
}

/// Removes the lifetime markers of \p AI (only stack slots have them).
void eraseLifetimeMarkers(AllocaInst &AI) {
  SmallVector<Value *, 8> Work{&AI};
  SmallPtrSet<Value *, 8> Seen{&AI};
  SmallVector<Instruction *, 8> Dead;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users()) {
      if (auto *II = dyn_cast<IntrinsicInst>(U);
          II && II->isLifetimeStartOrEnd())
        Dead.push_back(II);
      else if ((isa<BitCastInst>(U) || isa<GetElementPtrInst>(U) ||
                isa<AddrSpaceCastInst>(U)) &&
               Seen.insert(U).second)
        Work.push_back(U);
    }
  }
  for (Instruction *I : Dead)
    I->eraseFromParent();
}

// A callee copying its (formerly byval) parameter into its local variable
// uses the caller's copy itself - it is this call's own:
//   entry: %a = alloca <N x T> ; memcpy(%a, %p, S) ; ... uses of %a
// --> ... uses of %p
bool HeapValues::useParameterCopy(Argument &A) {
  if (!A.hasOneUse())
    return false;
  auto *Copy = dyn_cast<MemCpyInst>(A.user_back());
  Function &F = *A.getParent();
  if (!Copy || Copy->getRawSource() != &A || Copy->isVolatile() ||
      Copy->getParent() != &F.getEntryBlock())
    return false;
  auto *Local = dyn_cast<AllocaInst>(Copy->getRawDest());
  auto *Len = dyn_cast<ConstantInt>(Copy->getLength());
  std::optional<TypeSize> Size = Local ? Local->getAllocationSize(DL)
                                       : std::nullopt;
  uint64_t Bytes = F.getParamDereferenceableBytes(A.getArgNo());
  if (!Local || !Len || !Size || Size->isScalable() ||
      Size->getFixedValue() != Bytes || Len->getZExtValue() != Bytes ||
      !Local->isStaticAlloca())
    return false;
  // Nothing may use the local before the copy fills it.
  for (User *U : Local->users()) {
    auto *I = cast<Instruction>(U);
    if (I == Copy || I->getParent() != Copy->getParent() ||
        !I->comesBefore(Copy))
      continue;
    auto *II = dyn_cast<IntrinsicInst>(I);
    if (!II || !(II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
      return false;
  }
  Copy->eraseFromParent();
  eraseLifetimeMarkers(*Local);
  Local->replaceAllUsesWith(&A);
  Local->eraseFromParent();
  clampAlignments(&A, Align(HeapAlign));
  return true;
}

//   %a = alloca <N x T>, align A
// --> %a = call ptr @tlxrt_temp_alloc(i64 S) ; tlxrt_temp_free(%a) at every
//     return (64-byte aligned, as every temporary's heap buffer)
void HeapValues::moveToHeap(AllocaInst &AI, uint64_t Bytes) {
  Function &F = *AI.getFunction();
  LLVMContext &Ctx = M.getContext();
  // In the entry block (where the slot was, or first): allocated once per
  // call of the function, wherever the variable's scope is.
  IRBuilder<> B(AI.getParent() == &F.getEntryBlock()
                    ? static_cast<Instruction *>(&AI)
                    : &*F.getEntryBlock().getFirstInsertionPt());
  uint64_t Rounded = alignTo(Bytes, HeapAlign);
  CallInst *Buf = emitTempAlloc(B, B.getInt64(Rounded), "");
  Buf->addRetAttr(Attribute::getWithDereferenceableBytes(Ctx, Rounded));
  Buf->takeName(&AI);
  eraseLifetimeMarkers(AI);
  AI.replaceAllUsesWith(Buf);
  AI.eraseFromParent();
  clampAlignments(Buf, Align(HeapAlign));
  // Freed on every way out: before each return (and before a musttail call
  // that precedes one), and before an exception leaves the function.
  for (BasicBlock &BB : F) {
    Instruction *Term = BB.getTerminator();
    if (!isa<ReturnInst>(Term) && !isa<ResumeInst>(Term))
      continue;
    Instruction *Pos = Term;
    if (auto *Call = dyn_cast_or_null<CallInst>(Term->getPrevNode());
        Call && Call->isMustTailCall())
      Pos = Call;
    IRBuilder<> FB(Pos);
    FB.SetCurrentDebugLocation(Term->getDebugLoc());
    emitFree(FB, Buf);
  }
}

bool HeapValues::moveAllocasToHeap(Function &F) {
  SmallVector<std::pair<AllocaInst *, uint64_t>, 8> Slots;
  for (Instruction &I : instructions(F)) {
    auto *AI = dyn_cast<AllocaInst>(&I);
    if (!AI || !holdsVector(AI->getAllocatedType()))
      continue;
    if (!isa<ConstantInt>(AI->getArraySize())) {
      // A variable-length array: as big as each run makes it.
      if (isHeapValue(AI->getAllocatedType(), DL))
        errorAt(F, "a variable-length array of " +
                       describe(AI->getAllocatedType(), DL) + "s in '" +
                       F.getName() + "' lives on the stack; " + Alternative);
      continue;
    }
    std::optional<TypeSize> Size = AI->getAllocationSize(DL);
    if (Size && !Size->isScalable() &&
        Size->getFixedValue() > MaxStackValueBytes)
      Slots.push_back({AI, Size->getFixedValue()});
  }
  for (auto [AI, Bytes] : Slots)
    moveToHeap(*AI, Bytes);
  return !Slots.empty();
}

bool HeapValues::run() {
  unsigned Errors = errorCount();
  diagnose();
  if (errorCount() != Errors)
    return false;
  bool Changed = passArgumentsByPointer();
  Changed |= passParametersByPointer();
  for (Argument *A : ByPointer)
    if (!useParameterCopy(*A))
      clampAlignments(A, Align(HeapAlign)); // the byval copy was aligned
  for (Function &F : M)
    if (!F.isDeclaration())
      Changed |= moveAllocasToHeap(F);
  return Changed;
}

} // namespace

PreservedAnalyses HeapValuesPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (!runsStage("vector-ops") || discardBodiesAfterErrors(M))
    return PreservedAnalyses::all();
  bool Changed = HeapValues(M).run();
  Changed |= discardBodiesAfterErrors(M);
  exitIfErrorsOutsideClang();
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace tlx
