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
//    legalization. Such accesses are made on i16 vectors (bitcasts).
//  - x86, LLVM 19, FastISel, +avx512bf16: a call passing a bfloat vector
//    wider than 128 bits clears its register's upper part (vzeroupper)
//    before the call. Such arguments are passed as i16 vectors of the same
//    size, the same registers in the ABI.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Gemm/GemmEmitter.h"
#include "Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Local.h"

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

/// A load or store of a bfloat vector whose length is not a power of two.
bool isOddBF16VectorAccess(const Instruction &I) {
  const auto *VT = dyn_cast_or_null<FixedVectorType>(accessedType(I));
  return VT && VT->getElementType()->isBFloatTy() &&
         !isPowerOf2_32(VT->getNumElements());
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

/// \p Call again, its wide bfloat vector arguments passed as i16 vectors
/// (the call's function type changed alike; the callee is unchanged).
static void passBF16VectorsAsI16(CallInst &Call) {
  IRBuilder<> B(&Call);
  SmallVector<Value *, 8> Args;
  SmallVector<Type *, 8> Params;
  for (Value *Arg : Call.args()) {
    if (isWideBF16Vector(Arg->getType()))
      Arg = B.CreateBitCast(Arg, withElement(Arg->getType(), B.getInt16Ty()));
    Args.push_back(Arg);
    Params.push_back(Arg->getType());
  }
  FunctionType *Old = Call.getFunctionType();
  auto *Ty = FunctionType::get(Old->getReturnType(), Params, Old->isVarArg());
  SmallVector<OperandBundleDef, 1> Bundles;
  Call.getOperandBundlesAsDefs(Bundles);
  CallInst *New = B.CreateCall(Ty, Call.getCalledOperand(), Args, Bundles);
  New->setCallingConv(Call.getCallingConv());
  New->setAttributes(Call.getAttributes());
  New->setTailCallKind(Call.getTailCallKind());
  New->setDebugLoc(Call.getDebugLoc());
  New->takeName(&Call);
  Call.replaceAllUsesWith(New);
  Call.eraseFromParent();
}

/// The FastISel workarounds (x86, -O0 and optnone functions) for \p F.
static bool workAroundX86FastISel(Function &F) {
  SmallVector<CallInst *, 4> BF16ArgCalls;
  if (compat::FastISelClobbersBF16VectorArguments)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I);
          Call && !Call->isInlineAsm() && !isa<IntrinsicInst>(Call) &&
          any_of(Call->args(),
                 [](const Use &A) { return isWideBF16Vector(A->getType()); }))
        BF16ArgCalls.push_back(Call);
  for (CallInst *Call : BF16ArgCalls)
    passBF16VectorsAsI16(*Call);
  if (!compat::FastISelLosesBF16VectorCallResults)
    return !BF16ArgCalls.empty();
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
  return !Results.empty() || !BF16ArgCalls.empty();
}

/// The x86 workarounds for \p F; returns whether it changed.
static bool workAroundX86(Function &F, bool O0Selectors) {
  bool Changed = (O0Selectors || F.hasOptNone()) && workAroundX86FastISel(F);
  // Last: the stack slots above may hold odd-length bf16 vectors too.
  SmallVector<Instruction *, 4> OddBF16;
  if (compat::X86AbortsOnOddBF16VectorAccesses)
    for (Instruction &I : instructions(F))
      if (isOddBF16VectorAccess(I))
        OddBF16.push_back(&I);
  for (Instruction *I : OddBF16)
    accessAsI16(*I);
  return Changed || !OddBF16.empty();
}

PreservedAnalyses BackendWorkaroundsPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  Triple T(M.getTargetTriple());
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
