//===- GemmParallel.cpp - GEMMs on every OpenMP thread --------------------===//
//
// With -fopenmp (the module's "openmp" flag, which clang sets from the
// language options), a GEMM big enough to pay for a fork runs on the OpenMP
// runtime's threads in a parallel region (Codegen/Threads.h) whose units
// are the micro-panels of the split dimension: each thread runs the GEMM
// on C's rows (or columns) [lb * Unit, min(M, (ub + 1) * Unit)).
//
// Each thread computes a contiguous share of C as a GEMM of its own, with
// its own packing buffers (tlxrt_scratch's are per thread): no barrier, no
// shared buffer, no false sharing of C. The price is packing the operand
// every share reads in full once per thread - B when C is split by rows,
// A when by columns - so the split takes the larger of M and N, and that
// operand's packing is then a 1/min(M, N)-th of the multiply-adds (0.1% at
// 1024^3). Threads follow OMP_NUM_THREADS / omp_set_num_threads; inside the
// user's own parallel region the runtime runs the fork on the calling
// thread alone (no nested parallelism unless the user enables it).
// docs/pipeline.md, "Threads".
//
//===----------------------------------------------------------------------===//

#include "Gemm/GemmEmitterImpl.h"
#include "Codegen/Threads.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

// A fork and join of libomp's hot team costs a few microseconds, a 128^3
// f32 GEMM about 25 on one core. Tests lower it to split small GEMMs too
// (clang: -mllvm -tlx-threads-min-work=0).
static cl::opt<int64_t> ThreadsMinWork(
    "tlx-threads-min-work", cl::Hidden, cl::init(128 * 128 * 128),
    cl::desc("Multiply-adds below which a GEMM stays on the calling thread"));

namespace tlx {
namespace gemm {

/// The multiply-adds a GEMM needs to be split over threads when each
/// costs \p WorkPerMAC times a blocked GEMM's.
static int64_t minWork(int64_t WorkPerMAC) {
  return ThreadsMinWork / WorkPerMAC;
}

GemmSplit chooseGemmSplit(const Function &F, const GemmDesc &G, int64_t MR,
                          int64_t NR, int64_t WorkPerMAC) {
  // Run-time-sized GEMMs decide at run time (emitRuntimeForkedGemm).
  if (!threadsEnabled(*F.getParent()) || isParallelRegion(F) ||
      G.isRuntimeSized() ||
      G.M * G.N * G.K * WorkPerMAC < ThreadsMinWork || G.RowBegin ||
      G.ColBegin)
    return GemmSplit::None;
  // Split the larger dimension: the other operand is packed by every thread.
  if (G.M >= G.N)
    return G.M >= 2 * MR ? GemmSplit::Rows : GemmSplit::None;
  return G.N >= 2 * NR ? GemmSplit::Cols : GemmSplit::None;
}

namespace {

std::string describeSplit(bool ByRows, int64_t Units, int64_t Unit) {
  return std::string(ByRows ? "rows" : "columns") + ", " +
         std::to_string(Units) + " blocks of " + std::to_string(Unit);
}

/// The rows (\p ByRows) or columns [Offset, Offset + Size) of \p G as a
/// GEMM of their own: its operands start there and its epilogue is told
/// where its values really are.
GemmDesc subGemm(IRBuilderBase &B, const GemmDesc &G, bool ByRows,
                 Value *Offset, int64_t Size) {
  GemmDesc Part = G;
  Value *Zero = B.getInt64(0);
  Value *Row = ByRows ? Offset : Zero, *Col = ByRows ? Zero : Offset;
  auto Shift = [&](GemmOperand &Op, bool Rows) {
    if (Op.Ptr)
      Op.Ptr = Rows ? elementPtr(B, Op, Offset, Zero)
                    : elementPtr(B, Op, Zero, Offset);
  };
  Shift(ByRows ? Part.A : Part.B, ByRows);
  for (GemmOperand *Op : {&Part.C, &Part.Out, &Part.Init})
    Shift(*Op, ByRows);
  (ByRows ? Part.M : Part.N) = Size;
  if (G.Epilogue)
    Part.Epilogue = [Epilogue = G.Epilogue, Row, Col](
                        IRBuilderBase &B, Value *Acc, Value *R, Value *C) {
      return Epilogue(B, Acc, B.CreateAdd(R, Row), B.CreateAdd(C, Col));
    };
  return Part;
}

} // namespace

GemmDesc shareAsGemm(IRBuilderBase &B, const GemmDesc &Share) {
  if (!Share.RowBegin && !Share.ColBegin)
    return Share;
  // A static split sets one of the ranges, a run-time one both.
  GemmDesc Part = Share;
  Part.RuntimeM = Share.extentM(B);
  Part.RuntimeN = Share.extentN(B);
  Part.RuntimeK = Share.extentK(B);
  if (Share.RowBegin) {
    Part = subGemm(B, Part, /*ByRows=*/true, Share.RowBegin, Share.M);
    Part.RuntimeM = B.CreateSub(Share.RowEnd, Share.RowBegin);
  }
  if (Share.ColBegin) {
    Part = subGemm(B, Part, /*ByRows=*/false, Share.ColBegin, Share.N);
    Part.RuntimeN = B.CreateSub(Share.ColEnd, Share.ColBegin);
  }
  Part.RowBegin = Part.RowEnd = Part.ColBegin = Part.ColEnd = nullptr;
  return Part;
}

void emitForkedGemm(IRBuilderBase &B, const GemmDesc &G, GemmSplit Split,
                    int64_t Unit, GemmPlan &Plan,
                    function_ref<void(IRBuilderBase &, const GemmDesc &)>
                        EmitShare) {
  assert(Split != GemmSplit::None && "nothing to fork");
  bool ByRows = Split == GemmSplit::Rows;
  int64_t Extent = ByRows ? G.M : G.N;
  int64_t Units = (Extent + Unit - 1) / Unit;
  emitParallelRegion(
      B, "tlx.par.gemm", Units, Unit, Extent,
      [&](IRBuilderBase &TB, const ThreadShare &S) {
        GemmDesc Part = G;
        (ByRows ? Part.RowBegin : Part.ColBegin) = S.Begin;
        (ByRows ? Part.RowEnd : Part.ColEnd) = S.End;
        EmitShare(TB, Part);
      });
  Plan.Split = describeSplit(ByRows, Units, Unit);
}

bool emitRuntimeForkedGemm(
    IRBuilderBase &B, const GemmDesc &G, int64_t MR, int64_t NR,
    GemmPlan &Plan,
    function_ref<void(IRBuilderBase &, const GemmDesc &)> EmitShare,
    int64_t WorkPerMAC) {
  const Function &F = *B.GetInsertBlock()->getParent();
  if (!threadsEnabled(*F.getParent()) || isParallelRegion(F) || G.RowBegin ||
      G.ColBegin)
    return false;
  // chooseGemmSplit's rules on the run-time extents: M*N*K (M*N < 2^62;
  // compared as M*N >= ceil(min work / K)) and two blocks to share.
  Value *M = G.extentM(B), *N = G.extentN(B), *K = G.extentK(B);
  Value *One = B.getInt64(1);
  Value *KAtLeast1 = B.CreateIntrinsic(Intrinsic::smax, {B.getInt64Ty()},
                                       {K, One});
  Value *PerK = B.CreateUDiv(
      B.CreateAdd(B.getInt64(minWork(WorkPerMAC)),
                  B.CreateSub(KAtLeast1, One)),
      KAtLeast1);
  Value *ByRows = B.CreateICmpSGE(M, N, "par.byrows");
  Value *Unit = B.CreateSelect(ByRows, B.getInt64(MR), B.getInt64(NR));
  Value *Extent = B.CreateSelect(ByRows, M, N, "par.extent");
  Value *Fork = B.CreateAnd(
      B.CreateAnd(B.CreateICmpSGT(K, B.getInt64(0)),
                  B.CreateICmpSGE(B.CreateMul(M, N), PerK)),
      B.CreateICmpSGE(Extent, B.CreateMul(Unit, B.getInt64(2))), "par.fork");
  emitIf(
      B, Fork,
      [&] {
        Value *Units = B.CreateUDiv(
            B.CreateAdd(Extent, B.CreateSub(Unit, One)), Unit, "par.units");
        emitParallelRegion(
            B, "tlx.par.gemm", Units, Unit, Extent,
            [&](IRBuilderBase &TB, const ThreadShare &S) {
              GemmDesc Part = G;
              Value *Zero = TB.getInt64(0);
              Part.RowBegin = TB.CreateSelect(ByRows, S.Begin, Zero);
              Part.RowEnd = TB.CreateSelect(ByRows, S.End, M);
              Part.ColBegin = TB.CreateSelect(ByRows, Zero, S.Begin);
              Part.ColEnd = TB.CreateSelect(ByRows, N, S.End);
              EmitShare(TB, Part);
            });
      },
      [&] { EmitShare(B, G); });
  Plan.Split = "the larger of rows and columns, in blocks of " +
               std::to_string(MR) + " rows or " + std::to_string(NR) +
               " columns, when M*N*K >= " +
               std::to_string(minWork(WorkPerMAC)) +
               " at run time";
  return true;
}

void emitThreadedGemm(
    IRBuilderBase &B, const GemmDesc &G, int64_t MR, int64_t NR,
    GemmPlan &Plan,
    function_ref<void(IRBuilderBase &, const GemmDesc &)> EmitShare,
    int64_t WorkPerMAC) {
  if (G.isRuntimeSized()) {
    if (!emitRuntimeForkedGemm(B, G, MR, NR, Plan, EmitShare, WorkPerMAC))
      EmitShare(B, G);
    return;
  }
  const Function &F = *B.GetInsertBlock()->getParent();
  GemmSplit Split = chooseGemmSplit(F, G, MR, NR, WorkPerMAC);
  if (Split == GemmSplit::None)
    EmitShare(B, G);
  else
    emitForkedGemm(B, G, Split, Split == GemmSplit::Rows ? MR : NR, Plan,
                   EmitShare);
}

int64_t amxThreadChunk(const GemmDesc &G) {
  // 64: two 32 x 32 tile blocks. About 8 chunks split evenly over 2 or 4
  // threads and within 1/8 over 3.
  int64_t Extent = std::max(G.M, G.N);
  return std::max<int64_t>(64, roundUp((Extent + 7) / 8, 64));
}

void emitForkedChunks(IRBuilderBase &B, const GemmDesc &G, GemmSplit Split,
                      int64_t Chunk, GemmPlan &Plan,
                      function_ref<void(IRBuilderBase &, const GemmDesc &)>
                          EmitChunk) {
  assert(Split != GemmSplit::None && "nothing to fork");
  bool ByRows = Split == GemmSplit::Rows;
  int64_t Extent = ByRows ? G.M : G.N;
  int64_t Units = (Extent + Chunk - 1) / Chunk;
  int64_t Whole = Extent / Chunk * Chunk;
  emitParallelRegion(
      B, "tlx.par.gemm", Units, Chunk, Extent,
      [&](IRBuilderBase &TB, const ThreadShare &S) {
        Value *WholeEnd = TB.CreateIntrinsic(Intrinsic::smin, {TB.getInt64Ty()},
                                             {S.End, TB.getInt64(Whole)});
        emitLoop(TB, S.Begin, WholeEnd, TB.getInt64(Chunk), "par.chunk",
                 [&](IRBuilderBase &TB, Value *At) {
                   EmitChunk(TB, subGemm(TB, G, ByRows, At, Chunk));
                 });
        if (Whole < Extent)
          emitIf(TB, TB.CreateICmpSGT(S.End, TB.getInt64(Whole)), [&] {
            EmitChunk(TB, subGemm(TB, G, ByRows, TB.getInt64(Whole),
                                  Extent - Whole));
          });
      });
  Plan.Split = describeSplit(ByRows, Units, Chunk);
}

} // namespace gemm
} // namespace tlx
