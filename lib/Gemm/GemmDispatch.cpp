//===- GemmDispatch.cpp - One GEMM for several ISA levels -----------------===//
//
// A user who types `tlx-cc -O2 prog.c` gets code for the architecture's
// baseline (x86-64 with SSE2, POWER8 for ppc64le), while BLAS libraries
// choose their kernels at run time. When the function's target lacks a
// level TLX has faster kernels for (the target's table: x86's AVX2,
// AVX-512 and AVX-512 VNNI/BF16 in Target/X86/DispatchLevels.cpp, Power10's
// matrix-multiply assist in Target/PowerPC/DispatchLevels.cpp), the GEMM
// is emitted once per level - the function's own features and each
// level's - into internal functions with those target features, and the
// code calls the best one the CPU supports:
//
//   %level = call i32 @tlxrt_isa_level()      ; CPUID/XCR0 or HWCAP, cached
//   if (%level >= 2) call @tlx.dispatch.gemm.avx512(ptr %env)
//   else if (%level >= 1) call @tlx.dispatch.gemm.avx2(ptr %env)
//   else call @tlx.dispatch.gemm.base(ptr %env)
//
// %env carries the caller's values the versions use (operand pointers, a
// fused epilogue's bias; passCallerValues). -march/-mcpu=X removes the
// levels X already has; with nothing higher left, the GEMM is emitted
// once, in place. Small GEMMs (below DispatchMinWork multiply-adds) are not
// worth the code and stay single. -fplugin-arg-tlx-dispatch=off turns it
// off.
//
//===----------------------------------------------------------------------===//

#include "Gemm/GemmEmitter.h"
#include "Gemm/GemmEmitterImpl.h"

#include "Plugin/Options.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace tlx {

namespace gemm {
ArrayRef<ISALevel> dispatchLevels(const Triple &TT) {
  if (TT.getArch() == Triple::x86_64)
    return x86DispatchLevels();
  if (TT.getArch() == Triple::ppc64le)
    return powerDispatchLevels();
  return {};
}
} // namespace gemm

namespace {

using gemm::ISALevel;

/// Multiply-adds below which a GEMM is emitted once (32^3).
constexpr int64_t DispatchMinWork = 32 * 32 * 32;

/// The levels above \p Caller's target worth a version of \p G.
SmallVector<const ISALevel *, 3> levelsToAdd(const Function &Caller,
                                             const GemmDesc &G) {
  SmallVector<const ISALevel *, 3> Add;
  if (!pipelineOptions().Dispatch ||
      (!G.isRuntimeSized() && G.M * G.N * G.K < DispatchMinWork))
    return Add;
  for (const ISALevel &L :
       gemm::dispatchLevels(Triple(Caller.getParent()->getTargetTriple())))
    if (!gemm::hasTargetFeature(Caller, L.Key) && (!L.Helps || L.Helps(G)))
      Add.push_back(&L);
  return Add;
}

} // namespace

bool emitDispatchedGemm(IRBuilderBase &B, const GemmDesc &G,
                        function_ref<const TargetTransformInfo &(Function &)>
                            GetTTI,
                        GemmPlan &Plan, std::string &Why,
                        SmallVectorImpl<std::string> &Versions) {
  Function &Caller = *B.GetInsertBlock()->getParent();
  SmallVector<const ISALevel *, 3> Add = levelsToAdd(Caller, G);
  if (Add.empty())
    return emitGemm(B, G, GemmTarget::Vector, GetTTI(Caller), Plan, Why);

  // Base version (the caller's own features) first, then each level.
  SmallVector<std::pair<Function *, int32_t>, 4> Fns;
  Fns.emplace_back(createEnvKernel(Caller, "tlx.dispatch.gemm.base", ""),
                   0);
  for (const ISALevel *L : Add)
    Fns.emplace_back(
        createEnvKernel(Caller, Twine("tlx.dispatch.gemm.") + L->Name,
                              L->Features),
        L->Level);
  for (auto [I, FL] : enumerate(Fns)) {
    Function *F = FL.first;
    IRBuilder<> KB(F->getEntryBlock().getTerminator());
    GemmPlan P;
    if (!emitGemm(KB, G, GemmTarget::Vector, GetTTI(*F), P, Why)) {
      for (auto &Other : Fns)
        Other.first->eraseFromParent();
      Versions.clear();
      return emitGemm(B, G, GemmTarget::Vector, GetTTI(Caller), Plan, Why);
    }
    if (I == 0)
      Plan = P;
    Versions.push_back((I == 0 ? std::string("base") : Add[I - 1]->Name) +
                       ": " + P.Kernel);
  }
  // Each version gets the caller's values in a struct of its own.
  SmallVector<Value *, 4> Envs;
  for (auto &FL : Fns)
    Envs.push_back(passCallerValues(*FL.first, 0, B));
  Module *M = Caller.getParent();
  FunctionCallee LevelFn =
      M->getOrInsertFunction("tlxrt_isa_level", B.getInt32Ty());
  if (auto *Decl = dyn_cast<Function>(LevelFn.getCallee())) {
    Decl->setDoesNotThrow();
    Decl->setOnlyAccessesInaccessibleMemory();
  }
  Value *Level = B.CreateCall(LevelFn, {}, "tlx.isa.level");
  // if (level >= highest) ... else if ... else base.
  std::function<void(unsigned)> CallFrom = [&](unsigned I) {
    if (I == 0) {
      B.CreateCall(Fns[0].first, {Envs[0]});
      return;
    }
    emitIf(
        B, B.CreateICmpSGE(Level, B.getInt32(Fns[I].second)),
        [&] { B.CreateCall(Fns[I].first, {Envs[I]}); },
        [&] { CallFrom(I - 1); });
  };
  CallFrom(Fns.size() - 1);
  return true;
}

} // namespace tlx
