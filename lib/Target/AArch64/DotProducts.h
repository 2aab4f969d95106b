//===- DotProducts.h - AArch64's dot products for the vector GEMM driver -===//
//
// NEON and SVE have the same dot products - SDOT/UDOT and USDOT (int8 ->
// i32, 4 k per lane), BFDOT (bf16 -> f32, 2 k) - as different intrinsics
// on their own registers; one chooser serves both.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_TARGET_AARCH64_DOTPRODUCTS_H
#define TLX_TARGET_AARCH64_DOTPRODUCTS_H

#include "Gemm/GemmEmitterImpl.h"

namespace tlx {
namespace gemm {

/// One register file's dot-product intrinsics.
struct AArch64Dots {
  llvm::Intrinsic::ID SDot, UDot, USDot, BFDot;
  /// The feature SDOT/UDOT need (NEON: dotprod), or null (SVE: base).
  const char *SDotFeature;
  /// The types the int8 ones and BFDOT are overloaded on.
  VectorDot::Overload IntOverloads, BFOverloads;
};

/// \p Dots' dot product for \p G with \p F's features: SDOT/UDOT for int8
/// of one signedness, USDOT (+i8mm) either way round, BFDOT (+bf16).
bool chooseAArch64Dot(const GemmDesc &G, const llvm::Function &F,
                      const AArch64Dots &Dots, VectorDot &Dot);

} // namespace gemm
} // namespace tlx

#endif // TLX_TARGET_AARCH64_DOTPRODUCTS_H
