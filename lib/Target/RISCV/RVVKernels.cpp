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
// half the accumulator's width. Floating-point GEMMs use vfmacc.vf
// (the driver's multiply-add).
//
//===----------------------------------------------------------------------===//

#include "Gemm/GemmEmitterImpl.h"

#include "llvm/IR/DerivedTypes.h"

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

bool chooseRVVWidening(const GemmDesc &G, const Function &, ScalableDot &Dot) {
  if (!G.C.Elem->isIntegerTy(32) || !fitsI16(G.A) || !fitsI16(G.B))
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
