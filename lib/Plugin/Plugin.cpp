//===- Plugin.cpp - Registers every TLX pass, in one place ----------------===//
//
// libtlx.so is an LLVM pass plugin (opt -load-pass-plugin, through
// llvmGetPassPluginInfo) and a clang plugin (-fplugin, see clang-plugin/),
// which calls registerClangPipeline() from CodeGenOptions'
// PassBuilderCallbacks so the pipeline runs at every -O level.
//
//===----------------------------------------------------------------------===//

#include "Plugin.h"

#include "../IR/Diagnostics.h"
#include "../Transforms/Passes.h"
#include "Compat.h"
#include "Options.h"
#include "Plugin/Version.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace tlx {

/// The lowering stages, in order; each checks runsStage() itself. Then the
/// kernels tlx-tile and tlx-legalize outlined from optnone functions get
/// LLVM's -O2 function pipeline (docs/pipeline.md, "Kernels at every -O
/// level").
static void addTLXLowering(ModulePassManager &MPM, PassBuilder &PB) {
  // C vector code becomes TLX ops, checked like the program's own.
  MPM.addPass(VectorOpsPass());
  // Tensors too big for the stack (locals, by-value arguments) go to the
  // heap.
  MPM.addPass(HeapValuesPass());
  MPM.addPass(VerifyPass());
  MPM.addPass(BufferizePass());
  MPM.addPass(NDTo2DPass());
  MPM.addPass(TilePass());
  MPM.addPass(LegalizePass());
  MPM.addPass(CheckWideVectorsPass());
  MPM.addPass(OptimizeKernelsPass(PB));
}

namespace {
/// Runs the lowering only on modules the earlier TLX passes accepted: an op
/// that failed verification has no meaning to lower, and LLVM's own passes
/// must not see it either.
class LowerIfValidPass : public PassInfoMixin<LowerIfValidPass> {
  ModulePassManager Lowering;

public:
  explicit LowerIfValidPass(PassBuilder &PB) { addTLXLowering(Lowering, PB); }
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    if (discardBodiesAfterErrors(M))
      return PreservedAnalyses::none();
    return Lowering.run(M, MAM);
  }
  static bool isRequired() { return true; }
};
} // namespace

void addTLXPipeline(ModulePassManager &MPM, PassBuilder &PB) {
  MPM.addPass(NormalizeClangIRPass());
  MPM.addPass(RecognizePass());
  MPM.addPass(VerifyPass());
  MPM.addPass(LowerIfValidPass(PB));
}

static bool parseModulePass(StringRef Name, ModulePassManager &MPM,
                            PassBuilder &PB) {
#define TLX_PASS(NAME, CREATE)                                                 \
  if (Name == NAME) {                                                          \
    MPM.addPass(CREATE);                                                       \
    return true;                                                               \
  }
  TLX_PASS("tlx-normalize-clang-ir", NormalizeClangIRPass())
  TLX_PASS("tlx-recognize", RecognizePass())
  TLX_PASS("tlx-vector-ops", VectorOpsPass())
  TLX_PASS("tlx-heap-values", HeapValuesPass())
  TLX_PASS("tlx-verify", VerifyPass())
  TLX_PASS("tlx-check-lowered", CheckLoweredPass())
  TLX_PASS("tlx-check-wide-vectors", CheckWideVectorsPass())
  TLX_PASS("tlx-amx-emulate", AMXEmulatePass())
  TLX_PASS("tlx-runtime-link-hint", RuntimeLinkHintPass())
  TLX_PASS("tlx-backend-workarounds", BackendWorkaroundsPass(false))
  TLX_PASS("tlx-backend-workarounds-O0", BackendWorkaroundsPass(true))
  TLX_PASS("tlx-test-gemm", TestGemmPass())
  TLX_PASS("tlx-bufferize", BufferizePass())
  TLX_PASS("tlx-nd-to-2d", NDTo2DPass())
  TLX_PASS("tlx-tile", TilePass())
  TLX_PASS("tlx-legalize", LegalizePass())
  TLX_PASS("tlx-optimize-kernels", OptimizeKernelsPass(PB))
#undef TLX_PASS
  if (Name == "tlx-lower") {
    addTLXLowering(MPM, PB);
    return true;
  }
  if (Name == "tlx") {
    addTLXPipeline(MPM, PB);
    return true;
  }
  return false;
}

void registerPassNames(PassBuilder &PB) {
  // (PB outlives the pipelines it parses: opt and clang keep it until
  // they have run.)
  PB.registerPipelineParsingCallback(
      [&PB](StringRef Name, ModulePassManager &MPM,
            ArrayRef<PassBuilder::PipelineElement>) {
        return parseModulePass(Name, MPM, PB);
      });
}

void registerClangPipeline(PassBuilder &PB) {
  registerPassNames(PB);
  // Pipeline start: clang's IR looks the same at every -O level here (every
  // value in allocas), so recognition is identical at -O0 and -O3.
  PB.registerPipelineStartEPCallback(
      [&PB](ModulePassManager &MPM, OptimizationLevel) {
        addTLXPipeline(MPM, PB);
      });
  compat::registerOptimizerLastEPCallback(
      PB, [](ModulePassManager &MPM, OptimizationLevel Level) {
        // AMX emulation last: the always_inline __tile_* wrappers are
        // inlined by now, and the lowering's AMX code is final.
        if (pipelineOptions().Target == TargetKind::AMXEmulate)
          MPM.addPass(AMXEmulatePass());
        MPM.addPass(CheckLoweredPass());
        MPM.addPass(RuntimeLinkHintPass());
        MPM.addPass(BackendWorkaroundsPass(Level == OptimizationLevel::O0));
      });
}

} // namespace tlx

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "TLX", TLX_VERSION_STRING,
          [](PassBuilder &PB) { tlx::registerPassNames(PB); }};
}
