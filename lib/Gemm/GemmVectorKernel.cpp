//===- GemmVectorKernel.cpp - Kernels of the vector GEMM driver -----------===//
//
// Chooses what the vector GEMM driver (GemmVector.cpp) emits a GEMM with,
// from C's element type, A's and B's, and the function's target and
// features: the microkernel's instruction (a target's dot products -
// x86's, NEON's, a scalable target's, each chosen in its lib/Target
// folder -, a matrix-accumulator target's outer products, else the
// multiply-add), the register
// block (MR rows x NV vectors), the cache blocks (KC, MC, NC) and which
// operands are read in place.
//
//===----------------------------------------------------------------------===//

#include "Gemm/GemmVectorKernel.h"
#include "Compat.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

// A register block chosen by hand, for measuring others than the chosen one
// on a CPU (docs/pipeline.md, "Options"): both must be given.
cl::opt<unsigned>
    ForcedMR("tlx-gemm-mr", cl::init(0), cl::Hidden,
             cl::desc("rows of the vector GEMM's register block (with "
                      "-tlx-gemm-nv; 0: chosen per target and shape)"));
cl::opt<unsigned>
    ForcedNV("tlx-gemm-nv", cl::init(0), cl::Hidden,
             cl::desc("vectors across the vector GEMM's register block (with "
                      "-tlx-gemm-mr; 0: chosen per target and shape)"));

/// Applies -tlx-gemm-mr/-nv when the block fits \p NumRegs registers (its
/// accumulators, one vector of B each and a broadcast of A) and is at most
/// 4 vectors wide, as the automatic choices are (6 made a <192 x i16>
/// value in a GEMM of a generated program at -O0, which
/// tlx-check-wide-vectors rejects); returns whether it did.
bool applyForcedRegisterBlock(VectorKernel &Kern, unsigned NumRegs) {
  if (ForcedMR == 0 || ForcedNV == 0 || Kern.Dot == DotKind::Matrix ||
      ForcedMR > 16 || ForcedNV > 4 || (ForcedMR + 1) * ForcedNV + 1 > NumRegs)
    return false;
  Kern.MR = ForcedMR;
  Kern.NV = ForcedNV;
  return true;
}

/// Picks MR and NV for \p NumRegs vector registers: MR * NV accumulators, NV
/// B vectors and one broadcast must fit; two B vectors per k group when
/// possible (enough independent FMAs to hide latency), else one - or as
/// many as the target's dot product prefers (VectorDot::BlockVectors).
void chooseRegisterBlock(VectorKernel &Kern, unsigned NumRegs) {
  Kern.NV = NumRegs >= 16 ? 2 : 1;
  unsigned Preferred =
      Kern.Dot == DotKind::TargetDot ? Kern.TargetDot.BlockVectors : 0;
  if (Preferred && NumRegs >= 2 * Preferred + 1)
    Kern.NV = Preferred;
  Kern.MR = (NumRegs - Kern.NV - 1) / Kern.NV;
  Kern.MR = std::max(1u, std::min(Kern.MR, 14u));
}

/// Whether \p Op's rows may be read in place: the kernel's own element
/// type, rows k-contiguous, and a row stride that spreads a micro-panel's
/// rows over the L1 sets - a multiple of 2 KiB (e.g. 1024 f32) puts them
/// in at most two pairs of sets and thrashes L1 (measured for B: 64 x 1024
/// x 1024 f32 in place -6%; 512^3 equal; 256^3, 1 KiB stride, +2%).
/// Strides known only at run time are checked there (inPlaceCheck).
bool rowsReadableInPlace(const VectorKernel &Kern, const GemmOperand &Op) {
  if (Kern.Scalable || Op.Elem != Kern.PackT)
    return false;
  auto *ColStride = dyn_cast<ConstantInt>(Op.ColStride);
  if (ColStride && !ColStride->isOne())
    return false;
  auto *RowStride = dyn_cast<ConstantInt>(Op.RowStride);
  int64_t Bytes = RowStride
                      ? RowStride->getSExtValue() *
                            int64_t(Kern.PackT->getPrimitiveSizeInBits() / 8)
                      : 1;
  return Bytes > 0 && Bytes % 2048 != 0;
}

/// B in place: vectors of the FMA kernel's elements from B's rows (a dot
/// product wants B's k groups interleaved).
bool mayReadBInPlace(const VectorKernel &Kern, const GemmDesc &G) {
  return Kern.Dot == DotKind::FMA && rowsReadableInPlace(Kern, G.B);
}

/// A in place: the FMA kernel's elements broadcast from A's rows, or a
/// fixed-width dot product's k groups (x86's vpdpbusd and vdpbf16ps,
/// NEON's sdot and bfdot), each read as one lane (s8s8 on vpdpbusd: with
/// its sign bits flipped in the register) - unless K is no multiple of the
/// group: a padded k group would read past the row (a K known only at run
/// time is checked there, directAExtentsOK).
bool mayReadAInPlace(const VectorKernel &Kern, const GemmDesc &G) {
  if (Kern.Dot == DotKind::TargetDot) {
    const VectorDot &Dot = Kern.TargetDot;
    if (Dot.EmitScalarStep || Dot.Widening || G.K % Kern.kPad() != 0)
      return false;
  } else if (Kern.Dot != DotKind::FMA) {
    return false;
  }
  return rowsReadableInPlace(Kern, G.A);
}

/// Whether \p G's A, constant-sized, is one A block of cache-line-aligned
/// rows, which wider GEMMs read in place (chooseCacheBlocks).
bool directAOneBlock(const VectorKernel &Kern, const GemmDesc &G) {
  auto *RowStride = dyn_cast<ConstantInt>(G.A.RowStride);
  int64_t ES = Kern.PackT->getPrimitiveSizeInBits() / 8;
  return RowStride && G.M <= Kern.MC &&
         RowStride->getSExtValue() * ES % DirectALineBytes == 0;
}

/// Cache blocks: a B micro-panel (KC x NR) fills about 2/3 of L1, an A block
/// (MC x KC) half of L2, a B panel (KC x NC) a few MiB of L3.
void chooseCacheBlocks(VectorKernel &Kern, const TargetTransformInfo &TTI,
                       const Function &F, const GemmDesc &G) {
  // Unknown caches: what current cores with scalable vectors have, else
  // a small x86 core's.
  uint64_t L1 = TTI.getCacheSize(TargetTransformInfo::CacheLevel::L1D)
                    .value_or(Kern.Scalable ? 64 * 1024 : 32 * 1024);
  uint64_t L2 = TTI.getCacheSize(TargetTransformInfo::CacheLevel::L2D)
                    .value_or(Kern.Scalable ? 1024 * 1024 : 256 * 1024);
  // LLVM reports 32 KiB L1D / 256 KiB L2 for every x86; the AVX-512 cores
  // TLX targets (Zen 4/5, Sapphire Rapids and later) have 48 KiB and
  // 1-2 MiB. Measured at 1024^3 f32: KC 256 beats 160 by ~8%. The CPUs
  // TLX knows to have 2 MiB say so (x86L2CacheBytes).
  if (Kern.RegBytes >= 64) {
    L1 = std::max<uint64_t>(L1, 48 * 1024);
    L2 = std::max<uint64_t>(L2, 1024 * 1024);
  }
  if (Triple(F.getParent()->getTargetTriple()).isX86())
    L2 = std::max(L2, x86L2CacheBytes(F));
  int64_t ES = Kern.PackT->getPrimitiveSizeInBits() / 8;
  // KBlockFillsL1 (x86's vpmaddwd): the B micro-panel may take all of L1
  // (KC 1024 for 6 x 16 on 32 KiB): the A panel adds 12 bytes per k to
  // B's 32, and K = 1024 in one block instead of two saves a pass over C
  // (1024^3 s8s8: +3% over KC 672).
  uint64_t L1Share =
      Kern.Dot == DotKind::TargetDot && Kern.TargetDot.KBlockFillsL1
          ? L1
          : L1 * 2 / 3;
  int64_t KC = int64_t(L1Share) / (Kern.blockingNR() * ES);
  KC = std::max<int64_t>(Kern.KG * 16, KC / (Kern.KG * 16) * (Kern.KG * 16));
  int64_t MC = int64_t(L2) / 2 / (KC * ES);
  MC = std::max<int64_t>(Kern.MR, MC / Kern.MR * Kern.MR);
  int64_t NC = std::max<int64_t>(Kern.nr(),
                                 (4 << 20) / (KC * ES) / Kern.nr() * Kern.nr());
  // When all of M fits one A block, waste as few padded rows as possible:
  // spread M evenly over the fewest micro-panels (M = 64: MR 13 computes
  // 65 rows, MR 14 70; the 3x3 conv layer's GEMMs: +5%), or take an MR up
  // to a quarter below the maximum that pads less (M = 256: MR 13 computes
  // 260 rows, the balanced MR 14 266; +2%). Ties go to the larger MR.
  // (A run-time-sized GEMM may ask for the register block of an M it
  // expects, GemmDesc::BlockRowsFor.)
  int64_t FitM = G.BlockRowsFor ? G.BlockRowsFor : G.M;
  if (FitM <= MC && Kern.Dot != DotKind::Matrix && !Kern.ForcedBlock) {
    int64_t Panels = (FitM + Kern.MR - 1) / Kern.MR;
    unsigned Best = unsigned((FitM + Panels - 1) / Panels);
    for (unsigned MR = Kern.MR; MR >= 1 && MR + Kern.MR / 4 >= Kern.MR; --MR)
      if (roundUp(FitM, MR) < roundUp(FitM, Best) ||
          (roundUp(FitM, MR) == roundUp(FitM, Best) && MR > Best))
        Best = MR;
    Kern.MR = Best;
    MC = std::max<int64_t>(Kern.MR, MC / Kern.MR * Kern.MR);
  }
  // Never block beyond the problem (rounded to whole micro-panels; for
  // scalable vectors, of the longest vectors: the run-time NC is also
  // capped at N's micro-panels).
  Kern.KC = std::min(KC, roundUp(G.K, Kern.kPad()));
  Kern.MC = std::min(MC, roundUp(G.M, Kern.MR));
  Kern.NC = std::min(NC, roundUp(G.N, Kern.maxNR()));

  // B in place: when all of M is one A block, each packed B micro-panel
  // would serve only a few micro-kernels (M = 64: five), so packing B costs
  // a copy of B per K block for little reuse (the 3x3 convolution's nine
  // tap GEMMs, M = 64, pack 770 KB each).
  // (Run-time extents: decided at run time, inPlaceCheck.)
  bool RT = G.isRuntimeSized();
  Kern.DirectB = mayReadBInPlace(Kern, G) && (RT || G.M <= Kern.MC);
  // A in place: when N is a few register blocks wide (a convolution's
  // output channels: 64), each packed A micro-panel serves only a few
  // micro-kernels, and packing it (a transpose) is a copy of A per K block
  // for little reuse. Broadcasting from A's rows needs them k-contiguous
  // and spread over the L1 sets as B's above (3022 x 64 x 64 f32, A rows
  // 64 apart: 236 -> 250 GFLOP/s on Zen 5). Wider, when all of M is one A
  // block and A's rows start on cache lines, the packed copy would hold
  // the same lines in another order: f32 256^3 163 -> 168 GFLOP/s, 384^3
  // 162 -> 165 on an Intel Xeon (family 6 model 207, median of 6
  // processes); rows 1200 bytes apart (300^3) measured 1% slower in place
  // and stay packed, as do the two A blocks of 640^3 (equal).
  Kern.DirectA =
      mayReadAInPlace(Kern, G) &&
      (RT || G.N <= maxNForDirectA(Kern) || directAOneBlock(Kern, G));
}

/// Whether C's edge blocks are stored under lane masks (Kern.MaskedStores):
/// the target loads and stores the accumulators' and the result's vectors
/// under masks (AVX and AVX-512; not SSE), and the epilogue may run on the
/// lanes past C's edge (it reads no memory and cannot trap). Scalable
/// targets store under predicates anyway (storePredicated).
void chooseMaskedStores(VectorKernel &Kern, const TargetTransformInfo &TTI,
                        const GemmDesc &G) {
  auto Legal = [&](Type *Elem) {
    return compat::isLegalMaskedLoadAndStore(
        TTI, FixedVectorType::get(Elem, Kern.W), elementAlign(Elem));
  };
  Kern.MaskedStores = !Kern.Scalable && (!G.Epilogue || G.LanewiseEpilogue) &&
                      Legal(Kern.AccT) && Legal(G.result().Elem);
}

/// The kernel on \p Target's scalable vectors: its dot product, else the
/// multiply-add, on vectors of one register (LMUL 1 for RVV).
void chooseScalableKernel(const GemmDesc &G, const TargetTransformInfo &TTI,
                          const Function &F, const ScalableTarget &Target,
                          VectorKernel &Kern) {
  Kern.Scalable = &Target;
  Kern.W = Target.VscaleBits / Kern.AccT->getPrimitiveSizeInBits();
  if (Target.ChooseDot && Target.ChooseDot(G, F, Kern.TargetDot))
    Kern.useTargetDot();
  // 32 registers (SVE's Z, RVV's V at LMUL 1): MR x NV accumulators, NV
  // vectors of B and the broadcasts of A.
  unsigned NumRegs =
      TTI.getNumberOfRegisters(TTI.getRegisterClassForType(/*Vector=*/true));
  Kern.NV = 2;
  Kern.MR = std::max(1u, std::min(12u, (NumRegs - 2 * Kern.NV) / Kern.NV));
}

/// Chooses the kernel, or returns false when only the scalar code can do
/// this GEMM (half-precision accumulators, no vector registers).
bool chooseKernel(const GemmDesc &G, const TargetTransformInfo &TTI,
                  const Function &F, VectorKernel &Kern, std::string &Why) {
  Type *CT = G.C.Elem;
  bool IntC = CT->isIntegerTy(32) || CT->isIntegerTy(64);
  if (!CT->isFloatTy() && !CT->isDoubleTy() && !IntC) {
    Why = "no vector kernel accumulates in this element type";
    return false;
  }
  if (const ScalableTarget *Scalable = scalableTargetFor(F, TTI)) {
    Kern.AccT = Kern.PackT = CT;
    chooseScalableKernel(G, TTI, F, *Scalable, Kern);
    return true;
  }
  unsigned Bits =
      TTI.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector)
          .getFixedValue();
  // Explicit vector IR may use the full width even when the target prefers
  // 256-bit auto-vectorization (prefer-vector-width).
  if (hasTargetFeature(F, "avx512f"))
    Bits = std::max(Bits, 512u);
  unsigned CBits = CT->getPrimitiveSizeInBits();
  if (Bits < 2 * CBits) {
    Why = "the target has no vector registers for this element type";
    return false;
  }
  Kern.RegBytes = Bits / 8;
  Kern.AccT = CT;
  Kern.W = Bits / CBits;
  Kern.PackT = CT;
  if (chooseFixedWidthDot(G, F, Bits, Kern.TargetDot)) {
    Kern.useTargetDot();
  } else if (Bits == 128 && chooseMMAKernel(G, F, Kern.Matrix)) {
    Kern.Dot = DotKind::Matrix;
    Kern.PackT = Kern.Matrix.PackT;
    Kern.KG = Kern.Matrix.KG;
    Kern.MR = Kern.Matrix.MR;
    Kern.NV = Kern.Matrix.NV;
    return true;
  }
  unsigned NumRegs = TTI.getNumberOfRegisters(TTI.getRegisterClassForType(
      /*Vector=*/true));
  chooseRegisterBlock(Kern, std::max(NumRegs, 8u));
  return true;
}

/// "f32", "f64", "i32", "i64": the accumulators, in remarks.
std::string accName(Type *T) {
  return T->isFloatTy()    ? "f32"
         : T->isDoubleTy() ? "f64"
                           : "i" + std::to_string(T->getIntegerBitWidth());
}

/// "sve fma f32 12x2VL", "rvv s8s8s32 vwmacc 12x2VL": the register block
/// in vectors.
std::string scalableKernelName(const VectorKernel &Kern) {
  std::string Name = Kern.Dot == DotKind::TargetDot
                         ? Kern.TargetDot.Name
                         : (Kern.AccT->isFloatingPointTy() ? "fma " : "mla ") +
                               accName(Kern.AccT);
  return std::string(Kern.Scalable->Name) + " " + Name + " " +
         std::to_string(Kern.MR) + "x" + std::to_string(Kern.NV) + "VL";
}

std::string kernelName(const VectorKernel &Kern) {
  if (Kern.Scalable)
    return scalableKernelName(Kern);
  std::string Name = Kern.RegBytes == 64 ? "avx512"
                     : Kern.RegBytes == 32
                         ? "vec256"
                         : "vec" + std::to_string(Kern.RegBytes * 8);
  switch (Kern.Dot) {
  case DotKind::TargetDot:
    Name += " " + Kern.TargetDot.Name;
    break;
  case DotKind::Matrix:
    Name += " " + Kern.Matrix.Name;
    break;
  case DotKind::FMA:
    Name += Kern.AccT->isFloatingPointTy() ? " fma " : " mul-add ";
    Name += accName(Kern.AccT);
    break;
  }
  return Name + " " + std::to_string(Kern.MR) + "x" + std::to_string(Kern.nr());
}

/// " (A in place)", " (B in place when strides and sizes allow)", ...:
/// which operands the kernel reads without packing, in remarks.
std::string inPlaceNote(const GemmDesc &G, const VectorKernel &Kern) {
  auto Decided = [&](const GemmOperand &Op) {
    return !G.isRuntimeSized() && isa<Constant>(Op.RowStride) &&
           isa<Constant>(Op.ColStride);
  };
  std::string Ops;
  bool AtRunTime = false;
  if (Kern.DirectA) {
    Ops = "A";
    AtRunTime |= !Decided(G.A);
  }
  if (Kern.DirectB) {
    Ops += Ops.empty() ? "B" : " and B";
    AtRunTime |= !Decided(G.B);
  }
  if (Ops.empty())
    return "";
  return " (" + Ops + " in place" +
         (AtRunTime ? " when strides and sizes allow" : "") + ")";
}

} // namespace

bool chooseFixedWidthDot(const GemmDesc &G, const Function &F, unsigned Bits,
                         VectorDot &Dot, bool AllowBias) {
  Triple TT(F.getParent()->getTargetTriple());
  return (TT.isX86() && chooseX86Dot(G, F, Bits, Dot, AllowBias)) ||
         (TT.isAArch64() && Bits == 128 && chooseNeonDot(G, F, Dot));
}

Value *emitVectorDotCall(IRBuilderBase &B, const VectorDot &Dot, Value *Acc,
                         Value *X, Value *Y) {
  SmallVector<Type *, 2> Overloads;
  if (Dot.Overloads != VectorDot::Overload::None)
    Overloads.push_back(Acc->getType());
  if (Dot.Overloads == VectorDot::Overload::AccumulatorAndOperand)
    Overloads.push_back(Y->getType());
  Function *Fn = Intrinsic::getOrInsertDeclaration(
      B.GetInsertBlock()->getModule(), Dot.ID, Overloads);
  FunctionType *FT = Fn->getFunctionType();
  auto Arg = [&](Value *V, unsigned I) {
    return B.CreateBitCast(V, FT->getParamType(I));
  };
  if (Dot.SwapOperands)
    std::swap(X, Y);
  if (Dot.AddsProducts)
    return B.CreateAdd(Acc, B.CreateCall(Fn, {Arg(X, 0), Arg(Y, 1)}));
  return B.CreateBitCast(B.CreateCall(Fn, {Arg(Acc, 0), Arg(X, 1), Arg(Y, 2)}),
                         Acc->getType());
}

bool fitsI16(const GemmOperand &Op) {
  // Two products of at most 2^30 each; only -2^15 * -2^15 twice reaches
  // 2^31, which wraps to what i32 arithmetic gives anyway.
  return Op.Elem->isIntegerTy(8) || (Op.Elem->isIntegerTy(16) && Op.IsSigned);
}

std::string intTypesName(const GemmDesc &G) {
  auto Name = [](const GemmOperand &Op) {
    return (Op.IsSigned ? "s" : "u") +
           std::to_string(Op.Elem->getIntegerBitWidth());
  };
  return Name(G.A) + Name(G.B) + "s32";
}

const ScalableTarget *scalableTargetFor(const Function &F,
                                        const TargetTransformInfo &TTI) {
  if (TTI.getRegisterBitWidth(TargetTransformInfo::RGK_ScalableVector)
          .getKnownMinValue() == 0)
    return nullptr;
  Triple TT(F.getParent()->getTargetTriple());
  if (TT.isAArch64())
    return &sveTarget();
  if (TT.isRISCV64() && hasTargetFeature(F, "v"))
    return &rvvTarget();
  return nullptr;
}

bool chooseVectorKernel(const GemmDesc &G, const TargetTransformInfo &TTI,
                        const Function &F, VectorKernel &Kern,
                        std::string &Why) {
  if (!chooseKernel(G, TTI, F, Kern, Why))
    return false;
  Kern.ForcedBlock = applyForcedRegisterBlock(
      Kern,
      TTI.getNumberOfRegisters(TTI.getRegisterClassForType(/*Vector=*/true)));
  chooseCacheBlocks(Kern, TTI, F, G);
  chooseMaskedStores(Kern, TTI, G);
  return true;
}

std::string describeVectorKernel(const GemmDesc &G, const VectorKernel &Kern) {
  return kernelName(Kern) + inPlaceNote(G, Kern);
}

} // namespace gemm
} // namespace tlx
