//===- SVEKernels.cpp - SVE in the vector GEMM driver ---------------------===//
//
// What SVE adds to the vector-length agnostic GEMM driver
// (lib/Gemm/GemmVector.cpp): Z registers of vscale x 128 bits, and its
// dot products - SDOT/UDOT (int8 -> i32, base SVE), USDOT either way round
// (+i8mm) and BFDOT (bf16 -> f32, +bf16), 4 (2) k values per lane, chosen
// as NEON's are (DotProducts.h). The multiply-add kernels (FMLA, MLA) are
// the driver's.
//
//===----------------------------------------------------------------------===//

#include "Target/AArch64/DotProducts.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IntrinsicsAArch64.h"

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

bool chooseSVEDot(const GemmDesc &G, const Function &F, VectorDot &Dot) {
  static const AArch64Dots SVEDots = {
      Intrinsic::aarch64_sve_sdot,  Intrinsic::aarch64_sve_udot,
      Intrinsic::aarch64_sve_usdot, Intrinsic::aarch64_sve_bfdot,
      /*SDotFeature=*/nullptr,      VectorDot::Overload::Accumulator,
      VectorDot::Overload::None};
  return chooseAArch64Dot(G, F, SVEDots, Dot);
}

/// SVE converts every element type in vectors (bf16 by shifts, f16 by
/// FCVT).
bool convertsInVectors(const Type *, const Function &) { return true; }

const ScalableTarget SVE = {"sve", 128, chooseSVEDot, convertsInVectors};

} // namespace

const ScalableTarget &sveTarget() { return SVE; }

} // namespace gemm
} // namespace tlx
