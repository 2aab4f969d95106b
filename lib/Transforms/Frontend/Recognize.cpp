//===- Recognize.cpp - C dummy calls -> llvm.tensor.* ---------------------===//
//
// tlx-recognize turns the RFC's C idiom - calls to undefined "dummy"
// functions tensor_<op>() (see headers/tlx.h) - into llvm.tensor.* calls.
// It runs at clang's pipeline start, where the IR looks the same at every -O
// level: every C variable lives in an alloca and every call argument is
// loaded right before the call (and sometimes copied into a byval temporary
// or coerced through memory by the ABI).
//
// Algorithm, per function holding dummy calls:
//  1. Undo clang's 4-element accesses of 3-element vectors in local memory,
//     then promote the allocas that connect dummy calls (token, shape and
//     tensor variables) to SSA values with PromoteMemToReg; C tokens (ints)
//     and tensor values then flow through SSA phis instead of memory.
//  2. For every token-producing call (typeinfo, load, totensor), resolve its
//     operands and emit the intrinsic in place:
//       - tensor data: follow byval temporaries and single-store ABI
//         temporaries (a vector of 8 bytes or less read back as a scalar of
//         its size or larger) to the vector value; a vector loaded from a byval
//         parameter that the function never writes stays in that memory
//         (memory form, `ptr elementtype(T)`), as in the RFC;
//       - shape/layout/padding/strides: follow memory and fold to constants;
//       - pointers take their element type from tlx.h's trailing element tag.
//  3. For every other call in reverse post-order, resolve its token operands:
//     a token is the intrinsic emitted for the call the C token came from;
//     tokens merged across control flow (phi/select) are rebuilt after the
//     merge as a totensor of a phi of each path's tovector, when the
//     tensors' types agree.
//  4. Replace the results of data ops (after undoing ABI coercion of small
//     vectors), erase the dummy calls, the temporaries they made dead and
//     the dummy declarations.
//  5. A result merged across control flow (phi/select) without a typeinfo
//     of its own gets a copy of the first typeinfo naming the merged value.
//
// Any operand that cannot be resolved is an error at the call's source
// location; the function's body is then dropped so that no tensor-sized
// vector reaches the backend.
//
//===----------------------------------------------------------------------===//

#include "IR/Diagnostics.h"
#include "IR/Elementwise.h"
#include "IR/ShapeInference.h"
#include "IR/TLXOps.h"
#include "Transforms/Passes.h"
#include "Codegen/RuntimeShapes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <map>

#define DEBUG_TYPE "tlx-recognize"

using namespace llvm;

namespace tlx {
namespace {

StringRef getCalleeName(const CallBase &CB) {
  return CB.getCalledOperand()->stripPointerCasts()->getName();
}

/// tlx.h's short form `tensor_typeinfo(tensor_<op>_tlx_inferred(...))`:
/// a typeinfo of data alone, typed as TLX infers the op's result.
bool isInferredTypeInfo(const CallBase &CB) {
  return getDummyKind(CB) == OpKind::TypeInfo && CB.arg_size() == 1;
}

std::string ordinal(unsigned N) {
  static const char *const Suffix[] = {"th", "st", "nd", "rd"};
  unsigned Last = N % 10;
  bool Teen = (N % 100) / 10 == 1;
  return std::to_string(N) + (Teen || Last > 3 ? "th" : Suffix[Last]);
}

std::string describeDims(const Constant *C) {
  auto Values = getConstantIntVector(C);
  if (!Values)
    return "?";
  std::string S = "<";
  for (auto [I, V] : enumerate(*Values))
    S += (I ? ", " : "") + std::to_string(V);
  return S + ">";
}

/// A token-producing call after operand resolution: the arguments of the
/// intrinsic (data or pointer first) and the tensor's element type.
struct TokenDesc {
  OpKind Kind;
  SmallVector<Value *, 5> Args;
  Type *Elem = nullptr;
  /// The intrinsic call emitted for it.
  CallInst *NewCall = nullptr;

  bool isMemory() const { return Args[0]->getType()->isPointerTy(); }
  /// Shape, layout and padding operands.
  ArrayRef<Value *> typeArgs() const { return ArrayRef(Args).slice(1, 3); }
};

class Recognizer {
public:
  Recognizer(Function &F, DominatorTree &DT)
      : F(F), DT(DT), DL(F.getDataLayout()), Ctx(F.getContext()) {}

  /// Returns true if the function changed.
  bool run();

private:
  Function &F;
  DominatorTree &DT;
  const DataLayout &DL;
  LLVMContext &Ctx;
  bool Failed = false;

  /// The dummy calls, in reverse post-order.
  SmallVector<CallInst *, 16> Calls;
  DenseMap<CallInst *, OpKind> KindOf;
  /// Token-producing dummy calls -> their resolved form.
  std::map<Value *, TokenDesc> Tokens;
  /// Merge points of C tokens (phi/select) -> the rebuilt token.
  std::map<Value *, TokenDesc> Merged;
  /// Token phis/selects and leaf tokens -> the data they merge, shared by
  /// the merge points of one web (two loop-carried tokens that swap).
  DenseMap<Value *, Value *> DataMirror;
  /// The same for the shape vectors of tensors with run-time extents.
  DenseMap<Value *, Value *> ShapeMirror;
  /// Data-op dummy calls -> their intrinsic calls.
  SmallVector<std::pair<CallInst *, CallInst *>, 8> DataResults;
  /// A merge's incoming short-form token that a back edge brings
  /// (`h = tlx_relu(h)` in a loop): resolved after the merge's readers,
  /// then checked against the merged type and filled in.
  struct PendingIncoming {
    Instruction *Mirror; ///< the data (or shape) phi or select
    unsigned OperandNo;
    CallInst *TypeInfo; ///< the short form's tensor_typeinfo dummy
    const TokenDesc *Merged;
    CallInst *User; ///< where errors are reported
    bool Shape;     ///< Mirror merges shape vectors
  };
  SmallVector<PendingIncoming, 4> PendingIncomings;
  /// Byval temporaries and ABI temporaries to erase once dead.
  SmallSetVector<AllocaInst *, 8> Temporaries;
  /// Dummy calls -> the C object their pointer points into, which the
  /// frontend wrapped around it (tlx__known_object calls, erased with the
  /// dummies).
  DenseMap<CallInst *, ObjectBound> Objects;
  SmallSetVector<CallInst *, 4> KnownObjectCalls;
  void attachObjectBound(CallInst &Dummy, CallBase &Op) const {
    if (auto It = Objects.find(&Dummy); It != Objects.end())
      setObjectBound(Op, It->second);
  }

  void error(const Instruction &I, const Twine &Msg) {
    emitError(I, Msg);
    Failed = true;
  }
  /// The function as written: the short form's tensor_<op>_tlx_inferred
  /// is tlx_<op> in the program, tensor_load_TLX_LOAD is TLX_LOAD (tlx.h).
  static std::string spelling(const CallBase &CB) {
    return getSpelledName(getCalleeName(CB));
  }
  /// A call of tlx.h's short form (tensor_<op>_tlx_inferred).
  static bool isShortForm(const CallBase &CB) {
    return getCalleeName(CB).ends_with("_tlx_inferred");
  }
  static std::string opName(const CallBase &CB) {
    return "'" + spelling(CB) + "'";
  }

  void collectCalls();
  void accessVec3AsThemselves();
  void promoteConnectedAllocas();
  void promoteRuntimeLocals();

  StoreInst *findSingleStore(AllocaInst *AI, const Instruction *Reader);
  bool isCoercedRead(Type *Stored, Type *Loaded) const;
  Value *lookThroughMemory(Value *V);
  Value *getByValSource(CallInst &CB, unsigned ArgNo);
  Constant *resolveConstant(Value *V, SmallPtrSetImpl<Value *> &Visited);
  Constant *resolveDims(CallInst &CB, unsigned ArgNo, StringRef What);
  Value *resolveRuntimeDims(CallInst &CB, unsigned ArgNo, StringRef What);
  Value *getDimsArgument(CallInst &CB, unsigned ArgNo);
  Value *resolveData(CallInst &CB, unsigned ArgNo, Type *TagElem, Type *&Elem);
  Value *resolvePointer(CallInst &CB, unsigned ArgNo, Type *TagElem,
                        Type *&Elem);
  bool isUnwrittenByValArg(Value *Ptr);

  Type *getElementTag(CallInst &CB, const OpDesc &D, unsigned &NumArgs);
  bool checkArgCount(CallInst &CB, const OpDesc &D, unsigned NumArgs);

  void resolveTokenProducer(CallInst &CB, OpKind Kind);
  Value *lookThroughTokenCopies(Value *V);
  const TokenDesc *resolveToken(CallInst &User, unsigned ArgNo);
  const TokenDesc *mergeTokens(CallInst &User, Instruction *Merge);
  bool collectTokenWeb(CallInst &User, Instruction *Merge,
                       SmallSetVector<Instruction *, 8> &Web,
                       SmallSetVector<const TokenDesc *, 4> &Leaves);
  Value *mirrorWeb(CallInst &User, const TokenDesc &Desc,
                   ArrayRef<Instruction *> Web,
                   ArrayRef<const TokenDesc *> Leaves, bool Shape, Type *Ty,
                   function_ref<Value *(const TokenDesc &)> LeafValue);
  bool checkMergedType(CallInst &User, const TokenDesc &First,
                       const TokenDesc &L, bool CompareShapes = true);
  bool isPendingShortForm(Value *V) const;
  void resolvePendingIncomings();
  Value *getLeafData(const TokenDesc &Leaf, Type *DataTy, bool Dynamic);
  void rewriteConsumer(CallInst &CB, OpKind Kind);
  bool comesFromToken(Value *V);
  void rewriteElementwise(CallInst &CB, OpKind Kind, ArrayRef<Value *> Args);
  void resolveInferredTypeInfo(CallInst &CB);
  Value *resolveStrides(CallInst &CB, unsigned ArgNo,
                           const TokenDesc *Stored);
  Type *getResultType(CallInst &CB);
  Value *convertScalar(IRBuilderBase &B, Value *V, Type *Elem);

  void checkTokenUses(CallInst &CB);
  void eraseDummies();
  void nameMergedResults();
  void mergeRuntimeValues();
  bool mirrorRuntimeValues(CallBase &TI, DenseMap<Value *, Value *> &Data,
                           DenseMap<Value *, Value *> &Shape);
};

//===----------------------------------------------------------------------===//
// Step 0: the calls, in reverse post-order.
//===----------------------------------------------------------------------===//

void Recognizer::collectCalls() {
  ReversePostOrderTraversal<Function *> RPOT(&F);
  for (BasicBlock *BB : RPOT)
    for (Instruction &I : *BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto Kind = getDummyKind(*CB)) {
          if (auto *CI = dyn_cast<CallInst>(CB)) {
            Calls.push_back(CI);
            KindOf[CI] = *Kind;
            continue;
          }
          error(I, "TLX operation " + opName(*CB) +
                       " cannot be called where it may unwind; call it "
                       "outside try blocks");
        }
}

//===----------------------------------------------------------------------===//
// Step 1a: 3-element vectors read and written as themselves.
//===----------------------------------------------------------------------===//

/// A shuffle of one operand that keeps its lanes 0-2 in place and has
/// \p FromLanes lanes in and \p ToLanes out (a poison lane 3 when widening).
static bool isVec3Shuffle(const Value *V, unsigned FromLanes,
                          unsigned ToLanes) {
  const auto *SV = dyn_cast<ShuffleVectorInst>(V);
  if (!SV)
    return false;
  auto *Src = cast<FixedVectorType>(SV->getOperand(0)->getType());
  if (Src->getNumElements() != FromLanes)
    return false;
  ArrayRef<int> Mask = SV->getShuffleMask();
  if (Mask.size() != ToLanes)
    return false;
  for (auto [Lane, Elt] : enumerate(Mask))
    if (Elt != (Lane < 3 ? (int)Lane : PoisonMaskElem))
      return false;
  return true;
}

/// The 3-element value \p V widens to 4 lanes for a store: a widening
/// shuffle, or a constant whose lane 3 is undef (a folded one).
static Value *getVec3Widened(Value *V) {
  if (isVec3Shuffle(V, 3, 4))
    return cast<Instruction>(V)->getOperand(0);
  auto *C = dyn_cast<Constant>(V);
  auto *VT = dyn_cast<FixedVectorType>(V->getType());
  if (!C || !VT || VT->getNumElements() != 4 ||
      !isa<UndefValue>(C->getAggregateElement(3)))
    return nullptr;
  SmallVector<Constant *, 3> Lanes;
  for (unsigned Lane = 0; Lane < 3; ++Lane)
    Lanes.push_back(C->getAggregateElement(Lane));
  return ConstantVector::get(Lanes);
}

/// The type of a 3-element vector variable, temporary or by-value
/// parameter at \p Ptr, else null.
static FixedVectorType *getVec3MemoryType(const Value *Ptr) {
  Type *Ty = nullptr;
  if (const auto *AI = dyn_cast<AllocaInst>(Ptr))
    Ty = AI->isStaticAlloca() ? AI->getAllocatedType() : nullptr;
  else if (const auto *Arg = dyn_cast<Argument>(Ptr))
    Ty = Arg->hasByValAttr() ? Arg->getParamByValType() : nullptr;
  auto *VT = dyn_cast_or_null<FixedVectorType>(Ty);
  return VT && VT->getNumElements() == 3 ? VT : nullptr;
}

/// clang reads and writes a 3-element vector in memory as 4 elements (its
/// "vec3" handling), which hides the C value behind shuffles and keeps the
/// variable from being promoted: the typeinfo after an op would not see the
/// op's result. Accesses to 3-element variables, temporaries and by-value
/// parameters become 3-element ones again (the same bytes are read; the
/// store no longer writes a poison lane 3):
//   %w = shufflevector <3 x T> %x, <3 x T> poison, <4 x i32> <0, 1, 2, poison>
//   store <4 x T> %w, ptr %var
//   %l = load <4 x T>, ptr %var
//   %y = shufflevector <4 x T> %l, <4 x T> poison, <3 x i32> <0, 1, 2>
// -->
//   store <3 x T> %x, ptr %var
//   %y = load <3 x T>, ptr %var
void Recognizer::accessVec3AsThemselves() {
  SmallVector<StoreInst *, 16> Stores;
  SmallVector<LoadInst *, 16> Loads;
  for (Instruction &I : instructions(F)) {
    Value *Ptr = getLoadStorePointerOperand(&I);
    if (!Ptr || !getVec3MemoryType(Ptr))
      continue;
    if (auto *SI = dyn_cast<StoreInst>(&I))
      Stores.push_back(SI);
    else
      Loads.push_back(cast<LoadInst>(&I));
  }
  for (StoreInst *&SI : Stores) {
    Value *Widened = SI->getValueOperand();
    Value *Vec3 = SI->isSimple() ? getVec3Widened(Widened) : nullptr;
    if (!Vec3 || Vec3->getType() != getVec3MemoryType(SI->getPointerOperand()))
      continue;
    auto *New =
        new StoreInst(Vec3, SI->getPointerOperand(),
                      /*isVolatile=*/false, SI->getAlign(), SI->getIterator());
    New->copyMetadata(*SI);
    SI->eraseFromParent();
    SI = New;
    // Its operand lives on in the new store.
    if (auto *Shuffle = dyn_cast<Instruction>(Widened);
        Shuffle && Shuffle->use_empty())
      Shuffle->eraseFromParent();
  }
  // Memory that still gets 4-lane stores is read as 4 lanes.
  DenseSet<std::pair<Value *, Type *>> StoredTypes;
  for (StoreInst *SI : Stores)
    StoredTypes.insert(
        {SI->getPointerOperand(), SI->getValueOperand()->getType()});
  for (LoadInst *LI : Loads) {
    if (!LI->isSimple() || LI->use_empty() ||
        !all_of(LI->users(),
                [](const User *U) { return isVec3Shuffle(U, 4, 3); }) ||
        LI->user_back()->getType() !=
            getVec3MemoryType(LI->getPointerOperand()) ||
        StoredTypes.contains({LI->getPointerOperand(), LI->getType()}))
      continue;
    auto *New = new LoadInst(
        LI->user_back()->getType(), LI->getPointerOperand(), LI->getName(),
        /*isVolatile=*/false, LI->getAlign(), LI->getIterator());
    New->copyMetadata(*LI);
    for (User *U : make_early_inc_range(LI->users())) {
      U->replaceAllUsesWith(New);
      cast<Instruction>(U)->eraseFromParent();
    }
    LI->eraseFromParent();
  }
}

//===----------------------------------------------------------------------===//
// Step 1: promote the allocas that connect dummy calls.
//===----------------------------------------------------------------------===//

/// Allocas of C variables that hold tokens, dimension vectors or tensors:
/// integer or vector typed, promotable.
static bool isValueAlloca(const AllocaInst *AI) {
  Type *Ty = AI->getAllocatedType();
  return AI->isStaticAlloca() && (Ty->isIntegerTy() || Ty->isVectorTy());
}

void Recognizer::promoteConnectedAllocas() {
  SmallSetVector<AllocaInst *, 16> Connected;
  auto AddSource = [&](Value *V) {
    if (auto *LI = dyn_cast<LoadInst>(V))
      if (auto *AI = dyn_cast<AllocaInst>(LI->getPointerOperand()))
        if (isValueAlloca(AI))
          Connected.insert(AI);
  };
  for (CallInst *CB : Calls) {
    for (unsigned I = 0, E = CB->arg_size(); I != E; ++I) {
      Value *Arg = CB->getArgOperand(I);
      AddSource(Arg);
      // Byval temporaries and ABI coercion temporaries hold a copy of a
      // loaded variable.
      if (auto *Tmp = dyn_cast<AllocaInst>(Arg->stripPointerCasts()))
        for (User *U : Tmp->users())
          if (auto *SI = dyn_cast<StoreInst>(U))
            AddSource(SI->getValueOperand());
      if (auto *LI = dyn_cast<LoadInst>(Arg))
        if (auto *Tmp = dyn_cast<AllocaInst>(LI->getPointerOperand()))
          for (User *U : Tmp->users())
            if (auto *SI = dyn_cast<StoreInst>(U))
              AddSource(SI->getValueOperand());
    }
    for (User *U : CB->users())
      if (auto *SI = dyn_cast<StoreInst>(U))
        if (auto *AI = dyn_cast<AllocaInst>(SI->getPointerOperand()))
          if (isValueAlloca(AI))
            Connected.insert(AI);
  }
  // Copies between variables (`t2 = t1;`) connect them too.
  for (unsigned I = 0; I < Connected.size(); ++I) {
    AllocaInst *AI = Connected[I];
    for (User *U : AI->users()) {
      if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getPointerOperand() == AI)
          AddSource(SI->getValueOperand());
      } else if (auto *LI = dyn_cast<LoadInst>(U)) {
        for (User *LU : LI->users())
          if (auto *SI = dyn_cast<StoreInst>(LU))
            if (auto *Dst = dyn_cast<AllocaInst>(SI->getPointerOperand()))
              if (SI->getValueOperand() == LI && isValueAlloca(Dst))
                Connected.insert(Dst);
      }
    }
  }
  SmallVector<AllocaInst *, 16> Promotable;
  for (AllocaInst *AI : Connected)
    if (isAllocaPromotable(AI))
      Promotable.push_back(AI);
  if (!Promotable.empty())
    PromoteMemToReg(Promotable, DT);
}

/// Whether \p V is run-time-sized: a TLX result with run-time extents, a
/// C operator on one, or a load of a variable \p Locals holds.
static bool isRuntimeValue(const Value *V,
                           const SmallSetVector<AllocaInst *, 8> &Locals) {
  return isComputedThroughOperators(
      V, [&](const Value *X) -> std::optional<bool> {
        if (const auto *LI = dyn_cast<LoadInst>(X))
          return Locals.contains(const_cast<AllocaInst *>(
              dyn_cast<AllocaInst>(LI->getPointerOperand())));
        const auto *Op = dyn_cast<CallBase>(X);
        if (!Op || !getOpKind(*Op))
          return std::nullopt;
        const CallBase *TI = getResultTypeInfo(*Op);
        std::optional<TensorValue> TV = TI ? getTensorValue(TI) : std::nullopt;
        return (TV && TV->Type.isDynamic()) || readsRuntimeExtents(*Op);
      });
}

/// Variables that hold run-time-sized values (`f32v z = xw + bb;` on TLX
/// results with run-time extents) become SSA values: such a value has no
/// C data to keep in memory, and its C operators become TLX ops
/// (tlx-vector-ops) only on values.
void Recognizer::promoteRuntimeLocals() {
  SmallSetVector<AllocaInst *, 8> Locals;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Instruction &I : instructions(F)) {
      auto *SI = dyn_cast<StoreInst>(&I);
      auto *AI = SI ? dyn_cast<AllocaInst>(SI->getPointerOperand()) : nullptr;
      if (AI && isValueAlloca(AI) && !Locals.contains(AI) &&
          isa<FixedVectorType>(SI->getValueOperand()->getType()) &&
          isAllocaPromotable(AI) &&
          isRuntimeValue(SI->getValueOperand(), Locals)) {
        Locals.insert(AI);
        Changed = true;
      }
    }
  }
  if (!Locals.empty())
    PromoteMemToReg(Locals.getArrayRef(), DT);
}

//===----------------------------------------------------------------------===//
// Following values through memory.
//===----------------------------------------------------------------------===//

/// The only store into \p AI, if every other use of \p AI only reads it
/// (loads, byval copies, lifetime markers) and the store dominates \p Reader.
StoreInst *Recognizer::findSingleStore(AllocaInst *AI,
                                       const Instruction *Reader) {
  StoreInst *Store = nullptr;
  for (const Use &U : AI->uses()) {
    auto *User = cast<Instruction>(U.getUser());
    if (auto *SI = dyn_cast<StoreInst>(User)) {
      if (SI->getPointerOperand() != AI || SI->isVolatile() || Store)
        return nullptr;
      Store = SI;
      continue;
    }
    if (auto *LI = dyn_cast<LoadInst>(User)) {
      if (LI->isVolatile())
        return nullptr;
      continue;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(User))
      if (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))
        continue;
    if (auto *CB = dyn_cast<CallBase>(User))
      if (CB->isArgOperand(&U) &&
          CB->paramHasAttr(CB->getArgOperandNo(&U), Attribute::ByVal))
        continue;
    return nullptr;
  }
  if (!Store || !DT.dominates(Store, Reader))
    return nullptr;
  return Store;
}

/// True if loading \p Loaded from memory that holds \p Stored reads the
/// stored value as the ABI passes it: x86-64 reads a vector of 8 bytes or
/// less as a scalar of its size or larger (<2 x i32> as double, <3 x i8> as
/// i32, <6 x i8> as double); AArch64 reads a vector of a size it has no
/// register form for as the next one up (<6 x half> as <4 x i32>, <3 x i16>
/// as <2 x i32>, <2 x i8> as i32). The bytes past the value are padding.
bool Recognizer::isCoercedRead(Type *Stored, Type *Loaded) const {
  if (!Stored->isVectorTy())
    return false;
  return DL.getTypeStoreSize(Stored) <= DL.getTypeStoreSize(Loaded);
}

/// Follows \p V through loads of single-store allocas: ABI coercion
/// temporaries (see isCoercedRead) and variables that could not be
/// promoted. Stops at a stored value that is neither a vector nor of the
/// loaded type (the coerced result of a call).
Value *Recognizer::lookThroughMemory(Value *V) {
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    auto *LI = dyn_cast<LoadInst>(V);
    if (!LI || LI->isVolatile())
      return V;
    auto *AI = dyn_cast<AllocaInst>(LI->getPointerOperand());
    if (!AI)
      return V;
    StoreInst *SI = findSingleStore(AI, LI);
    if (!SI)
      return V;
    Value *Stored = SI->getValueOperand();
    if (Stored->getType() != LI->getType() &&
        !isCoercedRead(Stored->getType(), LI->getType()))
      return V;
    Temporaries.insert(AI);
    V = Stored;
  }
  return V;
}

/// The value copied into the byval temporary passed as argument \p ArgNo.
Value *Recognizer::getByValSource(CallInst &CB, unsigned ArgNo) {
  auto *AI = dyn_cast<AllocaInst>(CB.getArgOperand(ArgNo));
  if (!AI)
    return nullptr;
  StoreInst *SI = findSingleStore(AI, &CB);
  if (!SI || SI->getValueOperand()->getType() != CB.getParamByValType(ArgNo))
    return nullptr;
  Temporaries.insert(AI);
  return SI->getValueOperand();
}

/// Whether \p GV holds its initializer for the whole run: a constant, or
/// a file-scope static (internal) that is only ever loaded, directly or
/// through constant address arithmetic.
static bool isNeverWritten(const GlobalVariable &GV) {
  if (!GV.hasDefinitiveInitializer())
    return false;
  if (GV.isConstant())
    return true;
  if (!GV.hasLocalLinkage())
    return false;
  SmallVector<const Value *, 8> Work{&GV};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (const auto *LI = dyn_cast<LoadInst>(U)) {
        if (!LI->isSimple())
          return false;
      } else if (isa<GEPOperator>(U) || isa<BitCastOperator>(U)) {
        Work.push_back(U);
      } else {
        return false; // stored to, or its address escapes
      }
    }
  }
  return true;
}

Constant *Recognizer::resolveConstant(Value *V,
                                      SmallPtrSetImpl<Value *> &Visited) {
  V = lookThroughMemory(V);
  if (auto *C = dyn_cast<Constant>(V))
    return C;
  if (!Visited.insert(V).second)
    return nullptr;
  if (auto *Phi = dyn_cast<PHINode>(V)) {
    Constant *Common = nullptr;
    for (Value *In : Phi->incoming_values()) {
      if (In == Phi)
        continue;
      Constant *C = resolveConstant(In, Visited);
      if (!C || (Common && C != Common))
        return nullptr;
      Common = C;
    }
    return Common;
  }
  if (auto *LI = dyn_cast<LoadInst>(V); LI && LI->isSimple()) {
    Constant *Ptr = resolveConstant(LI->getPointerOperand(), Visited);
    APInt Offset(DL.getIndexTypeSizeInBits(LI->getPointerOperandType()), 0);
    auto *GV = Ptr ? dyn_cast<GlobalVariable>(
                         Ptr->stripAndAccumulateConstantOffsets(DL, Offset,
                                                                true))
                   : nullptr;
    if (!GV || !isNeverWritten(*GV))
      return nullptr;
    return ConstantFoldLoadFromConst(GV->getInitializer(), LI->getType(),
                                     Offset, DL);
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || I->mayReadOrWriteMemory() || isa<CallBase>(I))
    return nullptr;
  SmallVector<Constant *, 4> Ops;
  for (Value *Op : I->operands()) {
    Constant *C = resolveConstant(Op, Visited);
    if (!C)
      return nullptr;
    Ops.push_back(C);
  }
  return ConstantFoldInstOperands(I, Ops, DL);
}

/// Dimension operand \p ArgNo: the value passed, or copied into the byval
/// temporary passed (null when that copy is not found).
Value *Recognizer::getDimsArgument(CallInst &CB, unsigned ArgNo) {
  Value *Arg = CB.getArgOperand(ArgNo);
  if (Arg->getType()->isPointerTy() && CB.paramHasAttr(ArgNo, Attribute::ByVal))
    return getByValSource(CB, ArgNo);
  return Arg;
}

/// Operand \p ArgNo as a constant <n x i32> vector, or null after an error.
Constant *Recognizer::resolveDims(CallInst &CB, unsigned ArgNo,
                                  StringRef What) {
  Value *Arg = getDimsArgument(CB, ArgNo);
  SmallPtrSet<Value *, 8> Visited;
  Constant *C = Arg ? resolveConstant(Arg, Visited) : nullptr;
  if (C && C->getType()->isIntegerTy())
    C = ConstantVector::get({C}); // ext_vector_type(1) coerced to a scalar
  std::optional<SmallVector<int64_t, 4>> Values =
      C ? getConstantIntVector(C) : std::nullopt;
  if (!Values) {
    auto *VT = C ? dyn_cast<FixedVectorType>(C->getType()) : nullptr;
    if (VT && VT->getNumElements() > MaxConstantIntVectorElements)
      error(CB, "the " + What + " operand (" + ordinal(ArgNo + 1) +
                    " argument) of " + opName(CB) + " has " +
                    Twine(VT->getNumElements()) +
                    " elements; a tensor has at most " + Twine(MaxRank) +
                    " dimensions");
    else
      error(CB, "the " + What + " operand (" + ordinal(ArgNo + 1) +
                    " argument) of " + opName(CB) +
                    " must be a constant integer vector");
    return nullptr;
  }
  return getI32Vector(Ctx, *Values);
}

/// A shape or strides operand, which a program may compute at run time
/// (docs/ops.md, "Run-time sizes"): the constant when it is one, else the
/// <n x i32> vector the program computes (through ABI coercion
/// temporaries; a one-element vector may arrive as its scalar).
Value *Recognizer::resolveRuntimeDims(CallInst &CB, unsigned ArgNo,
                                      StringRef What) {
  Value *Arg = getDimsArgument(CB, ArgNo);
  SmallPtrSet<Value *, 8> Visited;
  if (!Arg || resolveConstant(Arg, Visited))
    return resolveDims(CB, ArgNo, What);
  Value *V = lookThroughMemory(Arg);
  auto *VT = dyn_cast<FixedVectorType>(V->getType());
  if (V->getType()->isIntegerTy(32)) {
    IRBuilder<> B(&CB);
    return B.CreateInsertElement(PoisonValue::get(FixedVectorType::get(B.getInt32Ty(), 1)), V,
                                 uint64_t(0), "tlx.dims");
  }
  if (!VT || !VT->getElementType()->isIntegerTy(32) ||
      VT->getNumElements() > MaxRank)
    return resolveDims(CB, ArgNo, What); // reports what is wrong
  return V;
}

/// True if \p Ptr is a byval parameter the function only reads, so its
/// memory holds the caller's value for the whole function.
bool Recognizer::isUnwrittenByValArg(Value *Ptr) {
  auto *Arg = dyn_cast<Argument>(Ptr);
  if (!Arg || !Arg->hasByValAttr())
    return false;
  return all_of(Arg->users(), [](const User *U) {
    const auto *LI = dyn_cast<LoadInst>(U);
    return LI && !LI->isVolatile();
  });
}

/// The tensor data operand \p ArgNo: a vector value, or a pointer (memory
/// form) whose element type comes from the byval type or the element tag.
Value *Recognizer::resolveData(CallInst &CB, unsigned ArgNo, Type *TagElem,
                               Type *&Elem) {
  Value *Arg = CB.getArgOperand(ArgNo);
  bool ByVal =
      Arg->getType()->isPointerTy() && CB.paramHasAttr(ArgNo, Attribute::ByVal);
  if (ByVal) {
    Type *ByValTy = CB.getParamByValType(ArgNo);
    Value *Src = getByValSource(CB, ArgNo);
    if (!Src) {
      // Not a temporary we can see through: the data stays where it is.
      Elem = ByValTy->getScalarType();
      return Arg;
    }
    Arg = Src;
  }
  Value *V = lookThroughMemory(Arg);
  if (auto *LI = dyn_cast<LoadInst>(V))
    if (V->getType()->isVectorTy() &&
        isUnwrittenByValArg(LI->getPointerOperand())) {
      Elem = V->getType()->getScalarType();
      return LI->getPointerOperand();
    }
  if (V->getType()->isPointerTy() && !ByVal)
    return resolvePointer(CB, ArgNo, TagElem, Elem);
  if (!isa<FixedVectorType>(V->getType())) {
    error(CB, "the tensor operand (" + ordinal(ArgNo + 1) + " argument) of " +
                  opName(CB) + " must be a vector or a pointer");
    return nullptr;
  }
  Elem = V->getType()->getScalarType();
  return V;
}

Value *Recognizer::resolvePointer(CallInst &CB, unsigned ArgNo, Type *TagElem,
                                  Type *&Elem) {
  Value *Arg = CB.getArgOperand(ArgNo);
  if (std::optional<ObjectBound> Obj = readKnownObjectCall(Arg)) {
    KnownObjectCalls.insert(cast<CallInst>(Arg));
    Arg = cast<CallInst>(Arg)->getArgOperand(0);
    Objects[&CB] = std::move(*Obj);
  }
  if (!Arg->getType()->isPointerTy()) {
    error(CB, "the " + ordinal(ArgNo + 1) + " argument of " + opName(CB) +
                  " must be a pointer");
    return nullptr;
  }
  if (!TagElem) {
    error(CB, "the element type of the pointer passed to " + opName(CB) +
                  " is unknown: use tlx.h's tensor_load/tensor_store/"
                  "tensor_typeinfo_mem, or pass TLX_ELEMENT_TAG(ptr) last");
    return nullptr;
  }
  Elem = TagElem;
  return Arg;
}

//===----------------------------------------------------------------------===//
// Operand counts and the element tag.
//===----------------------------------------------------------------------===//

/// The element type carried by tlx.h's trailing tag argument, if the call
/// has one; \p NumArgs becomes the number of op operands.
Type *Recognizer::getElementTag(CallInst &CB, const OpDesc &D,
                                unsigned &NumArgs) {
  NumArgs = CB.arg_size();
  bool TakesPointer = D.Signature.find_first_of("DP") != StringRef::npos;
  if (!TakesPointer || NumArgs != D.MaxArgs + 1)
    return nullptr;
  Value *Tag = CB.getArgOperand(NumArgs - 1);
  // A tag of 8 bytes or less may come coerced; find the vector.
  Tag = lookThroughMemory(Tag);
  auto *VT = dyn_cast<FixedVectorType>(Tag->getType());
  if (!VT)
    return nullptr;
  --NumArgs;
  if (auto *LI = dyn_cast<LoadInst>(CB.getArgOperand(NumArgs)))
    if (auto *AI = dyn_cast<AllocaInst>(LI->getPointerOperand()))
      Temporaries.insert(AI);
  return VT->getElementType();
}

bool Recognizer::checkArgCount(CallInst &CB, const OpDesc &D,
                               unsigned NumArgs) {
  if (NumArgs >= D.MinArgs && NumArgs <= D.MaxArgs)
    return true;
  std::string Expected = std::to_string(D.MinArgs);
  if (D.MaxArgs != D.MinArgs)
    Expected += " to " + std::to_string(D.MaxArgs);
  error(CB, opName(CB) + " takes " + Expected + " operand" +
                (D.MaxArgs == 1 ? "" : "s") + ", got " +
                std::to_string(NumArgs));
  return false;
}

//===----------------------------------------------------------------------===//
// Step 2: token producers.
//===----------------------------------------------------------------------===//

//   %t = call i32 (ptr, <4 x i32>, ...) @tensor_typeinfo(ptr byval(<N x T>)
//   %tmp, ...)
// -->
//   %t = call token @llvm.tensor.typeinfo.v<N>T...(<N x T> %v, <4 x i32> <...>,
//   ...) (or `ptr elementtype(T) %param` when %v is an unwritten byval
//   parameter)
void Recognizer::resolveTokenProducer(CallInst &CB, OpKind Kind) {
  const OpDesc &D = getOpDesc(Kind);
  unsigned NumArgs;
  Type *TagElem = getElementTag(CB, D, NumArgs);
  if (!checkArgCount(CB, D, NumArgs))
    return;
  TokenDesc Desc{Kind, {}, nullptr, nullptr};
  static const char *const DimNames[] = {"shape", "layout", "padding",
                                         "strides"};
  for (unsigned I = 0; I < NumArgs; ++I) {
    Value *V = nullptr;
    switch (D.Signature[I]) {
    case 'D':
      V = resolveData(CB, I, TagElem, Desc.Elem);
      break;
    case 'P':
      V = resolvePointer(CB, I, TagElem, Desc.Elem);
      break;
    case 'V':
      // Shape and strides may be computed at run time; layout and padding
      // are constants.
      V = I == 1 || I == 4
              ? resolveRuntimeDims(CB, I, DimNames[std::min(I - 1, 3u)])
              : resolveDims(CB, I, DimNames[std::min(I - 1, 3u)]);
      break;
    default:
      llvm_unreachable("token producers take data and dimension vectors");
    }
    if (!V)
      return;
    Desc.Args.push_back(V);
  }
  if (!isSupportedElementType(Desc.Elem)) {
    std::string TyName;
    raw_string_ostream OS(TyName);
    Desc.Elem->print(OS);
    error(CB, "unsupported tensor element type '" + OS.str() + "' in " +
                  opName(CB) +
                  " (supported: i8, i16, i32, i64, f16, bf16, f32, f64)");
    return;
  }
  IRBuilder<> B(&CB);
  Desc.NewCall = createOpCall(B, Kind, Type::getTokenTy(Ctx), Desc.Args,
                              Desc.isMemory() ? Desc.Elem : nullptr);
  Desc.NewCall->setDebugLoc(CB.getDebugLoc());
  if (spelling(CB) != D.CName) // tensor_typeinfo_mem, TLX_LOAD
    setUserSpelling(*Desc.NewCall, spelling(CB));
  attachObjectBound(CB, *Desc.NewCall);
  Tokens[&CB] = std::move(Desc);
}

//===----------------------------------------------------------------------===//
// Step 3: tokens of consumers, merges, data results.
//===----------------------------------------------------------------------===//

/// What the C token \p V was copied from: through variables (memory) and
/// integer conversions.
Value *Recognizer::lookThroughTokenCopies(Value *V) {
  for (;;) {
    V = lookThroughMemory(V);
    if (auto *Cast = dyn_cast<CastInst>(V);
        Cast && Cast->getSrcTy()->isIntegerTy())
      V = Cast->getOperand(0);
    else
      return V;
  }
}

/// The token operand \p ArgNo of \p User, or null after an error.
const TokenDesc *Recognizer::resolveToken(CallInst &User, unsigned ArgNo) {
  Value *V = lookThroughTokenCopies(User.getArgOperand(ArgNo));
  auto It = Tokens.find(V);
  if (It != Tokens.end())
    return &It->second;
  if (isMergeInst(V))
    return mergeTokens(User, cast<Instruction>(V));
  std::string Arg = "the token operand (" + ordinal(ArgNo + 1) +
                    " argument) of " + opName(User);
  if (auto *Def = dyn_cast<CallInst>(V)) {
    if (auto Kind = getDummyKind(*Def)) {
      // A producer whose own resolution failed was already reported.
      if (getOpDesc(*Kind).Result == ResultKind::Token) {
        if (!Failed)
          error(User, Arg + " comes from a call that was not recognized");
        Failed = true;
        return nullptr;
      }
      error(User, Arg + " comes from " + opName(*Def) +
                      ", which returns tensor data, not a token; name the "
                      "data with tensor_typeinfo first");
      return nullptr;
    }
  }
  if (isa<Argument>(V)) {
    error(User, Arg + " is a function parameter; TLX tokens cannot be passed "
                      "between functions (pass the tensor data instead)");
    return nullptr;
  }
  error(User, Arg + " does not come from a TLX operation (tensor_typeinfo, "
                    "tensor_load or vector_totensor)");
  return nullptr;
}

/// The logical (row-major) data of \p Leaf as a vector: its own data when
/// that is in logical order (a totensor of a vector, or a typeinfo of one
/// with the identity layout), else the tensor read with tovector - always
/// for a \p Dynamic merge, whose <1 x T> data only stands for the tensor.
Value *Recognizer::getLeafData(const TokenDesc &Leaf, Type *DataTy,
                               bool Dynamic) {
  auto IsIdentity = [](const Value *Layout) {
    auto L = getConstantIntVector(Layout);
    for (unsigned I = 0; L && I < L->size(); ++I)
      if ((*L)[I] != I)
        return false;
    return L.has_value();
  };
  if (!Dynamic && !Leaf.isMemory() && Leaf.Kind != OpKind::Load &&
      Leaf.Args[0]->getType() == DataTy &&
      (Leaf.Kind == OpKind::ToTensor || IsIdentity(Leaf.Args[2])))
    return Leaf.Args[0];
  IRBuilder<> B(Leaf.NewCall->getNextNode());
  B.SetCurrentDebugLocation(Leaf.NewCall->getDebugLoc());
  return createOpCall(B, OpKind::ToVector, DataTy, {Leaf.NewCall});
}

//   %tok = phi i32 [ %t1, %a ], [ %t2, %b ]     ; C tokens merged
// -->
//   %d1 = call <N x T> @llvm.tensor.tovector(token %t1')   ; in %a's path
//   %d2 = call <N x T> @llvm.tensor.tovector(token %t2')
//   %data = phi <N x T> [ %d1, %a ], [ %d2, %b ]
//   %tok' = call token @llvm.vector.totensor(<N x T> %data, shape, ...)
//
// tovector and totensor both see the data in logical row-major order, so
// the merge is exact for every layout; tlx-bufferize turns the phi into
// copies into one buffer at the end of each incoming path. Merging the
// pointers of loads instead would read the memory at the merge, not where
// each load was.
const TokenDesc *Recognizer::mergeTokens(CallInst &User, Instruction *Merge) {
  auto Found = Merged.find(Merge);
  if (Found != Merged.end())
    return &Found->second;

  SmallSetVector<Instruction *, 8> Web;
  SmallSetVector<const TokenDesc *, 4> Leaves;
  if (!collectTokenWeb(User, Merge, Web, Leaves))
    return nullptr;
  // Every path must describe one tensor type. Extents computed at run time
  // may differ per path (each op checks the extents it reads): the data is
  // then merged as a <1 x T> placeholder and the extents by phis of the
  // shape vectors (tlx-bufferize gives each path a buffer of its size).
  const TokenDesc &First = *Leaves[0];
  bool Dynamic = any_of(Leaves, [](const TokenDesc *L) {
    return getTensorValue(L->NewCall)->hasRuntimeSizes();
  });
  for (const TokenDesc *L : Leaves)
    if (!checkMergedType(User, First, *L, /*CompareShapes=*/!Dynamic))
      return nullptr;
  Type *DataTy = FixedVectorType::get(First.Elem, 1);
  if (!Dynamic) {
    int64_t N = 1;
    std::optional<Dims> Shape = getConstantIntVector(First.Args[1]);
    for (int64_t E : *Shape)
      N *= E;
    DataTy = FixedVectorType::get(First.Elem, N);
  }

  TokenDesc &Desc = Merged[Merge];
  Value *Data = mirrorWeb(User, Desc, Web.getArrayRef(), Leaves.getArrayRef(),
                          /*Shape=*/false, DataTy, [&](const TokenDesc &L) {
                            return getLeafData(L, DataTy, Dynamic);
                          });
  Value *Shape = First.Args[1];
  if (Dynamic)
    Shape = mirrorWeb(User, Desc, Web.getArrayRef(), Leaves.getArrayRef(),
                      /*Shape=*/true, First.Args[1]->getType(),
                      [](const TokenDesc &L) { return L.Args[1]; });
  Desc = TokenDesc{OpKind::ToTensor,
                   {Data, Shape, First.Args[2], First.Args[3]},
                   First.Elem,
                   nullptr};
  Instruction *InsertPt = isa<PHINode>(Merge)
                              ? &*Merge->getParent()->getFirstInsertionPt()
                              : Merge->getNextNode();
  IRBuilder<> B(InsertPt);
  B.SetCurrentDebugLocation(User.getDebugLoc());
  Desc.NewCall = createOpCall(B, Desc.Kind, Type::getTokenTy(Ctx), Desc.Args);
  return &Desc;
}

/// Mirrors each phi and select of \p Web that \p Mirror lacks with a phi or
/// select of type \p Ty (named \p Name) over the same blocks or condition,
/// its incoming values given by \p Incoming (the mirror, the operand
/// number, the original incoming value). Phis first, since they may form
/// cycles, then selects in dominance order.
static void mirrorMerges(
    ArrayRef<Instruction *> Web, Type *Ty, StringRef Name,
    DenseMap<Value *, Value *> &Mirror, DominatorTree &DT,
    function_ref<Value *(Instruction *, unsigned, Value *)> Incoming) {
  SmallVector<Instruction *, 8> New;
  for (Instruction *W : Web)
    if (!Mirror.count(W))
      New.push_back(W);
  for (Instruction *W : New)
    if (auto *Phi = dyn_cast<PHINode>(W))
      Mirror[W] = PHINode::Create(Ty, Phi->getNumIncomingValues(), Name,
                                  Phi->getIterator());
  SmallVector<SelectInst *, 4> Selects;
  for (Instruction *W : New)
    if (auto *Sel = dyn_cast<SelectInst>(W))
      Selects.push_back(Sel);
  sort(Selects,
       [&](SelectInst *A, SelectInst *B) { return DT.dominates(A, B); });
  for (SelectInst *Sel : Selects)
    Mirror[Sel] =
        SelectInst::Create(Sel->getCondition(), PoisonValue::get(Ty),
                           PoisonValue::get(Ty), Name, Sel->getIterator());
  for (Instruction *W : New) {
    if (auto *Phi = dyn_cast<PHINode>(W)) {
      auto *M = cast<PHINode>(Mirror[W]);
      for (unsigned I = 0, E = Phi->getNumIncomingValues(); I != E; ++I) {
        M->addIncoming(PoisonValue::get(Ty), Phi->getIncomingBlock(I));
        M->setIncomingValue(I, Incoming(M, I, Phi->getIncomingValue(I)));
      }
      continue;
    }
    auto *Sel = cast<SelectInst>(W), *M = cast<SelectInst>(Mirror[W]);
    M->setOperand(1, Incoming(M, 1, Sel->getTrueValue()));
    M->setOperand(2, Incoming(M, 2, Sel->getFalseValue()));
  }
}

/// The web of phis and selects that merges tokens at \p Merge, and its
/// leaves (short-form tokens a back edge brings are left pending); false
/// after an error at \p User.
bool Recognizer::collectTokenWeb(CallInst &User, Instruction *Merge,
                                 SmallSetVector<Instruction *, 8> &Web,
                                 SmallSetVector<const TokenDesc *, 4> &Leaves) {
  Web.insert(Merge);
  for (unsigned I = 0; I < Web.size(); ++I) {
    Instruction *W = Web[I];
    auto Inputs =
        isa<PHINode>(W)
            ? SmallVector<Value *, 4>(cast<PHINode>(W)->incoming_values())
            : SmallVector<Value *, 4>{W->getOperand(1), W->getOperand(2)};
    for (Value *In : Inputs) {
      In = lookThroughMemory(In);
      if (isa<UndefValue>(In) || isPendingShortForm(In))
        continue;
      if (auto It = Tokens.find(In); It != Tokens.end()) {
        Leaves.insert(&It->second);
        continue;
      }
      if (isMergeInst(In)) {
        Web.insert(cast<Instruction>(In));
        continue;
      }
      error(User, "a token merged at this point (operand of " + opName(User) +
                      ") does not come from a TLX operation on every path");
      return false;
    }
  }
  if (Leaves.empty()) {
    error(User, "the token operand of " + opName(User) +
                    " is never assigned a TLX token");
    return false;
  }
  return true;
}

/// Mirrors the token phis and selects of \p Web with phis and selects of
/// type \p Ty - the merged data, or with \p Shape the merged extents -
/// whose leaves are \p LeafValue of each token; returns the mirror of the
/// merge \p Desc is for (Web[0]). The mirrors of one web are shared by its
/// merge points (two loop-carried tokens that swap).
//   %tok = phi i32 [ %t1, %a ], [ %t2, %b ]     ; C tokens merged
// -->
//   %d1 = call <N x T> @llvm.tensor.tovector(token %t1')   ; in %a's path
//   %d2 = call <N x T> @llvm.tensor.tovector(token %t2')
//   %data = phi <N x T> [ %d1, %a ], [ %d2, %b ]
//   %tok' = call token @llvm.vector.totensor(<N x T> %data, shape, ...)
Value *Recognizer::mirrorWeb(
    CallInst &User, const TokenDesc &Desc,
    ArrayRef<Instruction *> Web, ArrayRef<const TokenDesc *> Leaves,
    bool Shape, Type *Ty,
    function_ref<Value *(const TokenDesc &)> LeafValue) {
  DenseMap<Value *, Value *> &Mirror = Shape ? ShapeMirror : DataMirror;
  for (const TokenDesc *L : Leaves)
    if (!Mirror.count(L->NewCall))
      Mirror[L->NewCall] = LeafValue(*L);
  mirrorMerges(Web, Ty, Shape ? "tlx.merge.shape" : "tlx.merge", Mirror, DT,
               [&](Instruction *M, unsigned OperandNo, Value *In) -> Value * {
                 In = lookThroughMemory(In);
                 if (isPendingShortForm(In)) {
                   PendingIncomings.push_back({M, OperandNo, cast<CallInst>(In),
                                               &Desc, &User, Shape});
                   return PoisonValue::get(Ty);
                 }
                 if (auto It = Tokens.find(In); It != Tokens.end())
                   In = It->second.NewCall;
                 return isa<UndefValue>(In) ? PoisonValue::get(Ty)
                                            : Mirror.lookup(In);
               });
  return Mirror.lookup(Web[0]);
}

/// A short-form typeinfo (`tlx_relu(h)`) not resolved yet: its op reads
/// the merge being built, through a back edge.
bool Recognizer::isPendingShortForm(Value *V) const {
  auto *CB = dyn_cast<CallInst>(V);
  return CB && KindOf.count(CB) && isInferredTypeInfo(*CB) &&
         !Tokens.count(CB);
}

/// Whether \p L, merged at \p User's operand, has the type of \p First;
/// else says which part differs.
bool Recognizer::checkMergedType(CallInst &User, const TokenDesc &First,
                                 const TokenDesc &L, bool CompareShapes) {
  if (L.Elem != First.Elem) {
    error(User, "tokens merged at this point (operand of " + opName(User) +
                    ") have different element types (" +
                    elementTypeName(First.Elem) + " and " +
                    elementTypeName(L.Elem) + ")");
    return false;
  }
  if (L.typeArgs()[0]->getType() != First.typeArgs()[0]->getType()) {
    error(User, "tokens merged at this point (operand of " + opName(User) +
                    ") have different ranks; give the tensor one type on "
                    "every path");
    return false;
  }
  for (unsigned I = CompareShapes ? 0 : 1; I < 3; ++I)
    if (L.typeArgs()[I] != First.typeArgs()[I]) {
      static const char *const What[] = {"shapes", "layouts", "paddings"};
      error(User, "tokens merged at this point (operand of " + opName(User) +
                      ") have different " + What[I] + " (" +
                      describeDims(cast<Constant>(First.typeArgs()[I])) +
                      " and " + describeDims(cast<Constant>(L.typeArgs()[I])) +
                      "); give the tensor one type on every path");
      return false;
    }
  return true;
}


/// Fills in the incoming values mergeTokens left for short-form tokens
/// that back edges bring, once their ops are typed: each must have the
/// merged type (a loop keeps its tensor's shape).
void Recognizer::resolvePendingIncomings() {
  for (const PendingIncoming &P : PendingIncomings) {
    auto It = Tokens.find(P.TypeInfo);
    if (It == Tokens.end())
      continue; // its op failed, and said why
    const TokenDesc &Leaf = It->second;
    bool Dynamic = !isa<Constant>(P.Merged->typeArgs()[0]);
    if (!Dynamic && !isa<Constant>(Leaf.typeArgs()[0])) {
      error(*P.User, "tokens merged at this point (operand of " +
                         opName(*P.User) +
                         ") have constant extents on one path and extents "
                         "computed at run time on another (a loop's body); "
                         "give them one kind on every path");
      continue;
    }
    if (!checkMergedType(*P.User, *P.Merged, Leaf, !Dynamic))
      continue;
    Value *&Incoming = (P.Shape ? ShapeMirror : DataMirror)[Leaf.NewCall];
    if (!Incoming)
      Incoming = P.Shape ? Leaf.Args[1]
                         : getLeafData(Leaf, P.Mirror->getType(), Dynamic);
    P.Mirror->setOperand(P.OperandNo, Incoming);
  }
  PendingIncomings.clear();
}

/// The vector type the data op \p CB returns in C: for a small vector the
/// type the ABI coerced it from (the caller stores the scalar, or AArch64's
/// wider vector, into a temporary and loads the vector back; a <6 x i8> or
/// <3 x half> from the first bytes of a double, a <6 x half> from a
/// <4 x i32>), else its IR type.
Type *Recognizer::getResultType(CallInst &CB) {
  Type *Ty = CB.getType();
  if (!Ty->isVoidTy() && CB.hasOneUse())
    if (auto *SI = dyn_cast<StoreInst>(CB.user_back()))
      if (auto *AI = dyn_cast<AllocaInst>(SI->getPointerOperand());
          AI && findSingleStore(AI, SI->getNextNode()) == SI) {
        Type *Loaded = nullptr;
        for (User *U : AI->users())
          if (auto *LI = dyn_cast<LoadInst>(U)) {
            if (Loaded && LI->getType() != Loaded)
              return nullptr;
            Loaded = LI->getType();
          }
        if (Loaded && isa<FixedVectorType>(Loaded) &&
            DL.getTypeStoreSize(Loaded) <= DL.getTypeStoreSize(Ty))
          return Loaded;
      }
  if (isa<FixedVectorType>(Ty))
    return Ty;
  error(CB, opName(CB) + " returns tensor data: declare it to return the "
                         "tensor's vector type (see TLX_DECLARE_TENSOR_OPS "
                         "in tlx.h)");
  return nullptr;
}

/// Converts the scalar operand \p V (after C's default argument promotions)
/// to the tensor's element type.
Value *Recognizer::convertScalar(IRBuilderBase &B, Value *V, Type *Elem) {
  V = lookThroughMemory(V);
  return Elem ? convertScalarToElement(B, V, Elem) : V;
}

//   %r = call <N x T> (i32, i32, ...) @tensor_matmul(i32 %a, i32 %b)
// -->
//   %r = call <N x T> @llvm.tensor.matmul.v<N>T(token %a', token %b')
void Recognizer::rewriteConsumer(CallInst &CB, OpKind Kind) {
  const OpDesc &D = getOpDesc(Kind);
  unsigned NumArgs;
  Type *TagElem = getElementTag(CB, D, NumArgs);
  if (!checkArgCount(CB, D, NumArgs))
    return;
  Type *RetTy = Type::getVoidTy(Ctx);
  if (D.Result == ResultKind::Data && !(RetTy = getResultType(CB)))
    return;

  IRBuilder<> B(&CB);
  B.SetCurrentDebugLocation(CB.getDebugLoc());
  SmallVector<Value *, 5> Args;
  Type *Elem = nullptr;    // the first token's element type
  Type *PtrElem = nullptr; // store's pointer element type
  const TokenDesc *LastToken = nullptr;
  // tlx_smma(0, a, b): a C scalar accumulator (short form only).
  Value *ScalarAcc = nullptr;
  bool OK = true;
  for (unsigned I = 0; I < NumArgs && OK; ++I) {
    Value *V = nullptr;
    switch (D.Signature[I]) {
    case 'T':
      if (I == 0 && isMMA(Kind) && isShortForm(CB) &&
          !comesFromToken(CB.getArgOperand(0))) {
        V = ScalarAcc = lookThroughMemory(CB.getArgOperand(0));
        break;
      }
      if (const TokenDesc *T = resolveToken(CB, I)) {
        V = T->NewCall;
        LastToken = T;
        if (!Elem)
          Elem = T->Elem;
      }
      break;
    case 'P':
      V = resolvePointer(CB, I, TagElem, PtrElem);
      break;
    case 'V':
    case 'v':
      V = Kind == OpKind::Store ? resolveStrides(CB, I, LastToken)
          : mayBeRuntimeOperand(Kind, I)
              ? resolveRuntimeDims(CB, I, "dimension vector")
              : resolveDims(CB, I, "dimension vector");
      break;
    case 'S':
    case 's':
      V = convertScalar(B, CB.getArgOperand(I), Elem);
      break;
    case 'X': // a token or a scalar (the short form's elementwise ops)
      if (comesFromToken(CB.getArgOperand(I))) {
        if (const TokenDesc *T = resolveToken(CB, I))
          V = T->NewCall;
      } else {
        V = lookThroughMemory(CB.getArgOperand(I));
      }
      break;
    case 'I':
    case 'i': {
      SmallPtrSet<Value *, 8> Visited;
      auto *C = dyn_cast_or_null<ConstantInt>(
          resolveConstant(CB.getArgOperand(I), Visited));
      if (!C) {
        error(CB, "the " + ordinal(I + 1) + " argument of " + opName(CB) +
                      " must be a constant integer");
        break;
      }
      V = ConstantInt::get(Type::getInt32Ty(Ctx), C->getSExtValue());
      break;
    }
    default:
      error(CB, "unexpected operand kind for " + opName(CB));
      break;
    }
    OK = V != nullptr;
    Args.push_back(V);
  }
  if (!OK)
    return;
  if (isShortElementwise(Kind)) {
    rewriteElementwise(CB, Kind, Args);
    return;
  }
  if (ScalarAcc) {
    std::string Why;
    Args[0] = emitScalarAccumulator(B, ScalarAcc, Args[1], Args[2], Why);
    if (!Args[0]) {
      error(CB, opName(CB) + ": " + Why);
      return;
    }
  }
  CallInst *New = createOpCall(B, Kind, RetTy, Args, PtrElem);
  attachObjectBound(CB, *New);
  if (spelling(CB) != D.CName)
    setUserSpelling(*New, spelling(CB));
  if (D.Result == ResultKind::Data)
    DataResults.push_back({&CB, New});
}

/// Whether the integer argument \p V of a short-form elementwise op is a
/// token - it comes, through variables and merges, from a TLX call - rather
/// than a scalar (both are integers in C).
bool Recognizer::comesFromToken(Value *V) {
  if (!V->getType()->isIntegerTy())
    return false;
  SmallVector<Value *, 8> Work{V};
  SmallPtrSet<Value *, 8> Seen;
  while (!Work.empty()) {
    Value *X = lookThroughTokenCopies(Work.pop_back_val());
    if (!Seen.insert(X).second)
      continue;
    auto *Call = dyn_cast<CallInst>(X);
    if (Tokens.count(X) || (Call && getDummyKind(*Call)))
      return true;
    if (auto *Phi = dyn_cast<PHINode>(X))
      append_range(Work, Phi->incoming_values());
    else if (auto *Sel = dyn_cast<SelectInst>(X))
      Work.append({Sel->getTrueValue(), Sel->getFalseValue()});
  }
  return false;
}

//   %r = call <4 x i32> (...) @tensor_add_tlx_inferred(i32 %a, double %s)
// -->
//   %f = call <N x float> @llvm.tensor.broadcast(token %a', float %s')
//   %t = call token @llvm.tensor.typeinfo(<N x float> %f, shape, ...)
//   %r = call <N x float> @llvm.tensor.fadd(token %a', token %t)
// (IR/Elementwise.h); the short form's typeinfo then names %r.
void Recognizer::rewriteElementwise(CallInst &CB, OpKind Kind,
                                    ArrayRef<Value *> Args) {
  IRBuilder<> B(&CB);
  B.SetCurrentDebugLocation(CB.getDebugLoc());
  std::string Why;
  SmallVector<CallInst *, 8> Emitted;
  CallInst *New = emitElementwise(B, Kind, Args, Why, &Emitted);
  if (!New) {
    error(CB, opName(CB) + ": " + Why);
    return;
  }
  // Run-time checks of each piece (a broadcast's extents) name the call.
  for (CallInst *Piece : Emitted)
    setUserSpelling(*Piece, spelling(CB));
  DataResults.push_back({&CB, New});
}

/// The strides operand of a tensor_store of \p Stored: a single 0
/// (TLX_DIMS(0), tlx.h's TLX_STORE) means packed, whatever the rank.
Value *Recognizer::resolveStrides(CallInst &CB, unsigned ArgNo,
                                  const TokenDesc *Stored) {
  Value *V = resolveRuntimeDims(CB, ArgNo, "strides");
  auto *C = dyn_cast_or_null<Constant>(V);
  if (!C || !Stored)
    return V;
  auto *VT = cast<FixedVectorType>(C->getType());
  unsigned Rank =
      cast<FixedVectorType>(Stored->typeArgs()[0]->getType())->getNumElements();
  if (VT->getNumElements() == 1 && Rank > 1 && C->isNullValue())
    return getI32Vector(Ctx, Dims(Rank, 0));
  return C;
}

//   %r = call <4 x i32> (...) @tensor_matmul_tlx_inferred(i32 %a, i32 %b)
//   %t = call i32 (...) @tensor_typeinfo(<4 x i32> %r)
// -->
//   %r = call <M*N x T> @llvm.tensor.matmul(token %a', token %b')
//   %t = call token @llvm.tensor.typeinfo(<M*N x T> %r, shape, layout, pad)
// The short form's result carries no size in C: the op's result takes the
// tensor type TLX infers from its operands (row-major, unpadded).
void Recognizer::resolveInferredTypeInfo(CallInst &CB) {
  Value *Data = lookThroughMemory(CB.getArgOperand(0));
  auto *It = find_if(DataResults, [&](const auto &Entry) {
    return Entry.first == Data;
  });
  if (It == DataResults.end()) {
    // A short-form op that failed has said why already.
    auto *Op = dyn_cast<CallBase>(Data);
    if (Failed && Op && isShortForm(*Op))
      return;
    error(CB, opName(CB) + " with one argument names the result of a "
                           "tensor_* operation: pass that call itself");
    return;
  }
  auto [Dummy, Op] = *It;
  if (!Dummy->hasOneUse()) {
    error(*Dummy, "the short form's result of " + opName(*Dummy) +
                      " is a tensor token, not C data: use the long form "
                      "(a vector type and tensor_typeinfo) to read it in C");
    return;
  }
  std::string Why;
  SmallVector<Value *, 5> Args(Op->args());
  IRBuilder<> B(Op);
  std::optional<TensorType> Ty =
      inferUntypedResult(B, *getOpKind(*Op), Args, Why);
  if (!Ty) {
    // With run-time extents the long form would not help: say what is
    // wrong.
    bool Runtime = any_of(Args, [](Value *A) {
      std::optional<TensorValue> TV =
          A->getType()->isTokenTy() ? getTensorValue(A) : std::nullopt;
      return TV && TV->Type.isDynamic();
    });
    if (Runtime)
      error(*Dummy, opName(*Dummy) + ": " + Why);
    else
      error(*Dummy, "the result of " + opName(*Dummy) +
                        " cannot be inferred (" + Why +
                        "): name it with tensor_typeinfo(data, shape, "
                        "layout, padding) - the long form");
    return;
  }
  CallInst *New =
      createOpCall(B, *getOpKind(*Op), getDataVectorType(*Ty), Args);
  New->copyMetadata(*Op); // its location and spelling
  Op->eraseFromParent();
  It->second = New;
  CB.setArgOperand(0, PoisonValue::get(CB.getArgOperand(0)->getType()));
  B.SetInsertPoint(&CB);
  CallInst *TI = emitTypeInfo(B, New, *Ty);
  TI->setDebugLoc(CB.getDebugLoc());
  TokenDesc Desc{OpKind::TypeInfo, SmallVector<Value *, 5>(TI->args()),
                 Ty->Elem, TI};
  Tokens[&CB] = std::move(Desc);
}

//===----------------------------------------------------------------------===//
// Step 4: cleanup.
//===----------------------------------------------------------------------===//

/// A C token may only flow into other dummy calls (through variables,
/// phis and selects); anything else would observe a meaningless integer.
void Recognizer::checkTokenUses(CallInst &CB) {
  SmallVector<Value *, 8> Work{&CB};
  SmallPtrSet<Value *, 16> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (User *U : V->users()) {
      auto *I = cast<Instruction>(U);
      if (auto *Call = dyn_cast<CallInst>(I); Call && KindOf.count(Call))
        continue;
      if (isMergeInst(I) || isa<CastInst>(I) || isa<LoadInst>(I)) {
        Work.push_back(I);
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(I))
        if (auto *AI = dyn_cast<AllocaInst>(SI->getPointerOperand())) {
          if (SI->getValueOperand() != V)
            continue;
          for (User *AU : AI->users())
            if (isa<LoadInst>(AU))
              Work.push_back(AU);
          continue;
        }
      error(*I, "a TLX token (from " + opName(CB) +
                    ") can only be used by tensor_* operations");
      return;
    }
  }
}

void Recognizer::eraseDummies() {
  SmallVector<WeakTrackingVH, 32> MaybeDead;
  auto NoteOperands = [&](Instruction *I) {
    for (Value *Op : I->operands())
      if (isa<Instruction>(Op))
        MaybeDead.push_back(Op);
  };

  // Data results: the intrinsic takes over the call's uses; a coerced small
  // vector result replaces the loads from its ABI temporary.
  for (auto [Old, New] : DataResults) {
    if (Old->getType() == New->getType() || Old->use_empty()) {
      Old->replaceAllUsesWith(New); // (or a short-form result, retyped)
      continue;
    }
    auto *SI = cast<StoreInst>(Old->user_back());
    auto *AI = cast<AllocaInst>(SI->getPointerOperand());
    for (User *U : make_early_inc_range(AI->users()))
      if (auto *LI = dyn_cast<LoadInst>(U)) {
        LI->replaceAllUsesWith(New);
        LI->eraseFromParent();
      }
    SI->eraseFromParent();
    Temporaries.insert(AI);
  }

  // Tokens: their C integers are meaningless now.
  for (CallInst *CB : Calls) {
    for (User *U : CB->users())
      MaybeDead.push_back(U);
    if (!CB->getType()->isVoidTy())
      CB->replaceAllUsesWith(PoisonValue::get(CB->getType()));
  }
  for (CallInst *CB : Calls) {
    NoteOperands(CB);
    CB->eraseFromParent();
  }
  for (CallInst *CB : KnownObjectCalls) {
    if (!CB->use_empty())
      continue;
    NoteOperands(CB);
    Value *Strings[] = {CB->getArgOperand(4), CB->getArgOperand(5)};
    CB->eraseFromParent();
    for (Value *V : Strings)
      if (auto *GV = dyn_cast<GlobalVariable>(V);
          GV && GV->use_empty() && GV->hasPrivateLinkage())
        GV->eraseFromParent();
  }

  // Temporaries that only fed dummy calls, and the values they held.
  auto DeleteDeadValues = [&] {
    for (WeakTrackingVH &VH : MaybeDead)
      if (auto *Phi = dyn_cast_or_null<PHINode>(VH))
        RecursivelyDeleteDeadPHINode(Phi);
    RecursivelyDeleteTriviallyDeadInstructionsPermissive(MaybeDead);
    MaybeDead.clear();
  };
  SmallVector<AllocaInst *, 8> Temps(Temporaries.begin(), Temporaries.end());
  for (bool Changed = true; Changed;) {
    DeleteDeadValues();
    Changed = false;
    for (AllocaInst *&AI : Temps) {
      if (!AI)
        continue;
      bool Dead = all_of(AI->users(), [&](User *U) {
        if (auto *SI = dyn_cast<StoreInst>(U))
          return SI->getPointerOperand() == AI;
        auto *II = dyn_cast<IntrinsicInst>(U);
        return II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II));
      });
      if (!Dead)
        continue;
      for (User *U : make_early_inc_range(AI->users())) {
        auto *I = cast<Instruction>(U);
        NoteOperands(I);
        I->eraseFromParent();
      }
      AI->eraseFromParent();
      AI = nullptr;
      Changed = true;
    }
  }
}

//===----------------------------------------------------------------------===//
// Step 5: results merged across control flow.
//===----------------------------------------------------------------------===//

/// The typeinfos that name \p Result through the C variable it is assigned
/// to: typeinfos of the phis and selects it reaches (if/else, ?:, switch,
/// loops), the earliest in reverse post-order first.
static SmallVector<CallBase *, 2>
findMergedTypeInfos(Instruction &Result,
                    const DenseMap<const BasicBlock *, unsigned> &RPONumber) {
  SmallSetVector<Instruction *, 8> Web;
  SmallVector<CallBase *, 2> TypeInfos;
  Web.insert(&Result);
  for (unsigned I = 0; I < Web.size(); ++I)
    for (User *U : Web[I]->users()) {
      if (isMergeInst(U) && (isa<PHINode>(U) || U->getOperand(0) != Web[I]))
        Web.insert(cast<Instruction>(U));
      else if (auto *TI = dyn_cast<CallBase>(U);
               I > 0 && TI && getOpKind(*TI) == OpKind::TypeInfo &&
               TI->getArgOperand(0) == Web[I])
        TypeInfos.push_back(TI);
    }
  stable_sort(TypeInfos, [&](const CallBase *A, const CallBase *B) {
    if (A->getParent() != B->getParent())
      return RPONumber.lookup(A->getParent()) <
             RPONumber.lookup(B->getParent());
    return A->comesBefore(B);
  });
  return TypeInfos;
}

/// A vector variable is the same tensor at every use: an op whose result
/// reaches a phi or select without a typeinfo of its own writes it as the
/// first typeinfo naming the merged variable says, as it would if that
/// typeinfo named the result directly (docs/pipeline.md, "Merged values").
/// C vectors, and results typed on their own path, are flat data that a
/// later typeinfo reads with its own type.
//   %r = call <N x T> @llvm.tensor.ceil(token %t)     ; no typeinfo of %r
//   %v = phi <N x T> [ %r, %a ], [ %s, %b ]
//   %t5 = call token @llvm.tensor.typeinfo(<N x T> %v, shape, layout, pad)
// -->
//   %r = call <N x T> @llvm.tensor.ceil(token %t)
//   %r.t = call token @llvm.tensor.typeinfo(<N x T> %r, shape, layout, pad)
void Recognizer::nameMergedResults() {
  DenseMap<const BasicBlock *, unsigned> RPONumber;
  for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
    RPONumber[BB] = RPONumber.size();
  SmallVector<CallBase *, 16> Results;
  for (Instruction &I : instructions(F))
    if (auto *Op = dyn_cast<CallBase>(&I))
      if (std::optional<OpKind> Kind = getOpKind(*Op);
          Kind && getOpDesc(*Kind).Result == ResultKind::Data &&
          *Kind != OpKind::ToVector && !getResultTypeInfo(*Op))
        Results.push_back(Op);
  for (CallBase *Op : Results) {
    SmallVector<CallBase *, 2> TypeInfos = findMergedTypeInfos(*Op, RPONumber);
    if (TypeInfos.empty() || TypeInfos[0]->getArgOperand(0)->getType() !=
                                 Op->getType())
      continue;
    CallBase &Named = *TypeInfos[0];
    // A shape computed at run time cannot be merged (tlx-verify says so);
    // only constant types are copied to the op.
    if (!all_of(drop_begin(Named.args()),
                [](const Value *V) { return isa<Constant>(V); }))
      continue;
    IRBuilder<> B(Op->getNextNode());
    B.SetCurrentDebugLocation(Named.getDebugLoc());
    SmallVector<Value *, 4> Args{Op};
    append_range(Args, drop_begin(Named.args()));
    CallInst *TI =
        createOpCall(B, OpKind::TypeInfo, Type::getTokenTy(Ctx), Args);
    TI->setMetadata(MergedTypeInfoMD, MDNode::get(Ctx, {}));
  }
}

/// Mirrors the phis and selects merging run-time-sized results that the
/// typeinfo \p TI names: each result is typed where it is computed (its
/// own typeinfo, or one of the extents it computes in TI's layout), and
/// contributes tovector of that (\p Data) and its shape vector (\p Shape).
/// False when a leaf is not a TLX result (tlx-verify says why).
bool Recognizer::mirrorRuntimeValues(CallBase &TI,
                                     DenseMap<Value *, Value *> &Data,
                                     DenseMap<Value *, Value *> &Shape) {
  TensorType Ty = getTensorValue(&TI)->Type;
  SmallSetVector<Instruction *, 8> Web;
  SmallSetVector<CallBase *, 4> Leaves;
  Web.insert(cast<Instruction>(TI.getArgOperand(0)));
  for (unsigned I = 0; I < Web.size(); ++I) {
    auto Inputs = isa<PHINode>(Web[I])
                      ? SmallVector<Value *, 4>(
                            cast<PHINode>(Web[I])->incoming_values())
                      : SmallVector<Value *, 4>{Web[I]->getOperand(1),
                                                Web[I]->getOperand(2)};
    for (Value *In : Inputs) {
      if (isa<UndefValue>(In) || Data.count(In))
        continue;
      if (isMergeInst(In)) {
        Web.insert(cast<Instruction>(In));
        continue;
      }
      auto *Op = dyn_cast<CallBase>(In);
      std::optional<OpKind> K = Op ? getOpKind(*Op) : std::nullopt;
      if (!K || getOpDesc(*K).Result != ResultKind::Data)
        return false;
      Leaves.insert(Op);
    }
  }
  for (CallBase *Op : Leaves) {
    auto *Named = const_cast<CallBase *>(getResultTypeInfo(*Op));
    IRBuilder<> B(Op->getNextNode());
    B.SetCurrentDebugLocation(Op->getDebugLoc());
    if (!Named || Named->getParent() != Op->getParent()) {
      std::string Why;
      std::optional<TensorType> AtOp = inferHomedResultTypeAs(B, *Op, Ty, Why);
      if (!AtOp) {
        error(*Op, Why);
        return false;
      }
      Named = emitTypeInfo(B, Op, *AtOp);
    }
    B.SetInsertPoint(Named->getNextNode());
    Data[Op] = createOpCall(B, OpKind::ToVector, Op->getType(), {Named});
    Shape[Op] = Named->getArgOperand(1);
  }
  auto Mirror = [&](DenseMap<Value *, Value *> &M, Type *MTy, StringRef Name) {
    mirrorMerges(Web.getArrayRef(), MTy, Name, M, DT,
                 [&](Instruction *, unsigned, Value *In) -> Value * {
                   return isa<UndefValue>(In) ? PoisonValue::get(MTy)
                                              : M.lookup(In);
                 });
  };
  Mirror(Data, TI.getArgOperand(0)->getType(), "tlx.merge");
  Mirror(Shape, TI.getArgOperand(1)->getType(), "tlx.merge.shape");
  return true;
}

//===----------------------------------------------------------------------===//
// Step 6: run-time-sized values merged across control flow.
//===----------------------------------------------------------------------===//

/// A variable holding run-time-sized results, assigned on several paths
/// (`r = tensor_floor(tensor_typeinfo(r, TLX_SHAPE(m, n), ...))` in a
/// loop), merges the tensors as tokens do (mergeTokens), and each typeinfo
/// naming the merged value is checked at run time to give its extents:
//   %v = phi <4 x float> [ %r1, %a ], [ %r2, %b ]     ; run-time results
//   %t = call token @llvm.tensor.typeinfo(<4 x float> %v, <2 x i32> %s, ..)
// -->
//   %d1 = call <4 x float> @llvm.tensor.tovector(token %t1) ; %t1: %r1's
//   ...
//   %d = phi <4 x float> [ %d1, %a ], [ %d2, %b ]
//   %e = phi <2 x i32> [ %s1, %a ], [ %s2, %b ]
//   %t = call token @llvm.vector.totensor(<4 x float> %d, <2 x i32> %e, ..)
//   (%s checked to equal %e)
void Recognizer::mergeRuntimeValues() {
  SmallVector<CallBase *, 4> Named;
  for (Instruction &I : instructions(F))
    if (auto *TI = dyn_cast<CallBase>(&I); TI &&
                                           getOpKind(*TI) == OpKind::TypeInfo &&
                                           isMergeInst(TI->getArgOperand(0)))
      if (std::optional<TensorValue> TV = getTensorValue(TI);
          TV && TV->Type.isDynamic())
        Named.push_back(TI);
  DenseMap<Value *, Value *> Data, Shape;
  SmallVector<WeakTrackingVH, 8> Merges;
  for (CallBase *TI : Named) {
    Value *V = TI->getArgOperand(0);
    if (!Data.count(V) && !mirrorRuntimeValues(*TI, Data, Shape))
      continue;
    TensorType Ty = getTensorValue(TI)->Type;
    IRBuilder<> B(TI);
    B.SetCurrentDebugLocation(TI->getDebugLoc());
    CallInst *Merged = createOpCall(
        B, OpKind::ToTensor, Type::getTokenTy(Ctx),
        {Data[V], Shape[V], getI32Vector(Ctx, Ty.Layout),
         getI32Vector(Ctx, Ty.Padding)});
    emitTypeInfoCheck(B, getTensorValue(Merged)->Type, *TI);
    TI->replaceAllUsesWith(Merged);
    TI->eraseFromParent();
    Merges.push_back(V);
  }
  // The merged C values are dead unless C reads them (tlx-verify says).
  for (WeakTrackingVH &M : Merges)
    if (auto *Phi = dyn_cast_or_null<PHINode>(M))
      RecursivelyDeleteDeadPHINode(Phi);
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Merges);
}

bool Recognizer::run() {
  collectCalls();
  if (Calls.empty())
    return false;
  accessVec3AsThemselves();
  promoteConnectedAllocas();
  for (CallInst *CB : Calls)
    if (getOpDesc(KindOf[CB]).Result == ResultKind::Token &&
        !isInferredTypeInfo(*CB))
      resolveTokenProducer(*CB, KindOf[CB]);
  for (CallInst *CB : Calls)
    if (isInferredTypeInfo(*CB))
      resolveInferredTypeInfo(*CB);
    else if (getOpDesc(KindOf[CB]).Result != ResultKind::Token)
      rewriteConsumer(*CB, KindOf[CB]);
  resolvePendingIncomings();
  if (!Failed)
    for (CallInst *CB : Calls)
      if (getOpDesc(KindOf[CB]).Result == ResultKind::Token)
        checkTokenUses(*CB);
  // After errors keep no half-rewritten body (nor tensor-sized vectors);
  // the other functions are still checked.
  if (Failed) {
    discardFunctionBody(F);
    return true;
  }
  eraseDummies();
  nameMergedResults();
  promoteRuntimeLocals();
  mergeRuntimeValues();
  if (Failed)
    discardFunctionBody(F);
  return true;
}

} // namespace

PreservedAnalyses RecognizePass::run(Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  // A dummy whose address is taken cannot be recognized where it is called
  // (and would fail to link).
  for (Function &F : M) {
    if (!F.isDeclaration() || F.isIntrinsic() || !matchCName(F.getName()))
      continue;
    for (Use &U : F.uses()) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      auto *CB = dyn_cast_or_null<CallBase>(I);
      if (I && !(CB && CB->isCallee(&U)))
        emitError(*I, "the TLX operation '" + F.getName() +
                          "' can only be called directly; its address "
                          "cannot be taken");
    }
  }
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    bool HasDummy = any_of(instructions(F), [](Instruction &I) {
      auto *CB = dyn_cast<CallBase>(&I);
      return CB && getDummyKind(*CB);
    });
    if (HasDummy) {
      if (removeUnreachableBlocks(F))
        FAM.invalidate(F, PreservedAnalyses::none());
      auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
      Recognizer R(F, DT);
      if (R.run()) {
        Changed = true;
        FAM.invalidate(F, PreservedAnalyses::none());
      }
    }
  }
  // The dummy declarations are unused now.
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && !F.isIntrinsic() && F.use_empty() &&
        matchCName(F.getName())) {
      F.eraseFromParent();
      Changed = true;
    }
  exitIfErrorsOutsideClang();
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace tlx
