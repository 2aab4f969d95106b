//===- GemmScalable.cpp - GEMM on scalable vectors ------------------------===//
//
// The GemmTarget::Vector kernels of the GEMM emitter for a function whose
// target has scalable vector registers (TargetTransformInfo reports them):
// vector-length agnostic code, one binary for every vector length - SVE
// (AArch64, 128 to 2048 bits) and RISC-V V (any VLEN). The driver is
// shared; a target describes itself in a ScalableTarget in its folder
// under lib/Target (the bits of vector per vscale unit, and the
// dot-product or widening kernels it has beyond the multiply-add).
//
// Algorithm (the BLIS loops of GemmVector.cpp, with the register block's
// width counted in vectors instead of lanes):
//  1. Kernel from C's element type, A's and B's, and the target:
//       fma    f32/f64 (SVE FMLA, RVV vfmacc) and i32/i64 (MLA, vmacc) on
//              <vscale x L x T>, L = VscaleBits / bits(T): one register;
//              narrower operands converted while packed
//       the target's ScalableDot: SVE sdot/udot/usdot (int8 -> i32, 4 k
//              per lane) and bfdot (bf16 -> f32, 2 k); RVV's widening
//              multiply-add vwmacc (int8/s16 -> i32 on operands packed as
//              i16, 1 k per lane, exact)
//     A lane consumes a "k group" of KG elements per instruction (1 for fma).
//  2. The register block is MR rows x NV vectors: NR = NV x VL columns,
//     VL = vscale x L, read once at run time (llvm.vscale). KC and MC are
//     static (KC from L1 for a 256-bit vector, MC from L2); the column
//     block NC (whole micro-panels) and the buffers sized by NR (packed B,
//     the edge block) are computed at run time from VL, so any vector
//     length fits.
//       for jc < N step NC, pc < K step KC:
//         pack B[pc:+kc, jc:+nc] into NR-wide micro-panels [kc/KG][NR][KG]
//         (zero-padded: whole NR, whole KG)
//         for ic < M step MC:
//           pack A[ic:+mc, pc:+kc] into MR-tall micro-panels [kc/KG][MR][KG]
//           for jr < nc step NR, ir < mc step MR: microkernel
//  3. The microkernel keeps MR x NV accumulators across the k loop: per k
//     group, NV vectors of B and one broadcast k group per row of A. Then
//     it adds the block to C under predicates: columns by
//     llvm.get.active.lane.mask (SVE whilelo, RVV a shorter vl), rows past
//     the edge by an empty predicate, so tails need no copy. C without
//     contiguous rows goes through a scratch buffer of one block.
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
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

/// Everything the scalable kernel's code depends on.
struct ScalableKernel {
  const ScalableTarget *Target = nullptr;
  /// The target's dot product or widening multiply-add; neither: fma/mla.
  ScalableDot Dot;
  Type *PackT = nullptr; ///< packed A and B elements
  Type *AccT = nullptr;  ///< accumulators (C's type)
  unsigned KG = 1;
  unsigned MR = 12, NV = 2;
  int64_t MC = 0, KC = 0;
  int64_t NC = 0; ///< columns per B panel at vscale 1 (scaled at run time)
  std::string Name;

  /// C lanes per vscale unit of vector: one register.
  unsigned lanes() const {
    return Target->VscaleBits / AccT->getPrimitiveSizeInBits();
  }
  /// Columns of a register block at vscale 1.
  int64_t minNR() const { return NV * lanes(); }
  int64_t packBytes() const { return PackT->getPrimitiveSizeInBits() / 8; }
  ScalableVectorType *accVec() const {
    return ScalableVectorType::get(AccT, lanes());
  }
  ScalableVectorType *opVec() const {
    return ScalableVectorType::get(PackT, lanes() * KG);
  }
};

bool chooseKernel(const GemmDesc &G, const Function &F,
                  const TargetTransformInfo &TTI, ScalableKernel &Kern,
                  std::string &Why) {
  Type *CT = G.C.Elem;
  if (!CT->isFloatTy() && !CT->isDoubleTy() && !CT->isIntegerTy(32) &&
      !CT->isIntegerTy(64)) {
    Why = "no scalable-vector kernel accumulates in this element type";
    return false;
  }
  Kern.AccT = Kern.PackT = CT;
  Kern.Name = CT->isFloatTy() ? "fma f32"
              : CT->isDoubleTy()
                  ? "fma f64"
                  : "mla i" + std::to_string(CT->getIntegerBitWidth());
  if (Kern.Target->ChooseDot && Kern.Target->ChooseDot(G, F, Kern.Dot)) {
    Kern.PackT = Kern.Dot.PackT;
    Kern.KG = Kern.Dot.KG;
    Kern.Name = Kern.Dot.Name;
  }
  // 32 registers (SVE's Z, RVV's V at LMUL 1): MR x NV accumulators, NV
  // vectors of B and the broadcasts of A.
  unsigned NumRegs =
      TTI.getNumberOfRegisters(TTI.getRegisterClassForType(/*Vector=*/true));
  Kern.NV = 2;
  Kern.MR = std::max(1u, std::min(12u, (NumRegs - 2 * Kern.NV) / Kern.NV));
  return true;
}

/// Cache blocks: the B micro-panel (KC x NR for a 256-bit vector) in 2/3 of
/// L1, the A block (MC x KC) in half of L2, the B panel (KC x NC) in a few
/// MiB.
void chooseCacheBlocks(const GemmDesc &G, const TargetTransformInfo &TTI,
                       ScalableKernel &Kern) {
  uint64_t L1 = TTI.getCacheSize(TargetTransformInfo::CacheLevel::L1D)
                    .value_or(64 * 1024);
  uint64_t L2 = TTI.getCacheSize(TargetTransformInfo::CacheLevel::L2D)
                    .value_or(1024 * 1024);
  int64_t ES = Kern.packBytes(), Unit = Kern.KG * 16;
  int64_t NR256 = Kern.minNR() * (256 / Kern.Target->VscaleBits);
  int64_t KC = int64_t(L1 * 2 / 3) / (NR256 * ES);
  KC = std::max(Unit, KC / Unit * Unit);
  // All of M in one A block: rows spread evenly over the fewest panels.
  int64_t MC = std::max<int64_t>(Kern.MR, int64_t(L2 / 2) / (KC * ES));
  if (G.M <= MC) {
    int64_t Panels = (G.M + Kern.MR - 1) / Kern.MR;
    Kern.MR = unsigned((G.M + Panels - 1) / Panels);
  }
  MC = MC / Kern.MR * Kern.MR;
  Kern.KC = std::min(KC, roundUp(G.K, Kern.KG));
  Kern.MC = std::min(MC, roundUp(G.M, Kern.MR));
  Kern.NC = std::max((4 << 20) / (KC * ES), Kern.minNR());
  // At most N's columns for 2048-bit vectors (SVE's longest; the run-time
  // block is capped at N's micro-panels anyway).
  if (!G.isRuntimeSized())
    Kern.NC = std::min(
        Kern.NC, roundUp(G.N, Kern.minNR() * 2048 / Kern.Target->VscaleBits));
}

/// Emits one GEMM (or one thread's share of it) with the chosen kernel.
class ScalableGemmEmitter {
public:
  ScalableGemmEmitter(IRBuilderBase &B, const GemmDesc &G,
                      const ScalableKernel &Kern)
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
  const ScalableKernel &Kern;
  Type *I64;
  Value *VL = nullptr; ///< C lanes per vector
  Value *NR = nullptr; ///< columns per micro-panel: NV x VL
  Value *NC = nullptr; ///< columns per B panel: whole micro-panels
  Value *ApBase = nullptr, *BpBase = nullptr;
  Value *EdgeBuf = nullptr; ///< MR x NR accumulators, when C needs it
};

void ScalableGemmEmitter::emit() {
  VL = B.CreateMul(B.CreateIntrinsic(Intrinsic::vscale, {I64}, {}),
                   c64(Kern.lanes()), "vla.vl");
  NR = B.CreateMul(VL, c64(Kern.NV), "vla.nr");
  // Whole micro-panels, at most N's (so the packed B buffer is no larger
  // than B's panel needs).
  Value *NPanels =
      B.CreateUDiv(B.CreateAdd(G.extentN(B), B.CreateSub(NR, c64(1))), NR);
  NC = B.CreateMul(
      NR,
      B.CreateBinaryIntrinsic(
          Intrinsic::umax, c64(1),
          B.CreateBinaryIntrinsic(Intrinsic::umin,
                                  B.CreateUDiv(c64(Kern.NC), NR), NPanels)),
      "vla.nc");
  int64_t ES = Kern.packBytes();
  ApBase = emitScratch(B, ScratchSlot::PackedA, Kern.MC * Kern.KC * ES);
  BpBase =
      emitScratch(B, ScratchSlot::PackedB, B.CreateMul(NC, c64(Kern.KC * ES)));
  if (!isConstOne(G.C.ColStride) ||
      (G.Init.Ptr && !isConstOne(G.Init.ColStride)))
    EdgeBuf = emitScratch(
        B, ScratchSlot::CStage,
        B.CreateMul(NR,
                    c64(Kern.MR * Kern.AccT->getPrimitiveSizeInBits() / 8)));
  Value *RowEnd = G.RowEnd ? G.RowEnd : G.extentM(B);
  Value *ColEnd = G.ColEnd ? G.ColEnd : G.extentN(B);
  Value *KEnd = G.extentK(B);
  emitLoop(
      B, G.ColBegin ? G.ColBegin : c64(0), ColEnd, NC, "vla.jc",
      [&](IRBuilderBase &, Value *Jc) {
        Value *Nc = smin(NC, B.CreateSub(ColEnd, Jc));
        emitLoop(
            B, c64(0), KEnd, c64(Kern.KC), "vla.pc",
            [&](IRBuilderBase &, Value *Pc) {
              Value *Kc = smin(c64(Kern.KC), B.CreateSub(KEnd, Pc));
              Value *Kcp = B.CreateAnd(B.CreateAdd(Kc, c64(Kern.KG - 1)),
                                       c64(-int64_t(Kern.KG)));
              packB(Jc, Pc, Nc, Kc, Kcp);
              Value *AddC = G.Accumulate
                                ? B.getTrue()
                                : B.CreateICmpNE(Pc, c64(0), "vla.addc");
              Value *LastK =
                  B.CreateICmpSGE(B.CreateAdd(Pc, Kc), KEnd, "vla.lastk");
              Value *FirstK = B.CreateICmpEQ(Pc, c64(0), "vla.firstk");
              emitLoop(
                  B, G.RowBegin ? G.RowBegin : c64(0), RowEnd, c64(Kern.MC),
                  "vla.ic", [&](IRBuilderBase &, Value *Ic) {
                    Value *Mc = smin(c64(Kern.MC), B.CreateSub(RowEnd, Ic));
                    packA(Ic, Pc, Mc, Kc, Kcp);
                    emitLoop(B, c64(0), Nc, NR, "vla.jr",
                             [&](IRBuilderBase &, Value *Jr) {
                               emitLoop(B, c64(0), Mc, c64(Kern.MR), "vla.ir",
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

void ScalableGemmEmitter::packB(Value *Jc, Value *Pc, Value *Nc, Value *Kc,
                                Value *Kcp) {
  emitLoop(B, c64(0), Nc, NR, "vla.packb", [&](IRBuilderBase &, Value *Jr) {
    Value *Cols = smin(NR, B.CreateSub(Nc, Jr));
    Value *Panel = packPtr(BpBase, B.CreateMul(Jr, Kcp));
    Value *Col0 = B.CreateAdd(Jc, Jr);
    if (Kern.KG == 1 && isConstOne(G.B.ColStride) &&
        Kern.Target->ConvertsInVectors(G.B.Elem,
                                       *B.GetInsertBlock()->getParent())) {
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
void ScalableGemmEmitter::packBRows(Value *Col0, Value *Pc, Value *Cols,
                                    Value *Kc, Value *Panel) {
  auto *SrcT = ScalableVectorType::get(G.B.Elem, Kern.lanes());
  Constant *Zero = Constant::getNullValue(SrcT);
  emitLoop(
      B, c64(0), Kc, c64(1), "vla.packb.k", [&](IRBuilderBase &, Value *K) {
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

void ScalableGemmEmitter::packA(Value *Ic, Value *Pc, Value *Mc, Value *Kc,
                                Value *Kcp) {
  unsigned MR = Kern.MR;
  emitLoop(B, c64(0), Mc, c64(MR), "vla.packa",
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

Value *ScalableGemmEmitter::emitStep(Value *Acc, Value *A, Value *Bv) {
  const ScalableDot &Dot = Kern.Dot;
  if (Dot.Widening) {
    //   acc += splat(sext(a)) * sext(b): RVV's vwmacc.vx on i16 operands
    //   (A arrives extended: the microkernel's broadcast).
    return B.CreateAdd(Acc, B.CreateMul(A, B.CreateSExt(Bv, Kern.accVec())));
  }
  if (Dot.ID == Intrinsic::not_intrinsic)
    return multiplyAdd(B, Acc, A, Bv);
  //   acc = sdot(acc, <vscale x 16 x i8> A group x 4, <vscale x 16 x i8> B):
  //   lane l gets the sum of 4 products (bfdot: <vscale x 8 x bf16>, 2).
  Module *M = B.GetInsertBlock()->getModule();
  Function *Fn =
      Dot.Overloaded
          ? Intrinsic::getOrInsertDeclaration(M, Dot.ID, {Kern.accVec()})
          : Intrinsic::getOrInsertDeclaration(M, Dot.ID);
  Value *X = B.CreateBitCast(A, Kern.opVec()), *Y = Bv;
  if (Dot.SwapOperands)
    std::swap(X, Y);
  return B.CreateCall(Fn, {Acc, X, Y});
}

void ScalableGemmEmitter::emitMicrokernel(Value *Ic, Value *Ir, Value *Jc,
                                          Value *Jr, Value *Mc, Value *Nc,
                                          Value *Kcp, Value *AddC, Value *LastK,
                                          Value *FirstK) {
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
      B, c64(0), B.CreateUDiv(Kcp, c64(KG)), c64(1), "vla.k", Init,
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
          // Widening: the scalar extended, so the backend multiplies by a
          // scalar register (vwmacc.vx) rather than a widened splat.
          if (Kern.Dot.Widening)
            Lane = B.CreateSExt(Lane, Kern.AccT);
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
Value *ScalableGemmEmitter::sumsPtr(Value *Row, Value *Col, Value *FirstK) {
  Value *P = elementPtr(B, G.C, Row, Col);
  return G.Init.Ptr ? B.CreateSelect(FirstK, elementPtr(B, G.Init, Row, Col), P)
                    : P;
}

// for r < MR, v < NV (rows >= Rows: an empty predicate):
//   p = whilelo(v x VL, Cols)
//   C[Row0 + r][Col0 + v x VL ..] = (AddC ? sums[..] : 0) + Acc, under p
void ScalableGemmEmitter::storeBlock(ArrayRef<Value *> Acc, Value *Row0,
                                     Value *Col0, Value *Rows, Value *Cols,
                                     Value *AddC, Value *FirstK) {
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

// C (or Init) without contiguous rows: the block goes to a scratch buffer
// of MR rows of NR, then element by element through the strides.
void ScalableGemmEmitter::storeThroughBuffer(ArrayRef<Value *> Acc, Value *Row0,
                                             Value *Col0, Value *Rows,
                                             Value *Cols, Value *AddC,
                                             Value *FirstK) {
  for (unsigned R = 0; R < Kern.MR; ++R)
    for (unsigned V = 0; V < Kern.NV; ++V)
      B.CreateAlignedStore(Acc[V * Kern.MR + R],
                           B.CreateGEP(Kern.AccT, EdgeBuf,
                                       B.CreateAdd(B.CreateMul(NR, c64(R)),
                                                   B.CreateMul(VL, c64(V)))),
                           elementAlign(Kern.AccT));
  auto *ConstAddC = dyn_cast<ConstantInt>(AddC);
  bool ReadsC = !ConstAddC || ConstAddC->isOne();
  emitLoop(
      B, c64(0), Rows, c64(1), "vla.edge.r", [&](IRBuilderBase &, Value *R) {
        emitLoop(
            B, c64(0), Cols, c64(1), "vla.edge.c",
            [&](IRBuilderBase &, Value *C) {
              Value *Sum = B.CreateLoad(
                  Kern.AccT, B.CreateGEP(Kern.AccT, EdgeBuf,
                                         B.CreateAdd(B.CreateMul(R, NR), C)));
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

bool emitScalableGemm(IRBuilderBase &B, const GemmDesc &G,
                      const TargetTransformInfo &TTI,
                      const ScalableTarget &Target, GemmPlan &Plan,
                      std::string &Why) {
  Function *F = B.GetInsertBlock()->getParent();
  ScalableKernel Kern;
  Kern.Target = &Target;
  if (!chooseKernel(G, *F, TTI, Kern, Why))
    return false;
  chooseCacheBlocks(G, TTI, Kern);
  auto EmitShare = [&](IRBuilderBase &SB, const GemmDesc &Share) {
    ScalableGemmEmitter(SB, Share, Kern).emit();
  };
  // Threads share C in whole micro-panels of a 512-bit vector (any other
  // length computes the same values, only with a partial panel more).
  emitThreadedGemm(B, G, Kern.MR, 512 / Target.VscaleBits * Kern.minNR(), Plan,
                   EmitShare);
  Plan.Kernel = std::string(Target.Name) + " " + Kern.Name + " " +
                std::to_string(Kern.MR) + "x" + std::to_string(Kern.NV) + "VL";
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
