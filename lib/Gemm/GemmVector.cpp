//===- GemmVector.cpp - Packed, register-blocked GEMM on vector registers -===//
//
// The GemmTarget::Vector kernels of the GEMM emitter: one driver for every
// vector ISA, fixed-width (x86, NEON, Power's VSX and MMA) and scalable
// (SVE, RISC-V V: vector-length agnostic code, one binary for every vector
// length). A target brings its microkernel's instruction and register
// geometry; blocking, packing, the loop nest, edges, epilogues, run-time
// extents, dispatch and threads are the driver's.
//
// Algorithm (BLIS-style; MR x NR register block, NR = NV vectors of W lanes):
//  1. Choose the kernel from C's element type and the function's features
//     (GemmVectorKernel.cpp):
//       Matrix    a target's accumulator registers (Power10 MMA: f32,
//                 f64 and int8/s16 -> i32 outer products into 8
//                 accumulators; lib/Target/PowerPC/MMAKernels.cpp)
//       TargetDot a target's own dot product or widening multiply-add
//                 (VectorDot), chosen in its folder: x86's vpdpbusd (VNNI,
//                 4 k per lane), vpmaddwd / vpdpwssd on operands widened
//                 to i16 and vdpbf16ps (2 k; lib/Target/X86/VectorDots.cpp);
//                 NEON's SDOT/UDOT (dotprod), USDOT (i8mm), 4 k, and BFDOT
//                 (bf16), 2 k (lib/Target/AArch64/DotProducts.cpp); SVE's
//                 (SVEKernels.cpp); RVV's vwmacc, vfwmacc, vfwmaccbf16
//                 (lib/Target/RISCV/RVVKernels.cpp)
//       FMA       anything -> f32/f64/i32/i64 on <W x C> (scalable targets:
//                 <vscale x W x C>): operands are converted to C's type
//                 while they are packed.
//     The k values one lane consumes per instruction form a "k group" of KG
//     elements (1 for FMA).
//  2. for jc < N step NC:                                  (B panel in L3)
//       for pc < K step KC:
//         pack B[pc:+kc, jc:+nc] into NR-wide micro-panels laid out
//         [kc/KG][NR][KG], zero-padded to whole NR and KG;
//         (flipped sign bits of A) B's column sums' correction;
//         for ic < M step MC:                              (A block in L2)
//           pack A[ic:+mc, pc:+kc] into MR-tall micro-panels [kc/KG][MR][KG]
//           (flipped sign bits of B) A's row sums' correction;
//           for jr < nc step NR, ir < mc step MR:          (B micro-panel
//             microkernel(ir, jr)                           in L1)
//     When all of M is one A block, B is packed inside the ic loop instead,
//     a group of micro-panels at a time right before their microkernels
//     (BPacking::PerGroup; for run-time sizes decided at run time).
//     Scalable vectors: W lanes per vscale unit, so NR = NV x W x vscale is
//     read at run time (llvm.vscale), and so are the B panel's NC (whole
//     micro-panels) and the buffers sized by NR; KC is chosen for a 256-bit
//     vector.
//  3. The microkernel keeps MR x NV accumulator vectors in registers (loop
//     phis) across the kc loop: per k group it loads NV vectors of B and
//     broadcasts one k group of each of the MR rows of A (Matrix: loads MR/4
//     vectors of A and does one outer product per accumulator, which it
//     disassembles into rows after the loop). It then adds the
//     block to C (when accumulating or pc > 0), C's rows contiguous:
//     full blocks with vector loads/stores, edge blocks under lane masks
//     where the target has masked loads and stores (AVX, AVX-512;
//     storeMaskedRows), else through a stack buffer and scalar copies;
//     either way nothing outside C is touched.
//     Scalable vectors store every block under predicates instead (columns
//     by llvm.get.active.lane.mask - SVE whilelo, RVV a shorter vl - rows
//     past the edge by an empty one), and apply an epilogue in a pass over
//     the finished block, still in L1 (emitEpiloguePass).
//
// Bytes whose signedness the instruction does not take get their sign bits
// flipped (a byte x ^ 0x80 is x + 128 read as unsigned, x - 128 read as
// signed) while they are packed, and the sums are corrected, exactly in
// wrapping i32 arithmetic:
//   signed A on unsigned x signed bytes (vpdpbusd; VectorDot::BiasA): A's
//     sign bits are flipped while packed, or in each broadcast of a
//     micro-panel read in place, and the accumulators start at
//     -128 * sum_k B[k][j] (ColSums), computed with the instruction itself
//     from the packed B panel: sum (a + 128) b - 128 sum b = sum a b;
//   signed x unsigned bytes (Power10's xvi8ger4; AccumulatorKernel::FlipA
//     and FlipB): unsigned A as a' = a - 128, signed B as b' = b + 128,
//     and sum a b = sum a' b' - 128 sum_k a'[i][k] (FlipB; RowSums, per
//     row of the packed A block) + 128 sum_k b'[k][j] (FlipA; ColSums)
//     - 16384 kc (both), added to the block after its k loop.
// Padding stays zero in the flipped panels, so it adds to no sum.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Gemm/GemmVectorKernel.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

constexpr int64_t CacheLineBytes = 64;
/// B's rows a multiple of this apart fall in a few cache sets
/// (VectorGemmEmitter::setNextBGroup).
constexpr int64_t AliasingRowBytes = 1024;

/// A partial last micro-panel computed by a micro-kernel of its rows
/// (VectorGemmEmitter::emitMicrokernels), rather than as MR rows.
cl::opt<bool> TailMicrokernels(
    "tlx-gemm-tail-microkernels", cl::init(true), cl::Hidden,
    cl::desc("compute a GEMM's partial last row block (M known when "
             "compiling) with a micro-kernel of its rows, reading A in place "
             "where the full blocks do; with M known at run time, one of up "
             "to half a block with a k loop of that many rows"));

/// The next in-place B micro-panel read into L2 by the current one's
/// micro-kernels (VectorGemmEmitter::setNextInPlaceBPanel).
cl::opt<bool> PrefetchInPlaceB(
    "tlx-gemm-prefetch-inplace-b", cl::init(true), cl::Hidden,
    cl::desc("while fewer than eight micro-kernels read one micro-panel "
             "of B in place whose rows are more than 2 KiB apart, prefetch "
             "the next one's rows into L2"));

/// The longest stride Intel's L1 stride prefetcher follows (its
/// optimization manual: "strides of up to 2K bytes").
constexpr int64_t HardwarePrefetchStrideBytes = 2048;

/// How many rows a run-time-sized GEMM's partial last micro-panel may have
/// to be computed with a k loop of that many rows (half of MR), from the
/// packed panel, or 0 where it is computed as MR rows. Its accumulators
/// are stored by the MR-row kernel's edge stores (a kernel of
/// its own, stores included, made the 12-layer MLP's text 10% bigger,
/// 55.6 -> 61.0 KB with dispatch): M's last panel is much of the work at a few
/// dozen rows (M = 16 on MR 13: 26 rows for 16). Shared kernel / code of its
/// own, f32 N = K = 1024, Zen 5: M = 16 0.72 -> 0.86, 32 0.87 -> 0.98, 72 0.84
/// -> 0.90, 128 0.91 -> 0.945.
unsigned runtimeTailRows(const GemmDesc &G, const VectorKernel &Kern) {
  bool Applies = TailMicrokernels && G.isRuntimeSized() && !Kern.Scalable &&
                 Kern.Dot != DotKind::Matrix && Kern.MR >= 4;
  return Applies ? (Kern.MR + 1) / 2 : 0;
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
  int64_t bElementBytes() const {
    return G.B.Elem->getPrimitiveSizeInBits() / 8;
  }
  /// Bytes of one row of B in a group of micro-panels packed together.
  int64_t bGroupRowBytes() const {
    return panelsPerInterleave() * Kern.nr() * bElementBytes();
  }
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
  /// Rows of an A block's packed micro-panels, at most: MC, or with
  /// run-time sizes what rowBlock gives the shortest K block, but no more
  /// than M's micro-panels.
  Value *maxBlockRows() {
    if (!G.isRuntimeSized())
      return c64(Kern.MC);
    int64_t Rows = std::max<int64_t>(Kern.MC * Kern.KC / Kern.kPad(), Kern.MR);
    return smin(c64(Rows), B.CreateAdd(G.extentM(B), c64(Kern.MR)));
  }
  Value *packPtr(Value *Base, Value *Elems) {
    return B.CreateGEP(Kern.PackT, Base, Elems);
  }
  Value *inPlaceCheck(const GemmOperand &Op, Value *ExtentOK);
  Value *directAExtentsOK();
  void chooseVectorLength();
  /// The predicate of an accumulator vector's lanes I with Begin + I < End.
  Value *laneMask(Value *Begin, Value *End) {
    return B.CreateIntrinsic(
        Intrinsic::get_active_lane_mask,
        {VectorType::get(B.getInt1Ty(), Kern.lanes()), I64}, {Begin, End});
  }

  void packB(Value *Jc, Value *Pc, Value *Nc, Value *Kc, Value *Kcp);
  bool canPackBRows() const;
  void packBRows(Value *Col0, Value *Pc, Value *Cols, Value *Kc, Value *Panel);
  bool canInterleaveB() const;
  unsigned panelsPerInterleave() const;
  Value *packFullPanelGroups(Value *Jc, Value *Pc, Value *Nc, Value *Kc,
                             Value *Kcp);
  void interleaveIntoPanel(Value *Pc, Value *Col0, Value *Kcp, Value *Panel,
                           unsigned Panels = 1);
  void emitColumnSums(Value *Panel, Value *Kc, Value *Kcp, Value *SumsAt);
  SmallVector<Value *, 8>
  sumPanelGroups(Value *Panel, Value *Kcp, unsigned Vectors, StringRef Name,
                 function_ref<Value *(Value *Sums, Value *At)> Step);
  Value *sumMatrixGroups(Value *Sums, Value *At, bool Signed);
  void emitRowSums(Value *Panel, Value *Kcp, Value *SumsAt);
  void storeCorrections(ArrayRef<Value *> Vectors, Value *Buffer,
                        Value *At);
  Value *loadColumnCorrections(Value *Jr, unsigned V);
  SmallVector<Value *, 32> correctFlippedSums(SmallVector<Value *, 32> Acc,
                                              Value *Ir, Value *Jr);
  void packA(Value *Ic, Value *Pc, Value *Mc, Value *Kc, Value *Kcp);
  bool canTransposeA() const;
  bool canWidenA() const;
  void widenIntoPanel(Value *Row0, Value *Col0, Value *Kc, Value *Panel);
  void transposeIntoPanel(Value *Row0, Value *Col0, Value *Kc, Value *Panel);
  void copyIntoPanel(const GemmOperand &Op, Value *Row0, Value *Col0,
                     Value *Rows, Value *Kc, bool KIsRow, Value *Panel,
                     Value *PanelWidth, bool FlipSign);
  /// Where B is packed: the whole B panel (KC x NC) before the A blocks,
  /// or a group of micro-panels at a time in the one A block (decided when
  /// compiling or, for run-time sizes, at run time).
  enum class BPacking { WholePanel, PerGroup, AtRunTime };
  BPacking bPacking() const;
  /// One K block: its start, length (padded to whole k groups: Kcp), and
  /// whether it adds to C, finishes C, starts from the initial sums.
  struct KBlock {
    Value *Pc, *Kc, *Kcp, *AddC, *LastK, *FirstK;
  };
  void emitRowBlocks(Value *Jc, Value *Nc, const KBlock &KB, BPacking Packing,
                     Value *RowBegin, Value *RowEnd);
  void emitMicrokernels(Value *Ic, Value *Jc, Value *Mc, Value *Nc,
                        const KBlock &KB);
  void emitMicrokernel(Value *Ic, Value *Ir, Value *Jc, Value *Jr, Value *Pc,
                       Value *Mc, Value *Nc, Value *Kcp, Value *AddC,
                       Value *LastK, Value *FirstK);
  bool tailKernelApplies() const;
  /// Whether a partial micro-panel of \p Rows rows is computed by the tail
  /// micro-kernel: Rows = TailRows (M known), 1 .. TailRows (run-time M).
  Value *isTailPanel(Value *Rows) {
    if (!TailRows)
      return B.getFalse();
    if (!RuntimeTail)
      return B.CreateICmpEQ(Rows, c64(TailRows));
    return B.CreateICmpULT(B.CreateSub(Rows, c64(1)), c64(TailRows));
  }
  /// Whether the tail micro-kernel reads such a panel in place (where A is
  /// read in place): M known, so it has all TailRows rows.
  Value *tailReadsInPlace(Value *Rows) {
    return TailRows && !RuntimeTail ? B.CreateICmpEQ(Rows, c64(TailRows))
                                    : B.getFalse();
  }
  /// Where the microkernel reads its operands: the packed micro-panels or
  /// A and B in place, and the elements from one k group to the next (and
  /// from one row of A to the next).
  struct MicroPanels {
    Value *A, *AStride, *ARowStride;
    Value *B, *BStride;
    /// A is read in place with Kern.biasA(): each broadcast flips the sign
    /// bits that packing flips in packed panels.
    bool FlipABroadcasts = false;
  };
  SmallVector<Value *, 32> emitKLoop(const MicroPanels &P, Value *Kcp,
                                     ArrayRef<Value *> Init,
                                     function_ref<void(Value *)> Prefetch);
  SmallVector<Value *, 32> emitKLoopOnEither(
      Value *Cond, const MicroPanels &IfTrue, const MicroPanels &IfFalse,
      function_ref<SmallVector<Value *, 32>(const MicroPanels &)> KLoop);
  SmallVector<Value *, 32>
  emitEither(Value *Cond, function_ref<SmallVector<Value *, 32>()> IfTrue,
             function_ref<SmallVector<Value *, 32>()> IfFalse);
  void prefetchCRow(Value *Kq, Value *Row0, Value *Col0, Value *LastRow,
                    Value *LastK);
  void setNextBGroup(Value *Pc, Value *Next, Value *PerGroup);
  void setNextInPlaceBPanel(Value *Pc, Value *Col, Value *Cols, Value *Rows);
  void prefetchNextBGroup(Value *Iteration, Value *Ir);
  void storeFinishedOrPartial(ArrayRef<Value *> Acc, Value *Row0, Value *Col0,
                              Value *Rows, Value *Cols, Value *AddC,
                              Value *LastK, Value *FirstK);
  Value *emitDotStep(Value *Acc, Value *ABroadcast, Value *BVec);
  Value *emitTargetDotStep(Value *Acc, Value *ABroadcast, Value *BVec);
  Value *loadABroadcast(Value *Ptr, bool FlipSign);
  Value *loadBVector(Value *Ptr, bool InPlace = false);
  void storeBlock(ArrayRef<Value *> Acc, Value *Row0, Value *Col0, Value *Rows,
                  Value *Cols, Value *AddC, bool ApplyEpilogue, Value *FirstK);
  void storeScalableBlock(ArrayRef<Value *> Acc, Value *Row0, Value *Col0,
                          Value *Rows, Value *Cols, Value *AddC, Value *LastK,
                          Value *FirstK);
  void storePredicated(ArrayRef<Value *> Acc, Value *Row0, Value *Col0,
                       Value *Rows, Value *Cols, Value *AddC, Value *FirstK);
  void storeMaskedRows(ArrayRef<Value *> Acc, Value *Row0, Value *Col0,
                       Value *Rows, Value *Cols, Value *AddC,
                       bool ApplyEpilogue, Value *FirstK);
  void storeThroughBuffer(ArrayRef<Value *> Acc, Value *Row0, Value *Col0,
                          Value *Rows, Value *Cols, Value *AddC,
                          bool ApplyEpilogue, Value *FirstK);
  Value *sumsPtr(Value *Row, Value *Col, Value *FirstK);
  Value *finish(Value *AddC, Value *Old, Value *Acc, Value *Row, Value *Col,
                bool ApplyEpilogue);

  IRBuilderBase &B;
  const GemmDesc &G;
  /// A copy: the tail micro-kernel narrows its MR (emitMicrokernels).
  VectorKernel Kern;
  Type *I64;
  /// Lanes per accumulator vector (W), columns per register block (NR)
  /// and per B panel (NC): constants, or computed at run time from vscale.
  Value *VL = nullptr, *NR = nullptr, *NC = nullptr;
  Value *ApBase = nullptr, *BpBase = nullptr;
  /// What each column / row of the block adds to its sums for flipped sign
  /// bits (Kern.flipsA / flipsB): i32 per column of the B panel, per row
  /// of the A block.
  Value *ColSums = nullptr, *RowSums = nullptr;
  /// MR x NR accumulators on their way to edges of C (scalable vectors: to
  /// C without contiguous rows only).
  Value *EdgeBuf = nullptr;
  /// i1: A / B are read in place (Kern.DirectA / DirectB and, for what is
  /// known only at run time, inPlaceCheck).
  Value *InPlaceA = nullptr, *InPlaceB = nullptr;
  /// M % MR when a partial last micro-panel of that many rows gets a
  /// micro-kernel of its own (tailKernelApplies), else 0; with M known
  /// only at run time (RuntimeTail), half of MR: partial panels of up to
  /// that many rows (runtimeTailRows). InTail while that kernel
  /// is emitted (Kern.MR its rows; PanelRows stays the packed
  /// micro-panels' width). AllInPlace: A is read in place and every
  /// micro-panel is full or the tail, so nothing of A is packed (one
  /// thread's share of rows may end elsewhere: not with threads).
  unsigned TailRows = 0, PanelRows = 0;
  bool InTail = false, AllInPlace = false, RuntimeTail = false;
  /// What the k loops read ahead of B (prefetchNextBGroup): the next group
  /// of packed micro-panels (setNextBGroup) or the next in-place
  /// micro-panel (setNextInPlaceBPanel).
  struct NextBPrefetch {
    /// Where its rows start in B (row Pc); null: nothing to read ahead.
    Value *Group = nullptr;
    /// The bytes from one row to the next (0: only the first line).
    Value *RowBytes = nullptr;
    /// Cache lines per row.
    int64_t Lines = 0;
  } NextB;
};

/// VL, NR and NC: constants for fixed-width vectors; for scalable ones
/// from vscale, NC as whole micro-panels, at most N's (so the packed B
/// buffer is no larger than B's panel needs).
void VectorGemmEmitter::chooseVectorLength() {
  if (!Kern.Scalable) {
    VL = c64(Kern.W);
    NR = c64(Kern.nr());
    NC = c64(Kern.NC);
    return;
  }
  VL = B.CreateMul(B.CreateIntrinsic(Intrinsic::vscale, {I64}, {}), c64(Kern.W),
                   "gemm.vl");
  NR = B.CreateMul(VL, c64(Kern.NV), "gemm.nr");
  Value *NPanels =
      B.CreateUDiv(B.CreateAdd(G.extentN(B), B.CreateSub(NR, c64(1))), NR);
  NC = B.CreateMul(
      NR,
      B.CreateBinaryIntrinsic(
          Intrinsic::umax, c64(1),
          B.CreateBinaryIntrinsic(Intrinsic::umin,
                                  B.CreateUDiv(c64(Kern.NC), NR), NPanels)),
      "gemm.nc");
}

void VectorGemmEmitter::emit() {
  Function *F = B.GetInsertBlock()->getParent();
  chooseVectorLength();
  Type *AccT = Kern.AccT;
  if (!Kern.Scalable) {
    IRBuilderBase::InsertPointGuard Guard(B);
    B.SetInsertPoint(&F->getEntryBlock(), F->getEntryBlock().begin());
    AllocaInst *Buf = B.CreateAlloca(ArrayType::get(AccT, Kern.MR * Kern.nr()),
                                     nullptr, "gemm.edge");
    Buf->setAlignment(Align(64));
    EdgeBuf = Buf;
  } else if (!isConstOne(G.C.ColStride) ||
             (G.Init.Ptr && !isConstOne(G.Init.ColStride))) {
    EdgeBuf = emitScratch(
        B, ScratchSlot::CStage,
        B.CreateMul(NR, c64(Kern.MR * AccT->getPrimitiveSizeInBits() / 8)));
  }
  int64_t ES = packBytes();
  InPlaceA = B.getFalse();
  if (Kern.DirectA)
    InPlaceA = inPlaceCheck(G.A, directAExtentsOK());
  PanelRows = Kern.MR;
  if (tailKernelApplies()) {
    TailRows = unsigned(G.M % Kern.MR);
    auto *InPlace = dyn_cast<ConstantInt>(InPlaceA);
    AllInPlace = Kern.DirectA && InPlace && InPlace->isOne() && !G.RowBegin;
  } else if (unsigned Rows = runtimeTailRows(G, Kern)) {
    TailRows = Rows;
    RuntimeTail = true;
  }
  InPlaceB = B.getFalse();
  if (Kern.DirectB)
    InPlaceB = inPlaceCheck(G.B, B.CreateICmpSLE(G.extentM(B), c64(Kern.MC)));
  ApBase = emitScratch(B, ScratchSlot::PackedA, Kern.MC * Kern.KC * ES);
  BPacking Packing = bPacking();
  Value *BGroup = c64(panelsPerInterleave() * Kern.nr());
  BpBase = emitScratch(B, ScratchSlot::PackedB,
                       B.CreateMul(Packing == BPacking::PerGroup ? BGroup : NC,
                                   c64(Kern.KC * ES)));
  if (Kern.flipsA())
    ColSums = emitScratch(B, ScratchSlot::ColumnSums, Kern.NC * 4);
  if (Kern.flipsB())
    RowSums = emitScratch(B, ScratchSlot::RowSums,
                          B.CreateMul(maxBlockRows(), c64(4)));

  // This code's share of C: all of it, or one thread's rows or columns.
  Value *RowBegin = G.RowBegin ? G.RowBegin : c64(0);
  Value *RowEnd = G.RowEnd ? G.RowEnd : G.extentM(B);
  Value *ColEnd = G.ColEnd ? G.ColEnd : G.extentN(B);
  Value *KEnd = G.extentK(B);
  emitLoop(
      B, G.ColBegin ? G.ColBegin : c64(0), ColEnd, NC, "gemm.jc",
      [&](IRBuilderBase &, Value *Jc) {
        Value *Nc = smin(NC, B.CreateSub(ColEnd, Jc));
        emitLoop(
            B, c64(0), KEnd, c64(Kern.KC), "gemm.pc",
            [&](IRBuilderBase &, Value *Pc) {
              KBlock KB;
              KB.Pc = Pc;
              KB.Kc = smin(c64(Kern.KC), B.CreateSub(KEnd, Pc));
              KB.Kcp = B.CreateAnd(B.CreateAdd(KB.Kc, c64(Kern.kPad() - 1)),
                                   c64(-int64_t(Kern.kPad())));
              if (Packing == BPacking::WholePanel)
                packB(Jc, Pc, Nc, KB.Kc, KB.Kcp);
              // Later K blocks add to what the earlier ones stored.
              KB.AddC = G.Accumulate ? B.getTrue()
                                     : B.CreateICmpNE(Pc, c64(0), "gemm.addc");
              // The last K block finishes C: the epilogue applies there.
              KB.LastK =
                  B.CreateICmpSGE(B.CreateAdd(Pc, KB.Kc), KEnd, "gemm.lastk");
              // The first reads the initial sums from Init, if any.
              KB.FirstK = B.CreateICmpEQ(Pc, c64(0), "gemm.firstk");
              emitRowBlocks(Jc, Nc, KB, Packing, RowBegin, RowEnd);
            });
      });
}

/// The A blocks of rows [RowBegin, RowEnd) against the B panel's columns
/// [Jc, +Nc) in K block \p KB, B packed as \p Packing says.
void VectorGemmEmitter::emitRowBlocks(Value *Jc, Value *Nc, const KBlock &KB,
                                      BPacking Packing, Value *RowBegin,
                                      Value *RowEnd) {
  Value *MCStep = rowBlock(KB.Kcp);
  Value *BGroup = c64(panelsPerInterleave() * Kern.nr());
  bool Always = Packing == BPacking::PerGroup;
  Value *PerGroup = Always ? B.getTrue()
                           : B.CreateICmpSLE(B.CreateSub(RowEnd, RowBegin),
                                             MCStep, "gemm.bpergroup");
  emitLoop(
      B, RowBegin, RowEnd, MCStep, "gemm.ic", [&](IRBuilderBase &, Value *Ic) {
        Value *Mc = smin(MCStep, B.CreateSub(RowEnd, Ic));
        packA(Ic, KB.Pc, Mc, KB.Kc, KB.Kcp);
        if (Packing == BPacking::WholePanel)
          return emitMicrokernels(Ic, Jc, Mc, Nc, KB);
        // B packed here: a group of micro-panels at a time, or the
        // whole panel before the first A block.
        Value *PackHere =
            Always ? PerGroup
                   : B.CreateOr(PerGroup, B.CreateICmpEQ(Ic, RowBegin));
        Value *Step = Always ? BGroup : B.CreateSelect(PerGroup, BGroup, Nc);
        emitLoop(B, c64(0), Nc, Step, "gemm.jg",
                 [&](IRBuilderBase &, Value *Jg) {
                   Value *Ng = smin(Step, B.CreateSub(Nc, Jg));
                   Value *Jcg = B.CreateAdd(Jc, Jg);
                   emitIfFolded(B, PackHere,
                                [&] { packB(Jcg, KB.Pc, Ng, KB.Kc, KB.Kcp); });
                   SaveAndRestore<NextBPrefetch> Next(NextB);
                   setNextBGroup(KB.Pc, B.CreateAdd(Jcg, Ng), PerGroup);
                   emitMicrokernels(Ic, Jcg, Mc, Ng, KB);
                 });
      });
}

/// Reads the next group of B's micro-panels (columns from \p Next, rows from
/// \p Pc) into L2 while this group's micro-kernels run, where B's row
/// stride is a multiple of 1 KiB: the group's KC rows then fall in at most
/// 4 of L1's 64 sets (and 1/16 of L2's) and evict each other before
/// packing reads them, and the hardware prefetchers do not follow them
/// across pages. Zen 5, one thread, median of 7 interleaved processes:
/// 64 x 1024 x 1024 f32 198 -> 208 GFLOP/s (AVX2 94 -> 98, run-time sizes
/// 175 -> 188, shared kernel 183 -> 200), s8s8s32 768 -> 803 GOP/s,
/// u8s8s32 809 -> 849, bf16 390 -> 413; f32 64 x 512 x 512 198 -> 208;
/// 256^3 and 512^3 unchanged. Other strides gained nothing or lost to the
/// extra instructions (64 x 1100 x 1024: 219 -> 213). Not for groups
/// narrower than a line per row, whose lines the previous group's packing
/// brought in. \p PerGroup: whether groups are packed at all, when that is
/// decided at run time.
void VectorGemmEmitter::setNextBGroup(Value *Pc, Value *Next, Value *PerGroup) {
  if (Kern.Scalable || !isConstOne(G.B.ColStride) ||
      bGroupRowBytes() < CacheLineBytes)
    return;
  Value *RowBytes = B.CreateMul(G.B.RowStride, c64(bElementBytes()));
  Value *Aliasing =
      B.CreateICmpEQ(B.CreateAnd(RowBytes, c64(AliasingRowBytes - 1)), c64(0));
  if (auto *Known = dyn_cast<ConstantInt>(Aliasing); Known && Known->isZero())
    return;
  NextB.Group = elementPtr(B, G.B, Pc, Next);
  NextB.RowBytes =
      B.CreateSelect(B.CreateAnd(PerGroup, Aliasing), RowBytes, c64(0));
  NextB.Lines = divideCeil(bGroupRowBytes(), CacheLineBytes);
}

/// The next micro-panel of B read in place (columns from \p Col + NR, rows
/// from \p Pc), when it is a full one of the \p Cols columns left, B's
/// rows are more than 2 KiB apart and the A block has \p Rows < 8 MR,
/// becomes the group prefetchNextBGroup reads ahead (the current panel's
/// first line otherwise): the hardware prefetchers do not follow such
/// strides on Intel cores, and only the first of a panel's micro-kernels
/// waits for its lines. On the Intel device host (family 6 model 207, one
/// core, interleaved rounds, median of the per-round ratios) the 1x1 NCHW
/// convolution 256x56x56 -> 64 (64 x 3136 x 256, B the input, rows 12.5 KB
/// apart, five micro-kernels per panel) ran 1.16x faster and the 3x3 NCHW
/// 64-channel layer's tap GEMMs 1.025x; the 3x3 128-channel layer's (ten
/// micro-kernels per panel, rows 3 KB apart) 0.97x, and rows 436 bytes
/// apart (the 7x7/2 layer's im2col) lost 4%.
void VectorGemmEmitter::setNextInPlaceBPanel(Value *Pc, Value *Col, Value *Cols,
                                             Value *Rows) {
  int64_t PanelRowBytes = Kern.nr() * bElementBytes();
  if (!PrefetchInPlaceB || !Kern.DirectB || NextB.Group || Kern.Scalable ||
      !isConstOne(G.B.ColStride) || PanelRowBytes < CacheLineBytes)
    return;
  int64_t FewRows = 8 * int64_t(Kern.MR);
  Value *RowBytes = B.CreateMul(G.B.RowStride, c64(bElementBytes()));
  Value *Strided = B.CreateICmpSGT(RowBytes, c64(HardwarePrefetchStrideBytes));
  if (auto *Known = dyn_cast<ConstantInt>(Strided); Known && Known->isZero())
    return;
  if (!G.isRuntimeSized() && std::min(G.M, Kern.MC) >= FewRows)
    return;
  Value *FewPanels = B.CreateICmpSLT(Rows, c64(FewRows));
  Value *HasNext =
      B.CreateAnd(B.CreateAnd(InPlaceB, B.CreateAnd(Strided, FewPanels)),
                  B.CreateICmpSGE(Cols, B.CreateMul(NR, c64(2))));
  NextB.Group = elementPtr(B, G.B, Pc,
                           B.CreateSelect(HasNext, B.CreateAdd(Col, NR), Col));
  NextB.RowBytes = B.CreateSelect(HasNext, RowBytes, c64(0));
  NextB.Lines = PanelRowBytes / CacheLineBytes;
}

/// i1: A's extents and row stride let the kernel read it in place
/// (chooseCacheBlocks): N a few register blocks wide, or all of M one A
/// block of cache-line-aligned rows.
Value *VectorGemmEmitter::directAExtentsOK() {
  Value *Narrow =
      B.CreateICmpSLE(G.extentN(B), c64(maxNForDirectA(Kern)), "gemm.narrow");
  Value *RowBytes = B.CreateMul(G.A.RowStride, c64(packBytes()));
  Value *Aligned =
      B.CreateICmpEQ(B.CreateAnd(RowBytes, c64(DirectALineBytes - 1)), c64(0));
  Value *OneBlock = B.CreateICmpSLE(G.extentM(B), c64(Kern.MC));
  Value *OK = B.CreateOr(Narrow, B.CreateAnd(OneBlock, Aligned));
  // Whole k groups (mayReadAInPlace).
  if (Kern.kPad() > 1 && G.RuntimeK)
    OK = B.CreateAnd(
        OK,
        B.CreateICmpEQ(B.CreateAnd(G.RuntimeK, c64(Kern.kPad() - 1)), c64(0)));
  OK->setName("gemm.directa");
  return OK;
}

/// i1: \p Op may be read in place (rowsReadableInPlace) - what its strides and
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
                                      Value *PanelWidth, bool FlipSign) {
  emitPanelCopy(B, {Op, Row0, Col0, Rows, Kc, KIsRow}, Kern.PackT, Kern.KG,
                Panel, PanelWidth, FlipSign);
}

void VectorGemmEmitter::packB(Value *Jc, Value *Pc, Value *Nc, Value *Kc,
                              Value *Kcp) {
  Value *Begin = packFullPanelGroups(Jc, Pc, Nc, Kc, Kcp);
  emitLoop(B, Begin, Nc, NR, "gemm.packb", [&](IRBuilderBase &, Value *Jr) {
    Value *Cols = smin(NR, B.CreateSub(Nc, Jr));
    Value *Panel = packPtr(BpBase, B.CreateMul(Jr, Kcp));
    if (canPackBRows())
      return packBRows(B.CreateAdd(Jc, Jr), Pc, Cols, Kc, Panel);
    // Edge panels get zeros where B has no columns or k values, so the
    // microkernel always runs full width.
    Value *Partial = isPartialPanel(B, Cols, NR, Kc, Kcp);
    auto Pack =
        [&] {
          emitZeroPanelIf(B, Partial, Panel, NR, Kcp, Kern.PackT);
          auto CopyElements = [&] {
            copyIntoPanel(G.B, Pc, B.CreateAdd(Jc, Jr), Cols, Kc,
                          /*KIsRow=*/true, Panel, NR, Kern.flipsB());
          };
          if (canInterleaveB())
            emitIf(
                B, Partial, CopyElements,
                [&] { interleaveIntoPanel(Pc, B.CreateAdd(Jc, Jr), Kcp, Panel); });
          else
            CopyElements();
          if (Kern.flipsA())
            emitColumnSums(Panel, Kc, Kcp, Jr);
        };
    // B read in place: only the partial last micro-panel is packed.
    if (Kern.DirectB)
      emitIf(B, B.CreateOr(Partial, B.CreateNot(InPlaceB)), Pack);
    else
      Pack();
  });
}

// Dot-product panels (KG > 1) of row-major B interleave KG rows: the scalar
// copy's strided byte stores made packing the bulk of a small-M int8 GEMM
// (64 x 4096 x 1024: each packed element serves five micro-kernels).
// Narrower integer B (i8 packed as i16 for vpmaddwd) is widened on the way.
bool VectorGemmEmitter::canInterleaveB() const {
  if (Kern.Scalable)
    return false;
  bool Widen = G.B.Elem->isIntegerTy() && Kern.PackT->isIntegerTy() &&
               G.B.Elem->getIntegerBitWidth() <
                   Kern.PackT->getIntegerBitWidth();
  return Kern.KG > 1 && (G.B.Elem == Kern.PackT || Widen) &&
         isConstOne(G.B.ColStride);
}

// Micro-panels interleaved together: as many as one register-wide load of a
// B row covers (int8 on AVX-512: 32-column panels, two per 64-byte row
// load). One panel at a time reads half of each cache line per pass down
// the k rows, and the other half a pass later, from L2 (64 x 1024 x 1024
// s8s8: packing B was 28% of the GEMM).
unsigned VectorGemmEmitter::panelsPerInterleave() const {
  if (!canInterleaveB())
    return 1;
  unsigned RowBytes = unsigned(Kern.nr() * bElementBytes());
  return std::max(1u, Kern.RegBytes / RowBytes);
}

/// Packs B's columns [0, end) of this block, \returns end: whole groups of
/// panelsPerInterleave() full micro-panels (none when the K block has a
/// k tail, whose panels are zero-padded); packB packs the rest one by one.
Value *VectorGemmEmitter::packFullPanelGroups(Value *Jc, Value *Pc, Value *Nc,
                                              Value *Kc, Value *Kcp) {
  unsigned Panels = panelsPerInterleave();
  if (Panels == 1)
    return c64(0);
  Value *Group = c64(Panels * Kern.nr());
  Value *End =
      B.CreateSelect(B.CreateICmpEQ(Kc, Kcp),
                     B.CreateMul(B.CreateUDiv(Nc, Group), Group), c64(0));
  emitLoop(B, c64(0), End, Group, "gemm.packb.group",
           [&](IRBuilderBase &, Value *Jr) {
             Value *Panel = packPtr(BpBase, B.CreateMul(Jr, Kcp));
             interleaveIntoPanel(Pc, B.CreateAdd(Jc, Jr), Kcp, Panel, Panels);
             if (!Kern.flipsA())
               return;
             for (unsigned P = 0; P < Panels; ++P) {
               Value *First = B.CreateAdd(Jr, c64(P * Kern.nr()));
               emitColumnSums(packPtr(BpBase, B.CreateMul(First, Kcp)), Kc,
                              Kcp, First);
             }
           });
  return End;
}

namespace {

/// Shuffles \p Rows (KG vectors of one B row's columns each) into the
/// packed k-group order: element c * KG + g of the result holds row g's
/// column c; returns the result in pieces of \p PieceElems elements (one
/// register each). As one shuffle of all rows, a 4 x 64-byte interleave
/// left x86 without VBMI ~40 instructions on 128-bit parts (64 x 1024 x
/// 1024 int8: -7%); instead log2(KG) rounds of unpacks within 16-byte
/// lanes (x86's punpckl/h, AArch64's zip1/2) gather each column's k group,
/// and each piece then only moves whole lanes (vshufi64x2, vpermt2q).
/// The masks follow where every element went, so the result does not
/// depend on the rounds' order.
SmallVector<Value *, 8> interleaveRows(IRBuilderBase &B, ArrayRef<Value *> Rows,
                                       unsigned PieceElems) {
  auto *RowTy = cast<FixedVectorType>(Rows[0]->getType());
  unsigned Width = RowTy->getNumElements(), KG = Rows.size();
  unsigned LaneElems =
      std::min(Width, std::max(1u, 128 / RowTy->getScalarSizeInBits()));
  // Source of every element: Row * Width + Column.
  SmallVector<Value *, 4> Vecs(Rows.begin(), Rows.end());
  SmallVector<SmallVector<unsigned, 64>, 4> Src(KG);
  for (unsigned R = 0; R < KG; ++R)
    for (unsigned C = 0; C < Width; ++C)
      Src[R].push_back(R * Width + C);
  // Round with groups of G elements: vectors 2i and 2i + 1 give their low
  // halves' groups alternately (lo_i), then their high halves' (hi_i); the
  // next round pairs lo_0 with lo_1, hi_0 with hi_1.
  for (unsigned G = 1; G < KG && LaneElems >= 2 * G; G *= 2) {
    SmallVector<Value *, 4> Next[2];
    SmallVector<SmallVector<unsigned, 64>, 4> NextSrc[2];
    for (unsigned I = 0; I + 1 < Vecs.size(); I += 2)
      for (unsigned Half = 0; Half < 2; ++Half) {
        SmallVector<int, 64> Mask;
        SmallVector<unsigned, 64> From;
        for (unsigned L = 0; L < Width; L += LaneElems)
          for (unsigned Grp = 0; Grp < LaneElems / 2; Grp += G)
            for (unsigned V = 0; V < 2; ++V)
              for (unsigned E = 0; E < G; ++E) {
                unsigned At = L + Half * LaneElems / 2 + Grp + E;
                Mask.push_back(V * Width + At);
                From.push_back(Src[I + V][At]);
              }
        Next[Half].push_back(B.CreateShuffleVector(Vecs[I], Vecs[I + 1], Mask));
        NextSrc[Half].push_back(From);
      }
    Vecs = Next[0];
    Vecs.append(Next[1].begin(), Next[1].end());
    Src = NextSrc[0];
    Src.append(NextSrc[1].begin(), NextSrc[1].end());
  }
  // Where each source element is now, in the vectors' concatenation.
  SmallVector<unsigned, 256> Where(KG * Width);
  for (unsigned V = 0; V < Vecs.size(); ++V)
    for (unsigned E = 0; E < Width; ++E)
      Where[Src[V][E]] = V * Width + E;
  Value *All = concatenateVectors(B, Vecs);
  SmallVector<Value *, 8> Pieces;
  for (unsigned First = 0; First < KG * Width; First += PieceElems) {
    SmallVector<int, 64> Mask;
    for (unsigned I = First; I < First + PieceElems; ++I)
      Mask.push_back(Where[(I % KG) * Width + I / KG]);
    Pieces.push_back(B.CreateShuffleVector(All, Mask));
  }
  return Pieces;
}

} // namespace

//   for kq < Kcp / KG:
//     row[g] = load <P*NR x T> B[Pc + kq*KG + g][Col0 ..]      (g < KG)
//              (sext/zext <P*NR x B elem> to <P*NR x T> when B is narrower)
//     Panel_p[kq][c][g] = row[g][p*NR + c]: interleaveRows, P stores of
//     NR*KG elements
// \p Panels (P) full micro-panels (NR columns each, Kcp = Kc), consecutive
// in the packed buffer from \p Panel on.
void VectorGemmEmitter::interleaveIntoPanel(Value *Pc, Value *Col0, Value *Kcp,
                                            Value *Panel, unsigned Panels) {
  unsigned Width = Kern.nr(), KG = Kern.KG, RowWidth = Panels * Width;
  auto *RowTy = FixedVectorType::get(G.B.Elem, RowWidth);
  auto *WideTy = FixedVectorType::get(Kern.PackT, RowWidth);
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
               if (Kern.flipsB())
                 Row = B.CreateXor(Row, ConstantInt::get(WideTy, 0x80));
               Rows.push_back(Row);
             }
             // One register per piece; panel p starts Kcp * NR elements
             // after panel p - 1.
             unsigned PieceElems =
                 std::min(Width * KG,
                          Kern.RegBytes * 8u /
                              unsigned(Kern.PackT->getPrimitiveSizeInBits()));
             SmallVector<Value *, 8> Pieces =
                 interleaveRows(B, Rows, PieceElems);
             Value *At = B.CreateMul(Kq, c64(Width * KG));
             for (unsigned I = 0; I < Pieces.size(); ++I) {
               unsigned First = I * PieceElems;
               unsigned P = First / (Width * KG);
               Value *Offset =
                   B.CreateAdd(B.CreateMul(Kcp, c64(P * Width)),
                               B.CreateAdd(At, c64(First % (Width * KG))));
               B.CreateAlignedStore(Pieces[I], packPtr(Panel, Offset),
                                    Align(std::min(64u, Kern.RegBytes)));
             }
           });
}

// Scalable vectors, B with contiguous rows, one k per lane, converted in
// vectors: each k row of the micro-panel is NV predicated loads (zeros past
// the last column), converted to the packed type.
bool VectorGemmEmitter::canPackBRows() const {
  return Kern.Scalable && Kern.KG == 1 && isConstOne(G.B.ColStride) &&
         Kern.Scalable->ConvertsInVectors(G.B.Elem,
                                          *B.GetInsertBlock()->getParent());
}

void VectorGemmEmitter::packBRows(Value *Col0, Value *Pc, Value *Cols,
                                  Value *Kc, Value *Panel) {
  auto *SrcT = VectorType::get(G.B.Elem, Kern.lanes());
  Constant *Zero = Constant::getNullValue(SrcT);
  emitLoop(
      B, c64(0), Kc, c64(1), "gemm.packb.k", [&](IRBuilderBase &, Value *K) {
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

// ColSums[SumsAt + c]: what column c of the B micro-panel at \p Panel (of
// \p Kc k values, padded to \p Kcp) adds to each of its sums for A's
// flipped sign bits (see the file comment): -128 * sum_k B(k, c) for
// vpdpbusd's A + 128; for xvi8ger4's A - 128, +128 * sum_k B'(k, c) of the
// packed bytes, and -16384 * Kc where B is flipped too.
void VectorGemmEmitter::emitColumnSums(Value *Panel, Value *Kc, Value *Kcp,
                                       Value *SumsAt) {
  SmallVector<Value *, 8> Corrections;
  if (Kern.Dot == DotKind::Matrix) {
    Value *KTerm = nullptr;
    if (Kern.flipsB())
      KTerm = B.CreateVectorSplat(
          Kern.lanes(),
          B.CreateTrunc(B.CreateMul(Kc, c64(-16384)), Kern.AccT));
    auto Step = [&](Value *Sums, Value *At) {
      return sumMatrixGroups(Sums, At, /*Signed=*/false);
    };
    for (Value *Sum :
         sumPanelGroups(Panel, Kcp, Kern.NV, "gemm.colsum", Step)) {
      Value *Correction = B.CreateShl(Sum, 7);
      Corrections.push_back(KTerm ? B.CreateAdd(Correction, KTerm)
                                  : Correction);
    }
  } else {
    // The kernel's own byte dot product (BiasA: vpdpbusd) on 0x80 bytes:
    // 128 * sum_k B(k, c).
    Value *Bias = ConstantInt::get(Kern.accVec(), 0x80808080u);
    auto Step = [&](Value *Sums, Value *At) {
      return emitDotStep(Sums, Bias, loadBVector(At));
    };
    for (Value *Sum :
         sumPanelGroups(Panel, Kcp, Kern.NV, "gemm.colsum", Step))
      Corrections.push_back(B.CreateNeg(Sum));
  }
  storeCorrections(Corrections, ColSums, SumsAt);
}

// Per 32-bit lane, the sums over the k groups of a packed micro-panel
// whose k groups are \p Vectors vectors of W lanes each (B: W columns per
// vector; a matrix kernel's A: 4 rows): \p Step adds the group at its
// address to the lanes' sums.
SmallVector<Value *, 8> VectorGemmEmitter::sumPanelGroups(
    Value *Panel, Value *Kcp, unsigned Vectors, StringRef Name,
    function_ref<Value *(Value *Sums, Value *At)> Step) {
  unsigned VectorElems = Kern.W * Kern.KG;
  SmallVector<Value *, 8> Init(Vectors,
                               Constant::getNullValue(Kern.accVec()));
  return emitLoop(
      B, c64(0), B.CreateUDiv(Kcp, c64(Kern.KG)), c64(1), Name,
      Init, [&](IRBuilderBase &, Value *Kq, ArrayRef<Value *> Sums) {
        SmallVector<Value *, 8> Next;
        Value *Row = B.CreateMul(Kq, c64(Vectors * VectorElems));
        for (unsigned V = 0; V < Vectors; ++V)
          Next.push_back(Step(
              Sums[V], packPtr(Panel, B.CreateAdd(Row, c64(V * VectorElems)))));
        return Next;
      });
}

// Sums + the bytes of each 32-bit lane of the 16 at \p At, read as
// \p Signed (a matrix kernel's SumGroups: Power's vmsum).
Value *VectorGemmEmitter::sumMatrixGroups(Value *Sums, Value *At,
                                          bool Signed) {
  auto *Bytes = FixedVectorType::get(B.getInt8Ty(), 16);
  return Kern.Matrix.SumGroups(
      B, Sums, B.CreateAlignedLoad(Bytes, At, Align(16)), Signed);
}

// Buffer[At + V * W + lane] = Vectors[V][lane].
void VectorGemmEmitter::storeCorrections(ArrayRef<Value *> Vectors,
                                         Value *Buffer, Value *At) {
  for (unsigned V = 0; V < Vectors.size(); ++V)
    B.CreateAlignedStore(
        Vectors[V],
        B.CreateGEP(Kern.AccT, Buffer, B.CreateAdd(At, c64(V * Kern.W))),
        Align(4));
}

// ColSums' vector V of the B micro-panel at column Jr.
Value *VectorGemmEmitter::loadColumnCorrections(Value *Jr, unsigned V) {
  return B.CreateAlignedLoad(
      Kern.accVec(),
      B.CreateGEP(Kern.AccT, ColSums, B.CreateAdd(Jr, c64(V * Kern.W))),
      Align(4));
}

// RowSums[SumsAt + r]: what row r of the A micro-panel at \p Panel adds to
// each of its sums for B's flipped sign bits (xvi8ger4's B + 128): -128 *
// sum_k A'(r, k), the packed bytes read as xvi8ger4 reads them (signed).
void VectorGemmEmitter::emitRowSums(Value *Panel, Value *Kcp, Value *SumsAt) {
  auto Step = [&](Value *Sums, Value *At) {
    return sumMatrixGroups(Sums, At, /*Signed=*/true);
  };
  SmallVector<Value *, 8> Corrections;
  for (Value *Sum :
       sumPanelGroups(Panel, Kcp, Kern.MR / Kern.W, "gemm.rowsum", Step))
    Corrections.push_back(
        B.CreateMul(Sum, ConstantInt::get(Kern.accVec(), -128)));
  storeCorrections(Corrections, RowSums, SumsAt);
}

// \p Acc, the block of micro-panels (Ir, Jr) from flipped operands, with
// each row's and each column's correction added (ColSums, RowSums).
SmallVector<Value *, 32>
VectorGemmEmitter::correctFlippedSums(SmallVector<Value *, 32> Acc, Value *Ir,
                                      Value *Jr) {
  unsigned MR = Kern.MR;
  SmallVector<Value *, 16> Row(MR, nullptr);
  if (Kern.flipsB())
    for (unsigned R = 0; R < MR; ++R)
      Row[R] = B.CreateVectorSplat(
          Kern.lanes(),
          B.CreateAlignedLoad(
              Kern.AccT,
              B.CreateGEP(Kern.AccT, RowSums, B.CreateAdd(Ir, c64(R))),
              Align(4)));
  for (unsigned V = 0; V < Kern.NV; ++V) {
    Value *Column = Kern.flipsA() ? loadColumnCorrections(Jr, V) : nullptr;
    for (unsigned R = 0; R < MR; ++R) {
      Value *&Sums = Acc[V * MR + R];
      if (Column)
        Sums = B.CreateAdd(Sums, Column);
      if (Row[R])
        Sums = B.CreateAdd(Sums, Row[R]);
    }
  }
  return Acc;
}

void VectorGemmEmitter::packA(Value *Ic, Value *Pc, Value *Mc, Value *Kc,
                              Value *Kcp) {
  unsigned MR = Kern.MR;
  if (AllInPlace)
    return;
  emitLoop(
      B, c64(0), Mc, c64(MR), "gemm.packa", [&](IRBuilderBase &, Value *Ir) {
        Value *Rows = smin(c64(MR), B.CreateSub(Mc, Ir));
        Value *Panel = packPtr(ApBase, B.CreateMul(Ir, Kcp));
        emitZeroPanelIf(B, isPartialPanel(B, Rows, c64(MR), Kc, Kcp), Panel,
                        c64(MR), Kcp, Kern.PackT);
        Value *Row0 = B.CreateAdd(Ic, Ir);
        auto Copy = [&] {
          copyIntoPanel(G.A, Row0, Pc, Rows, Kc, /*KIsRow=*/false, Panel,
                        c64(MR), Kern.flipsA());
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
        // A read in place: only the partial last micro-panel is packed,
        // unless the tail micro-kernel reads it in place too.
        if (Kern.DirectA)
          emitIf(B,
                 B.CreateOr(B.CreateAnd(B.CreateICmpSLT(Rows, c64(MR)),
                                        B.CreateNot(tailReadsInPlace(Rows))),
                            B.CreateNot(InPlaceA)),
                 Pack);
        else
          Pack();
        // (Matrix kernels, which flip B, never read A in place.)
        if (Kern.flipsB())
          emitRowSums(Panel, Kcp, Ir);
      });
}

// Row-major A on a kernel of i16 pairs (x86's vpmaddwd): full
// micro-panels are packed 16 k values (8 k pairs; 8 for MR > 8) at a time
// with vector loads and one shuffle.
bool VectorGemmEmitter::canWidenA() const {
  return Kern.Dot == DotKind::TargetDot && !Kern.Scalable && Kern.KG == 2 &&
         Kern.PackT->isIntegerTy(16) && G.A.Elem->isIntegerTy() &&
         isConstOne(G.A.ColStride) && Kern.MR <= 16;
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
                packPtr(Panel, B.CreateMul(KVec, c64(MR))), c64(MR),
                /*FlipSign=*/false);
}

// Row-major A on an AVX-512 kernel, no conversion: full micro-panels are
// packed W k groups at a time by a vector transpose (MR <= W rows). A k
// group is one element for FMA, one 32-bit lane of KG elements for the dot
// products (vpdpbusd's 4 bytes, vdpbf16ps's 2 bf16, vpmaddwd's 2 i16).
bool VectorGemmEmitter::canTransposeA() const {
  bool Groups = Kern.Dot == DotKind::FMA ||
                (Kern.Dot == DotKind::TargetDot &&
                 Kern.KG * Kern.PackT->getPrimitiveSizeInBits() == 32);
  return Groups && !Kern.Scalable && Kern.RegBytes == 64 &&
         G.A.Elem == Kern.PackT && isConstOne(G.A.ColStride) &&
         Kern.MR <= Kern.W && isPowerOf2_32(Kern.W);
}

// Panel[k/KG][r][k%KG] = A[Row0 + r][Col0 + k] for r < MR, k < Kc, one
// k group (KG elements) as one lane of type T:
//   for k0 < Kc - Kc % (W KG) step W KG:
//     rows[r] = load <W x T> A[Row0 + r][Col0 + k0 ...]   (rows >= MR: poison;
//               BiasA: each byte's sign bit flipped)
//     log2(W) perfect-shuffle stages (out[2i] = interleave-low(in[i],
//     in[i + W/2]), out[2i+1] = interleave-high) transpose the W x W block
//     masked store of the first MR lanes of column q -> Panel[(k0 + q KG) MR]
//   the last Kc % (W KG) k values element by element.
// Each stage is W two-source shuffles (vpermt2ps/d); 16 x 14 f32 take 64
// shuffles and 16 stores instead of 224 scalar loads and stores (1024^3
// f32 spent ~6% of its time in the element-by-element A copy, s8s8s32 256^3
// a quarter of it: each byte took a load, a flip and a store).
void VectorGemmEmitter::transposeIntoPanel(Value *Row0, Value *Col0, Value *Kc,
                                           Value *Panel) {
  unsigned W = Kern.W, MR = Kern.MR, KG = Kern.KG;
  Type *T = KG == 1 ? Kern.PackT
                    : B.getIntNTy(KG * Kern.PackT->getPrimitiveSizeInBits());
  auto *VecT = FixedVectorType::get(T, W);
  Value *KVec = B.CreateAnd(Kc, c64(-int64_t(W * KG)));
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
  emitLoop(B, c64(0), KVec, c64(W * KG), "gemm.packa.t",
           [&](IRBuilderBase &, Value *K0) {
             SmallVector<Value *, 32> V(W, PoisonValue::get(VecT));
             for (unsigned R = 0; R < MR; ++R) {
               V[R] = B.CreateAlignedLoad(VecT,
                                          elementPtr(B, G.A,
                                                     B.CreateAdd(Row0, c64(R)),
                                                     B.CreateAdd(Col0, K0)),
                                          ElemAlign);
               if (Kern.biasA())
                 V[R] = B.CreateXor(V[R], ConstantInt::get(VecT, 0x80808080u));
             }
             for (unsigned Stage = 1; Stage < W; Stage *= 2) {
               SmallVector<Value *, 32> Next(W);
               for (unsigned I = 0; I < W / 2; ++I) {
                 Next[2 * I] = B.CreateShuffleVector(V[I], V[I + W / 2], Lo);
                 Next[2 * I + 1] =
                     B.CreateShuffleVector(V[I], V[I + W / 2], Hi);
               }
               V = Next;
             }
             for (unsigned Q = 0; Q < W; ++Q)
               B.CreateMaskedStore(
                   V[Q],
                   packPtr(Panel,
                           B.CreateMul(B.CreateAdd(K0, c64(Q * KG)), c64(MR))),
                   ElemAlign, StoreMask);
           });
  copyIntoPanel(G.A, Row0, B.CreateAdd(Col0, KVec), c64(MR),
                B.CreateSub(Kc, KVec), /*KIsRow=*/false,
                packPtr(Panel, B.CreateMul(KVec, c64(MR))), c64(MR),
                Kern.biasA());
}

Value *VectorGemmEmitter::loadABroadcast(Value *Ptr, bool FlipSign) {
  // One k group of one row: KG packed elements read as one lane.
  Type *LaneT =
      Kern.KG == 1
          ? Kern.PackT
          : B.getIntNTy(Kern.KG * Kern.PackT->getPrimitiveSizeInBits());
  // A k group read in place is aligned to its elements only.
  Value *Lane = B.CreateAlignedLoad(
      LaneT, Ptr, elementAlign(Kern.DirectA ? Kern.PackT : LaneT));
  // A target instruction that takes A's element as a scalar (RVV's .vf
  // forms): no splat.
  if (Kern.Dot == DotKind::TargetDot && Kern.TargetDot.EmitScalarStep)
    return Lane;
  // Widening: the scalar extended, so the backend multiplies by a scalar
  // register (RVV vwmacc.vx) rather than a widened splat.
  if (Kern.Dot == DotKind::TargetDot && Kern.TargetDot.Widening)
    Lane = B.CreateSExt(Lane, Kern.AccT);
  Value *Splat = B.CreateVectorSplat(Kern.lanes(), Lane);
  if (FlipSign) {
    APInt SignBits = APInt::getSplat(LaneT->getPrimitiveSizeInBits(),
                                     APInt(8, 0x80));
    Splat = B.CreateXor(Splat, ConstantInt::get(Splat->getType(), SignBits));
  }
  return Splat;
}

Value *VectorGemmEmitter::loadBVector(Value *Ptr, bool InPlace) {
  // Packed panels of fixed-width vectors are aligned to the register.
  Align A = InPlace || Kern.Scalable ? Align(packBytes())
                                     : Align(std::min(64u, Kern.RegBytes));
  return B.CreateAlignedLoad(Kern.opVec(), Ptr, A);
}

//   acc += splat(sext(a)) * sext(b) (RVV's vwmacc.vx on i16 operands; A
//   arrives extended: the microkernel's broadcast), or
//   acc = sdot(acc, <[vscale x] 16 x i8> A group x 4, <[vscale x] 16 x i8> B):
//   lane l gets the sum of 4 products (bfdot: <[vscale x] 8 x bf16>, 2), or
//   the target's own step on A's element (RVV vfwmacc.vf).
Value *VectorGemmEmitter::emitTargetDotStep(Value *Acc, Value *ABroadcast,
                                            Value *BVec) {
  const VectorDot &Dot = Kern.TargetDot;
  if (Dot.EmitScalarStep)
    return Dot.EmitScalarStep(B, Acc, ABroadcast, BVec);
  if (Dot.Widening)
    return B.CreateAdd(
        Acc, B.CreateMul(ABroadcast, B.CreateSExt(BVec, Kern.accVec())));
  return emitVectorDotCall(B, Dot, Acc, ABroadcast, BVec);
}

Value *VectorGemmEmitter::emitDotStep(Value *Acc, Value *ABroadcast,
                                      Value *BVec) {
  if (Kern.Dot == DotKind::TargetDot)
    return emitTargetDotStep(Acc, ABroadcast, BVec);
  return multiplyAdd(B, Acc, ABroadcast, BVec);
}

// When all of M is one A block, each packed B micro-panel serves the
// microkernels of that block only: B is packed a group of micro-panels
// (panelsPerInterleave) at a time, right before they run, into a buffer
// that stays in L1/L2, instead of the whole B panel (NC x KC) before them,
// whose buffer pushed B itself out of L2 (64 x 1024 x 1024 int8: a 1 MiB
// B and a 1 MiB packed copy). Fixed-width vectors only (a group's width is
// a constant).
VectorGemmEmitter::BPacking VectorGemmEmitter::bPacking() const {
  if (Kern.Scalable)
    return BPacking::WholePanel;
  if (G.isRuntimeSized())
    return BPacking::AtRunTime;
  return !Kern.DirectB && G.M <= Kern.MC ? BPacking::PerGroup
                                         : BPacking::WholePanel;
}

/// The micro-kernels of A block [Ic, +Mc) and B columns [Jc, +Nc), column
/// panels outside: full micro-panels (and any other partial one) by the
/// MR-row micro-kernel; a partial last one of TailRows rows by a
/// micro-kernel of that many rows, reading A in place where the full ones
/// do (else its packed panel) and storing whole rows. Packing it in
/// place's stead (a strided gather for a convolution's pixels), computing
/// MR rows and storing them through EdgeBuf cost as much as several full
/// panels (7x7 stride 2 convolution, 109 = 9 x 11 + 10 pixels per row: 8%).
void VectorGemmEmitter::emitMicrokernels(Value *Ic, Value *Jc, Value *Mc,
                                         Value *Nc, const KBlock &KB) {
  // With a tail kernel, the full panels end where its partial one starts
  // (a run-time tail is a k loop inside emitMicrokernel).
  bool SeparateTail = TailRows && !RuntimeTail;
  Value *Tail = nullptr, *FullEnd = Mc;
  if (SeparateTail) {
    Value *Partial = B.CreateURem(Mc, c64(Kern.MR));
    Tail = isTailPanel(Partial);
    FullEnd = B.CreateSelect(Tail, B.CreateSub(Mc, Partial), Mc);
  }
  emitLoop(B, c64(0), Nc, NR, "gemm.jr", [&](IRBuilderBase &, Value *Jr) {
    emitLoop(B, c64(0), FullEnd, c64(Kern.MR), "gemm.ir",
             [&](IRBuilderBase &, Value *Ir) {
               emitMicrokernel(Ic, Ir, Jc, Jr, KB.Pc, Mc, Nc, KB.Kcp, KB.AddC,
                               KB.LastK, KB.FirstK);
             });
    if (!SeparateTail)
      return;
    emitIf(B, Tail, [&] {
      SaveAndRestore<unsigned> TailMR(Kern.MR, TailRows);
      SaveAndRestore<bool> InTailKernel(InTail, true);
      emitMicrokernel(Ic, FullEnd, Jc, Jr, KB.Pc, Mc, Nc, KB.Kcp, KB.AddC,
                      KB.LastK, KB.FirstK);
    });
  });
}

/// Whether a partial last micro-panel (of the last A block: MC is a
/// multiple of MR, so it has M % MR rows) gets a micro-kernel of its own:
/// M known when compiling, fixed-width vectors on FMA or dot products.
bool VectorGemmEmitter::tailKernelApplies() const {
  return TailMicrokernels && !G.isRuntimeSized() && !Kern.Scalable &&
         Kern.Dot != DotKind::Matrix;
}

void VectorGemmEmitter::emitMicrokernel(Value *Ic, Value *Ir, Value *Jc,
                                        Value *Jr, Value *Pc, Value *Mc,
                                        Value *Nc, Value *Kcp, Value *AddC,
                                        Value *LastK, Value *FirstK) {
  unsigned MR = Kern.MR, NV = Kern.NV, KG = Kern.KG;
  MicroPanels P;
  P.A = packPtr(ApBase, B.CreateMul(Ir, Kcp));
  P.B = packPtr(BpBase, B.CreateMul(Jr, Kcp));
  P.AStride = c64(PanelRows * KG);
  P.ARowStride = c64(KG);
  P.BStride = B.CreateMul(NR, c64(KG));
  if (Kern.DirectB) {
    // Full-width micro-panels straight from B (row stride of B), the
    // partial last one from its packed copy.
    Value *Full =
        B.CreateAnd(B.CreateICmpSGE(B.CreateSub(Nc, Jr), NR), InPlaceB);
    P.B =
        B.CreateSelect(Full, elementPtr(B, G.B, Pc, B.CreateAdd(Jc, Jr)), P.B);
    P.BStride = B.CreateSelect(Full, G.B.RowStride, P.BStride);
  }
  // Full-height micro-panels straight from A, the partial last one from
  // its packed copy.
  Value *FullA = nullptr;
  MicroPanels InPlace = P;
  if (Kern.DirectA) {
    FullA = AllInPlace ? B.getTrue()
            : InTail && !RuntimeTail
                ? InPlaceA
                : B.CreateAnd(B.CreateICmpSGE(B.CreateSub(Mc, Ir), c64(MR)),
                              InPlaceA);
    InPlace.A = elementPtr(B, G.A, B.CreateAdd(Ic, Ir), Pc);
    InPlace.AStride = c64(KG);
    InPlace.ARowStride = G.A.RowStride;
    InPlace.FlipABroadcasts = Kern.biasA();
  }
  // With A's row stride known when compiling, each kind of micro-panel
  // gets a k loop of its own, whose broadcasts address the rows at
  // constant offsets; a select of the two strides left an address
  // computation per row in every k step. Always where only in-place
  // panels flip their broadcasts (a flip in every k loop cost packed A
  // 4%: s8s8s32 1024 x 1024 x 64 on Zen 5).
  bool KLoopPerPanelKind = Kern.DirectA &&
                           (isa<Constant>(G.A.RowStride) || Kern.biasA()) &&
                           !Kern.Scalable && Kern.Dot != DotKind::Matrix;
  if (Kern.DirectA && !KLoopPerPanelKind) {
    P.A = B.CreateSelect(FullA, InPlace.A, P.A);
    P.AStride = B.CreateSelect(FullA, InPlace.AStride, P.AStride);
    P.ARowStride = B.CreateSelect(FullA, InPlace.ARowStride, P.ARowStride);
  }

  // Accumulators start at zero, or at -128 * column sums for biased A.
  SmallVector<Value *, 32> Init;
  for (unsigned V = 0; V < NV; ++V) {
    Value *Start = Constant::getNullValue(Kern.accVec());
    if (Kern.biasA())
      Start = loadColumnCorrections(Jr, V);
    for (unsigned R = 0; R < MR; ++R)
      Init.push_back(Start);
  }
  Value *CRow0 = B.CreateAdd(Ic, Ir), *CCol0 = B.CreateAdd(Jc, Jr);
  Value *CLastRow = B.CreateSub(smin(c64(MR), B.CreateSub(Mc, Ir)), c64(1));
  SaveAndRestore<NextBPrefetch> Next(NextB);
  setNextInPlaceBPanel(Pc, CCol0, B.CreateSub(Nc, Jr), Mc);
  auto Prefetch = [&](Value *Iteration) {
    prefetchCRow(Iteration, CRow0, CCol0, CLastRow, LastK);
    prefetchNextBGroup(Iteration, Ir);
  };
  auto KLoop = [&](const MicroPanels &Panels) -> SmallVector<Value *, 32> {
    if (Kern.Dot == DotKind::Matrix) {
      SmallVector<Value *, 32> Block = emitMMAKLoop(
          B, Kern.Matrix, cast<FixedVectorType>(Kern.accVec()), Panels.A,
          Panels.B, Panels.BStride, Kcp);
      return Kern.Matrix.flipsSigns() ? correctFlippedSums(Block, Ir, Jr)
                                      : Block;
    }
    // (No prefetches: not measured on hardware with scalable vectors.)
    if (Kern.Scalable)
      return emitKLoop(Panels, Kcp, Init, nullptr);
    return emitKLoop(Panels, Kcp, Init, Prefetch);
  };
  auto FullKLoop = [&] {
    return KLoopPerPanelKind ? emitKLoopOnEither(FullA, InPlace, P, KLoop)
                             : KLoop(P);
  };
  Value *Rows = smin(c64(MR), B.CreateSub(Mc, Ir));
  // A run-time tail: TailRows rows of the packed panel, the rest of the
  // accumulators at their start (never stored: Rows <= TailRows).
  auto TailKLoop = [&] {
    SaveAndRestore<unsigned> TailMR(Kern.MR, TailRows);
    SmallVector<Value *, 32> TailInit, Acc(Init.begin(), Init.end());
    for (unsigned V = 0; V < NV; ++V)
      TailInit.append(Init.begin() + V * MR, Init.begin() + V * MR + TailRows);
    SmallVector<Value *, 32> TailAcc = emitKLoop(P, Kcp, TailInit, Prefetch);
    for (unsigned V = 0; V < NV; ++V)
      for (unsigned R = 0; R < TailRows; ++R)
        Acc[V * MR + R] = TailAcc[V * TailRows + R];
    return Acc;
  };
  SmallVector<Value *, 32> Acc =
      RuntimeTail ? emitEither(isTailPanel(Rows), TailKLoop, FullKLoop)
                  : FullKLoop();
  Value *Cols = smin(NR, B.CreateSub(Nc, Jr));
  Value *Row0 = B.CreateAdd(Ic, Ir), *Col0 = B.CreateAdd(Jc, Jr);
  if (Kern.Scalable)
    storeScalableBlock(Acc, Row0, Col0, Rows, Cols, AddC, LastK, FirstK);
  else
    storeFinishedOrPartial(Acc, Row0, Col0, Rows, Cols, AddC, LastK, FirstK);
}

// KLoop on \p IfTrue's micro-panels or \p IfFalse's, as \p Cond says; the
// accumulators of the two merged.
SmallVector<Value *, 32> VectorGemmEmitter::emitKLoopOnEither(
    Value *Cond, const MicroPanels &IfTrue, const MicroPanels &IfFalse,
    function_ref<SmallVector<Value *, 32>(const MicroPanels &)> KLoop) {
  return emitEither(
      Cond, [&] { return KLoop(IfTrue); }, [&] { return KLoop(IfFalse); });
}

// The accumulators \p IfTrue or \p IfFalse computes, as \p Cond says.
SmallVector<Value *, 32> VectorGemmEmitter::emitEither(
    Value *Cond, function_ref<SmallVector<Value *, 32>()> IfTrue,
    function_ref<SmallVector<Value *, 32>()> IfFalse) {
  if (auto *Known = dyn_cast<ConstantInt>(Cond))
    return Known->isOne() ? IfTrue() : IfFalse();
  SmallVector<Value *, 32> AccTrue, AccFalse;
  BasicBlock *EndTrue = nullptr, *EndFalse = nullptr;
  emitIf(
      B, Cond,
      [&] {
        AccTrue = IfTrue();
        EndTrue = B.GetInsertBlock();
      },
      [&] {
        AccFalse = IfFalse();
        EndFalse = B.GetInsertBlock();
      });
  SmallVector<Value *, 32> Acc;
  for (unsigned I = 0; I < AccTrue.size(); ++I) {
    PHINode *Phi = B.CreatePHI(AccTrue[I]->getType(), 2, "gemm.acc");
    Phi->addIncoming(AccTrue[I], EndTrue);
    Phi->addIncoming(AccFalse[I], EndFalse);
    Acc.push_back(Phi);
  }
  return Acc;
}

// Starts the C block on its way while the k loop runs: it is read once at
// the end, typically from L3 or memory (2048^3 f32: +5-20%). One row per
// k group in the first MR k groups (a burst of all MR x 2 lines before the
// loop waited for fill buffers when C is in memory).
void VectorGemmEmitter::prefetchCRow(Value *Kq, Value *Row0, Value *Col0,
                                     Value *LastRow, Value *LastK) {
  unsigned LinesPerRow =
      std::max(1u, unsigned(Kern.nr() * Kern.AccT->getPrimitiveSizeInBits() /
                            8 / CacheLineBytes));
  emitIf(B, B.CreateICmpULT(Kq, c64(Kern.MR)), [&] {
    Value *Row = B.CreateAdd(Row0, smin(Kq, LastRow));
    Value *P = elementPtr(B, G.C, Row, Col0);
    // The last K block of a GEMM with Out writes Out (and reads C only
    // after earlier blocks).
    if (G.Out.Ptr)
      P = B.CreateSelect(LastK, elementPtr(B, G.Out, Row, Col0), P);
    for (unsigned L = 0; L < LinesPerRow; ++L)
      B.CreateIntrinsic(
          Intrinsic::prefetch, {B.getPtrTy()},
          {B.CreateConstGEP1_64(B.getInt8Ty(), P, L * CacheLineBytes),
           B.getInt32(1), B.getInt32(3), B.getInt32(1)});
  });
}

// One line of the next B group (setNextBGroup) that k loop iteration
// \p Iteration's rows will pack: the micro-kernels of a group take turns
// (the one at row \p Ir its line of each row's share, and for dot products
// its row of the KG * KUnroll each iteration reads), so each issues one
// prefetch per iteration. Int8 dot products issuing four (every row of the
// k group) ran 3% faster on a quiet machine and 7% slower on a busy one.
void VectorGemmEmitter::prefetchNextBGroup(Value *Iteration, Value *Ir) {
  if (!NextB.Group)
    return;
  unsigned Lines = unsigned(NextB.Lines);
  unsigned Rows = Kern.KG * Kern.KUnroll;
  Value *Turn =
      B.CreateURem(B.CreateUDiv(Ir, c64(PanelRows)), c64(Rows * Lines));
  Value *Row = B.CreateAdd(B.CreateMul(Iteration, c64(Rows)),
                           B.CreateUDiv(Turn, c64(Lines)));
  Value *Offset = B.CreateAdd(
      B.CreateMul(Row, NextB.RowBytes),
      B.CreateMul(B.CreateURem(Turn, c64(Lines)), c64(CacheLineBytes)));
  B.CreateIntrinsic(Intrinsic::prefetch, {B.getPtrTy()},
                    {B.CreateGEP(B.getInt8Ty(), NextB.Group, Offset),
                     B.getInt32(0), B.getInt32(/*L2=*/2), B.getInt32(1)});
}

// Acc[V * MR + R] holds row R, columns [V*W, V*W + W) of the block, from
// \p Init; KUnroll k groups per iteration (Kcp is a multiple of
// KG * KUnroll). With \p Prefetch, which issues the caller's prefetches
// (C's rows, the next B group) for an iteration, A's micro-panel is
// prefetched too.
SmallVector<Value *, 32>
VectorGemmEmitter::emitKLoop(const MicroPanels &P, Value *Kcp,
                             ArrayRef<Value *> Init,
                             function_ref<void(Value *)> Prefetch) {
  unsigned MR = Kern.MR, NV = Kern.NV, KG = Kern.KG, KU = Kern.KUnroll;
  return emitLoop(
      B, c64(0), B.CreateUDiv(Kcp, c64(KG)), c64(KU), "gemm.k", Init,
      [&](IRBuilderBase &, Value *Kq, ArrayRef<Value *> Cur) {
        SmallVector<Value *, 8> Next(Cur.begin(), Cur.end());
        for (unsigned U = 0; U < KU; ++U) {
          Value *KqU = U ? B.CreateAdd(Kq, c64(U)) : Kq;
          Value *BRow = B.CreateMul(KqU, P.BStride);
          Value *ARow = B.CreateMul(KqU, P.AStride);
          SmallVector<Value *, 4> BVecs;
          for (unsigned V = 0; V < NV; ++V)
            BVecs.push_back(loadBVector(
                packPtr(P.B, B.CreateAdd(BRow, B.CreateMul(VL, c64(V * KG)))),
                Kern.DirectB));
          if (U == 0 && Prefetch) {
            Prefetch(KU == 1 ? Kq : B.CreateUDiv(Kq, c64(KU)));
            // The A micro-panel streams from L2: fetch 8 k groups ahead.
            B.CreateIntrinsic(
                Intrinsic::prefetch, {B.getPtrTy()},
                {packPtr(P.A,
                         B.CreateAdd(ARow, B.CreateMul(P.AStride, c64(8)))),
                 B.getInt32(0), B.getInt32(3), B.getInt32(1)});
          }
          for (unsigned R = 0; R < MR; ++R) {
            Value *ABcast = loadABroadcast(
                packPtr(P.A,
                        B.CreateAdd(ARow, B.CreateMul(c64(R), P.ARowStride))),
                P.FlipABroadcasts);
            for (unsigned V = 0; V < NV; ++V)
              Next[V * MR + R] =
                  emitDotStep(Next[V * MR + R], ABcast, BVecs[V]);
          }
        }
        return Next;
      });
}

// Partial sums: C is read only after the first K block. A branch (the
// same way for a whole K block) rather than a select keeps the first
// block from loading C - a pass over C in memory when K fits one block
// but is known only at run time.
void VectorGemmEmitter::storeFinishedOrPartial(ArrayRef<Value *> Acc,
                                               Value *Row0, Value *Col0,
                                               Value *Rows, Value *Cols,
                                               Value *AddC, Value *LastK,
                                               Value *FirstK) {
  // storeBlock with AddC as a branch when it is not a constant.
  auto StoreSplit = [&](Value *AddCNow, bool Finished) {
    if (isa<Constant>(AddCNow))
      return storeBlock(Acc, Row0, Col0, Rows, Cols, AddCNow, Finished, FirstK);
    emitIf(
        B, AddCNow,
        [&] {
          storeBlock(Acc, Row0, Col0, Rows, Cols, B.getTrue(), Finished,
                     FirstK);
        },
        [&] {
          storeBlock(Acc, Row0, Col0, Rows, Cols, B.getFalse(), Finished,
                     FirstK);
        });
  };
  if (!G.Epilogue)
    return StoreSplit(AddC, false);
  // LastK is the same for a whole K block: the branch predicts perfectly.
  auto StoreFinished = [&] {
    // C is a separate buffer of partial sums: a single K block never
    // reads it.
    if (G.Out.Ptr && !G.Accumulate)
      return StoreSplit(AddC, true);
    storeBlock(Acc, Row0, Col0, Rows, Cols, AddC, true, FirstK);
  };
  emitIf(B, LastK, StoreFinished, [&] { StoreSplit(AddC, false); });
}

/// The value C gets at (Row, Col..): the sum so far (\p Old, null when
/// nothing was summed yet) plus this block's, and on the last K block the
/// epilogue of it.
Value *VectorGemmEmitter::finish(Value *AddC, Value *Old, Value *Acc,
                                 Value *Row, Value *Col, bool ApplyEpilogue) {
  Value *Sum = Old ? addOrKeep(B, AddC, Old, Acc) : Acc;
  return ApplyEpilogue ? G.Epilogue(B, Sum, Row, Col) : Sum;
}

/// Whether a block's store reads the sums so far: AddC is not the constant
/// false (a first K block without initial sums).
bool readsSums(Value *AddC) {
  auto *ConstAddC = dyn_cast<ConstantInt>(AddC);
  return !ConstAddC || ConstAddC->isOne();
}

void VectorGemmEmitter::storeBlock(ArrayRef<Value *> Acc, Value *Row0,
                                   Value *Col0, Value *Rows, Value *Cols,
                                   Value *AddC, bool ApplyEpilogue,
                                   Value *FirstK) {
  unsigned MR = Kern.MR, NV = Kern.NV, W = Kern.W;
  // Partial sums are C's; finished values go to Out when there is one.
  const GemmOperand &Dst = ApplyEpilogue ? G.result() : G.C;
  bool ReadsC = readsSums(AddC);
  bool RowsContiguous =
      (!ReadsC || (isConstOne(G.C.ColStride) &&
                   (!G.Init.Ptr || isConstOne(G.Init.ColStride)))) &&
      isConstOne(Dst.ColStride);
  auto StoreThroughBuffer = [&] {
    storeThroughBuffer(Acc, Row0, Col0, Rows, Cols, AddC, ApplyEpilogue,
                       FirstK);
  };
  if (!RowsContiguous) {
    StoreThroughBuffer();
    return;
  }
  auto StoreEdge = [&] {
    if (Kern.MaskedStores)
      return storeMaskedRows(Acc, Row0, Col0, Rows, Cols, AddC, ApplyEpilogue,
                             FirstK);
    StoreThroughBuffer();
  };
  Value *Full =
      B.CreateAnd(B.CreateICmpEQ(Rows, c64(MR)), B.CreateICmpEQ(Cols, NR));
  emitIf(
      B, Full,
      [&] {
        for (unsigned R = 0; R < MR; ++R) {
          Value *Row = B.CreateAdd(Row0, c64(R));
          Value *OldRow = sumsPtr(Row, Col0, FirstK);
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
      StoreEdge);
}

// The sums so far: C's, or on the first K block Init's.
Value *VectorGemmEmitter::sumsPtr(Value *Row, Value *Col, Value *FirstK) {
  Value *P = elementPtr(B, G.C, Row, Col);
  return G.Init.Ptr ? B.CreateSelect(FirstK, elementPtr(B, G.Init, Row, Col), P)
                    : P;
}

// Scalable vectors: the sums go to C under predicates (or through a
// scratch block), and the epilogue, written for fixed-width vectors, is a
// pass over the finished block while it is in L1.
void VectorGemmEmitter::storeScalableBlock(ArrayRef<Value *> Acc, Value *Row0,
                                           Value *Col0, Value *Rows,
                                           Value *Cols, Value *AddC,
                                           Value *LastK, Value *FirstK) {
  if (EdgeBuf)
    storeThroughBuffer(Acc, Row0, Col0, Rows, Cols, AddC,
                       /*ApplyEpilogue=*/false, FirstK);
  else
    storePredicated(Acc, Row0, Col0, Rows, Cols, AddC, FirstK);
  if (G.Epilogue)
    emitIf(B, LastK,
           [&] { emitEpiloguePass(B, G, G.C, Row0, Rows, Col0, Cols); });
}

// for r < MR, v < NV (rows >= Rows: an empty predicate):
//   p = whilelo(v x VL, Cols)
//   C[Row0 + r][Col0 + v x VL ..] = (AddC ? sums[..] : 0) + Acc, under p
void VectorGemmEmitter::storePredicated(ArrayRef<Value *> Acc, Value *Row0,
                                        Value *Col0, Value *Rows, Value *Cols,
                                        Value *AddC, Value *FirstK) {
  bool ReadsC = readsSums(AddC);
  Align A = elementAlign(Kern.AccT);
  Constant *None =
      Constant::getNullValue(VectorType::get(B.getInt1Ty(), Kern.lanes()));
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

// Edge blocks on fixed-width targets with masked loads and stores
// (Kern.MaskedStores), C's rows contiguous: straight from the
// accumulators, row by row while r < Rows, NV vectors of a row under the
// columns' lane masks:
//   Dst[Row0 + r][Col0 + v x W ..] = finish(sums[..] + Acc), under
//   lanes v x W + l < Cols
// The scalar copies through EdgeBuf, which LLVM vectorized with edges of
// their own, cost more code and compile time (the 12-layer MLP's shared
// GEMM with dispatch: 44.9 -> 43.2 KB of text, 0.80 -> 0.76 s). Full
// blocks keep their plain stores: stored under masks of all ones too
// (38.3 KB), the chain of row branches cost the s8s8s32 6 x 64 kernel on
// Zen 5 a register in the k loop (a spill per k step: 512^3 880 -> 710
// GOP/s). (Through EdgeBuf and a loop over its rows, LLVM promoted the
// buffer to registers across the column loop where the sizes are
// constants, and spilled them.)
void VectorGemmEmitter::storeMaskedRows(ArrayRef<Value *> Acc, Value *Row0,
                                        Value *Col0, Value *Rows, Value *Cols,
                                        Value *AddC, bool ApplyEpilogue,
                                        Value *FirstK) {
  const GemmOperand &Dst = ApplyEpilogue ? G.result() : G.C;
  bool ReadsC = readsSums(AddC);
  // Lane l of vector v is column v x W + l < Cols <= NR: compared as i32,
  // what AVX2 compares in one instruction (llvm.get.active.lane.mask's i64
  // lanes took two and packing).
  SmallVector<Value *, 4> ColMask;
  Value *Cols32 =
      B.CreateVectorSplat(Kern.W, B.CreateTrunc(Cols, B.getInt32Ty()));
  for (unsigned V = 0; V < Kern.NV; ++V) {
    SmallVector<Constant *, 16> Lanes;
    for (unsigned L = 0; L < Kern.W; ++L)
      Lanes.push_back(B.getInt32(V * Kern.W + L));
    ColMask.push_back(B.CreateICmpULT(ConstantVector::get(Lanes), Cols32));
  }
  auto StoreRow = [&](unsigned R) {
    Value *Row = B.CreateAdd(Row0, c64(R));
    for (unsigned V = 0; V < Kern.NV; ++V) {
      Value *Col = B.CreateAdd(Col0, c64(V * Kern.W));
      Value *Old =
          ReadsC ? B.CreateMaskedLoad(Kern.accVec(), sumsPtr(Row, Col, FirstK),
                                      elementAlign(Kern.AccT), ColMask[V])
                 : nullptr;
      B.CreateMaskedStore(
          finish(AddC, Old, Acc[V * Kern.MR + R], Row, Col, ApplyEpilogue),
          elementPtr(B, Dst, Row, Col), elementAlign(Dst.Elem), ColMask[V]);
    }
  };
  // Row 0 always; row r where Rows > r, each under the one before.
  std::function<void(unsigned)> From = [&](unsigned R) {
    StoreRow(R);
    if (R + 1 < Kern.MR)
      emitIf(B, B.CreateICmpSGT(Rows, c64(R + 1)), [&] { From(R + 1); });
  };
  From(0);
}

// Edge blocks, and C (or Init) without contiguous rows: the accumulators
// go to EdgeBuf (MR rows of NR), then element by element through C's
// strides.
void VectorGemmEmitter::storeThroughBuffer(ArrayRef<Value *> Acc, Value *Row0,
                                           Value *Col0, Value *Rows,
                                           Value *Cols, Value *AddC,
                                           bool ApplyEpilogue, Value *FirstK) {
  unsigned MR = Kern.MR, NV = Kern.NV;
  // Partial sums are C's; finished values go to Out when there is one.
  const GemmOperand &Dst = ApplyEpilogue ? G.result() : G.C;
  bool ReadsC = readsSums(AddC);
  for (unsigned V = 0; V < NV; ++V)
    for (unsigned R = 0; R < MR; ++R) {
      Value *Offset =
          B.CreateAdd(B.CreateMul(NR, c64(R)), B.CreateMul(VL, c64(V)));
      // Both buffers (the alloca, the runtime's scratch) are 64-byte aligned.
      Align A = elementAlign(Kern.AccT);
      if (auto *C = dyn_cast<ConstantInt>(Offset))
        A = commonAlignment(Align(64), C->getZExtValue() *
                                           Kern.AccT->getScalarSizeInBits() /
                                           8);
      B.CreateAlignedStore(Acc[V * MR + R],
                           B.CreateGEP(Kern.AccT, EdgeBuf, Offset), A);
    }
  // RowInit: the first K block of initial sums repeated along C's rows
  // (Init's column stride 0, e.g. a broadcast zero or bias): one element
  // per row, so the column loop vectorizes without gathers whatever the
  // target's tuning (a u8s8s32 GEMM's shared kernel stores every tile
  // here: 1024x1024x64 without -march 168 -> 610 GOP/s on Zen 5, the
  // -march=native build's speed; 256^3 348 -> 568).
  auto Loops = [&](bool RowInit) {
    emitLoop(
        B, c64(0), Rows, c64(1), "gemm.edge.r", [&](IRBuilderBase &, Value *R) {
          Value *Row = B.CreateAdd(Row0, R);
          Value *InitOfRow =
              RowInit
                  ? B.CreateLoad(Kern.AccT, elementPtr(B, G.Init, Row, Col0))
                  : nullptr;
          emitLoop(
              B, c64(0), Cols, c64(1), "gemm.edge.c",
              [&](IRBuilderBase &, Value *C) {
                Value *Part = B.CreateLoad(
                    Kern.AccT, B.CreateGEP(Kern.AccT, EdgeBuf,
                                           B.CreateAdd(B.CreateMul(R, NR), C)));
                Value *Col = B.CreateAdd(Col0, C);
                Value *Old = InitOfRow ? InitOfRow
                             : ReadsC  ? B.CreateLoad(Kern.AccT,
                                                      sumsPtr(Row, Col, FirstK))
                                       : nullptr;
                B.CreateStore(finish(AddC, Old, Part, Row, Col, ApplyEpilogue),
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
}

} // namespace

/// The rows \p Kern computes for \p M rows of a run-time-sized GEMM: whole
/// micro-panels, and a partial last one as the run-time tail's rows where
/// it has no more, else as MR.
static int64_t rowsComputed(int64_t M, const GemmDesc &G,
                            const VectorKernel &Kern) {
  int64_t Full = M / Kern.MR * Kern.MR, Partial = M - Full;
  int64_t Tail = runtimeTailRows(G, Kern);
  return Full + (Partial == 0 ? 0 : Partial <= Tail ? Tail : int64_t(Kern.MR));
}

// A block of more than 2% fewer rows at M = SmallRuntimeM pays for its
// loop nest (M = 64 on AVX-512's 14 rows: 70, on 13 rows 65, +7.7%; on
// AVX2's and SSE2's 6 rows 66, on 5 rows 65, +1.5%). It serves every M
// when it has at most an eighth fewer rows than the widest: Zen 5, f32
// run-time sizes, 13 x 32 for 14 x 32 at M = 48 .. 2048 within 2% either
// way (64 x 1024 x 1024 equal, 128 x 512 x 512 +2%, 100 x 1000 x 1000 -2%),
// and the 12-layer MLP with dispatch compiled in 0.59 s for 0.74 s, 32
// KB of text for 44; AVX2's 5 x 16 for 6 x 16 lost 5-8% at M >= 64.
SmallRowsBlocking chooseSmallRowsBlocking(const GemmDesc &G,
                                          const TargetTransformInfo &TTI,
                                          const Function &F) {
  GemmDesc Small = G;
  Small.M = SmallRuntimeM;
  VectorKernel General, OfSmall;
  std::string Unused;
  if (!chooseVectorKernel(G, TTI, F, General, Unused) ||
      !chooseVectorKernel(Small, TTI, F, OfSmall, Unused))
    return SmallRowsBlocking::AsAnyM;
  if (General.nr() != OfSmall.nr())
    return SmallRowsBlocking::SecondNest;
  if (rowsComputed(SmallRuntimeM, G, General) * 100 <=
      rowsComputed(SmallRuntimeM, Small, OfSmall) * 102)
    return SmallRowsBlocking::AsAnyM;
  return OfSmall.MR * 8 >= General.MR * 7 ? SmallRowsBlocking::ForEveryM
                                          : SmallRowsBlocking::SecondNest;
}

bool emitVectorGemm(IRBuilderBase &B, const GemmDesc &G,
                    const TargetTransformInfo &TTI, GemmPlan &Plan,
                    std::string &Why) {
  Function *F = B.GetInsertBlock()->getParent();
  VectorKernel Kern;
  if (!chooseVectorKernel(G, TTI, *F, Kern, Why))
    return false;
  auto EmitShare = [&](IRBuilderBase &B, const GemmDesc &Share) {
    if (!Kern.Scalable)
      requireVectorWidth(*B.GetInsertBlock()->getParent(), Kern.RegBytes * 8);
    VectorGemmEmitter(B, Share, Kern).emit();
  };
  // Threads share C in whole register blocks; of a 512-bit vector's for
  // scalable vectors (any other length computes the same values, only with
  // a partial block more).
  emitThreadedGemm(B, G, Kern.MR, Kern.nrAtVectorBits(512), Plan, EmitShare);
  Plan.Kernel = describeVectorKernel(G, Kern);
  Plan.MC = Kern.MC;
  Plan.NC = Kern.NC;
  Plan.KC = Kern.KC;
  Plan.MR = Kern.MR;
  Plan.NR = Kern.nr();
  Plan.ScalableNR = Kern.Scalable != nullptr;
  Plan.PackedA = !Kern.DirectA;
  Plan.PackedB = !Kern.DirectB;
  return true;
}

} // namespace gemm
} // namespace tlx
