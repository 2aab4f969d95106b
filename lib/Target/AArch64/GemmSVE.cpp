//===- GemmSVE.cpp - GEMM on SVE's scalable vectors -----------------------===//
//
// The GemmTarget::Vector kernels of the GEMM emitter for an AArch64
// function whose target has SVE (TargetTransformInfo reports scalable
// vector registers): vector-length agnostic code, one binary for every SVE
// implementation from 128 to 2048 bits.
//
// Algorithm (the BLIS loops of GemmVector.cpp, with the register block's
// width counted in vectors instead of lanes):
//  1. Kernel from C's element type, A's and B's, and the features:
//       fma    f32/f64 (FMLA) and i32/i64 (MLA) on <vscale x L x T>,
//              L = 128 / bits(T); narrower operands converted while packed
//       sdot   s8 x s8 -> i32, udot u8 x u8 -> i32 (SVE's own dot
//              products), usdot u8 x s8 / s8 x u8 -> i32 (+i8mm): 4 k per
//              32-bit lane
//       bfdot  bf16 x bf16 -> f32 (+bf16): 2 k per lane
//     A lane consumes a "k group" of KG elements per instruction (1 for fma).
//  2. The register block is MR rows x NV vectors: NR = NV x VL columns,
//     VL = vscale x L, read once at run time (llvm.vscale). Cache blocks
//     are static: KC from L1 for a 256-bit VL, MC from L2; NC a multiple
//     of the widest NR (2048-bit vectors), so every power-of-two vector
//     length tiles it exactly. The packed B buffer has one widest NR to
//     spare, so any other length stays inside it.
//       for jc < N step NC, pc < K step KC:
//         pack B[pc:+kc, jc:+nc] into NR-wide micro-panels [kc/KG][NR][KG]
//         (zero-padded: whole NR, whole KG)
//         for ic < M step MC:
//           pack A[ic:+mc, pc:+kc] into MR-tall micro-panels [kc/KG][MR][KG]
//           for jr < nc step NR, ir < mc step MR: microkernel
//  3. The microkernel keeps MR x NV accumulators across the k loop: per k
//     group, NV vectors of B and one broadcast (ld1rw) k group per row of
//     A. Then it adds the block to C under predicates: columns by
//     whilelo (llvm.get.active.lane.mask), rows past the edge by an empty
//     predicate, so tails need no copy. C without contiguous rows goes
//     through a stack buffer sized for the widest vectors.
//  4. An epilogue (GemmDesc::Epilogue) is written for fixed-width vectors:
//     the last K block stores the sums, and a pass over the block, still
//     in L1, applies it 4 columns at a time (emitEpiloguePass).
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Gemm/GemmEmitterImpl.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAArch64.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

/// SVE's architectural maximum vector length.
constexpr unsigned MaxVectorBits = 2048;

/// Everything the SVE kernel's code depends on.
struct SVEKernel {
  Intrinsic::ID Dot = Intrinsic::not_intrinsic; ///< none: fma / mla
  /// USDOT takes the unsigned operand first: B, for s8 x u8.
  bool SwapDotOperands = false;
  Type *PackT = nullptr; ///< packed A and B elements
  Type *AccT = nullptr;  ///< accumulators (C's type)
  unsigned KG = 1;
  unsigned MR = 12, NV = 2;
  int64_t MC = 0, KC = 0, NC = 0;
  std::string Name;

  /// C lanes per 128 bits of vector (vscale units).
  unsigned lanes() const { return 128 / AccT->getPrimitiveSizeInBits(); }
  /// Columns of the widest register block, and of one at 128 bits.
  int64_t maxNR() const { return NV * MaxVectorBits / 128 * lanes(); }
  int64_t minNR() const { return NV * lanes(); }
  int64_t packBytes() const { return PackT->getPrimitiveSizeInBits() / 8; }
  ScalableVectorType *accVec() const {
    return ScalableVectorType::get(AccT, lanes());
  }
  ScalableVectorType *opVec() const {
    return ScalableVectorType::get(PackT, lanes() * KG);
  }
};

/// "s8", "u8": an integer operand's type as the remarks name it.
std::string intName(Type *T, bool IsSigned) {
  return (IsSigned ? "s" : "u") + std::to_string(T->getIntegerBitWidth());
}

/// The dot-product kernels: int8 -> i32 and bf16 -> f32 when the function's
/// features have them. Leaves \p Kern's fma kernel otherwise.
void chooseDot(const GemmDesc &G, const Function &F, SVEKernel &Kern) {
  Type *AT = G.A.Elem, *BT = G.B.Elem, *CT = G.C.Elem;
  if (CT->isIntegerTy(32) && AT->isIntegerTy(8) && BT->isIntegerTy(8)) {
    bool SA = G.A.IsSigned, SB = G.B.IsSigned;
    std::string Types = intName(AT, SA) + intName(BT, SB) + "s32";
    if (SA == SB) {
      Kern.Dot = SA ? Intrinsic::aarch64_sve_sdot : Intrinsic::aarch64_sve_udot;
      Kern.Name = Types + (SA ? " sdot" : " udot");
    } else if (hasTargetFeature(F, "i8mm")) {
      Kern.Dot = Intrinsic::aarch64_sve_usdot;
      Kern.SwapDotOperands = SA;
      Kern.Name = Types + " usdot";
    } else {
      return;
    }
    Kern.PackT = AT;
    Kern.KG = 4;
  } else if (CT->isFloatTy() && AT->isBFloatTy() && BT->isBFloatTy() &&
             hasTargetFeature(F, "bf16")) {
    Kern.Dot = Intrinsic::aarch64_sve_bfdot;
    Kern.PackT = AT;
    Kern.KG = 2;
    Kern.Name = "bf16 bfdot";
  }
}

bool chooseKernel(const GemmDesc &G, const Function &F,
                  const TargetTransformInfo &TTI, SVEKernel &Kern,
                  std::string &Why) {
  Type *CT = G.C.Elem;
  if (!CT->isFloatTy() && !CT->isDoubleTy() && !CT->isIntegerTy(32) &&
      !CT->isIntegerTy(64)) {
    Why = "no SVE kernel accumulates in this element type";
    return false;
  }
  Kern.AccT = Kern.PackT = CT;
  Kern.Name = CT->isFloatTy() ? "fma f32"
              : CT->isDoubleTy()
                  ? "fma f64"
                  : "mla i" + std::to_string(CT->getIntegerBitWidth());
  chooseDot(G, F, Kern);
  // 32 Z registers: MR x NV accumulators, NV vectors of B and the
  // broadcasts of A.
  unsigned NumRegs =
      TTI.getNumberOfRegisters(TTI.getRegisterClassForType(/*Vector=*/true));
  Kern.NV = 2;
  Kern.MR = std::max(1u, std::min(12u, (NumRegs - 2 * Kern.NV) / Kern.NV));
  return true;
}

/// Cache blocks: the B micro-panel (KC x NR at a 256-bit VL) in 2/3 of L1,
/// the A block (MC x KC) in half of L2, the B panel in a few MiB.
void chooseCacheBlocks(const GemmDesc &G, const TargetTransformInfo &TTI,
                       SVEKernel &Kern) {
  uint64_t L1 = TTI.getCacheSize(TargetTransformInfo::CacheLevel::L1D)
                    .value_or(64 * 1024);
  uint64_t L2 = TTI.getCacheSize(TargetTransformInfo::CacheLevel::L2D)
                    .value_or(1024 * 1024);
  int64_t ES = Kern.packBytes(), Unit = Kern.KG * 16;
  int64_t KC = int64_t(L1 * 2 / 3) / (2 * Kern.minNR() * ES);
  KC = std::max(Unit, KC / Unit * Unit);
  // All of M in one A block: rows spread evenly over the fewest panels.
  int64_t MC = std::max<int64_t>(Kern.MR, int64_t(L2 / 2) / (KC * ES));
  if (G.M <= MC) {
    int64_t Panels = (G.M + Kern.MR - 1) / Kern.MR;
    Kern.MR = unsigned((G.M + Panels - 1) / Panels);
  }
  MC = MC / Kern.MR * Kern.MR;
  int64_t NC = (4 << 20) / (KC * ES) / Kern.maxNR() * Kern.maxNR();
  Kern.KC = std::min(KC, roundUp(G.K, Kern.KG));
  Kern.MC = std::min(MC, roundUp(G.M, Kern.MR));
  Kern.NC = std::min(std::max(NC, Kern.maxNR()), roundUp(G.N, Kern.maxNR()));
}

/// Emits one GEMM (or one thread's share of it) with the chosen kernel.
class SVEGemmEmitter {
public:
  SVEGemmEmitter(IRBuilderBase &B, const GemmDesc &G, const SVEKernel &Kern)
      : B(B), G(G), Kern(Kern), I64(B.getInt64Ty()) {}

  void emit();

private:
  Value *c64(int64_t V) { return B.getInt64(V); }
  Value *smin(Value *X, Value *Y) {
    return B.CreateBinaryIntrinsic(Intrinsic::smin, X, Y);
  }
  Value *packPtr(Value *Base, Value *Elems) {
    return B.CreateGEP(Kern.PackT, Base, Elems);
  }
  /// The predicate of an accumulator vector's lanes I with Begin + I < End.
  Value *laneMask(Value *Begin, Value *End) {
    return B.CreateIntrinsic(
        Intrinsic::get_active_lane_mask,
        {ScalableVectorType::get(B.getInt1Ty(), Kern.lanes()), I64},
        {Begin, End});
  }

  void packB(Value *Jc, Value *Pc, Value *Nc, Value *Kc, Value *Kcp);
  void packBRows(Value *Col0, Value *Pc, Value *Cols, Value *Kc, Value *Panel);
  void packA(Value *Ic, Value *Pc, Value *Mc, Value *Kc, Value *Kcp);
  void emitMicrokernel(Value *Ic, Value *Ir, Value *Jc, Value *Jr, Value *Mc,
                       Value *Nc, Value *Kcp, Value *AddC, Value *LastK,
                       Value *FirstK);
  Value *emitStep(Value *Acc, Value *A, Value *Bv);
  void storeBlock(ArrayRef<Value *> Acc, Value *Row0, Value *Col0, Value *Rows,
                  Value *Cols, Value *AddC, Value *FirstK);
  void storeThroughBuffer(ArrayRef<Value *> Acc, Value *Row0, Value *Col0,
                          Value *Rows, Value *Cols, Value *AddC, Value *FirstK);
  Value *sumsPtr(Value *Row, Value *Col, Value *FirstK);

  IRBuilderBase &B;
  const GemmDesc &G;
  const SVEKernel &Kern;
  Type *I64;
  Value *VL = nullptr; ///< C lanes per vector
  Value *NR = nullptr; ///< columns per micro-panel: NV x VL
  Value *ApBase = nullptr, *BpBase = nullptr;
  AllocaInst *EdgeBuf = nullptr;
};

void SVEGemmEmitter::emit() {
  Function *F = B.GetInsertBlock()->getParent();
  VL = B.CreateMul(B.CreateIntrinsic(Intrinsic::vscale, {I64}, {}),
                   c64(Kern.lanes()), "sve.vl");
  NR = B.CreateMul(VL, c64(Kern.NV), "sve.nr");
  int64_t ES = Kern.packBytes();
  ApBase = emitScratch(B, ScratchSlot::PackedA, Kern.MC * Kern.KC * ES);
  BpBase = emitScratch(B, ScratchSlot::PackedB,
                       (Kern.NC + Kern.maxNR()) * Kern.KC * ES);
  if (!isConstOne(G.C.ColStride) ||
      (G.Init.Ptr && !isConstOne(G.Init.ColStride))) {
    IRBuilderBase::InsertPointGuard Guard(B);
    B.SetInsertPoint(&F->getEntryBlock(), F->getEntryBlock().begin());
    EdgeBuf = B.CreateAlloca(ArrayType::get(Kern.AccT, Kern.MR * Kern.maxNR()),
                             nullptr, "sve.edge");
    EdgeBuf->setAlignment(Align(16));
  }
  Value *RowEnd = G.RowEnd ? G.RowEnd : G.extentM(B);
  Value *ColEnd = G.ColEnd ? G.ColEnd : G.extentN(B);
  Value *KEnd = G.extentK(B);
  emitLoop(
      B, G.ColBegin ? G.ColBegin : c64(0), ColEnd, c64(Kern.NC), "sve.jc",
      [&](IRBuilderBase &, Value *Jc) {
        Value *Nc = smin(c64(Kern.NC), B.CreateSub(ColEnd, Jc));
        emitLoop(
            B, c64(0), KEnd, c64(Kern.KC), "sve.pc",
            [&](IRBuilderBase &, Value *Pc) {
              Value *Kc = smin(c64(Kern.KC), B.CreateSub(KEnd, Pc));
              Value *Kcp = B.CreateAnd(B.CreateAdd(Kc, c64(Kern.KG - 1)),
                                       c64(-int64_t(Kern.KG)));
              packB(Jc, Pc, Nc, Kc, Kcp);
              Value *AddC = G.Accumulate
                                ? B.getTrue()
                                : B.CreateICmpNE(Pc, c64(0), "sve.addc");
              Value *LastK =
                  B.CreateICmpSGE(B.CreateAdd(Pc, Kc), KEnd, "sve.lastk");
              Value *FirstK = B.CreateICmpEQ(Pc, c64(0), "sve.firstk");
              emitLoop(
                  B, G.RowBegin ? G.RowBegin : c64(0), RowEnd, c64(Kern.MC),
                  "sve.ic", [&](IRBuilderBase &, Value *Ic) {
                    Value *Mc = smin(c64(Kern.MC), B.CreateSub(RowEnd, Ic));
                    packA(Ic, Pc, Mc, Kc, Kcp);
                    emitLoop(B, c64(0), Nc, NR, "sve.jr",
                             [&](IRBuilderBase &, Value *Jr) {
                               emitLoop(B, c64(0), Mc, c64(Kern.MR), "sve.ir",
                                        [&](IRBuilderBase &, Value *Ir) {
                                          emitMicrokernel(Ic, Ir, Jc, Jr, Mc,
                                                          Nc, Kcp, AddC, LastK,
                                                          FirstK);
                                        });
                             });
                  });
            });
      });
}

void SVEGemmEmitter::packB(Value *Jc, Value *Pc, Value *Nc, Value *Kc,
                           Value *Kcp) {
  emitLoop(B, c64(0), Nc, NR, "sve.packb", [&](IRBuilderBase &, Value *Jr) {
    Value *Cols = smin(NR, B.CreateSub(Nc, Jr));
    Value *Panel = packPtr(BpBase, B.CreateMul(Jr, Kcp));
    Value *Col0 = B.CreateAdd(Jc, Jr);
    if (Kern.KG == 1 && isConstOne(G.B.ColStride)) {
      packBRows(Col0, Pc, Cols, Kc, Panel);
      return;
    }
    // Zeros where B has no columns or k values: the microkernel always
    // runs full width.
    emitZeroPanelIf(B, isPartialPanel(B, Cols, NR, Kc, Kcp), Panel, NR, Kcp,
                    Kern.PackT);
    emitPanelCopy(B, {G.B, Pc, Col0, Cols, Kc, /*KIsRow=*/true}, Kern.PackT,
                  Kern.KG, Panel, NR, /*FlipSign=*/false);
  });
}

// B with contiguous rows, one k per lane: each k row of the micro-panel is
// NV predicated loads (zeros past the last column), converted to C's type.
void SVEGemmEmitter::packBRows(Value *Col0, Value *Pc, Value *Cols, Value *Kc,
                               Value *Panel) {
  auto *SrcT = ScalableVectorType::get(G.B.Elem, Kern.lanes());
  Constant *Zero = Constant::getNullValue(SrcT);
  emitLoop(
      B, c64(0), Kc, c64(1), "sve.packb.k", [&](IRBuilderBase &, Value *K) {
        for (unsigned V = 0; V < Kern.NV; ++V) {
          Value *First = B.CreateMul(VL, c64(V));
          Value *Src =
              elementPtr(B, G.B, B.CreateAdd(Pc, K), B.CreateAdd(Col0, First));
          Value *Row = B.CreateMaskedLoad(SrcT, Src, elementAlign(G.B.Elem),
                                          laneMask(First, Cols), Zero);
          Row = convertElement(B, Row, Kern.PackT, G.B.IsSigned);
          B.CreateAlignedStore(
              Row, packPtr(Panel, B.CreateAdd(B.CreateMul(K, NR), First)),
              elementAlign(Kern.PackT));
        }
      });
}

void SVEGemmEmitter::packA(Value *Ic, Value *Pc, Value *Mc, Value *Kc,
                           Value *Kcp) {
  unsigned MR = Kern.MR;
  emitLoop(B, c64(0), Mc, c64(MR), "sve.packa",
           [&](IRBuilderBase &, Value *Ir) {
             Value *Rows = smin(c64(MR), B.CreateSub(Mc, Ir));
             Value *Panel = packPtr(ApBase, B.CreateMul(Ir, Kcp));
             emitZeroPanelIf(B, isPartialPanel(B, Rows, c64(MR), Kc, Kcp),
                             Panel, c64(MR), Kcp, Kern.PackT);
             emitPanelCopy(
                 B, {G.A, B.CreateAdd(Ic, Ir), Pc, Rows, Kc, /*KIsRow=*/false},
                 Kern.PackT, Kern.KG, Panel, c64(MR), /*FlipSign=*/false);
           });
}

Value *SVEGemmEmitter::emitStep(Value *Acc, Value *A, Value *Bv) {
  if (Kern.Dot == Intrinsic::not_intrinsic)
    return multiplyAdd(B, Acc, A, Bv);
  //   acc = sdot(acc, <vscale x 16 x i8> A group x 4, <vscale x 16 x i8> B):
  //   lane l gets the sum of 4 products (bfdot: <vscale x 8 x bf16>, 2).
  Module *M = B.GetInsertBlock()->getModule();
  Function *Fn =
      Kern.Dot == Intrinsic::aarch64_sve_bfdot
          ? Intrinsic::getOrInsertDeclaration(M, Kern.Dot)
          : Intrinsic::getOrInsertDeclaration(M, Kern.Dot, {Kern.accVec()});
  Value *X = B.CreateBitCast(A, Kern.opVec()), *Y = Bv;
  if (Kern.SwapDotOperands)
    std::swap(X, Y);
  return B.CreateCall(Fn, {Acc, X, Y});
}

void SVEGemmEmitter::emitMicrokernel(Value *Ic, Value *Ir, Value *Jc, Value *Jr,
                                     Value *Mc, Value *Nc, Value *Kcp,
                                     Value *AddC, Value *LastK, Value *FirstK) {
  unsigned MR = Kern.MR, NV = Kern.NV, KG = Kern.KG;
  Value *APanel = packPtr(ApBase, B.CreateMul(Ir, Kcp));
  Value *BPanel = packPtr(BpBase, B.CreateMul(Jr, Kcp));
  Value *GroupElems = B.CreateMul(NR, c64(KG)); // one k group of B
  Value *VecElems = B.CreateMul(VL, c64(KG));   // one vector of B
  // One k group of one row of A, as one lane.
  Type *LaneT = KG == 1
                    ? Kern.PackT
                    : B.getIntNTy(KG * Kern.PackT->getPrimitiveSizeInBits());
  SmallVector<Value *, 32> Init(MR * NV, Constant::getNullValue(Kern.accVec()));
  // Acc[V * MR + R]: row R, columns [V x VL, (V + 1) x VL) of the block.
  auto Acc = emitLoop(
      B, c64(0), B.CreateUDiv(Kcp, c64(KG)), c64(1), "sve.k", Init,
      [&](IRBuilderBase &, Value *Kq, ArrayRef<Value *> Cur) {
        SmallVector<Value *, 8> Next(Cur.begin(), Cur.end());
        Value *BRow = B.CreateMul(Kq, GroupElems);
        SmallVector<Value *, 4> BVecs;
        for (unsigned V = 0; V < NV; ++V)
          BVecs.push_back(B.CreateAlignedLoad(
              Kern.opVec(),
              packPtr(BPanel, B.CreateAdd(BRow, B.CreateMul(VecElems, c64(V)))),
              elementAlign(Kern.PackT)));
        Value *ARow = B.CreateMul(Kq, c64(MR * KG));
        for (unsigned R = 0; R < MR; ++R) {
          Value *Lane = B.CreateAlignedLoad(
              LaneT, packPtr(APanel, B.CreateAdd(ARow, c64(R * KG))),
              elementAlign(Kern.PackT));
          Value *Splat = B.CreateVectorSplat(
              ElementCount::getScalable(Kern.lanes()), Lane);
          for (unsigned V = 0; V < NV; ++V)
            Next[V * MR + R] = emitStep(Next[V * MR + R], Splat, BVecs[V]);
        }
        return Next;
      });
  Value *Rows = smin(c64(MR), B.CreateSub(Mc, Ir));
  Value *Cols = smin(NR, B.CreateSub(Nc, Jr));
  Value *Row0 = B.CreateAdd(Ic, Ir), *Col0 = B.CreateAdd(Jc, Jr);
  if (EdgeBuf)
    storeThroughBuffer(Acc, Row0, Col0, Rows, Cols, AddC, FirstK);
  else
    storeBlock(Acc, Row0, Col0, Rows, Cols, AddC, FirstK);
  if (G.Epilogue)
    emitIf(B, LastK,
           [&] { emitEpiloguePass(B, G, G.C, Row0, Rows, Col0, Cols); });
}

// The sums so far: C's, or on the first K block Init's.
Value *SVEGemmEmitter::sumsPtr(Value *Row, Value *Col, Value *FirstK) {
  Value *P = elementPtr(B, G.C, Row, Col);
  return G.Init.Ptr ? B.CreateSelect(FirstK, elementPtr(B, G.Init, Row, Col), P)
                    : P;
}

// for r < MR, v < NV (rows >= Rows: an empty predicate):
//   p = whilelo(v x VL, Cols)
//   C[Row0 + r][Col0 + v x VL ..] = (AddC ? sums[..] : 0) + Acc, under p
void SVEGemmEmitter::storeBlock(ArrayRef<Value *> Acc, Value *Row0, Value *Col0,
                                Value *Rows, Value *Cols, Value *AddC,
                                Value *FirstK) {
  auto *ConstAddC = dyn_cast<ConstantInt>(AddC);
  bool ReadsC = !ConstAddC || ConstAddC->isOne();
  Align A = elementAlign(Kern.AccT);
  Constant *None = Constant::getNullValue(
      ScalableVectorType::get(B.getInt1Ty(), Kern.lanes()));
  SmallVector<Value *, 4> ColMask;
  for (unsigned V = 0; V < Kern.NV; ++V)
    ColMask.push_back(laneMask(B.CreateMul(VL, c64(V)), Cols));
  for (unsigned R = 0; R < Kern.MR; ++R) {
    Value *Row = B.CreateAdd(Row0, c64(R));
    Value *InRows = B.CreateICmpSLT(c64(R), Rows);
    for (unsigned V = 0; V < Kern.NV; ++V) {
      Value *Mask =
          R == 0 ? ColMask[V] : B.CreateSelect(InRows, ColMask[V], None);
      Value *Col = B.CreateAdd(Col0, B.CreateMul(VL, c64(V)));
      Value *Sum = Acc[V * Kern.MR + R];
      if (ReadsC)
        Sum = addOrKeep(B, AddC,
                        B.CreateMaskedLoad(Kern.accVec(),
                                           sumsPtr(Row, Col, FirstK), A, Mask),
                        Sum);
      B.CreateMaskedStore(Sum, elementPtr(B, G.C, Row, Col), A, Mask);
    }
  }
}

// C (or Init) without contiguous rows: the block goes to a stack buffer of
// MR rows of the widest NR, then element by element through the strides.
void SVEGemmEmitter::storeThroughBuffer(ArrayRef<Value *> Acc, Value *Row0,
                                        Value *Col0, Value *Rows, Value *Cols,
                                        Value *AddC, Value *FirstK) {
  int64_t Stride = Kern.maxNR();
  for (unsigned R = 0; R < Kern.MR; ++R)
    for (unsigned V = 0; V < Kern.NV; ++V)
      B.CreateAlignedStore(
          Acc[V * Kern.MR + R],
          B.CreateGEP(Kern.AccT, EdgeBuf,
                      B.CreateAdd(c64(R * Stride), B.CreateMul(VL, c64(V)))),
          Align(16));
  auto *ConstAddC = dyn_cast<ConstantInt>(AddC);
  bool ReadsC = !ConstAddC || ConstAddC->isOne();
  emitLoop(
      B, c64(0), Rows, c64(1), "sve.edge.r", [&](IRBuilderBase &, Value *R) {
        emitLoop(
            B, c64(0), Cols, c64(1), "sve.edge.c",
            [&](IRBuilderBase &, Value *C) {
              Value *Sum = B.CreateLoad(
                  Kern.AccT,
                  B.CreateGEP(Kern.AccT, EdgeBuf,
                              B.CreateAdd(B.CreateMul(R, c64(Stride)), C)));
              Value *Row = B.CreateAdd(Row0, R), *Col = B.CreateAdd(Col0, C);
              if (ReadsC)
                Sum = addOrKeep(
                    B, AddC, B.CreateLoad(Kern.AccT, sumsPtr(Row, Col, FirstK)),
                    Sum);
              B.CreateStore(Sum, elementPtr(B, G.C, Row, Col));
            });
      });
}

} // namespace

bool canUseSVE(const Function &F, const TargetTransformInfo &TTI) {
  return Triple(F.getParent()->getTargetTriple()).isAArch64() &&
         TTI.getRegisterBitWidth(TargetTransformInfo::RGK_ScalableVector)
                 .getKnownMinValue() >= 128;
}

bool emitSVEGemm(IRBuilderBase &B, const GemmDesc &G,
                 const TargetTransformInfo &TTI, GemmPlan &Plan,
                 std::string &Why) {
  Function *F = B.GetInsertBlock()->getParent();
  SVEKernel Kern;
  if (!chooseKernel(G, *F, TTI, Kern, Why))
    return false;
  chooseCacheBlocks(G, TTI, Kern);
  auto EmitShare = [&](IRBuilderBase &SB, const GemmDesc &Share) {
    SVEGemmEmitter(SB, Share, Kern).emit();
  };
  // Threads share C in whole micro-panels of a 512-bit VL (any other
  // length computes the same values, only with a partial panel more).
  emitThreadedGemm(B, G, Kern.MR, 4 * Kern.minNR(), Plan, EmitShare);
  Plan.Kernel = "sve " + Kern.Name + " " + std::to_string(Kern.MR) + "x" +
                std::to_string(Kern.NV) + "VL";
  Plan.MC = Kern.MC;
  Plan.NC = Kern.NC;
  Plan.KC = Kern.KC;
  Plan.MR = Kern.MR;
  Plan.NR = Kern.minNR();
  Plan.ScalableNR = true;
  Plan.PackedA = Plan.PackedB = true;
  return true;
}

} // namespace gemm
} // namespace tlx
