//===- Threads.cpp - OpenMP parallel regions for TLX's kernels ------------===//
//
// The fork / static work-sharing skeleton clang emits for `#pragma omp
// parallel` around `#pragma omp for schedule(static)`, built for code TLX
// emits (GEMMs: Gemm/GemmParallel.cpp; loop nests: tlx-legalize).
// docs/pipeline.md, "Threads".
//
//===----------------------------------------------------------------------===//

#include "Codegen/Threads.h"
#include "Codegen/KernelFunctions.h"
#include "Codegen/Loops.h"
#include "Plugin/Options.h"
#include "Codegen/KernelOutliner.h"

#include "llvm/Frontend/OpenMP/OMPIRBuilder.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

namespace {

/// libomp's schedule kind for `schedule(static)` without a chunk size.
constexpr int32_t StaticSchedule = 34;

/// The OpenMP runtime's entry points and source location records, created
/// the way clang's OpenMP code generation creates them.
class OpenMPCalls {
public:
  explicit OpenMPCalls(Module &M) : OMP(M) { OMP.initialize(); }

  /// The ident_t of an unknown source location (as OpenMPIRBuilder's
  /// work-sharing loops use), looked up in the module once.
  Constant *ident() {
    if (!Ident) {
      uint32_t Size;
      Constant *Str = OMP.getOrCreateDefaultSrcLocStr(Size);
      Ident = OMP.getOrCreateIdent(Str, Size);
    }
    return Ident;
  }
  FunctionCallee get(omp::RuntimeFunction Fn) {
    return OMP.getOrCreateRuntimeFunction(OMP.M, Fn);
  }

private:
  OpenMPIRBuilder OMP;
  Constant *Ident = nullptr;
};

/// Emits at \p TB, in a parallel region, the static work-sharing of
/// \p Units units of \p Unit (\p Extent in all, the last unit possibly
/// shorter) and returns this thread's share.
ThreadShare emitStaticShare(IRBuilderBase &TB, OpenMPCalls &Calls,
                            Value *Gtid, Value *Units, Value *Unit,
                            Value *Extent) {
  Type *I32 = TB.getInt32Ty(), *I64 = TB.getInt64Ty();
  Value *Last = TB.CreateAlloca(I32, nullptr, "omp.last");
  Value *Lb = TB.CreateAlloca(I64, nullptr, "omp.lb");
  Value *Ub = TB.CreateAlloca(I64, nullptr, "omp.ub");
  Value *Stride = TB.CreateAlloca(I64, nullptr, "omp.stride");
  TB.CreateStore(TB.getInt32(0), Last);
  TB.CreateStore(TB.getInt64(0), Lb);
  Value *LastOfAll = TB.CreateSub(Units, TB.getInt64(1));
  TB.CreateStore(LastOfAll, Ub);
  TB.CreateStore(TB.getInt64(1), Stride);
  TB.CreateCall(Calls.get(omp::OMPRTL___kmpc_for_static_init_8),
                {Calls.ident(), Gtid,
                 TB.getInt32(StaticSchedule), Last, Lb, Ub, Stride,
                 TB.getInt64(1), TB.getInt64(1)});
  Value *First = TB.CreateLoad(I64, Lb, "omp.first");
  // The runtime may hand out an upper bound past the last unit.
  Value *LastUnit = TB.CreateIntrinsic(
      Intrinsic::smin, {I64}, {TB.CreateLoad(I64, Ub), LastOfAll});
  Value *Begin = TB.CreateMul(First, Unit, "share.begin");
  Value *End = TB.CreateIntrinsic(
      Intrinsic::smin, {I64},
      {TB.CreateMul(TB.CreateAdd(LastUnit, TB.getInt64(1)), Unit), Extent},
      nullptr, "share.end");
  return {Begin, End, TB.CreateICmpSLE(First, LastUnit, "share.any")};
}

/// `void (ptr %gtid, ptr %btid, ptr %env)`: an outlined parallel region as
/// __kmpc_fork_call calls it, with \p Caller's target.
Function *createParallelRegion(Function &Caller, const Twine &Name) {
  LLVMContext &Ctx = Caller.getContext();
  auto *Ptr = PointerType::get(Ctx, 0);
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, Ptr}, false);
  Function *Task = createKernelFunction(Caller, FT, Name, "");
  Task->addFnAttr(ParallelRegionAttr);
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

bool isParallelRegion(const Function &F) {
  return F.hasFnAttribute(ParallelRegionAttr);
}

bool threadsEnabled(const Module &M) {
  auto *OpenMP =
      mdconst::extract_or_null<ConstantInt>(M.getModuleFlag("openmp"));
  return OpenMP && !OpenMP->isZero() && pipelineOptions().Threads;
}

void emitParallelRegion(
    IRBuilderBase &B, const Twine &Name, int64_t Units, int64_t Unit,
    int64_t Extent,
    function_ref<void(IRBuilderBase &, const ThreadShare &)> EmitBody) {
  emitParallelRegion(B, Name, B.getInt64(Units), B.getInt64(Unit),
                     B.getInt64(Extent), EmitBody);
}

void emitParallelRegion(
    IRBuilderBase &B, const Twine &Name, Value *Units, Value *Unit,
    Value *Extent,
    function_ref<void(IRBuilderBase &, const ThreadShare &)> EmitBody) {
  Function &Caller = *B.GetInsertBlock()->getParent();
  Module &M = *Caller.getParent();
  OpenMPCalls Calls(M);
  Function *Task = createParallelRegion(Caller, Name);
  // At -O0 the region is a kernel like TLX's other code (KernelOutliner.h):
  // optimized, while the user's function stays optnone.
  if (outlinesKernels(Caller))
    Task->addFnAttr(KernelAttr);
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

} // namespace tlx
