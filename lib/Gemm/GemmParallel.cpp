//===- GemmParallel.cpp - GEMMs on every OpenMP thread --------------------===//
//
// With -fopenmp (the module's "openmp" flag, which clang sets from the
// language options), a GEMM big enough to pay for a fork runs on the OpenMP
// runtime's threads, through the calls clang emits for
// `#pragma omp parallel` around `#pragma omp for schedule(static)`:
//
//   call @__kmpc_fork_call(ptr @ident, i32 1, ptr @tlx.par.gemm, ptr %env)
//
//   define internal void @tlx.par.gemm(ptr %gtid, ptr %btid, ptr %env) {
//     ; this thread's units (micro-panels of the split dimension) [lb, ub]
//     __kmpc_for_static_init_8(@ident, gtid, 34, &last, &lb, &ub, &st, 1, 1)
//     if (lb <= ub)
//       GEMM on C's rows (or columns) [lb * Unit, min(M, (ub + 1) * Unit))
//     __kmpc_for_static_fini(@ident, gtid)
//   }
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
#include "Plugin/Options.h"

#include "llvm/Frontend/OpenMP/OMPIRBuilder.h"
#include "llvm/IR/Constants.h"
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

namespace {

/// libomp's schedule kind for `schedule(static)` without a chunk size.
constexpr int32_t StaticSchedule = 34;

/// The OpenMP runtime's entry points and source location records, created
/// the way clang's OpenMP code generation creates them.
class OpenMPCalls {
public:
  explicit OpenMPCalls(Module &M) : OMP(M) { OMP.initialize(); }

  /// The ident_t of an unknown source location (as OpenMPIRBuilder's
  /// work-sharing loops use).
  Constant *ident() {
    uint32_t Size;
    Constant *Str = OMP.getOrCreateDefaultSrcLocStr(Size);
    return OMP.getOrCreateIdent(Str, Size);
  }
  FunctionCallee get(omp::RuntimeFunction Fn) {
    return OMP.getOrCreateRuntimeFunction(OMP.M, Fn);
  }

private:
  OpenMPIRBuilder OMP;
};

/// One thread's rows or columns [Begin, End); Any is false when it has none.
struct ThreadShare {
  Value *Begin, *End, *Any;
};

/// Emits at \p TB, in a parallel region, the static work-sharing of
/// \p Units units of \p Unit rows or columns (\p Extent in all, the last
/// unit possibly shorter) and returns this thread's share.

ThreadShare emitStaticShare(IRBuilderBase &TB, OpenMPCalls &Calls,
                            Value *Gtid, int64_t Units, int64_t Unit,
                            int64_t Extent) {
  Type *I32 = TB.getInt32Ty(), *I64 = TB.getInt64Ty();
  Value *Last = TB.CreateAlloca(I32, nullptr, "omp.last");
  Value *Lb = TB.CreateAlloca(I64, nullptr, "omp.lb");
  Value *Ub = TB.CreateAlloca(I64, nullptr, "omp.ub");
  Value *Stride = TB.CreateAlloca(I64, nullptr, "omp.stride");
  TB.CreateStore(TB.getInt32(0), Last);
  TB.CreateStore(TB.getInt64(0), Lb);
  TB.CreateStore(TB.getInt64(Units - 1), Ub);
  TB.CreateStore(TB.getInt64(1), Stride);
  TB.CreateCall(Calls.get(omp::OMPRTL___kmpc_for_static_init_8),
                {Calls.ident(), Gtid,
                 TB.getInt32(StaticSchedule), Last, Lb, Ub, Stride,
                 TB.getInt64(1), TB.getInt64(1)});
  Value *First = TB.CreateLoad(I64, Lb, "omp.first");
  // The runtime may hand out an upper bound past the last unit.
  Value *LastUnit = TB.CreateIntrinsic(
      Intrinsic::smin, {I64}, {TB.CreateLoad(I64, Ub), TB.getInt64(Units - 1)});
  Value *Begin = TB.CreateMul(First, TB.getInt64(Unit), "share.begin");
  Value *End = TB.CreateIntrinsic(
      Intrinsic::smin, {I64},
      {TB.CreateMul(TB.CreateAdd(LastUnit, TB.getInt64(1)), TB.getInt64(Unit)),
       TB.getInt64(Extent)},
      nullptr, "share.end");
  return {Begin, End, TB.CreateICmpSLE(First, LastUnit, "share.any")};
}

/// `void (ptr %gtid, ptr %btid, ptr %env)`: an outlined parallel region as
/// __kmpc_fork_call calls it, with \p Caller's target.
Function *createParallelRegion(Function &Caller) {
  LLVMContext &Ctx = Caller.getContext();
  auto *Ptr = PointerType::get(Ctx, 0);
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, Ptr}, false);
  Function *Task = createKernelFunction(Caller, FT, "tlx.par.gemm", "");
  for (unsigned Arg : {0u, 1u}) {
    Task->addParamAttr(Arg, Attribute::NoAlias);
    Task->addParamAttr(Arg, Attribute::NoUndef);
  }
  Task->getArg(0)->setName("gtid");
  Task->getArg(1)->setName("btid");
  Task->getArg(2)->setName("env");
  return Task;
}

} // namespace

GemmSplit chooseGemmSplit(const Function &F, const GemmDesc &G, int64_t MR,
                          int64_t NR) {
  const Module &M = *F.getParent();
  auto *OpenMP = mdconst::extract_or_null<ConstantInt>(M.getModuleFlag("openmp"));
  if (!OpenMP || OpenMP->isZero() || !pipelineOptions().Threads ||
      G.M * G.N * G.K < ThreadsMinWork || G.RowBegin || G.ColBegin)
    return GemmSplit::None;
  // Split the larger dimension: the other operand is packed by every thread.
  if (G.M >= G.N)
    return G.M >= 2 * MR ? GemmSplit::Rows : GemmSplit::None;
  return G.N >= 2 * NR ? GemmSplit::Cols : GemmSplit::None;
}

namespace {

/// Forks \p Units units of \p Unit rows or columns (\p Extent in all)
/// over the OpenMP threads at \p B: each thread runs \p EmitBody's code on
/// its share, in an outlined region that reads the caller's values from an
/// environment struct.
void emitParallelRegion(
    IRBuilderBase &B, int64_t Units, int64_t Unit, int64_t Extent,
    function_ref<void(IRBuilderBase &, const ThreadShare &)> EmitBody) {
  Function &Caller = *B.GetInsertBlock()->getParent();
  Module &M = *Caller.getParent();
  OpenMPCalls Calls(M);
  Function *Task = createParallelRegion(Caller);
  IRBuilder<> TB(BasicBlock::Create(M.getContext(), "entry", Task));
  Value *Gtid = TB.CreateLoad(TB.getInt32Ty(), Task->getArg(0), "omp.gtid");
  ThreadShare Share = emitStaticShare(TB, Calls, Gtid, Units, Unit, Extent);
  emitIf(TB, Share.Any, [&] { EmitBody(TB, Share); });
  TB.CreateCall(Calls.get(omp::OMPRTL___kmpc_for_static_fini),
                {Calls.ident(), Gtid});
  TB.CreateRetVoid();

  Value *Env = passCallerValues(*Task, 2, B);
  B.CreateCall(Calls.get(omp::OMPRTL___kmpc_fork_call),
               {Calls.ident(), B.getInt32(1), Task, Env});
}

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

void emitForkedGemm(IRBuilderBase &B, const GemmDesc &G, GemmSplit Split,
                    int64_t Unit, GemmPlan &Plan,
                    function_ref<void(IRBuilderBase &, const GemmDesc &)>
                        EmitShare) {
  assert(Split != GemmSplit::None && "nothing to fork");
  bool ByRows = Split == GemmSplit::Rows;
  int64_t Extent = ByRows ? G.M : G.N;
  int64_t Units = (Extent + Unit - 1) / Unit;
  emitParallelRegion(
      B, Units, Unit, Extent, [&](IRBuilderBase &TB, const ThreadShare &S) {
        GemmDesc Part = G;
        (ByRows ? Part.RowBegin : Part.ColBegin) = S.Begin;
        (ByRows ? Part.RowEnd : Part.ColEnd) = S.End;
        EmitShare(TB, Part);
      });
  Plan.Split = describeSplit(ByRows, Units, Unit);
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
      B, Units, Chunk, Extent, [&](IRBuilderBase &TB, const ThreadShare &S) {
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
