//===- GemmVector.cpp - Packed, register-blocked GEMM on vector registers -===//
//
// The GemmTarget::Vector kernels of the GEMM emitter.
//
// Algorithm (BLIS-style; MR x NR register block, NR = NV vectors of W lanes):
//  1. Choose the kernel from C's element type and the function's features:
//       dot-VNNI  u8/s8 x s8 -> i32   vpdpbusd (avx512vnni on zmm, avxvnni
//                                     on ymm), 4 k per lane
//       dot-BF16  bf16 x bf16 -> f32  vdpbf16ps (avx512bf16), 2 k per lane
//       NeonDot   AArch64: s8/u8 x s8/u8 -> i32 SDOT/UDOT (dotprod), USDOT
//                 (i8mm), 4 k per lane; bf16 -> f32 BFDOT (bf16), 2 k
//       PMADDWD   u8/s8/s16 x u8/s8/s16 -> i32 (every other int8 case, and
//                 all of them without VNNI): operands widened to i16 while
//                 packed, vpmaddwd (sse2 xmm, avx2 ymm, avx512bw zmm) + add,
//                 or vpdpwssd where vpdpbusd is available; 2 k per lane;
//                 exact (no saturation, unlike vpmaddubsw)
//       Matrix    a target's accumulator registers (Power10 MMA: f32,
//                 f64 and int8/s16 -> i32 outer products into 8
//                 accumulators; lib/Target/PowerPC/MMAKernels.cpp)
//       FMA       anything -> f32/f64/i32/i64 on <W x C>: operands are
//                 converted to C's type while they are packed.
//     The k values one lane consumes per instruction form a "k group" of KG
//     elements (1 for FMA).
//  2. for jc < N step NC:                                  (B panel in L3)
//       for pc < K step KC:
//         pack B[pc:+kc, jc:+nc] into NR-wide micro-panels laid out
//         [kc/KG][NR][KG], zero-padded to whole NR and KG;
//         (signed A on VNNI) the column sums 128 * sum_k B[k][j];
//         for ic < M step MC:                              (A block in L2)
//           pack A[ic:+mc, pc:+kc] into MR-tall micro-panels [kc/KG][MR][KG]
//           for jr < nc step NR, ir < mc step MR:          (B micro-panel
//             microkernel(ir, jr)                           in L1)
//  3. The microkernel keeps MR x NV accumulator vectors in registers (loop
//     phis) across the kc loop: per k group it loads NV vectors of B and
//     broadcasts one k group of each of the MR rows of A (Matrix: loads MR/4
//     vectors of A and does one outer product per accumulator, which it
//     disassembles into rows after the loop). It then adds the
//     block to C (when accumulating or pc > 0): full blocks with vector
//     loads/stores when C's rows are contiguous, edge blocks through a
//     stack buffer and scalar copies, so nothing outside C is touched.
//
// Signed A on vpdpbusd (which multiplies unsigned bytes by signed bytes):
// A is packed with its sign bit flipped (a + 128, an unsigned byte) and the
// accumulators start at -128 * sum_k B[k][j], computed with vpdpbusd itself
// from the packed B panel; so sum (a + 128) b - 128 sum b = sum a b exactly
// in wrapping i32 arithmetic. u8 x u8 and s8 x u8 (vpdpbusd needs B signed)
// use the PMADDWD kernel.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Gemm/GemmEmitterImpl.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAArch64.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

#include <numeric>

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

/// NEON: SDOT/UDOT (+dotprod) and USDOT (+i8mm) are 4-way int8 dot
/// products into i32 lanes, BFDOT (+bf16) a 2-way bf16 one into f32 -
/// the k groups of VNNI and vdpbf16ps, with one instruction per signedness
/// instead of the sign-bit bias.
/// Matrix: accumulator registers that hold the register block, fed by
/// outer products (Power10's MMA, lib/Target/PowerPC/MMAKernels.cpp): the
/// register block is the accumulators', not one of broadcast A lanes.
enum class DotKind { FMA, VNNI, BF16, PMADDWD, NeonDot, Matrix };

/// Everything the vector kernel's code generation depends on.
struct VectorKernel {
  DotKind Dot = DotKind::FMA;
  Type *PackT = nullptr; ///< element type of the packed A and B panels
  Type *AccT = nullptr;  ///< accumulator element type (= C's)
  unsigned W = 0;        ///< accumulator lanes per vector
  unsigned KG = 1;       ///< k values one lane consumes per instruction
  /// k groups per iteration of the microkernel's k loop; K blocks are
  /// zero-padded to whole iterations (KG * KUnroll k values).
  unsigned KUnroll = 1;
  unsigned MR = 0, NV = 0;
  int64_t MC = 0, KC = 0, NC = 0;
  bool BiasA = false; ///< VNNI with signed A: flip A's sign bit, compensate
  bool FusedPMADDWD = false; ///< PMADDWD as vpdpwssd (the add fused; VNNI)
  /// NeonDot: the instruction, and whether B goes first (USDOT takes the
  /// unsigned operand first; for s8 x u8 that is B).
  Intrinsic::ID NeonDotID = Intrinsic::not_intrinsic;
  bool SwapDotOperands = false;
  std::string DotName;      ///< NeonDot: "sdot", "udot", "usdot", "bfdot"
  AccumulatorKernel Matrix; ///< DotKind::Matrix: the target's kernel
  std::string IntTypes; ///< integer dot kernels: "s8s8s32" etc., for remarks
  unsigned RegBytes = 0;
  /// The microkernel may read full-width B micro-panels in place (B's row
  /// stride), and broadcast full-height A micro-panels' elements in place
  /// (A's rows, k contiguous); only partial last panels are packed. For
  /// strides or extents known only at run time, decided there.
  bool DirectB = false;
  bool DirectA = false;

  unsigned nr() const { return NV * W; }
  unsigned kPad() const { return KG * KUnroll; }
  FixedVectorType *accVec() const { return FixedVectorType::get(AccT, W); }
};

/// Picks MR and NV for \p NumRegs vector registers: MR * NV accumulators, NV
/// B vectors and one broadcast must fit; two B vectors per k group when
/// possible (enough independent FMAs to hide latency), else one.
void chooseRegisterBlock(VectorKernel &Kern, unsigned NumRegs) {
  Kern.NV = NumRegs >= 16 ? 2 : 1;
  Kern.MR = (NumRegs - Kern.NV - 1) / Kern.NV;
  Kern.MR = std::max(1u, std::min(Kern.MR, 14u));
}

/// The widest N for which A is read in place: a few register blocks (a
/// convolution's output channels), where a packed A micro-panel would
/// serve only a few micro-kernels.
int64_t maxNForDirectA(const VectorKernel &Kern) { return 4 * Kern.nr(); }

/// Whether the FMA kernel may read \p Op in place: its own element type,
/// rows k-contiguous, and a row stride that spreads a micro-panel's rows
/// over the L1 sets - a multiple of 2 KiB (e.g. 1024 f32) puts them in at
/// most two pairs of sets and thrashes L1 (measured for B: 64 x 1024 x
/// 1024 f32 in place -6%; 512^3 equal; 256^3, 1 KiB stride, +2%). Strides
/// known only at run time are checked there (inPlaceCheck).
bool mayReadInPlace(const VectorKernel &Kern, const GemmOperand &Op) {
  if (Kern.Dot != DotKind::FMA || Op.Elem != Kern.PackT)
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

/// Cache blocks: a B micro-panel (KC x NR) fills about 2/3 of L1, an A block
/// (MC x KC) half of L2, a B panel (KC x NC) a few MiB of L3.
void chooseCacheBlocks(VectorKernel &Kern, const TargetTransformInfo &TTI,
                       const GemmDesc &G) {
  uint64_t L1 = TTI.getCacheSize(TargetTransformInfo::CacheLevel::L1D)
                    .value_or(32 * 1024);
  uint64_t L2 = TTI.getCacheSize(TargetTransformInfo::CacheLevel::L2D)
                    .value_or(256 * 1024);
  // LLVM reports 32 KiB L1D / 256 KiB L2 for every x86; the AVX-512 cores
  // TLX targets (Zen 4/5, Sapphire Rapids and later) have 48 KiB and
  // 1-2 MiB. Measured at 1024^3 f32: KC 256 beats 160 by ~8%.
  if (Kern.RegBytes >= 64) {
    L1 = std::max<uint64_t>(L1, 48 * 1024);
    L2 = std::max<uint64_t>(L2, 1024 * 1024);
  }
  int64_t ES = Kern.PackT->getPrimitiveSizeInBits() / 8;
  // PMADDWD: the B micro-panel may take all of L1 (KC 1024 for 6 x 16 on
  // 32 KiB): the A panel adds 12 bytes per k to B's 32, and K = 1024 in
  // one block instead of two saves a pass over C (1024^3 s8s8: +3% over
  // KC 672).
  uint64_t L1Share = Kern.Dot == DotKind::PMADDWD ? L1 : L1 * 2 / 3;
  int64_t KC = int64_t(L1Share) / (Kern.nr() * ES);
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
  if (G.M <= MC && Kern.Dot != DotKind::Matrix) {
    int64_t Panels = (G.M + Kern.MR - 1) / Kern.MR;
    unsigned Best = unsigned((G.M + Panels - 1) / Panels);
    for (unsigned MR = Kern.MR; MR >= 1 && MR + Kern.MR / 4 >= Kern.MR; --MR)
      if (roundUp(G.M, MR) < roundUp(G.M, Best) ||
          (roundUp(G.M, MR) == roundUp(G.M, Best) && MR > Best))
        Best = MR;
    Kern.MR = Best;
    MC = std::max<int64_t>(Kern.MR, MC / Kern.MR * Kern.MR);
  }
  // Never block beyond the problem (rounded to whole micro-panels).
  Kern.KC = std::min(KC, roundUp(G.K, Kern.kPad()));
  Kern.MC = std::min(MC, roundUp(G.M, Kern.MR));
  Kern.NC = std::min(NC, roundUp(G.N, Kern.nr()));

  // B in place: when all of M is one A block, each packed B micro-panel
  // would serve only a few micro-kernels (M = 64: five), so packing B costs
  // a copy of B per K block for little reuse (the 3x3 convolution's nine
  // tap GEMMs, M = 64, pack 770 KB each).
  // (Run-time extents: decided at run time, inPlaceCheck.)
  bool RT = G.isRuntimeSized();
  Kern.DirectB = mayReadInPlace(Kern, G.B) && (RT || G.M <= Kern.MC);
  // A in place: when N is a few register blocks wide (a convolution's
  // output channels: 64), each packed A micro-panel serves only a few
  // micro-kernels, and packing it (a transpose) is a copy of A per K block
  // for little reuse. Broadcasting from A's rows needs them k-contiguous
  // and spread over the L1 sets as B's above (3022 x 64 x 64 f32, A rows
  // 64 apart: 236 -> 250 GFLOP/s on Zen 5).
  Kern.DirectA =
      mayReadInPlace(Kern, G.A) && (RT || G.N <= maxNForDirectA(Kern));
}

/// AArch64's dot products for \p G, when \p F's features have one:
/// int8 -> i32 (SDOT, UDOT, USDOT either way round) and bf16 -> f32 (BFDOT).
/// Leaves \p Kern's FMA kernel otherwise.
void chooseNeonDot(const GemmDesc &G, const Function &F, VectorKernel &Kern) {
  Type *AT = G.A.Elem, *BT = G.B.Elem, *CT = Kern.AccT;
  auto Use = [&](Intrinsic::ID ID, StringRef Name, unsigned KG) {
    Kern.Dot = DotKind::NeonDot;
    Kern.NeonDotID = ID;
    Kern.DotName = Name.str();
    Kern.PackT = AT;
    Kern.KG = KG;
  };
  if (CT->isIntegerTy(32) && AT->isIntegerTy(8) && BT->isIntegerTy(8)) {
    bool SA = G.A.IsSigned, SB = G.B.IsSigned;
    if (SA == SB && hasTargetFeature(F, "dotprod"))
      Use(SA ? Intrinsic::aarch64_neon_sdot : Intrinsic::aarch64_neon_udot,
          SA ? "sdot" : "udot", 4);
    else if (SA != SB && hasTargetFeature(F, "i8mm")) {
      Use(Intrinsic::aarch64_neon_usdot, "usdot", 4);
      Kern.SwapDotOperands = SA; // usdot(acc, unsigned, signed)
    }
    if (Kern.Dot == DotKind::NeonDot)
      Kern.IntTypes = intTypesName(G);
  } else if (CT->isFloatTy() && AT->isBFloatTy() && BT->isBFloatTy() &&
             hasTargetFeature(F, "bf16")) {
    Use(Intrinsic::aarch64_neon_bfdot, "bfdot", 2);
  }
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
  Type *AT = G.A.Elem, *BT = G.B.Elem;
  bool X86 = Triple(F.getParent()->getTargetTriple()).isX86();
  // vpdpbusd: zmm with AVX512-VNNI, ymm with AVX-VNNI (the VEX form LLVM
  // selects for the same intrinsic under +avxvnni).
  bool VNNI = X86 && ((Bits == 512 && hasTargetFeature(F, "avx512vnni")) ||
                      (Bits == 256 && hasTargetFeature(F, "avxvnni")));
  // vpmaddwd: i16 x i16 pairs summed into i32, on xmm (SSE2), ymm (AVX2) or
  // zmm (AVX512BW), exact for operands that fit i16.
  bool PMADDWD = X86 && ((Bits == 512 && hasTargetFeature(F, "avx512bw")) ||
                         (Bits == 256 && hasTargetFeature(F, "avx2")) ||
                         (Bits == 128 && hasTargetFeature(F, "sse2")));
  if (VNNI && CT->isIntegerTy(32) && AT->isIntegerTy(8) && BT->isIntegerTy(8) &&
      G.B.IsSigned) {
    Kern.Dot = DotKind::VNNI;
    Kern.PackT = AT;
    Kern.KG = 4;
    Kern.BiasA = G.A.IsSigned;
    Kern.IntTypes = intTypesName(G);
  } else if (PMADDWD && CT->isIntegerTy(32) && fitsI16(G.A) && fitsI16(G.B)) {
    // Operands widened to i16 while packed, two k values per i32 lane.
    Kern.Dot = DotKind::PMADDWD;
    Kern.PackT = Type::getInt16Ty(CT->getContext());
    Kern.KG = 2;
    // With VNNI, vpdpwssd does the pmaddwd and the add in one instruction
    // (wrapping, as the add; not vpdpwssds, which saturates).
    Kern.FusedPMADDWD = VNNI;
    // Otherwise two k groups per loop iteration: the loop's own
    // instructions (counter, C and A prefetches) next to 2 x 12 vector ops
    // per group; 1024^3 s8s8 on AVX2: +1-2%.
    Kern.KUnroll = VNNI ? 1 : 2;
    Kern.IntTypes = intTypesName(G);
  } else if (Bits == 512 && CT->isFloatTy() && AT->isBFloatTy() &&
             BT->isBFloatTy() && hasTargetFeature(F, "avx512bf16")) {
    Kern.Dot = DotKind::BF16;
    Kern.PackT = AT;
    Kern.KG = 2;
  } else if (Triple(F.getParent()->getTargetTriple()).isAArch64() &&
             Bits == 128) {
    chooseNeonDot(G, F, Kern);
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

std::string kernelName(const VectorKernel &Kern) {
  std::string Name = Kern.RegBytes == 64 ? "avx512"
                     : Kern.RegBytes == 32
                         ? "vec256"
                         : "vec" + std::to_string(Kern.RegBytes * 8);
  switch (Kern.Dot) {
  case DotKind::VNNI:
    Name += " " + Kern.IntTypes +
            (Kern.BiasA ? " vpdpbusd(+128 bias)" : " vpdpbusd");
    break;
  case DotKind::PMADDWD:
    Name += " " + Kern.IntTypes +
            (Kern.FusedPMADDWD ? " vpdpwssd" : " vpmaddwd");
    break;
  case DotKind::BF16:
    Name += " bf16 vdpbf16ps";
    break;
  case DotKind::NeonDot:
    Name += " " + (Kern.IntTypes.empty() ? std::string("bf16")
                                          : Kern.IntTypes) +
            " " + Kern.DotName;
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

/// Emits the code of one GEMM with the chosen kernel.
class VectorGemmEmitter {
public:
  VectorGemmEmitter(IRBuilderBase &B, const GemmDesc &G,
                    const VectorKernel &Kern)
      : B(B), G(G), Kern(Kern), I64(B.getInt64Ty()) {}

  void emit();

private:
  Value *c64(int64_t V) { return B.getInt64(V); }
  Value *smin(Value *X, Value *Y) {
    return B.CreateIntrinsic(Intrinsic::smin, {I64}, {X, Y});
  }
  int64_t packBytes() const { return Kern.PackT->getPrimitiveSizeInBits() / 8; }
  /// The rows of A packed per block for a K block of \p Kcp (padded) k
  /// values: MC. A run-time-sized GEMM was blocked for a large K; when its
  /// K block is shorter, the A block's budget (MC x KC, the scratch size)
  /// holds more rows, as the blocking would have chosen for that K.
  Value *rowBlock(Value *Kcp) {
    if (!G.isRuntimeSized())
      return c64(Kern.MC);
    Value *Rows = B.CreateUDiv(c64(Kern.MC * Kern.KC), Kcp);
    Rows = B.CreateMul(B.CreateUDiv(Rows, c64(Kern.MR)), c64(Kern.MR));
    return B.CreateIntrinsic(Intrinsic::smax, {I64}, {Rows, c64(Kern.MR)},
                             nullptr, "gemm.mc");
  }
  Value *packPtr(Value *Base, Value *Elems) {
    return B.CreateGEP(Kern.PackT, Base, Elems);
  }
  Value *inPlaceCheck(const GemmOperand &Op, Value *ExtentOK);

  void packB(Value *Jc, Value *Pc, Value *Nc, Value *Kc, Value *Kcp);
  bool canInterleaveB() const;
  void interleaveIntoPanel(Value *Pc, Value *Col0, Value *Kcp, Value *Panel);
  void emitColumnSums(Value *Panel, Value *Kcp, Value *SumsAt);
  void packA(Value *Ic, Value *Pc, Value *Mc, Value *Kc, Value *Kcp);
  bool canTransposeA() const;
  bool canWidenA() const;
  void widenIntoPanel(Value *Row0, Value *Col0, Value *Kc, Value *Panel);
  void transposeIntoPanel(Value *Row0, Value *Col0, Value *Kc, Value *Panel);
  void copyIntoPanel(const GemmOperand &Op, Value *Row0, Value *Col0,
                     Value *Rows, Value *Kc, bool KIsRow, Value *Panel,
                     unsigned PanelWidth, bool FlipSign);
  void emitMicrokernel(Value *Ic, Value *Ir, Value *Jc, Value *Jr, Value *Pc,
                       Value *Mc, Value *Nc, Value *Kcp, Value *AddC,
                       Value *LastK, Value *FirstK);
  Value *emitDotStep(Value *Acc, Value *ABroadcast, Value *BVec);
  Value *loadABroadcast(Value *Ptr);
  Value *loadBVector(Value *Ptr, bool InPlace = false);
  void storeBlock(ArrayRef<Value *> Acc, Value *Row0, Value *Col0, Value *Rows,
                  Value *Cols, Value *AddC, bool ApplyEpilogue, Value *FirstK);
  Value *finish(Value *AddC, Value *Old, Value *Acc, Value *Row, Value *Col,
                bool ApplyEpilogue);

  IRBuilderBase &B;
  const GemmDesc &G;
  const VectorKernel &Kern;
  Type *I64;
  Value *ApBase = nullptr, *BpBase = nullptr, *ColSums = nullptr;
  AllocaInst *EdgeBuf = nullptr;
  /// i1: A / B are read in place (Kern.DirectA / DirectB and, for what is
  /// known only at run time, inPlaceCheck).
  Value *InPlaceA = nullptr, *InPlaceB = nullptr;
};

void VectorGemmEmitter::emit() {
  Function *F = B.GetInsertBlock()->getParent();
  {
    IRBuilderBase::InsertPointGuard Guard(B);
    B.SetInsertPoint(&F->getEntryBlock(), F->getEntryBlock().begin());
    EdgeBuf = B.CreateAlloca(ArrayType::get(Kern.AccT, Kern.MR * Kern.nr()),
                             nullptr, "gemm.edge");
    EdgeBuf->setAlignment(Align(64));
  }
  int64_t ES = packBytes();
  InPlaceA = B.getFalse();
  if (Kern.DirectA)
    InPlaceA = inPlaceCheck(
        G.A, B.CreateICmpSLE(G.extentN(B), c64(maxNForDirectA(Kern))));
  InPlaceB = B.getFalse();
  if (Kern.DirectB)
    InPlaceB = inPlaceCheck(G.B, B.CreateICmpSLE(G.extentM(B), c64(Kern.MC)));
  ApBase = emitScratch(B, ScratchSlot::PackedA, Kern.MC * Kern.KC * ES);
  BpBase = emitScratch(B, ScratchSlot::PackedB, Kern.NC * Kern.KC * ES);
  if (Kern.BiasA)
    ColSums = emitScratch(B, ScratchSlot::ColumnSums, Kern.NC * 4);

  // This code's share of C: all of it, or one thread's rows or columns.
  Value *RowEnd = G.RowEnd ? G.RowEnd : G.extentM(B);
  Value *ColEnd = G.ColEnd ? G.ColEnd : G.extentN(B);
  Value *KEnd = G.extentK(B);
  emitLoop(
      B, G.ColBegin ? G.ColBegin : c64(0), ColEnd, c64(Kern.NC), "gemm.jc",
      [&](IRBuilderBase &, Value *Jc) {
        Value *Nc = smin(c64(Kern.NC), B.CreateSub(ColEnd, Jc));
        emitLoop(
            B, c64(0), KEnd, c64(Kern.KC), "gemm.pc",
            [&](IRBuilderBase &, Value *Pc) {
              Value *Kc = smin(c64(Kern.KC), B.CreateSub(KEnd, Pc));
              Value *Kcp = B.CreateAnd(B.CreateAdd(Kc, c64(Kern.kPad() - 1)),
                                       c64(-int64_t(Kern.kPad())));
              packB(Jc, Pc, Nc, Kc, Kcp);
              // Later K blocks add to what the earlier ones stored.
              Value *AddC = G.Accumulate
                                ? B.getTrue()
                                : B.CreateICmpNE(Pc, c64(0), "gemm.addc");
              // The last K block finishes C: the epilogue applies there.
              Value *LastK = B.CreateICmpSGE(B.CreateAdd(Pc, Kc), KEnd,
                                             "gemm.lastk");
              // The first reads the initial sums from Init, if any.
              Value *FirstK = B.CreateICmpEQ(Pc, c64(0), "gemm.firstk");
              Value *MCStep = rowBlock(Kcp);
              emitLoop(
                  B, G.RowBegin ? G.RowBegin : c64(0), RowEnd, MCStep,
                  "gemm.ic", [&](IRBuilderBase &, Value *Ic) {
                    Value *Mc = smin(MCStep, B.CreateSub(RowEnd, Ic));
                    packA(Ic, Pc, Mc, Kc, Kcp);
                    emitLoop(B, c64(0), Nc, c64(Kern.nr()), "gemm.jr",
                             [&](IRBuilderBase &, Value *Jr) {
                               emitLoop(B, c64(0), Mc, c64(Kern.MR), "gemm.ir",
                                        [&](IRBuilderBase &, Value *Ir) {
                                          emitMicrokernel(Ic, Ir, Jc, Jr, Pc,
                                                          Mc, Nc, Kcp, AddC,
                                                          LastK, FirstK);
                                        });
                             });
                  });
            });
      });
}

/// i1: \p Op may be read in place (mayReadInPlace) - what its strides and
/// \p ExtentOK leave to the run time: a unit column stride and a positive
/// row stride that is no multiple of 2 KiB. Constant true for a GEMM whose
/// strides and extents decided at compile time.
Value *VectorGemmEmitter::inPlaceCheck(const GemmOperand &Op, Value *ExtentOK) {
  Value *OK = ExtentOK;
  if (!isa<Constant>(Op.ColStride))
    OK = B.CreateAnd(OK, B.CreateICmpEQ(Op.ColStride, c64(1)));
  if (!isa<Constant>(Op.RowStride)) {
    Value *Bytes = B.CreateMul(Op.RowStride, c64(packBytes()));
    OK = B.CreateAnd(OK, B.CreateICmpSGT(Bytes, c64(0)));
    OK = B.CreateAnd(OK, B.CreateICmpNE(B.CreateAnd(Bytes, c64(2047)), c64(0)));
  }
  return OK;
}

void VectorGemmEmitter::copyIntoPanel(const GemmOperand &Op, Value *Row0,
                                      Value *Col0, Value *Rows, Value *Kc,
                                      bool KIsRow, Value *Panel,
                                      unsigned PanelWidth, bool FlipSign) {
  emitPanelCopy(B, {Op, Row0, Col0, Rows, Kc, KIsRow}, Kern.PackT, Kern.KG,
                Panel, c64(PanelWidth), FlipSign);
}

void VectorGemmEmitter::packB(Value *Jc, Value *Pc, Value *Nc, Value *Kc,
                              Value *Kcp) {
  unsigned NR = Kern.nr();
  emitLoop(
      B, c64(0), Nc, c64(NR), "gemm.packb", [&](IRBuilderBase &, Value *Jr) {
        Value *Cols = smin(c64(NR), B.CreateSub(Nc, Jr));
        Value *Panel = packPtr(BpBase, B.CreateMul(Jr, Kcp));
        // Edge panels get zeros where B has no columns or k values, so the
        // microkernel always runs full width.
        Value *Partial = isPartialPanel(B, Cols, c64(NR), Kc, Kcp);
        auto Pack = [&] {
          emitZeroPanelIf(B, Partial, Panel, c64(NR), Kcp, Kern.PackT);
          auto CopyElements = [&] {
            copyIntoPanel(G.B, Pc, B.CreateAdd(Jc, Jr), Cols, Kc,
                          /*KIsRow=*/true, Panel, NR, /*FlipSign=*/false);
          };
          if (canInterleaveB())
            emitIf(
                B, Partial, CopyElements,
                [&] { interleaveIntoPanel(Pc, B.CreateAdd(Jc, Jr), Kcp, Panel); });
          else
            CopyElements();
          if (Kern.BiasA)
            emitColumnSums(Panel, Kcp, Jr);
        };
        // B read in place: only the partial last micro-panel is packed.
        if (Kern.DirectB)
          emitIf(B, B.CreateOr(Partial, B.CreateNot(InPlaceB)), Pack);
        else
          Pack();
      });
}

// VNNI/BF16/PMADDWD panels of row-major B interleave KG rows: the scalar
// copy's strided byte stores made packing the bulk of a small-M int8 GEMM
// (64 x 4096 x 1024: each packed element serves five micro-kernels).
// Narrower integer B (i8 on PMADDWD) is widened on the way.
bool VectorGemmEmitter::canInterleaveB() const {
  bool Widen = G.B.Elem->isIntegerTy() && Kern.PackT->isIntegerTy() &&
               G.B.Elem->getIntegerBitWidth() <
                   Kern.PackT->getIntegerBitWidth();
  return Kern.KG > 1 && (G.B.Elem == Kern.PackT || Widen) &&
         isConstOne(G.B.ColStride);
}

//   for kq < Kcp / KG:
//     row[g] = load <NR x T> B[Pc + kq*KG + g][Col0 ..]      (g < KG)
//              (sext/zext <NR x B elem> to <NR x T> when B is narrower)
//     Panel[kq][c][g] = row[g][c]: one shuffle, one NR*KG-element store
// A full micro-panel only (NR columns, Kcp = Kc).
void VectorGemmEmitter::interleaveIntoPanel(Value *Pc, Value *Col0, Value *Kcp,
                                            Value *Panel) {
  unsigned NR = Kern.nr(), KG = Kern.KG;
  auto *RowTy = FixedVectorType::get(G.B.Elem, NR);
  auto *WideTy = FixedVectorType::get(Kern.PackT, NR);
  SmallVector<int, 128> Mask;
  for (unsigned C = 0; C < NR; ++C)
    for (unsigned Gi = 0; Gi < KG; ++Gi)
      Mask.push_back(Gi * NR + C);
  emitLoop(B, c64(0), B.CreateUDiv(Kcp, c64(KG)), c64(1), "gemm.packb.vec",
           [&](IRBuilderBase &, Value *Kq) {
             SmallVector<Value *, 4> Rows;
             for (unsigned Gi = 0; Gi < KG; ++Gi) {
               Value *K = B.CreateAdd(Pc, B.CreateAdd(B.CreateMul(Kq, c64(KG)),
                                                      c64(Gi)));
               Value *Row = B.CreateAlignedLoad(
                   RowTy, elementPtr(B, G.B, K, Col0), Align(1));
               if (G.B.Elem != Kern.PackT)
                 Row = B.CreateIntCast(Row, WideTy, G.B.IsSigned);
               Rows.push_back(Row);
             }
             // Concatenate, then interleave in one shuffle.
             Value *Packed =
                 B.CreateShuffleVector(concatenateVectors(B, Rows), Mask);
             B.CreateAlignedStore(
                 Packed, packPtr(Panel, B.CreateMul(Kq, c64(NR * KG))),
                 Align(64));
           });
}

// ColSums[Jr + c] = 128 * sum_k Panel(k, c), with vpdpbusd on 0x80 bytes.
void VectorGemmEmitter::emitColumnSums(Value *Panel, Value *Kcp,
                                       Value *SumsAt) {
  unsigned NR = Kern.nr();
  Value *Zero = Constant::getNullValue(Kern.accVec());
  SmallVector<Value *, 8> Init(Kern.NV, Zero);
  auto Sums =
      emitLoop(B, c64(0), B.CreateLShr(Kcp, 2), c64(1), "gemm.colsum", Init,
               [&](IRBuilderBase &, Value *Kq, ArrayRef<Value *> Acc) {
                 SmallVector<Value *, 8> Next;
                 Value *Row = B.CreateMul(Kq, c64(NR * 4));
                 for (unsigned V = 0; V < Kern.NV; ++V) {
                   Value *BVec = loadBVector(
                       packPtr(Panel, B.CreateAdd(Row, c64(V * Kern.W * 4))));
                   Value *Bias = ConstantInt::get(Kern.accVec(), 0x80808080u);
                   Next.push_back(emitDotStep(Acc[V], Bias, BVec));
                 }
                 return Next;
               });
  for (unsigned V = 0; V < Kern.NV; ++V)
    B.CreateAlignedStore(
        Sums[V],
        B.CreateGEP(Kern.AccT, ColSums, B.CreateAdd(SumsAt, c64(V * Kern.W))),
        Align(4));
}

void VectorGemmEmitter::packA(Value *Ic, Value *Pc, Value *Mc, Value *Kc,
                              Value *Kcp) {
  unsigned MR = Kern.MR;
  emitLoop(
      B, c64(0), Mc, c64(MR), "gemm.packa", [&](IRBuilderBase &, Value *Ir) {
        Value *Rows = smin(c64(MR), B.CreateSub(Mc, Ir));
        Value *Panel = packPtr(ApBase, B.CreateMul(Ir, Kcp));
        emitZeroPanelIf(B, isPartialPanel(B, Rows, c64(MR), Kc, Kcp), Panel,
                        c64(MR), Kcp, Kern.PackT);
        Value *Row0 = B.CreateAdd(Ic, Ir);
        auto Copy = [&] {
          copyIntoPanel(G.A, Row0, Pc, Rows, Kc, /*KIsRow=*/false, Panel, MR,
                        Kern.BiasA);
        };
        auto Pack = [&] {
          if (canTransposeA())
            emitIf(
                B, B.CreateICmpEQ(Rows, c64(MR)),
                [&] { transposeIntoPanel(Row0, Pc, Kc, Panel); }, Copy);
          else if (canWidenA())
            emitIf(
                B, B.CreateICmpEQ(Rows, c64(MR)),
                [&] { widenIntoPanel(Row0, Pc, Kc, Panel); }, Copy);
          else
            Copy();
        };
        // A read in place: only the partial last micro-panel is packed.
        if (Kern.DirectA)
          emitIf(
              B,
              B.CreateOr(B.CreateICmpSLT(Rows, c64(MR)), B.CreateNot(InPlaceA)),
              Pack);
        else
          Pack();
      });
}

// Row-major A on the PMADDWD kernel: full micro-panels are packed 16 k
// values (8 k pairs; 8 for MR > 8) at a time with vector loads and one
// shuffle.
bool VectorGemmEmitter::canWidenA() const {
  return Kern.Dot == DotKind::PMADDWD && isConstOne(G.A.ColStride) &&
         Kern.MR <= 16;
}

// Panel[k/2][r][k%2] = widen(A[Row0 + r][Col0 + k]) for r < MR, k < Kc:
//   for k0 < Kc - Kc % KV step KV:                     (KV = 16, 8 if MR > 8)
//     pairs[r] = bitcast <KV/2 x i32> (ext <KV x i16> (load <KV x iN>
//                A[Row0 + r][Col0 + k0 ...]))        (one i32 per k pair)
//     store shuffle(pairs)[q * MR + r] = pairs[r][q] -> Panel[k0 * MR]
//   the last Kc % KV k values element by element.
// The concatenated rows stay within 256 bytes (tlx-check-wide-vectors
// rejects wider vectors in TLX code).
// (1024^3 s8: the element copy, three instructions per element, was a few
// per cent of the GEMM.)
void VectorGemmEmitter::widenIntoPanel(Value *Row0, Value *Col0, Value *Kc,
                                       Value *Panel) {
  unsigned MR = Kern.MR, Slots = PowerOf2Ceil(MR);
  unsigned Pairs = std::min(8u, 64 / Slots), KV = 2 * Pairs;
  auto *SrcT = FixedVectorType::get(G.A.Elem, KV);
  auto *WideT = FixedVectorType::get(Kern.PackT, KV);
  auto *PairT = FixedVectorType::get(B.getInt32Ty(), Pairs);
  SmallVector<int, 128> Mask;
  for (unsigned Q = 0; Q < Pairs; ++Q)
    for (unsigned R = 0; R < MR; ++R)
      Mask.push_back(R * Pairs + Q);
  Value *KVec = B.CreateAnd(Kc, c64(-int64_t(KV)));
  emitLoop(B, c64(0), KVec, c64(KV), "gemm.packa.w",
           [&](IRBuilderBase &, Value *K0) {
             SmallVector<Value *, 16> V;
             for (unsigned R = 0; R < Slots; ++R) {
               if (R >= MR) {
                 V.push_back(PoisonValue::get(PairT));
                 continue;
               }
               Value *Row = B.CreateAlignedLoad(
                   SrcT,
                   elementPtr(B, G.A, B.CreateAdd(Row0, c64(R)),
                              B.CreateAdd(Col0, K0)),
                   elementAlign(G.A.Elem));
               if (G.A.Elem != Kern.PackT)
                 Row = B.CreateIntCast(Row, WideT, G.A.IsSigned);
               V.push_back(B.CreateBitCast(Row, PairT));
             }
             // Concatenate, then pick the pairs in panel order.
             B.CreateAlignedStore(
                 B.CreateShuffleVector(concatenateVectors(B, V), Mask),
                                  packPtr(Panel, B.CreateMul(K0, c64(MR))),
                                  Align(4));
           });
  copyIntoPanel(G.A, Row0, B.CreateAdd(Col0, KVec), c64(MR),
                B.CreateSub(Kc, KVec), /*KIsRow=*/false,
                packPtr(Panel, B.CreateMul(KVec, c64(MR))), MR,
                /*FlipSign=*/false);
}

// Row-major A on the AVX-512 FMA kernel, no conversion: full micro-panels
// are packed W k values at a time by a vector transpose (MR <= W rows).
bool VectorGemmEmitter::canTransposeA() const {
  return Kern.Dot == DotKind::FMA && Kern.RegBytes == 64 &&
         G.A.Elem == Kern.PackT && isConstOne(G.A.ColStride) &&
         Kern.MR <= Kern.W && isPowerOf2_32(Kern.W);
}

// Panel[k * MR + r] = A[Row0 + r][Col0 + k] for r < MR, k < Kc:
//   for k0 < Kc - Kc % W step W:
//     rows[r] = load <W x T> A[Row0 + r][Col0 + k0 ...]   (rows >= MR: poison)
//     log2(W) perfect-shuffle stages (out[2i] = interleave-low(in[i],
//     in[i + W/2]), out[2i+1] = interleave-high) transpose the W x W block
//     masked store of the first MR lanes of column k -> Panel[(k0 + k) * MR]
//   the last Kc % W k values element by element.
// Each stage is W two-source shuffles (vpermt2ps); 16 x 14 f32 take 64
// shuffles and 16 stores instead of 224 scalar loads and stores (1024^3
// f32 spent ~6% of its time in the element-by-element A copy).
void VectorGemmEmitter::transposeIntoPanel(Value *Row0, Value *Col0, Value *Kc,
                                           Value *Panel) {
  unsigned W = Kern.W, MR = Kern.MR;
  Type *T = Kern.PackT;
  auto *VecT = FixedVectorType::get(T, W);
  Value *KVec = B.CreateAnd(Kc, c64(-int64_t(W)));
  SmallVector<int, 64> Lo, Hi;
  for (unsigned I = 0; I < W / 2; ++I) {
    Lo.append({int(I), int(W + I)});
    Hi.append({int(W / 2 + I), int(W + W / 2 + I)});
  }
  SmallVector<Constant *, 64> MaskBits;
  for (unsigned L = 0; L < W; ++L)
    MaskBits.push_back(B.getInt1(L < MR));
  Constant *StoreMask = ConstantVector::get(MaskBits);
  Align ElemAlign(packBytes());
  emitLoop(
      B, c64(0), KVec, c64(W), "gemm.packa.t", [&](IRBuilderBase &, Value *K0) {
        SmallVector<Value *, 32> V;
        for (unsigned R = 0; R < W; ++R)
          V.push_back(R < MR ? (Value *)B.CreateAlignedLoad(
                                   VecT,
                                   elementPtr(B, G.A, B.CreateAdd(Row0, c64(R)),
                                              B.CreateAdd(Col0, K0)),
                                   ElemAlign)
                             : PoisonValue::get(VecT));
        for (unsigned Stage = 1; Stage < W; Stage *= 2) {
          SmallVector<Value *, 32> Next(W);
          for (unsigned I = 0; I < W / 2; ++I) {
            Next[2 * I] = B.CreateShuffleVector(V[I], V[I + W / 2], Lo);
            Next[2 * I + 1] = B.CreateShuffleVector(V[I], V[I + W / 2], Hi);
          }
          V = Next;
        }
        for (unsigned K = 0; K < W; ++K)
          B.CreateMaskedStore(
              V[K],
              packPtr(Panel, B.CreateMul(B.CreateAdd(K0, c64(K)), c64(MR))),
              ElemAlign, StoreMask);
      });
  copyIntoPanel(G.A, Row0, B.CreateAdd(Col0, KVec), c64(MR),
                B.CreateSub(Kc, KVec), /*KIsRow=*/false,
                packPtr(Panel, B.CreateMul(KVec, c64(MR))), MR,
                /*FlipSign=*/false);
}

Value *VectorGemmEmitter::loadABroadcast(Value *Ptr) {
  // One k group of one row: KG packed elements read as one lane.
  Type *LaneT =
      Kern.KG == 1
          ? Kern.PackT
          : B.getIntNTy(Kern.KG * Kern.PackT->getPrimitiveSizeInBits());
  Value *Lane = B.CreateAlignedLoad(LaneT, Ptr,
                                    elementAlign(LaneT));
  return B.CreateVectorSplat(Kern.W, Lane);
}

Value *VectorGemmEmitter::loadBVector(Value *Ptr, bool InPlace) {
  auto *VecT = FixedVectorType::get(Kern.PackT, Kern.W * Kern.KG);
  return B.CreateAlignedLoad(VecT, Ptr,
                             InPlace ? Align(packBytes())
                                     : Align(std::min(64u, Kern.RegBytes)));
}

Value *VectorGemmEmitter::emitDotStep(Value *Acc, Value *ABroadcast,
                                      Value *BVec) {
  if (Kern.Dot == DotKind::FMA)
    return multiplyAdd(B, Acc, ABroadcast, BVec);
  Module *M = B.GetInsertBlock()->getModule();
  if (Kern.Dot == DotKind::PMADDWD && Kern.FusedPMADDWD) {
    //   acc = vpdpwssd(acc, <2W x i16> A pair, <2W x i16> B)
    Function *Fn = Intrinsic::getOrInsertDeclaration(
        M, Kern.W == 16 ? Intrinsic::x86_avx512_vpdpwssd_512
                        : Intrinsic::x86_avx512_vpdpwssd_256);
    FunctionType *FT = Fn->getFunctionType();
    return B.CreateCall(Fn, {B.CreateBitCast(Acc, FT->getParamType(0)),
                             B.CreateBitCast(ABroadcast, FT->getParamType(1)),
                             B.CreateBitCast(BVec, FT->getParamType(2))});
  }
  if (Kern.Dot == DotKind::PMADDWD) {
    //   acc += pmaddwd(<2W x i16> A pair, <2W x i16> B): lane l gets
    //   a0 * b[2l] + a1 * b[2l+1].
    Intrinsic::ID ID = Kern.W == 16  ? Intrinsic::x86_avx512_pmaddw_d_512
                       : Kern.W == 8 ? Intrinsic::x86_avx2_pmadd_wd
                                     : Intrinsic::x86_sse2_pmadd_wd;
    Function *Fn = Intrinsic::getOrInsertDeclaration(M, ID);
    FunctionType *FT = Fn->getFunctionType();
    Value *Dot =
        B.CreateCall(Fn, {B.CreateBitCast(ABroadcast, FT->getParamType(0)),
                          B.CreateBitCast(BVec, FT->getParamType(1))});
    return B.CreateAdd(Acc, Dot);
  }
  if (Kern.Dot == DotKind::NeonDot) {
    //   acc = sdot(acc, <16 x i8> A group x 4, <16 x i8> B): lane l gets
    //   the sum of 4 products (bfdot: <8 x bf16>, 2 products).
    auto *AccT = cast<FixedVectorType>(Acc->getType());
    auto *OpT = FixedVectorType::get(Kern.PackT, AccT->getNumElements() *
                                                     Kern.KG);
    Function *Fn =
        Intrinsic::getOrInsertDeclaration(M, Kern.NeonDotID, {AccT, OpT});
    Value *X = B.CreateBitCast(ABroadcast, OpT);
    Value *Y = B.CreateBitCast(BVec, OpT);
    if (Kern.SwapDotOperands)
      std::swap(X, Y);
    return B.CreateCall(Fn, {Acc, X, Y});
  }
  Intrinsic::ID ID = Kern.Dot == DotKind::VNNI
                         ? (Kern.W == 16 ? Intrinsic::x86_avx512_vpdpbusd_512
                                         : Intrinsic::x86_avx512_vpdpbusd_256)
                         : Intrinsic::x86_avx512bf16_dpbf16ps_512;
  Function *Fn = Intrinsic::getOrInsertDeclaration(M, ID);
  FunctionType *FT = Fn->getFunctionType();
  return B.CreateCall(Fn, {B.CreateBitCast(Acc, FT->getParamType(0)),
                           B.CreateBitCast(ABroadcast, FT->getParamType(1)),
                           B.CreateBitCast(BVec, FT->getParamType(2))});
}

void VectorGemmEmitter::emitMicrokernel(Value *Ic, Value *Ir, Value *Jc,
                                        Value *Jr, Value *Pc, Value *Mc,
                                        Value *Nc, Value *Kcp, Value *AddC,
                                        Value *LastK, Value *FirstK) {
  unsigned MR = Kern.MR, NV = Kern.NV, W = Kern.W, KG = Kern.KG;
  unsigned NR = Kern.nr();
  Value *APanel = packPtr(ApBase, B.CreateMul(Ir, Kcp));
  Value *BPanel = packPtr(BpBase, B.CreateMul(Jr, Kcp));
  // Elements from one k group of the A micro-panel to the next, and from
  // one row to the next.
  Value *AStride = c64(MR * KG), *ARowStride = c64(KG);
  if (Kern.DirectA) {
    // Full-height micro-panels straight from A, the partial last one from
    // its packed copy.
    Value *Full =
        B.CreateAnd(B.CreateICmpSGE(B.CreateSub(Mc, Ir), c64(MR)), InPlaceA);
    APanel = B.CreateSelect(Full, elementPtr(B, G.A, B.CreateAdd(Ic, Ir), Pc),
                            APanel);
    AStride = B.CreateSelect(Full, c64(1), AStride);
    ARowStride = B.CreateSelect(Full, G.A.RowStride, ARowStride);
  }
  // Elements from one k group of the B micro-panel to the next.
  Value *BStride = c64(NR * KG);
  if (Kern.DirectB) {
    // Full-width micro-panels straight from B (row stride of B), the
    // partial last one from its packed copy.
    Value *Full =
        B.CreateAnd(B.CreateICmpSGE(B.CreateSub(Nc, Jr), c64(NR)), InPlaceB);
    BPanel = B.CreateSelect(Full, elementPtr(B, G.B, Pc, B.CreateAdd(Jc, Jr)),
                            BPanel);
    BStride = B.CreateSelect(Full, G.B.RowStride, BStride);
  }

  // Accumulators start at zero, or at -128 * column sums for biased A.
  SmallVector<Value *, 32> Init;
  for (unsigned V = 0; V < NV; ++V) {
    Value *Start = Constant::getNullValue(Kern.accVec());
    if (Kern.BiasA) {
      Value *Sums = B.CreateAlignedLoad(
          Kern.accVec(),
          B.CreateGEP(Kern.AccT, ColSums, B.CreateAdd(Jr, c64(V * W))),
          Align(4));
      Start = B.CreateNeg(Sums);
    }
    for (unsigned R = 0; R < MR; ++R)
      Init.push_back(Start);
  }
  // Start the C block on its way while the k loop runs: it is read once
  // at the end, typically from L3 or memory (2048^3 f32: +5-20%). One
  // line per k group, row by row (a burst of all MR x 2 lines before the
  // loop waited for fill buffers when C is in memory).
  Value *CRow0 = B.CreateAdd(Ic, Ir), *CCol0 = B.CreateAdd(Jc, Jr);
  Value *CLastRow = B.CreateSub(smin(c64(MR), B.CreateSub(Mc, Ir)), c64(1));
  unsigned LinesPerRow =
      std::max(1u, unsigned(NR * Kern.AccT->getPrimitiveSizeInBits() / 8 / 64));
  auto PrefetchC = [&](Value *Kq) {
    emitIf(B, B.CreateICmpULT(Kq, c64(MR)), [&] {
      Value *Row = B.CreateAdd(CRow0, smin(Kq, CLastRow));
      Value *P = elementPtr(B, G.C, Row, CCol0);
      // The last K block of a GEMM with Out writes Out (and reads C only
      // after earlier blocks).
      if (G.Out.Ptr)
        P = B.CreateSelect(LastK, elementPtr(B, G.Out, Row, CCol0), P);
      for (unsigned L = 0; L < LinesPerRow; ++L)
        B.CreateIntrinsic(Intrinsic::prefetch, {B.getPtrTy()},
                          {B.CreateConstGEP1_64(B.getInt8Ty(), P, L * 64),
                           B.getInt32(1), B.getInt32(3), B.getInt32(1)});
    });
  };
  // Acc[V * MR + R] holds row R, columns [V*W, V*W + W) of the block.
  // KUnroll k groups per iteration (Kcp is a multiple of KG * KUnroll).
  unsigned KU = Kern.KUnroll;
  SmallVector<Value *, 32> Acc;
  if (Kern.Dot == DotKind::Matrix)
    Acc = emitMMAKLoop(B, Kern.Matrix, Kern.accVec(), APanel, BPanel, BStride,
                       Kcp);
  else
    Acc = emitLoop(
        B, c64(0), B.CreateUDiv(Kcp, c64(KG)), c64(KU), "gemm.k", Init,
        [&](IRBuilderBase &, Value *Kq, ArrayRef<Value *> Cur) {
          SmallVector<Value *, 8> Next(Cur.begin(), Cur.end());
          for (unsigned U = 0; U < KU; ++U) {
            Value *KqU = U ? B.CreateAdd(Kq, c64(U)) : Kq;
            Value *BRow = B.CreateMul(KqU, BStride);
            Value *ARow = B.CreateMul(KqU, AStride);
            SmallVector<Value *, 4> BVecs;
            for (unsigned V = 0; V < NV; ++V)
              BVecs.push_back(loadBVector(
                  packPtr(BPanel, B.CreateAdd(BRow, c64(V * W * KG))),
                  Kern.DirectB));
            if (U == 0) {
              // One C row per iteration in the first MR iterations.
              PrefetchC(KU == 1 ? Kq : B.CreateUDiv(Kq, c64(KU)));
              // The A micro-panel streams from L2: fetch 8 k groups ahead.
              B.CreateIntrinsic(
                  Intrinsic::prefetch, {B.getPtrTy()},
                  {packPtr(APanel,
                           B.CreateAdd(ARow, B.CreateMul(AStride, c64(8)))),
                   B.getInt32(0), B.getInt32(3), B.getInt32(1)});
            }
            for (unsigned R = 0; R < MR; ++R) {
              Value *ABcast = loadABroadcast(packPtr(
                  APanel, B.CreateAdd(ARow, B.CreateMul(c64(R), ARowStride))));
              for (unsigned V = 0; V < NV; ++V)
                Next[V * MR + R] =
                    emitDotStep(Next[V * MR + R], ABcast, BVecs[V]);
            }
          }
          return Next;
        });
  Value *Rows = smin(c64(MR), B.CreateSub(Mc, Ir));
  Value *Cols = smin(c64(NR), B.CreateSub(Nc, Jr));
  Value *Row0 = B.CreateAdd(Ic, Ir), *Col0 = B.CreateAdd(Jc, Jr);
  // Partial sums: C is read only after the first K block. A branch (the
  // same way for a whole K block) rather than a select keeps the first
  // block from loading C - a pass over C in memory when K fits one block
  // but is known only at run time.
  auto StorePartial = [&] {
    if (isa<Constant>(AddC))
      return storeBlock(Acc, Row0, Col0, Rows, Cols, AddC, false, FirstK);
    emitIf(
        B, AddC,
        [&] {
          storeBlock(Acc, Row0, Col0, Rows, Cols, B.getTrue(), false, FirstK);
        },
        [&] {
          storeBlock(Acc, Row0, Col0, Rows, Cols, B.getFalse(), false,
                     FirstK);
        });
  };
  if (!G.Epilogue)
    return StorePartial();
  // LastK is the same for a whole K block: the branch predicts perfectly.
  auto StoreFinished = [&] {
    if (!G.Out.Ptr || G.Accumulate) {
      storeBlock(Acc, Row0, Col0, Rows, Cols, AddC, true, FirstK);
      return;
    }
    // C is a separate buffer of partial sums: a single K block never
    // reads it.
    emitIf(
        B, AddC,
        [&] {
          storeBlock(Acc, Row0, Col0, Rows, Cols, B.getTrue(), true, FirstK);
        },
        [&] {
          storeBlock(Acc, Row0, Col0, Rows, Cols, B.getFalse(), true, FirstK);
        });
  };
  emitIf(B, LastK, StoreFinished, StorePartial);
}

/// The value C gets at (Row, Col..): the sum so far (\p Old, null when
/// nothing was summed yet) plus this block's, and on the last K block the
/// epilogue of it.
Value *VectorGemmEmitter::finish(Value *AddC, Value *Old, Value *Acc,
                                 Value *Row, Value *Col, bool ApplyEpilogue) {
  Value *Sum = Old ? addOrKeep(B, AddC, Old, Acc) : Acc;
  return ApplyEpilogue ? G.Epilogue(B, Sum, Row, Col) : Sum;
}

void VectorGemmEmitter::storeBlock(ArrayRef<Value *> Acc, Value *Row0,
                                   Value *Col0, Value *Rows, Value *Cols,
                                   Value *AddC, bool ApplyEpilogue,
                                   Value *FirstK) {
  unsigned MR = Kern.MR, NV = Kern.NV, W = Kern.W, NR = Kern.nr();
  // Partial sums are C's; finished values go to Out when there is one.
  const GemmOperand &Dst = ApplyEpilogue ? G.result() : G.C;
  auto *ConstAddC = dyn_cast<ConstantInt>(AddC);
  bool ReadsC = !ConstAddC || ConstAddC->isOne();
  bool RowsContiguous =
      (!ReadsC || (isConstOne(G.C.ColStride) &&
                   (!G.Init.Ptr || isConstOne(G.Init.ColStride)))) &&
      isConstOne(Dst.ColStride);
  // The sums so far: C's, or on the first K block Init's.
  auto SumsPtr = [&](Value *Row, Value *Col) {
    Value *P = elementPtr(B, G.C, Row, Col);
    return G.Init.Ptr
               ? B.CreateSelect(FirstK, elementPtr(B, G.Init, Row, Col), P)
               : P;
  };

  // Edge blocks (and C without contiguous rows): through the stack buffer.
  auto StoreThroughBuffer = [&] {
    for (unsigned V = 0; V < NV; ++V)
      for (unsigned R = 0; R < MR; ++R)
        B.CreateAlignedStore(
            Acc[V * MR + R],
            B.CreateConstGEP1_64(Kern.AccT, EdgeBuf, R * NR + V * W),
            Align(64));
    // RowInit: the first K block of initial sums repeated along C's rows
    // (Init's column stride 0, e.g. a broadcast zero or bias): one element
    // per row, so the column loop vectorizes without gathers whatever the
    // target's tuning (a u8s8s32 GEMM's shared kernel stores every tile
    // here: 1024x1024x64 without -march 168 -> 610 GOP/s on Zen 5, the
    // -march=native build's speed; 256^3 348 -> 568).
    auto Loops = [&](bool RowInit) {
      emitLoop(
          B, c64(0), Rows, c64(1), "gemm.edge.r",
          [&](IRBuilderBase &, Value *R) {
            Value *Row = B.CreateAdd(Row0, R);
            Value *InitOfRow =
                RowInit
                    ? B.CreateLoad(Kern.AccT, elementPtr(B, G.Init, Row, Col0))
                    : nullptr;
            emitLoop(
                B, c64(0), Cols, c64(1), "gemm.edge.c",
                [&](IRBuilderBase &, Value *C) {
                  Value *Part = B.CreateLoad(
                      Kern.AccT,
                      B.CreateGEP(Kern.AccT, EdgeBuf,
                                  B.CreateAdd(B.CreateMul(R, c64(NR)), C)));
                  Value *Col = B.CreateAdd(Col0, C);
                  Value *Old = InitOfRow ? InitOfRow
                               : ReadsC
                                   ? B.CreateLoad(Kern.AccT, SumsPtr(Row, Col))
                                   : nullptr;
                  B.CreateStore(
                      finish(AddC, Old, Part, Row, Col, ApplyEpilogue),
                      elementPtr(B, Dst, Row, Col));
                });
          });
    };
    if (!ReadsC || !G.Init.Ptr || G.Init.Elem != Kern.AccT ||
        isConstOne(G.Init.ColStride))
      return Loops(false);
    emitIf(
        B, B.CreateAnd(FirstK, B.CreateICmpEQ(G.Init.ColStride, c64(0))),
        [&] { Loops(true); }, [&] { Loops(false); });
  };
  if (!RowsContiguous) {
    StoreThroughBuffer();
    return;
  }
  Value *Full =
      B.CreateAnd(B.CreateICmpEQ(Rows, c64(MR)), B.CreateICmpEQ(Cols, c64(NR)));
  emitIf(
      B, Full,
      [&] {
        for (unsigned R = 0; R < MR; ++R) {
          Value *Row = B.CreateAdd(Row0, c64(R));
          Value *OldRow = SumsPtr(Row, Col0);
          Value *DstRow = elementPtr(B, Dst, Row, Col0);
          for (unsigned V = 0; V < NV; ++V) {
            Value *Old =
                ReadsC ? B.CreateAlignedLoad(
                             Kern.accVec(),
                             B.CreateConstGEP1_64(Kern.AccT, OldRow, V * W),
                             elementAlign(Kern.AccT))
                       : nullptr;
            Value *Col = B.CreateAdd(Col0, c64(V * W));
            B.CreateAlignedStore(
                finish(AddC, Old, Acc[V * MR + R], Row, Col, ApplyEpilogue),
                B.CreateConstGEP1_64(Dst.Elem, DstRow, V * W),
                elementAlign(Dst.Elem));
          }
        }
      },
      StoreThroughBuffer);
}

} // namespace

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

/// " (A in place)", " (B in place if its strides allow)", ...: which
/// operands the kernel reads without packing, in remarks.
static std::string inPlaceNote(const GemmDesc &G, const VectorKernel &Kern) {
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

bool emitVectorGemm(IRBuilderBase &B, const GemmDesc &G,
                    const TargetTransformInfo &TTI, GemmPlan &Plan,
                    std::string &Why) {
  Function *F = B.GetInsertBlock()->getParent();
  if (const ScalableTarget *Scalable = scalableTargetFor(*F, TTI))
    if (emitScalableGemm(B, G, TTI, *Scalable, Plan, Why))
      return true;
  VectorKernel Kern;
  if (!chooseKernel(G, TTI, *F, Kern, Why))
    return false;
  chooseCacheBlocks(Kern, TTI, G);
  auto EmitShare = [&](IRBuilderBase &B, const GemmDesc &Share) {
    requireVectorWidth(*B.GetInsertBlock()->getParent(), Kern.RegBytes * 8);
    VectorGemmEmitter(B, Share, Kern).emit();
  };
  emitThreadedGemm(B, G, Kern.MR, Kern.nr(), Plan, EmitShare);
  Plan.Kernel = kernelName(Kern) + inPlaceNote(G, Kern);
  Plan.MC = Kern.MC;
  Plan.NC = Kern.NC;
  Plan.KC = Kern.KC;
  Plan.MR = Kern.MR;
  Plan.NR = Kern.nr();
  Plan.PackedA = !Kern.DirectA;
  Plan.PackedB = !Kern.DirectB;
  return true;
}

} // namespace gemm
} // namespace tlx
