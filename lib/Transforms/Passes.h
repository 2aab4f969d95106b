//===- Passes.h - The TLX passes --------------------------------*- C++ -*-===//
//
// The new-pass-manager wrappers of every TLX pass. Each pass lives in the file
// named after it; all are required, so optnone (-O0) does not skip them.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_TRANSFORMS_PASSES_H
#define TLX_TRANSFORMS_PASSES_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class PassBuilder;
class TargetMachine;
}

namespace tlx {

#define TLX_MODULE_PASS(Class)                                                 \
  struct Class : llvm::PassInfoMixin<Class> {                                  \
    llvm::PreservedAnalyses run(llvm::Module &M,                               \
                                llvm::ModuleAnalysisManager &MAM);             \
    static bool isRequired() { return true; }                                  \
  };

/// tlx-normalize-clang-ir: the IR patterns in which clang versions differ,
/// in the form tlx-recognize reads (runs just before it).
TLX_MODULE_PASS(NormalizeClangIRPass)
/// tlx-recognize: C dummy calls (tensor_*) -> llvm.tensor.* intrinsics.
TLX_MODULE_PASS(RecognizePass)
/// tlx-vector-ops: C vector code on tensors -> TLX ops and memory traffic.
TLX_MODULE_PASS(VectorOpsPass)
/// tlx-heap-values: tensor-sized locals and by-value arguments -> heap
/// buffers; by-value parameters above the limit passed by pointer.
TLX_MODULE_PASS(HeapValuesPass)
/// tlx-verify: checks every TLX call; reports each violation as an error.
TLX_MODULE_PASS(VerifyPass)
/// tlx-check-lowered: no llvm.tensor.* call may reach the backend.
TLX_MODULE_PASS(CheckLoweredPass)
/// tlx-check-wide-vectors: no tensor-sized vector left in TLX code.
TLX_MODULE_PASS(CheckWideVectorsPass)
/// tlx-runtime-link-hint: modules that call libtlxrt also reference a
/// symbol whose name tells to link it, should the linker miss it.
TLX_MODULE_PASS(RuntimeLinkHintPass)
/// tlx-backend-workarounds: IR the backend would miscompile or reject
/// (LLVM 19 on AArch64 and x86) -> an equivalent form it gets right. Runs
/// last in clang's pipeline. \p O0Selectors: the module's instructions are
/// selected by the -O0 selectors (clang -O0: AArch64's GlobalISel, x86's
/// FastISel), which have bugs of their own.
class BackendWorkaroundsPass
    : public llvm::PassInfoMixin<BackendWorkaroundsPass> {
  bool O0Selectors;

public:
  explicit BackendWorkaroundsPass(bool O0Selectors)
      : O0Selectors(O0Selectors) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};
/// tlx-amx-emulate: AMX intrinsics -> calls into the runtime's AMX emulator.
TLX_MODULE_PASS(AMXEmulatePass)
/// tlx-test-gemm: calls to tlx_test_gemm(...) -> emitGemm (tests, bench).
TLX_MODULE_PASS(TestGemmPass)
/// tlx-bufferize: every tensor gets a buffer; destination-passing form.
TLX_MODULE_PASS(BufferizePass)
/// tlx-nd-to-2d: N-D contractions -> loops around 2-D matmul/mma (stage 1).
TLX_MODULE_PASS(NDTo2DPass)
/// tlx-tile: 2-D contractions -> tiled GEMM code for the target (stage 2).
TLX_MODULE_PASS(TilePass)
/// tlx-legalize: remaining TLX ops -> vectorized LLVM loops (stage 3).
TLX_MODULE_PASS(LegalizePass)

/// tlx-optimize-kernels: LLVM's -O2 function pipeline on the kernels that
/// tlx-tile and tlx-legalize outlined from optnone functions
/// (KernelOutliner.h), whatever the -O level of the rest.
class OptimizeKernelsPass : public llvm::PassInfoMixin<OptimizeKernelsPass> {
  llvm::FunctionPassManager Pipeline;
  llvm::TargetMachine *TM = nullptr;

public:
  /// The pipeline comes from \p PB (its analyses, target and callbacks).
  explicit OptimizeKernelsPass(llvm::PassBuilder &PB);
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

#undef TLX_MODULE_PASS

/// The driver of the lowering stages (bufferize, nd-to-2d, tile, legalize):
/// runs \p LowerFunction on every function with a body - unless
/// -tlx-stop-after ended the pipeline before \p Stage or errors were
/// reported - and invalidates the analyses of the functions it changed.
/// Under opt it then exits non-zero if errors were reported (clang stops
/// by itself).
llvm::PreservedAnalyses runLoweringStage(
    llvm::Module &M, llvm::ModuleAnalysisManager &MAM, llvm::StringRef Stage,
    llvm::function_ref<bool(llvm::Function &, llvm::FunctionAnalysisManager &)>
        LowerFunction);

/// Function attribute tlx-vector-ops puts on functions with TLX code, where
/// tlx-check-lowered then reports any vector wider than LargeVectorBytes.
constexpr const char *TensorCodeAttr = "tlx-tensor-code";

/// Replaces \p F's body by `unreachable`.
void discardFunctionBody(llvm::Function &F);
/// After errors the compile fails, but clang still runs LLVM's optimizer
/// and backend: every body is discarded so that neither sees a TLX call or
/// a tensor-sized vector. Returns true if a body was discarded.
bool discardBodiesAfterErrors(llvm::Module &M);

} // namespace tlx

#endif // TLX_TRANSFORMS_PASSES_H
