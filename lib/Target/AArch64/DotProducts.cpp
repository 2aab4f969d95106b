//===- DotProducts.cpp - AArch64's dot products in the vector GEMM driver -===//
//
// What AArch64's vectors add to the vector GEMM driver
// (lib/Gemm/GemmVector.cpp): SDOT/UDOT (NEON: +dotprod; SVE: base) and
// USDOT (+i8mm) are 4-way int8 dot products into i32 lanes, BFDOT (+bf16)
// a 2-way bf16 one into f32 - the k groups of x86's VNNI and vdpbf16ps,
// with one instruction per signedness instead of the sign-bit bias. NEON's
// are chosen here (chooseNeonDot), SVE's in SVEKernels.cpp. The
// multiply-add kernels (FMLA, MLA) are the driver's.
//
//===----------------------------------------------------------------------===//

#include "Target/AArch64/DotProducts.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IntrinsicsAArch64.h"

using namespace llvm;

namespace tlx {
namespace gemm {

bool chooseAArch64Dot(const GemmDesc &G, const Function &F,
                      const AArch64Dots &Dots, VectorDot &Dot) {
  Type *AT = G.A.Elem, *BT = G.B.Elem, *CT = G.C.Elem;
  auto Use = [&](Intrinsic::ID ID, VectorDot::Overload Overloads,
                 const std::string &Name, unsigned KG) {
    Dot.ID = ID;
    Dot.Overloads = Overloads;
    Dot.Name = Name;
    Dot.PackT = AT;
    Dot.KG = KG;
    return true;
  };
  if (CT->isIntegerTy(32) && AT->isIntegerTy(8) && BT->isIntegerTy(8)) {
    bool SA = G.A.IsSigned, SB = G.B.IsSigned;
    std::string Types = intTypesName(G);
    if (SA == SB &&
        (!Dots.SDotFeature || hasTargetFeature(F, Dots.SDotFeature)))
      return Use(SA ? Dots.SDot : Dots.UDot, Dots.IntOverloads,
                 Types + (SA ? " sdot" : " udot"), 4);
    if (SA != SB && hasTargetFeature(F, "i8mm")) {
      Dot.SwapOperands = SA; // usdot(acc, unsigned, signed)
      return Use(Dots.USDot, Dots.IntOverloads, Types + " usdot", 4);
    }
    return false;
  }
  if (CT->isFloatTy() && AT->isBFloatTy() && BT->isBFloatTy() &&
      hasTargetFeature(F, "bf16"))
    return Use(Dots.BFDot, Dots.BFOverloads, "bf16 bfdot", 2);
  return false;
}

bool chooseNeonDot(const GemmDesc &G, const Function &F, VectorDot &Dot) {
  static const AArch64Dots Neon = {Intrinsic::aarch64_neon_sdot,
                                   Intrinsic::aarch64_neon_udot,
                                   Intrinsic::aarch64_neon_usdot,
                                   Intrinsic::aarch64_neon_bfdot,
                                   "dotprod",
                                   VectorDot::Overload::AccumulatorAndOperand,
                                   VectorDot::Overload::AccumulatorAndOperand};
  return chooseAArch64Dot(G, F, Neon, Dot);
}

} // namespace gemm
} // namespace tlx
