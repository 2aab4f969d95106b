//===- SVEKernels.cpp - SVE in the vector GEMM driver ---------------------===//
//
// What SVE adds to the vector-length agnostic GEMM driver
// (lib/Gemm/GemmVector.cpp): Z registers of vscale x 128 bits, and its
// dot products - SDOT/UDOT (int8 -> i32, base SVE), USDOT either way round
// (+i8mm) and BFDOT (bf16 -> f32, +bf16), 4 (2) k values per lane, like
// NEON's and x86's VNNI kernels. The multiply-add kernels (FMLA, MLA) are
// the driver's.
//
//===----------------------------------------------------------------------===//

#include "Gemm/GemmEmitterImpl.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IntrinsicsAArch64.h"

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

bool chooseSVEDot(const GemmDesc &G, const Function &F, VectorDot &Dot) {
  Type *AT = G.A.Elem, *BT = G.B.Elem, *CT = G.C.Elem;
  if (CT->isIntegerTy(32) && AT->isIntegerTy(8) && BT->isIntegerTy(8)) {
    bool SA = G.A.IsSigned, SB = G.B.IsSigned;
    std::string Types = intTypesName(G);
    if (SA == SB) {
      Dot.ID = SA ? Intrinsic::aarch64_sve_sdot : Intrinsic::aarch64_sve_udot;
      Dot.Name = Types + (SA ? " sdot" : " udot");
    } else if (hasTargetFeature(F, "i8mm")) {
      // usdot(acc, unsigned, signed): for s8 x u8 that is B first.
      Dot.ID = Intrinsic::aarch64_sve_usdot;
      Dot.SwapOperands = SA;
      Dot.Name = Types + " usdot";
    } else {
      return false;
    }
    Dot.PackT = AT;
    Dot.KG = 4;
    return true;
  }
  if (CT->isFloatTy() && AT->isBFloatTy() && BT->isBFloatTy() &&
      hasTargetFeature(F, "bf16")) {
    Dot.ID = Intrinsic::aarch64_sve_bfdot;
    Dot.Overloads = VectorDot::Overload::None;
    Dot.PackT = AT;
    Dot.KG = 2;
    Dot.Name = "bf16 bfdot";
    return true;
  }
  return false;
}

/// SVE converts every element type in vectors (bf16 by shifts, f16 by
/// FCVT).
bool convertsInVectors(const Type *, const Function &) { return true; }

const ScalableTarget SVE = {"sve", 128, chooseSVEDot, convertsInVectors};

} // namespace

const ScalableTarget &sveTarget() { return SVE; }

} // namespace gemm
} // namespace tlx
