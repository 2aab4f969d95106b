//===- BackendWorkarounds.cpp - IR the backend would get wrong ------------===//
//
// tlx-backend-workarounds rewrites, last in clang's pipeline, IR that a
// backend TLX supports miscompiles or rejects into an equivalent form it
// gets right. Each workaround is for the LLVM versions Compat.h names, so
// it disappears with them. It runs on every function, the user's own C
// included: the backend's bug is the same there.
//
//  - AArch64, LLVM 19, -O0 (GlobalISel selects instructions): a vector
//    fptrunc to f16 becomes BFCVTN - a conversion to bf16 - in functions
//    with +bf16 (armv8.6-a, armv9-a and later); so does every f16 vector
//    op that GlobalISel, without +fullfp16, computes in f32 and narrows
//    (arithmetic, fneg, fabs, floor, sqrt, int-to-float, ...: what the
//    -O2 pipeline makes of TLX's f16 loops in kernels optimized at -O0).
//    Such an op becomes one per lane (scalar FCVT is right).
//  - AArch64, every -O level: fptrunc to and fpext from scalable bf16
//    vectors cannot be selected by LLVM 19, with or without +bf16, nor
//    fptrunc from f64 by LLVM 22 (the loop vectorizer makes them of C
//    conversion loops under +sve). They become integer operations on the
//    bits, rounding to nearest even:
//      f32 -> bf16: NaN ? (bits >> 16) | 0x40
//                       : (bits + 0x7fff + ((bits >> 16) & 1)) >> 16
//      f64 -> bf16: to f32 rounded to odd first (the f32 nearest, moved
//                   one unit toward the f64 when inexact and even), so the
//                   second rounding is exact
//      bf16 -> f32: bits << 16 (f64: then fpext)
//  - AArch64, LLVM 19, every -O level: SelectionDAG forms pre-indexed
//    stores of scalar bf16 values (a zero, or an element just loaded, as
//    TLX's copies and bf16 results have them) that it cannot select.
//    Scalar bf16 values are loaded and stored as i16 (with bitcasts).
//    Not covered: a 16-bit lane of a vector (SLP-vectorized integer code)
//    that the AArch64 combiner stores as a bf16 element (docs/pipeline.md,
//    "Backend workarounds").
//  - x86, LLVM 19, FastISel (-O0, optnone functions): a call's bfloat
//    vector result is lost unless a store in the call's block is all that
//    reads it (used in another block: read from a stack slot never
//    written; passed on to another call: garbage). Such a result is
//    stored to a stack slot right after the call and loaded where it is
//    used (DemoteRegToStack), as clang's own -O0 code does.
//  - x86, LLVM 19 and 22, +avx512bf16, every -O level: a load or store of
//    a bfloat vector whose length is not a power of two aborts type
//    legalization, and so does such a value used in another block (a
//    phi, or a value live across blocks: C's merge of a tensor over
//    control flow), a call's result (<33 x bfloat>, returned through
//    memory), or one whose elements C reads or writes. Such accesses,
//    calls, element reads, writes and shuffles are made on i16 vectors
//    (for calls: the same registers or memory in the ABI), and such values
//    cross blocks as i16 vectors (bitcasts; round trips folded). Not
//    covered: arithmetic on such vectors (C's operators on a __bf16
//    ext_vector_type of odd length).
//  - x86, LLVM 19, FastISel, +avx512bf16: a call passing a bfloat vector
//    wider than 128 bits clears its register's upper part (vzeroupper)
//    before the call. Such arguments are passed as i16 vectors of the same
//    size, the same registers in the ABI.
//  - x86, LLVM 19 and 22, -O1 and up: tuned for a CPU whose scheduling
//    model runs the post-RA scheduler (-mtune=znver3/4/5, or -march=native
//    with such tuning), its anti-dependence breaker renames AMX tile
//    registers after X86TileConfig wrote the tile configuration: the code
//    loads tmm5 where ldtilecfg configured tmm0-tmm4, and dies of SIGILL.
//    Functions computing on tiles are tuned for their target CPU instead
//    (sapphirerapids, graniterapids: no post-RA scheduling), or for the
//    generic model when that CPU's runs it too.
//  - PowerPC, LLVM 19, -O1 and up: with subregister liveness tracking,
//    register coalescing reuses the register of a row of an MMA accumulator
//    (disassembled by xxmfacc) that is still to be read (seen first where
//    other rows of it were dead, but keeping every row live at the xxmfacc
//    does not cure it). A module that uses accumulators (TLX's MMA kernels,
//    the user's own __builtin_mma_* code) is compiled without the tracking:
//    the backend option -enable-subreg-liveness=false, set for this compiler
//    process, which compiles this module alone (an explicit -mllvm
//    -enable-subreg-liveness is left as given). Not a rewrite: the IR is
//    unchanged.
//  - PowerPC, LLVM 19 and 22, -O1 and up: stack slot coloring, after
//    merging spill slots, deletes a store of a register just reloaded from
//    the shared slot though the store narrows it (a double stored back as
//    a float): the float's later reload reads half of the double
//    (llvm/llvm-project#182673, fixed for LLVM 23). PowerPC modules are
//    compiled with -no-stack-slot-sharing (unless given): spill slots
//    keep their own addresses, frames grow, nothing else changes.
//
//===----------------------------------------------------------------------===//

#define TLX_COMPAT_TARGET
#include "Codegen/KernelOutliner.h"
#include "Compat.h"
#include "Gemm/GemmEmitter.h"
#include "Transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>

using namespace llvm;

namespace tlx {

namespace {

/// \p T with its elements replaced by \p Elem (a vector stays one of as
/// many).
Type *withElement(Type *T, Type *Elem) {
  if (auto *VT = dyn_cast<VectorType>(T))
    return VectorType::get(Elem, VT->getElementCount());
  return Elem;
}

/// An element-wise vector op \p I (a binary or unary operator, a cast, an
/// element-wise intrinsic) -> one scalar op per lane, inserted into a
/// vector.
void scalarizeLaneByLane(Instruction &I) {
  auto *VT = cast<FixedVectorType>(I.getType());
  Type *Elem = VT->getElementType();
  IRBuilder<> B(&I);
  auto *Call = dyn_cast<IntrinsicInst>(&I);
  Function *ScalarFn = Call ? Intrinsic::getOrInsertDeclaration(
                                  I.getModule(), Call->getIntrinsicID(), {Elem})
                            : nullptr;
  Value *Result = PoisonValue::get(VT);
  for (unsigned Lane = 0; Lane < VT->getNumElements(); ++Lane) {
    SmallVector<Value *, 3> Ops;
    for (Value *Op : Call ? Call->args() : I.operands())
      Ops.push_back(B.CreateExtractElement(Op, Lane));
    Value *Scalar =
        Call ? B.CreateCall(ScalarFn, Ops)
        : isa<CastInst>(I)
            ? B.CreateCast(cast<CastInst>(I).getOpcode(), Ops[0], Elem)
        : isa<UnaryOperator>(I)
            ? B.CreateUnOp(cast<UnaryOperator>(I).getOpcode(), Ops[0])
            : B.CreateBinOp(cast<BinaryOperator>(I).getOpcode(), Ops[0],
                            Ops[1]);
    if (auto *SI = dyn_cast<Instruction>(Scalar); SI && isa<FPMathOperator>(SI))
      SI->copyFastMathFlags(&I);
    Result = B.CreateInsertElement(Result, Scalar, Lane);
  }
  Result->takeName(&I);
  I.replaceAllUsesWith(Result);
  I.eraseFromParent();
}

/// f64 (vector) -> f32 rounded to odd: exact where f32 holds the value;
/// otherwise the f32 nearest, moved one unit toward \p D when even.
Value *truncateToOdd(IRBuilderBase &B, Value *D) {
  Type *F32 = withElement(D->getType(), B.getFloatTy());
  Type *I32 = withElement(D->getType(), B.getInt32Ty());
  Value *Near = B.CreateFPTrunc(D, F32);
  Value *Back = B.CreateFPExt(Near, D->getType());
  Value *Bits = B.CreateBitCast(Near, I32);
  Value *One = ConstantInt::get(I32, 1);
  Value *Even =
      B.CreateICmpEQ(B.CreateAnd(Bits, One), Constant::getNullValue(I32));
  Value *Inexact = B.CreateFCmpUNE(Back, D);
  Value *Short = B.CreateFCmpOLT(B.CreateUnaryIntrinsic(Intrinsic::fabs, Back),
                                 B.CreateUnaryIntrinsic(Intrinsic::fabs, D));
  Value *Odd =
      B.CreateSelect(Short, B.CreateAdd(Bits, One), B.CreateSub(Bits, One));
  return B.CreateBitCast(B.CreateSelect(B.CreateAnd(Inexact, Even), Odd, Bits),
                         F32);
}

/// fptrunc to bf16 as integer operations on the f32 bits.
Value *truncateToBF16(IRBuilderBase &B, Value *V) {
  if (V->getType()->getScalarType()->isDoubleTy())
    V = truncateToOdd(B, V);
  Type *T = V->getType();
  Type *I32 = withElement(T, B.getInt32Ty());
  Type *I16 = withElement(T, B.getInt16Ty());
  Value *Bits = B.CreateBitCast(V, I32);
  Value *Lsb = B.CreateAnd(B.CreateLShr(Bits, 16), ConstantInt::get(I32, 1));
  Value *Rounded = B.CreateLShr(
      B.CreateAdd(B.CreateAdd(Bits, ConstantInt::get(I32, 0x7fff)), Lsb), 16);
  Value *QuietNaN =
      B.CreateOr(B.CreateLShr(Bits, 16), ConstantInt::get(I32, 0x40));
  Value *IsNaN = B.CreateFCmpUNO(V, V);
  Value *Half = B.CreateTrunc(B.CreateSelect(IsNaN, QuietNaN, Rounded), I16);
  return B.CreateBitCast(Half, withElement(T, B.getBFloatTy()));
}

/// fpext from bf16 as the bits shifted into the upper half of an f32.
Value *extendFromBF16(IRBuilderBase &B, Value *V, Type *To) {
  Type *T = V->getType();
  Value *Bits = B.CreateZExt(B.CreateBitCast(V, withElement(T, B.getInt16Ty())),
                             withElement(T, B.getInt32Ty()));
  Value *F =
      B.CreateBitCast(B.CreateShl(Bits, 16), withElement(T, B.getFloatTy()));
  return F->getType() == To ? F : B.CreateFPExt(F, To);
}

/// A conversion between scalable bf16 and f32/f64 vectors that the
/// backend cannot select.
bool isUnselectableBF16Conversion(const Instruction &I) {
  if (!isa<FPTruncInst>(I) && !isa<FPExtInst>(I))
    return false;
  auto *VT = dyn_cast<ScalableVectorType>(I.getType());
  auto *From = dyn_cast<ScalableVectorType>(I.getOperand(0)->getType());
  if (!VT || !From ||
      (!VT->getElementType()->isBFloatTy() &&
       !From->getElementType()->isBFloatTy()))
    return false;
  return compat::SVEBF16ConversionsUnselectable ||
         (compat::SVEF64ToBF16Unselectable &&
          From->getElementType()->isDoubleTy());
}

void rewriteScalableBF16Conversion(Instruction &I) {
  IRBuilder<> B(&I);
  Value *V = isa<FPTruncInst>(I)
                 ? truncateToBF16(B, I.getOperand(0))
                 : extendFromBF16(B, I.getOperand(0), I.getType());
  V->takeName(&I);
  I.replaceAllUsesWith(V);
  I.eraseFromParent();
}

/// The type a load reads or a store writes; null for other instructions.
Type *accessedType(const Instruction &I) {
  if (const auto *Load = dyn_cast<LoadInst>(&I))
    return Load->getType();
  if (const auto *Store = dyn_cast<StoreInst>(&I))
    return Store->getValueOperand()->getType();
  return nullptr;
}

/// A scalar bf16 load or store (candidates for the pre-indexed stores
/// LLVM 19 cannot select).
bool isScalarBF16Access(const Instruction &I) {
  Type *T = accessedType(I);
  return T && T->isBFloatTy();
}

/// A bfloat vector whose length is not a power of two.
bool isOddBF16Vector(const Type *T) {
  const auto *VT = dyn_cast_or_null<FixedVectorType>(T);
  return VT && VT->getElementType()->isBFloatTy() &&
         !isPowerOf2_32(VT->getNumElements());
}

/// A load or store of a bfloat vector whose length is not a power of two.
bool isOddBF16VectorAccess(const Instruction &I) {
  return isOddBF16Vector(accessedType(I));
}

/// load/store bfloat (or a vector of them) -> load/store i16 (as many)
/// and a bitcast, keeping alignment, volatility and atomic ordering.
void accessAsI16(Instruction &I) {
  IRBuilder<> B(&I);
  Type *I16 = withElement(accessedType(I), B.getInt16Ty());
  if (auto *Load = dyn_cast<LoadInst>(&I)) {
    LoadInst *Bits = B.CreateAlignedLoad(I16, Load->getPointerOperand(),
                                         Load->getAlign(), Load->isVolatile());
    Bits->setAtomic(Load->getOrdering(), Load->getSyncScopeID());
    Value *V = B.CreateBitCast(Bits, Load->getType());
    V->takeName(Load);
    Load->replaceAllUsesWith(V);
    Load->eraseFromParent();
    return;
  }
  auto *Store = cast<StoreInst>(&I);
  Store->setOperand(0, B.CreateBitCast(Store->getValueOperand(), I16));
}

/// Whether \p I makes a vector of half that LLVM 19's GlobalISel computes
/// in f32 and then narrows with one fptrunc (which it selects as BFCVTN
/// under +bf16): an fptrunc or an int-to-float conversion; without
/// \p FullFP16 also FP arithmetic - fneg and fabs included - and
/// element-wise intrinsics on half vectors (floor, sqrt, fma, minnum, ...).
bool isHalfVectorNarrowedThroughF32(const Instruction &I, bool FullFP16) {
  auto *VT = dyn_cast<FixedVectorType>(I.getType());
  if (!VT || !VT->getElementType()->isHalfTy())
    return false;
  if (isa<FPTruncInst>(I) || isa<SIToFPInst>(I) || isa<UIToFPInst>(I))
    return true;
  if (FullFP16)
    return false;
  if (isa<BinaryOperator>(I) || isa<UnaryOperator>(I))
    return true;
  const auto *Call = dyn_cast<IntrinsicInst>(&I);
  return Call && isTriviallyVectorizable(Call->getIntrinsicID()) &&
         all_of(Call->args(),
                [&](const Use &Arg) { return Arg->getType() == VT; });
}

} // namespace

/// The AArch64 workarounds for \p F; returns whether it changed.
static bool workAroundAArch64(Function &F, bool O0Selectors) {
  bool HalfTrunc = O0Selectors &&
                   compat::GlobalISelMiscompilesVectorHalfTrunc &&
                   gemm::hasTargetFeature(F, "bf16");
  bool FullFP16 = gemm::hasTargetFeature(F, "fullfp16");
  SmallVector<Instruction *, 8> HalfTruncs, BF16Conversions, BF16Accesses;
  for (Instruction &I : instructions(F)) {
    if (HalfTrunc && isHalfVectorNarrowedThroughF32(I, FullFP16))
      HalfTruncs.push_back(&I);
    else if (isUnselectableBF16Conversion(I))
      BF16Conversions.push_back(&I);
    else if (compat::BF16PreIndexedStoreUnselectable && isScalarBF16Access(I))
      BF16Accesses.push_back(&I);
  }
  for (Instruction *I : HalfTruncs)
    scalarizeLaneByLane(*I);
  for (Instruction *I : BF16Conversions)
    rewriteScalableBF16Conversion(*I);
  for (Instruction *I : BF16Accesses)
    accessAsI16(*I);
  return !HalfTruncs.empty() || !BF16Conversions.empty() ||
         !BF16Accesses.empty();
}

/// Whether \p T is a bfloat vector wider than an xmm register.
static bool isWideBF16Vector(const Type *T) {
  const auto *VT = dyn_cast<FixedVectorType>(T);
  return VT && VT->getElementType()->isBFloatTy() &&
         VT->getPrimitiveSizeInBits().getFixedValue() > 128;
}

/// Which of a call's bfloat vectors callWithI16Vectors passes as i16.
struct I16CallTypes {
  bool (*Args)(const Type *) = nullptr;   ///< arguments of these types
  bool (*Result)(const Type *) = nullptr; ///< a result of such a type
  bool args(const Type *T) const { return Args && Args(T); }
  bool result(const Type *T) const { return Result && Result(T); }
};

/// \p Call again, the bfloat vectors \p Which picks passed or returned as
/// i16 vectors (the result bitcast back): the call's function type changed
/// alike, the callee unchanged - the same registers or memory in the ABI
/// under +avx512bf16, where bfloat vectors are legal types.
static void callWithI16Vectors(CallInst &Call, const I16CallTypes &Which) {
  IRBuilder<> B(&Call);
  auto Bits = [&](Type *T) { return withElement(T, B.getInt16Ty()); };
  SmallVector<Value *, 8> Args;
  SmallVector<Type *, 8> Params;
  for (Value *Arg : Call.args()) {
    if (Which.args(Arg->getType()))
      Arg = B.CreateBitCast(Arg, Bits(Arg->getType()));
    Args.push_back(Arg);
    Params.push_back(Arg->getType());
  }
  FunctionType *Old = Call.getFunctionType();
  Type *Ret = Old->getReturnType();
  bool RetAsI16 = Which.result(Ret);
  auto *Ty =
      FunctionType::get(RetAsI16 ? Bits(Ret) : Ret, Params, Old->isVarArg());
  SmallVector<OperandBundleDef, 1> Bundles;
  Call.getOperandBundlesAsDefs(Bundles);
  CallInst *New = B.CreateCall(Ty, Call.getCalledOperand(), Args, Bundles);
  New->setCallingConv(Call.getCallingConv());
  New->setAttributes(Call.getAttributes());
  New->setTailCallKind(Call.getTailCallKind());
  New->setDebugLoc(Call.getDebugLoc());
  New->takeName(&Call);
  Value *Returned = RetAsI16 ? B.CreateBitCast(New, Ret) : New;
  Call.replaceAllUsesWith(Returned);
  Call.eraseFromParent();
}

/// Calls of \p F (not intrinsics or inline assembly) with an argument or
/// result \p Which picks, each made with i16 vectors (callWithI16Vectors).
static bool callsWithI16Vectors(Function &F, const I16CallTypes &Which) {
  SmallVector<CallInst *, 4> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I);
        Call && !Call->isInlineAsm() && !isa<IntrinsicInst>(Call) &&
        (Which.result(Call->getType()) ||
         any_of(Call->args(),
                [&](const Use &A) { return Which.args(A->getType()); })))
      Calls.push_back(Call);
  for (CallInst *Call : Calls)
    callWithI16Vectors(*Call, Which);
  return !Calls.empty();
}

/// The FastISel workarounds (x86, -O0 and optnone functions) for \p F.
static bool workAroundX86FastISel(Function &F) {
  I16CallTypes WideArgs;
  WideArgs.Args = isWideBF16Vector;
  bool ArgsAsI16 = compat::FastISelClobbersBF16VectorArguments &&
                   callsWithI16Vectors(F, WideArgs);
  if (!compat::FastISelLosesBF16VectorCallResults)
    return ArgsAsI16;
  // Only a store in the call's block reads such a result right.
  auto StoredAtOnce = [](const Instruction &Call) {
    return all_of(Call.users(), [&](const User *U) {
      const auto *Store = dyn_cast<StoreInst>(U);
      return Store && Store->getParent() == Call.getParent() &&
             Store->getValueOperand() == &Call;
    });
  };
  SmallVector<Instruction *, 4> Results;
  for (Instruction &I : instructions(F)) {
    auto *VT = dyn_cast<VectorType>(I.getType());
    if (isa<CallBase>(I) && VT && VT->getElementType()->isBFloatTy() &&
        !StoredAtOnce(I))
      Results.push_back(&I);
  }
  for (Instruction *I : Results)
    DemoteRegToStack(*I);
  return !Results.empty() || ArgsAsI16;
}

/// \p Phi, an odd-length bfloat vector, as a phi of i16 vectors: each
/// incoming value bitcast at the end of its block, the phi's value bitcast
/// back after the block's phis.
static void mergeAsI16(PHINode &Phi) {
  Type *I16 = withElement(Phi.getType(), Type::getInt16Ty(Phi.getContext()));
  PHINode *Bits = PHINode::Create(I16, Phi.getNumIncomingValues(),
                                  Phi.getName() + ".bits", Phi.getIterator());
  // One bitcast per block: a block that is several incoming edges must
  // bring the same value on each.
  SmallDenseMap<BasicBlock *, Value *, 4> FromBlock;
  for (unsigned I = 0, E = Phi.getNumIncomingValues(); I != E; ++I) {
    BasicBlock *BB = Phi.getIncomingBlock(I);
    Value *&V = FromBlock[BB];
    if (!V)
      V = IRBuilder<>(BB->getTerminator())
              .CreateBitCast(Phi.getIncomingValue(I), I16);
    Bits->addIncoming(V, BB);
  }
  IRBuilder<> B(Phi.getParent(), Phi.getParent()->getFirstInsertionPt());
  Value *Back = B.CreateBitCast(Bits, Phi.getType());
  Phi.replaceAllUsesWith(Back);
  Phi.eraseFromParent();
}

/// Uses of \p V, an odd-length bfloat vector, in other blocks than its
/// definition's read it through an i16 vector: a bitcast after the
/// definition, one back before each such use. Returns whether it did.
static bool crossBlocksAsI16(Value &V) {
  auto *Def = dyn_cast<Instruction>(&V);
  BasicBlock *Home =
      Def ? Def->getParent() : &cast<Argument>(V).getParent()->getEntryBlock();
  SmallVector<Use *, 4> Far;
  for (Use &U : V.uses())
    if (cast<Instruction>(U.getUser())->getParent() != Home)
      Far.push_back(&U);
  // (An invoke's result has no single place after it: left alone.)
  std::optional<BasicBlock::iterator> After =
      Def ? Def->getInsertionPointAfterDef() : Home->getFirstInsertionPt();
  if (Far.empty() || !After)
    return false;
  Type *I16 = withElement(V.getType(), Type::getInt16Ty(V.getContext()));
  IRBuilder<> B(Home, *After);
  Value *Bits = B.CreateBitCast(&V, I16);
  for (Use *U : Far) {
    B.SetInsertPoint(cast<Instruction>(U->getUser()));
    U->set(B.CreateBitCast(Bits, V.getType()));
  }
  return true;
}

/// Whether \p I moves lanes of odd-length bfloat vectors: an element read or
/// written, a shuffle.
static bool movesOddBF16Lanes(const Instruction &I) {
  if (isa<ExtractElementInst>(I))
    return isOddBF16Vector(I.getOperand(0)->getType());
  return (isa<InsertElementInst>(I) || isa<ShuffleVectorInst>(I)) &&
         (isOddBF16Vector(I.getType()) ||
          isOddBF16Vector(I.getOperand(0)->getType()));
}

/// \p I (movesOddBF16Lanes) on i16 lanes, bitcasts either side.
static void moveLanesAsI16(Instruction &I) {
  IRBuilder<> B(&I);
  auto Bits = [&](Value *V) {
    return B.CreateBitCast(V, withElement(V->getType(), B.getInt16Ty()));
  };
  Value *V;
  if (auto *Extract = dyn_cast<ExtractElementInst>(&I))
    V = B.CreateExtractElement(Bits(Extract->getVectorOperand()),
                               Extract->getIndexOperand());
  else if (auto *Insert = dyn_cast<InsertElementInst>(&I))
    V = B.CreateInsertElement(Bits(Insert->getOperand(0)),
                              Bits(Insert->getOperand(1)),
                              Insert->getOperand(2));
  else
    V = B.CreateShuffleVector(Bits(I.getOperand(0)), Bits(I.getOperand(1)),
                              cast<ShuffleVectorInst>(I).getShuffleMask());
  V = B.CreateBitCast(V, I.getType());
  V->takeName(&I);
  I.replaceAllUsesWith(V);
  I.eraseFromParent();
}

/// bitcast (bitcast X to an odd-length bfloat vector) back to X's type ->
/// X, in \p F; returns whether there were any. (Not the other way round:
/// that would bring a bfloat vector back into another block.)
static bool foldOddBF16RoundTrips(Function &F) {
  SmallVector<BitCastInst *, 16> Folded;
  for (Instruction &I : instructions(F)) {
    auto *Cast = dyn_cast<BitCastInst>(&I);
    auto *Inner = Cast ? dyn_cast<BitCastInst>(Cast->getOperand(0)) : nullptr;
    if (Inner && Inner->getSrcTy() == Cast->getDestTy() &&
        isOddBF16Vector(Cast->getSrcTy()))
      Folded.push_back(Cast);
  }
  for (BitCastInst *Cast : Folded) {
    auto *Inner = cast<BitCastInst>(Cast->getOperand(0));
    Cast->replaceAllUsesWith(Inner->getOperand(0));
    Cast->eraseFromParent();
    if (Inner->use_empty())
      Inner->eraseFromParent();
  }
  return !Folded.empty();
}

/// Odd-length bfloat vectors only within a block, their lanes moved as i16:
/// merged, carried across blocks, and their elements read, written and
/// shuffled as i16 vectors (compat::X86AbortsOnOddBF16VectorAccesses).
static bool keepOddBF16VectorsInBlocks(Function &F) {
  SmallVector<PHINode *, 4> Phis;
  SmallVector<Instruction *, 4> LaneMoves;
  for (Instruction &I : instructions(F))
    if (auto *Phi = dyn_cast<PHINode>(&I);
        Phi && isOddBF16Vector(Phi->getType()))
      Phis.push_back(Phi);
    else if (movesOddBF16Lanes(I))
      LaneMoves.push_back(&I);
  for (PHINode *Phi : Phis)
    mergeAsI16(*Phi);
  for (Instruction *I : LaneMoves)
    moveLanesAsI16(*I);
  SmallVector<Value *, 8> Values;
  for (Argument &A : F.args())
    if (isOddBF16Vector(A.getType()))
      Values.push_back(&A);
  for (Instruction &I : instructions(F))
    if (isOddBF16Vector(I.getType()))
      Values.push_back(&I);
  bool Crossed = false;
  for (Value *V : Values)
    Crossed |= crossBlocksAsI16(*V);
  return !Phis.empty() || !LaneMoves.empty() || Crossed;
}

/// Whether the scheduling model of \p CPU, for \p F's target, runs the
/// post-RA scheduler.
static bool schedulesAfterRegisterAllocation(const Function &F, StringRef CPU) {
  Triple TT(F.getParent()->getTargetTriple());
  std::string Error;
  const Target *T = compat::lookupTarget(TT, Error);
  if (!T)
    return false;
  std::unique_ptr<MCSubtargetInfo> STI(
      compat::createMCSubtargetInfo(*T, TT, CPU, ""));
  return STI && STI->getSchedModelForCPU(CPU).PostRAScheduler;
}

/// AMX code in \p F tuned for a model that schedules after register
/// allocation is tuned for its target CPU, or the generic model, instead;
/// returns whether it changed.
static bool keepTileConfigurations(Function &F) {
  if (!compat::X86RenamesConfiguredTiles ||
      none_of(instructions(F), usesX86AMX))
    return false;
  // Without an attribute, the subtarget falls back as here.
  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  if (CPU.empty())
    CPU = "generic";
  StringRef Tune = F.getFnAttribute("tune-cpu").getValueAsString();
  if (Tune.empty())
    Tune = CPU;
  if (!schedulesAfterRegisterAllocation(F, Tune))
    return false;
  F.addFnAttr("tune-cpu", schedulesAfterRegisterAllocation(F, CPU)
                              ? StringRef("generic")
                              : CPU);
  return true;
}

/// The x86 workarounds for \p F; returns whether it changed.
static bool workAroundX86(Function &F, bool O0Selectors) {
  bool OddBF16 = compat::X86AbortsOnOddBF16VectorAccesses;
  // First: calls returning an odd-length bfloat vector then return none.
  // (Only with +avx512bf16, where the backend aborts on them and bfloat
  // vectors travel in the registers i16 vectors do; without it LLVM passes
  // them otherwise, and the fastcc calls of optimized code differ.)
  I16CallTypes OddResults;
  OddResults.Result = isOddBF16Vector;
  bool OddCalls = OddBF16 && gemm::hasTargetFeature(F, "avx512bf16") &&
                  callsWithI16Vectors(F, OddResults);
  bool Changed = (O0Selectors || F.hasOptNone()) && workAroundX86FastISel(F);
  // Last: the stack slots above may hold odd-length bf16 vectors too.
  SmallVector<Instruction *, 4> OddAccesses;
  if (OddBF16)
    for (Instruction &I : instructions(F))
      if (isOddBF16VectorAccess(I))
        OddAccesses.push_back(&I);
  for (Instruction *I : OddAccesses)
    accessAsI16(*I);
  bool OddRewritten = OddCalls || !OddAccesses.empty();
  if (OddBF16)
    OddRewritten |= keepOddBF16VectorsInBlocks(F);
  // The rewrites above leave bitcast round trips; nothing else does.
  if (OddRewritten)
    foldOddBF16RoundTrips(F);
  Changed |= keepTileConfigurations(F);
  return Changed || OddRewritten;
}

/// The first function of \p M that computes on Power's MMA accumulators,
/// or null.
static Function *firstUsingMMAAccumulators(Module &M) {
  for (Function &Decl : M)
    if (Decl.isIntrinsic() && Decl.getName().starts_with("llvm.ppc.mma."))
      for (User *U : Decl.users())
        if (auto *Call = dyn_cast<CallBase>(U))
          return Call->getFunction();
  return nullptr;
}

/// Sets the backend option \p Name to \p Value for this compiler process
/// (which compiles one module), unless the command line gave it; returns
/// whether it did.
static bool setBackendOption(StringRef Name, StringRef Value) {
  auto &Options = cl::getRegisteredOptions();
  auto It = Options.find(Name);
  if (It == Options.end() || It->second->getNumOccurrences())
    return false;
  return !It->second->addOccurrence(0, Name, Value);
}

/// Compiles \p M without subregister liveness tracking where LLVM's
/// coalescer, tracking it, miscompiles its accumulators; says so in a
/// remark on the first function using them.
static void disableSubRegLivenessForMMA(Module &M, bool O0Selectors) {
  if (!compat::PPCSubRegLivenessBreaksAccumulators || O0Selectors)
    return;
  Function *F = firstUsingMMAAccumulators(M);
  if (!F || !setBackendOption("enable-subreg-liveness", "false"))
    return;
  OptimizationRemarkEmitter ORE(F);
  ORE.emit(OptimizationRemark("tlx-backend-workarounds", "SubRegLiveness", F)
           << "MMA accumulators: compiled without subregister liveness "
              "tracking, with which LLVM "
           << std::to_string(LLVM_VERSION_MAJOR)
           << " overwrites rows of them");
}

/// Compiles \p M without stack slot sharing where LLVM's stack slot
/// coloring may drop a spill that narrows a double to a float; says so in
/// a remark on the module's first function.
static void disableStackSlotSharing(Module &M, bool O0Selectors) {
  if (!compat::PPCStackSlotColoringDropsNarrowingSpills || O0Selectors)
    return;
  auto Defined = find_if(M, [](Function &F) { return !F.isDeclaration(); });
  if (Defined == M.end() || !setBackendOption("no-stack-slot-sharing", "true"))
    return;
  OptimizationRemarkEmitter ORE(&*Defined);
  ORE.emit(
      OptimizationRemark("tlx-backend-workarounds", "StackSlotSharing",
                         &*Defined)
      << "spill slots: not shared, since LLVM "
      << std::to_string(LLVM_VERSION_MAJOR)
      << "'s stack slot coloring drops spills that narrow a double to a "
         "float (llvm/llvm-project#182673)");
}

PreservedAnalyses BackendWorkaroundsPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  Triple T(M.getTargetTriple());
  if (T.isPPC64()) {
    disableSubRegLivenessForMMA(M, O0Selectors);
    disableStackSlotSharing(M, O0Selectors);
  }
  if (!T.isAArch64() && !T.isX86())
    return PreservedAnalyses::all();
  bool Changed = false;
  for (Function &F : M)
    if (!F.isDeclaration())
      Changed |= T.isAArch64() ? workAroundAArch64(F, O0Selectors)
                               : workAroundX86(F, O0Selectors);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace tlx
