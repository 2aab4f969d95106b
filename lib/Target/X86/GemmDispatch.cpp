//===- GemmDispatch.cpp - One GEMM for several x86 ISA levels -------------===//
//
// A user who types `tlx-cc -O2 prog.c` gets code for baseline x86-64 (SSE2),
// while BLAS libraries choose their kernels at run time. When the
// function's target lacks an x86 level TLX has faster kernels for, the
// GEMM is emitted once per level - the function's own features, AVX2+FMA
// (x86-64-v3), AVX-512 (x86-64-v4) and, for int8 and bf16 GEMMs, AVX-512
// with VNNI and BF16 - each into an internal function with that level's
// target features, and the code calls the best one the CPU supports:
//
//   %level = call i32 @tlxrt_x86_level()      ; CPUID + XCR0, cached
//   if (%level >= 2) call @tlx.dispatch.gemm.avx512(ptr %env)
//   else if (%level >= 1) call @tlx.dispatch.gemm.avx2(ptr %env)
//   else call @tlx.dispatch.gemm.base(ptr %env)
//
// %env carries the caller's values the versions use (operand pointers, a
// fused epilogue's bias; passCallerValues). -march=X removes the levels X
// already has; with nothing higher left, the GEMM is emitted once, in
// place. Small GEMMs (below DispatchMinWork multiply-adds) are not worth
// the code and stay single. -fplugin-arg-tlx-dispatch=off turns it off.
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

namespace {

#define TLX_X86_64_V3                                                          \
  "+avx,+avx2,+bmi,+bmi2,+cx16,+f16c,+fma,+lzcnt,+movbe,+popcnt,+sse3,"      \
  "+sse4.1,+sse4.2,+ssse3,+xsave"
#define TLX_X86_64_V4                                                          \
  TLX_X86_64_V3 ",+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512vl,+evex512"

/// A level of tlxrt_x86_level() (headers/tlxrt_cpu.h).
struct X86Level {
  int32_t Level;
  const char *Name;
  const char *Key; ///< the feature that tells whether a target has it
  const char *Features;
};

const X86Level Levels[] = {
    {1, "avx2", "avx2", TLX_X86_64_V3},
    {2, "avx512", "avx512f", TLX_X86_64_V4},
    {3, "avx512-vnni-bf16", "avx512vnni",
     TLX_X86_64_V4 ",+avx512vnni,+avx512bf16"},
};

/// Multiply-adds below which a GEMM is emitted once (32^3).
constexpr int64_t DispatchMinWork = 32 * 32 * 32;

/// The levels above \p Caller's target worth a version of \p G.
SmallVector<const X86Level *, 3> levelsToAdd(const Function &Caller,
                                             const GemmDesc &G) {
  SmallVector<const X86Level *, 3> Add;
  Triple TT(Caller.getParent()->getTargetTriple());
  if (!pipelineOptions().Dispatch || TT.getArch() != Triple::x86_64 ||
      (!G.isRuntimeSized() && G.M * G.N * G.K < DispatchMinWork))
    return Add;
  // VNNI and BF16 only change int8 and bf16 kernels.
  bool DotProducts = G.A.Elem->isIntegerTy(8) || G.A.Elem->isBFloatTy();
  for (const X86Level &L : Levels)
    if (!gemm::hasTargetFeature(Caller, L.Key) && (L.Level < 3 || DotProducts))
      Add.push_back(&L);
  return Add;
}

/// An empty `void (ptr %env)` kernel with \p Caller's target plus \p Extra
/// features.
Function *createVersion(Function &Caller, const Twine &Name, StringRef Extra) {
  LLVMContext &Ctx = Caller.getContext();
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {PointerType::get(Ctx, 0)},
                               false);
  Function *F = gemm::createKernelFunction(Caller, FT, Name, Extra);
  F->getArg(0)->setName("env");
  ReturnInst::Create(Ctx, BasicBlock::Create(Ctx, "entry", F));
  return F;
}

} // namespace

bool emitDispatchedGemm(IRBuilderBase &B, const GemmDesc &G,
                        function_ref<const TargetTransformInfo &(Function &)>
                            GetTTI,
                        GemmPlan &Plan, std::string &Why,
                        SmallVectorImpl<std::string> &Versions) {
  Function &Caller = *B.GetInsertBlock()->getParent();
  SmallVector<const X86Level *, 3> Add = levelsToAdd(Caller, G);
  if (Add.empty())
    return emitGemm(B, G, GemmTarget::Vector, GetTTI(Caller), Plan, Why);

  // Base version (the caller's own features) first, then each level.
  SmallVector<std::pair<Function *, int32_t>, 4> Fns;
  Fns.emplace_back(createVersion(Caller, "tlx.dispatch.gemm.base", ""), 0);
  for (const X86Level *L : Add)
    Fns.emplace_back(
        createVersion(Caller, Twine("tlx.dispatch.gemm.") + L->Name, L->Features),
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
    Envs.push_back(gemm::passCallerValues(*FL.first, 0, B));
  Module *M = Caller.getParent();
  FunctionCallee LevelFn =
      M->getOrInsertFunction("tlxrt_x86_level", B.getInt32Ty());
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
    gemm::emitIf(
        B, B.CreateICmpSGE(Level, B.getInt32(Fns[I].second)),
        [&] { B.CreateCall(Fns[I].first, {Envs[I]}); },
        [&] { CallFrom(I - 1); });
  };
  CallFrom(Fns.size() - 1);
  return true;
}

} // namespace tlx
