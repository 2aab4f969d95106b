//===- RVVKernels.cpp - RISC-V V in the vector GEMM driver ----------------===//
//
// What the V extension adds to the vector-length agnostic GEMM driver
// (lib/Gemm/GemmVector.cpp): vector registers of vscale x 64 bits
// (LLVM's RVV vscale is VLEN / 64; the driver's vectors are LMUL 1, so 32
// of them), and the widening multiply-add for integer GEMMs: s8, u8 and s16
// operands are sign- or zero-extended to i16 while packed, and each k step
// is acc(i32) += sext(a) * sext(b), which the backend selects as
// vwmacc.vx - exact for every signedness (i16 x i16 products fit i32, as
// in x86's vpmaddwd kernels), one instruction per multiply-add on operands
// half the accumulator's width. The same for half-precision operands into
// f32: vfwmacc.vf on f16 (Zvfh) and vfwmaccbf16.vf on bf16 (Zvfbfwma),
// packed in their own type - through their intrinsics: the same multiply-
// add written on extended operands is selected as a conversion of each B
// vector and of each A element, then vfmacc.vf. Other floating-point GEMMs
// use vfmacc.vf (the driver's multiply-add).
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Gemm/GemmEmitterImpl.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsRISCV.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

/// Acc += ext(A) * ext(BVec), rounded once: vfwmacc.vf (f16) or
/// vfwmaccbf16.vf (bf16) on the whole register.
Value *emitFloatWideningStep(IRBuilderBase &B, Value *Acc, Value *A,
                             Value *BVec) {
  Intrinsic::ID ID = A->getType()->isHalfTy() ? Intrinsic::riscv_vfwmacc
                                              : Intrinsic::riscv_vfwmaccbf16;
  Type *XLen = B.getInt64Ty();
  Function *Fn = Intrinsic::getOrInsertDeclaration(
      B.GetInsertBlock()->getModule(), ID,
      {Acc->getType(), A->getType(), BVec->getType(), XLen});
  // Rounding mode 7: the dynamic one (fcsr's, round to nearest as C's);
  // vl -1: VLMAX; policy 3: tail and mask agnostic.
  return B.CreateCall(Fn, {Acc, A, BVec, ConstantInt::get(XLen, 7),
                           ConstantInt::getSigned(XLen, -1),
                           ConstantInt::get(XLen, 3)});
}

/// f16 x f16 (Zvfh) and bf16 x bf16 (Zvfbfwma) -> f32: vfwmacc.vf and
/// vfwmaccbf16.vf.
bool chooseRVVFloatWidening(const GemmDesc &G, const Function &F,
                            VectorDot &Dot) {
  Type *AT = G.A.Elem;
  if (!G.C.Elem->isFloatTy() || AT != G.B.Elem)
    return false;
  if (AT->isHalfTy() && hasTargetFeature(F, "zvfh"))
    Dot.Name = "f16 vfwmacc";
  else if (AT->isBFloatTy() && hasTargetFeature(F, "zvfbfwma"))
    Dot.Name = "bf16 vfwmaccbf16";
  else
    return false;
  Dot.EmitScalarStep = emitFloatWideningStep;
  Dot.PackT = AT;
  Dot.KG = 1;
  return true;
}

bool chooseRVVWidening(const GemmDesc &G, const Function &F, VectorDot &Dot) {
  if (!G.C.Elem->isIntegerTy(32))
    return chooseRVVFloatWidening(G, F, Dot);
  if (!fitsI16(G.A) || !fitsI16(G.B))
    return false;
  Dot.Widening = true;
  Dot.PackT = Type::getInt16Ty(G.C.Elem->getContext());
  Dot.KG = 1;
  Dot.Name = intTypesName(G) + " vwmacc";
  return true;
}

/// Half-precision elements are converted one by one: without Zvfhmin /
/// Zvfbfmin LLVM cannot convert a scalable vector of them, and with them
/// LLVM 19 fails to select the conversion ("Do not know how to soft
/// promote this operator's operand").
bool convertsInVectors(const Type *Elem, const Function &) {
  return !Elem->isHalfTy() && !Elem->isBFloatTy();
}

const ScalableTarget RVV = {"rvv", 64, chooseRVVWidening, convertsInVectors};

} // namespace

const ScalableTarget &rvvTarget() { return RVV; }

} // namespace gemm
} // namespace tlx
