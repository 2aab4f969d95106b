//===- TestGemm.cpp - Drives the GEMM emitter from IR, for tests ----------===//
//
// tlx-test-gemm replaces every call to the marker function
//
//   void tlx_test_gemm(i64 M, i64 N, i64 K, i64 Flags,
//                      ptr A, i64 ARowStride, i64 AColStride,
//                      ptr B, i64 BRowStride, i64 BColStride,
//                      ptr C, i64 CRowStride, i64 CColStride)
//
// with the GEMM emitGemm produces for it, so the emitter can be tested (lit,
// llc) and benchmarked before, and independently of, the tensor lowering.
// M, N, K and Flags must be constants. Flags (bit fields):
//   bits 0-3 / 4-7 / 8-11: element type of A / B / C as a tlx_dtype
//                          (tlxrt.h: 0 i8, 1 i16, 2 i32, 3 i64, 4 f16,
//                          5 bf16, 6 f32, 7 f64)
//   bit 12: Accumulate     bit 13: A unsigned     bit 14: B unsigned
//   bit 15: AMX target (falls back to Vector, with a remark, if AMX cannot)
//   bit 16: force the scalar fallback
//   bit 17: SME target (falls back to Vector, with a remark, if SME cannot)
// Each replaced call gets an optimization remark naming the chosen kernel.
//
//===----------------------------------------------------------------------===//

#include "Gemm/GemmEmitter.h"
#include "Gemm/GemmEmitterImpl.h"
#include "Transforms/Passes.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

static Type *dtypeToType(LLVMContext &Ctx, uint64_t Code) {
  switch (Code) {
  case 0:
    return Type::getInt8Ty(Ctx);
  case 1:
    return Type::getInt16Ty(Ctx);
  case 2:
    return Type::getInt32Ty(Ctx);
  case 3:
    return Type::getInt64Ty(Ctx);
  case 4:
    return Type::getHalfTy(Ctx);
  case 5:
    return Type::getBFloatTy(Ctx);
  case 6:
    return Type::getFloatTy(Ctx);
  case 7:
    return Type::getDoubleTy(Ctx);
  default:
    return nullptr;
  }
}

static bool lowerMarker(CallInst *Call, FunctionAnalysisManager &FAM) {
  Function &F = *Call->getFunction();
  LLVMContext &Ctx = F.getContext();
  auto ConstArg = [&](unsigned I) -> std::optional<int64_t> {
    if (auto *C = dyn_cast<ConstantInt>(Call->getArgOperand(I)))
      return C->getSExtValue();
    return std::nullopt;
  };
  auto M = ConstArg(0), N = ConstArg(1), K = ConstArg(2), Flags = ConstArg(3);
  if (Call->arg_size() != 13 || !M || !N || !K || !Flags) {
    Ctx.emitError(Call, "tlx_test_gemm: needs 13 arguments, the first four "
                        "constant");
    return false;
  }
  IRBuilder<> B(Call);
  auto Operand = [&](unsigned First, unsigned TypeShift, bool IsSigned) {
    GemmOperand Op;
    Op.Ptr = Call->getArgOperand(First);
    Op.RowStride =
        B.CreateSExtOrTrunc(Call->getArgOperand(First + 1), B.getInt64Ty());
    Op.ColStride =
        B.CreateSExtOrTrunc(Call->getArgOperand(First + 2), B.getInt64Ty());
    Op.Elem = dtypeToType(Ctx, (*Flags >> TypeShift) & 15);
    Op.IsSigned = IsSigned;
    return Op;
  };
  GemmDesc G;
  G.M = *M, G.N = *N, G.K = *K;
  G.A = Operand(4, 0, !(*Flags & (1 << 13)));
  G.B = Operand(7, 4, !(*Flags & (1 << 14)));
  G.C = Operand(10, 8, true);
  G.Accumulate = *Flags & (1 << 12);
  if (!G.A.Elem || !G.B.Elem || !G.C.Elem) {
    Ctx.emitError(Call, "tlx_test_gemm: bad element type code");
    return false;
  }

  auto &TTI = FAM.getResult<TargetIRAnalysis>(F);
  OptimizationRemarkEmitter ORE(&F);
  GemmPlan Plan;
  std::string Why;
  bool Done = false;
  if (*Flags & (1 << 16)) {
    gemm::emitScalarGemm(B, G);
    Plan.Kernel = "scalar";
    Done = true;
  }
  if (!Done && (*Flags & (1 << 15))) {
    Done = emitGemm(B, G, GemmTarget::AMX, TTI, Plan, Why);
    if (!Done)
      ORE.emit(OptimizationRemarkMissed("tlx-test-gemm", "NoAMX", Call)
               << "AMX cannot do this GEMM: " << Why);
  }
  if (!Done && (*Flags & (1 << 17))) {
    Done = emitGemm(B, G, GemmTarget::SME, TTI, Plan, Why);
    if (!Done)
      ORE.emit(OptimizationRemarkMissed("tlx-test-gemm", "NoSME", Call)
               << "SME cannot do this GEMM: " << Why);
  }
  if (!Done && !emitGemm(B, G, GemmTarget::Vector, TTI, Plan, Why)) {
    Ctx.emitError(Call, "tlx_test_gemm: " + Why);
    return false;
  }
  ORE.emit(OptimizationRemark("tlx-test-gemm", "Gemm", Call)
           << "gemm " << std::to_string(G.M) << "x" << std::to_string(G.N)
           << "x" << std::to_string(G.K) << ": " << Plan.Kernel << " MC="
           << std::to_string(Plan.MC) << " NC=" << std::to_string(Plan.NC)
           << " KC=" << std::to_string(Plan.KC) << " MR="
           << std::to_string(Plan.MR) << " NR=" << std::to_string(Plan.NR));
  return true;
}

PreservedAnalyses TestGemmPass::run(Module &M, ModuleAnalysisManager &MAM) {
  Function *Marker = M.getFunction("tlx_test_gemm");
  if (!Marker)
    return PreservedAnalyses::all();
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  SmallVector<CallInst *, 8> Calls;
  for (User *U : Marker->users())
    if (auto *Call = dyn_cast<CallInst>(U))
      if (Call->getCalledFunction() == Marker)
        Calls.push_back(Call);
  for (CallInst *Call : Calls) {
    Function *F = Call->getFunction();
    if (lowerMarker(Call, FAM))
      Call->eraseFromParent();
    FAM.invalidate(*F, PreservedAnalyses::none());
  }
  return PreservedAnalyses::none();
}

} // namespace tlx
