//===- NeonKernels.cpp - NEON's dot products in the vector GEMM driver ----===//
//
// What AArch64's fixed-width vectors add to the vector GEMM driver
// (lib/Gemm/GemmVector.cpp): SDOT/UDOT (+dotprod) and USDOT (+i8mm) are
// 4-way int8 dot products into i32 lanes, BFDOT (+bf16) a 2-way bf16 one
// into f32 - the k groups of x86's VNNI and vdpbf16ps, with one
// instruction per signedness instead of the sign-bit bias. The
// multiply-add kernels (FMLA, MLA) are the driver's.
//
//===----------------------------------------------------------------------===//

#include "Gemm/GemmEmitterImpl.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IntrinsicsAArch64.h"

using namespace llvm;

namespace tlx {
namespace gemm {

bool chooseNeonDot(const GemmDesc &G, const Function &F, VectorDot &Dot) {
  Type *AT = G.A.Elem, *BT = G.B.Elem, *CT = G.C.Elem;
  auto Use = [&](Intrinsic::ID ID, const std::string &Name, unsigned KG) {
    Dot.ID = ID;
    Dot.Overloads = VectorDot::Overload::AccumulatorAndOperand;
    Dot.Name = Name;
    Dot.PackT = AT;
    Dot.KG = KG;
    return true;
  };
  if (CT->isIntegerTy(32) && AT->isIntegerTy(8) && BT->isIntegerTy(8)) {
    bool SA = G.A.IsSigned, SB = G.B.IsSigned;
    std::string Types = intTypesName(G);
    if (SA == SB && hasTargetFeature(F, "dotprod"))
      return Use(SA ? Intrinsic::aarch64_neon_sdot
                    : Intrinsic::aarch64_neon_udot,
                 Types + (SA ? " sdot" : " udot"), 4);
    if (SA != SB && hasTargetFeature(F, "i8mm")) {
      Dot.SwapOperands = SA; // usdot(acc, unsigned, signed)
      return Use(Intrinsic::aarch64_neon_usdot, Types + " usdot", 4);
    }
    return false;
  }
  if (CT->isFloatTy() && AT->isBFloatTy() && BT->isBFloatTy() &&
      hasTargetFeature(F, "bf16"))
    return Use(Intrinsic::aarch64_neon_bfdot, "bf16 bfdot", 2);
  return false;
}

} // namespace gemm
} // namespace tlx
