//===- GemmVectorKernel.h - The vector GEMM driver's kernels ----*- C++ -*-===//
//
// What the vector GEMM driver (GemmVector.cpp) emits a GEMM with: the
// microkernel's instruction, its register block and the cache blocks,
// chosen per GEMM and target by GemmVectorKernel.cpp. Internal to
// lib/Gemm.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_GEMM_GEMMVECTORKERNEL_H
#define TLX_GEMM_GEMMVECTORKERNEL_H

#include "Gemm/GemmEmitterImpl.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Intrinsics.h"

#include <string>

namespace tlx {
namespace gemm {

/// Matrix: accumulator registers that hold the register block, fed by
/// outer products (Power10's MMA, lib/Target/PowerPC/MMAKernels.cpp): the
/// register block is the accumulators', not one of broadcast A lanes.
/// TargetDot: a dot product or widening multiply-add of a target's own
/// (VectorDot: x86's, NEON's, SVE's, RVV's).
enum class DotKind { FMA, Matrix, TargetDot };

/// Everything the vector kernel's code generation depends on.
struct VectorKernel {
  DotKind Dot = DotKind::FMA;
  llvm::Type *PackT = nullptr; ///< element type of the packed A and B panels
  llvm::Type *AccT = nullptr;  ///< accumulator element type (= C's)
  unsigned W = 0;              ///< accumulator lanes per vector
  unsigned KG = 1;             ///< k values one lane consumes per instruction
  /// k groups per iteration of the microkernel's k loop; K blocks are
  /// zero-padded to whole iterations (KG * KUnroll k values).
  unsigned KUnroll = 1;
  unsigned MR = 0, NV = 0;
  /// MR and NV come from -tlx-gemm-mr/-nv, not from the target and shape.
  bool ForcedBlock = false;
  int64_t MC = 0, KC = 0, NC = 0;
  AccumulatorKernel Matrix; ///< DotKind::Matrix: the target's kernel
  /// Scalable vectors (SVE, RVV): W lanes per vscale unit of vector, so the
  /// register block is NV x W x vscale columns wide.
  const ScalableTarget *Scalable = nullptr;
  VectorDot TargetDot; ///< DotKind::TargetDot: the instruction
  unsigned RegBytes = 0;
  /// The microkernel may read full-width B micro-panels in place (B's row
  /// stride), and broadcast full-height A micro-panels' elements in place
  /// (A's rows, k contiguous); only partial last panels are packed. For
  /// strides or extents known only at run time, decided there.
  bool DirectB = false;
  bool DirectA = false;
  /// C's edge blocks (partial rows or columns) are loaded and stored under
  /// lane masks (fixed-width vectors; chooseMaskedStores); else through a
  /// buffer and scalar copies.
  bool MaskedStores = false;

  /// Columns of a register block (scalable vectors: at vscale 1).
  unsigned nr() const { return NV * W; }
  /// Columns of a register block with scalable vectors of VectorBits bits
  /// (fixed-width vectors: nr() whatever VectorBits says).
  unsigned nrAtVectorBits(unsigned VectorBits) const {
    return Scalable ? nr() * (VectorBits / Scalable->VscaleBits) : nr();
  }
  /// The widest register block: SVE's 2048-bit vectors, the same for RVV.
  unsigned maxNR() const { return nrAtVectorBits(2048); }
  /// The register block cache blocks are chosen for: a 256-bit vector's
  /// for scalable vectors.
  unsigned blockingNR() const { return nrAtVectorBits(256); }
  unsigned kPad() const { return KG * KUnroll; }
  /// Takes TargetDot (filled in by the target) as the kernel's dot product.
  void useTargetDot() {
    Dot = DotKind::TargetDot;
    PackT = TargetDot.PackT;
    KG = TargetDot.KG;
    KUnroll = TargetDot.KUnroll;
  }
  /// A's sign bit flipped, the sums compensated (VectorDot::BiasA).
  bool biasA() const { return Dot == DotKind::TargetDot && TargetDot.BiasA; }
  /// A's or B's sign bits flipped while packed (VectorDot::BiasA,
  /// AccumulatorKernel::FlipA/FlipB): corrected by B's column sums or A's
  /// row sums.
  bool flipsA() const {
    return biasA() || (Dot == DotKind::Matrix && Matrix.FlipA);
  }
  bool flipsB() const { return Dot == DotKind::Matrix && Matrix.FlipB; }
  llvm::ElementCount lanes() const {
    return llvm::ElementCount::get(W, Scalable);
  }
  llvm::VectorType *accVec() const {
    return llvm::VectorType::get(AccT, lanes());
  }
  /// One vector of packed operands: W k groups.
  llvm::VectorType *opVec() const {
    return llvm::VectorType::get(PackT, lanes().multiplyCoefficientBy(KG));
  }
};

/// Chooses the kernel and its cache blocks for \p G in \p F, or returns
/// false, saying why in \p Why, when only the scalar code can do it
/// (half-precision accumulators, no vector registers).
bool chooseVectorKernel(const GemmDesc &G, const llvm::TargetTransformInfo &TTI,
                        const llvm::Function &F, VectorKernel &Kern,
                        std::string &Why);

/// The widest N for which A is read in place whatever M: a few register
/// blocks (a convolution's output channels), where a packed A micro-panel
/// would serve only a few micro-kernels.
inline int64_t maxNForDirectA(const VectorKernel &Kern) {
  return 4 * Kern.nr();
}

/// Rows of A this many bytes apart start on cache lines: wider GEMMs read
/// such an A in place when all of M is one A block.
constexpr int64_t DirectALineBytes = 64;

/// The kernel in remarks: "avx512 fma f32 14x32 (B in place)",
/// "sve s8s8s32 sdot 12x2VL", ...
std::string describeVectorKernel(const GemmDesc &G, const VectorKernel &Kern);

} // namespace gemm
} // namespace tlx

#endif // TLX_GEMM_GEMMVECTORKERNEL_H
