//===- Options.h - TLX pipeline options -------------------------*- C++ -*-===//
//
// One set of options for both front doors: opt reads them from -tlx-*
// command-line flags, the clang plugin from -fplugin-arg-tlx-*.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_PLUGIN_OPTIONS_H
#define TLX_PLUGIN_OPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace tlx {

enum class TargetKind { Auto, Vector, AMX, AMXEmulate, SME, MMA };

/// When a GEMM of constant extents calls the module's shared kernel of its
/// kind (the one run-time-sized GEMMs call) instead of code of its own.
enum class KernelSharing {
  Auto,   ///< where it costs no speed: every extent >= ShareMinExtent
  Always, ///< every GEMM the shared kernels can compute (code size)
  Never
};

struct PipelineOptions {
  TargetKind Target = TargetKind::Auto;
  /// Name of the last stage to run ("" runs the whole pipeline).
  std::string StopAfter;
  /// True when the output is IR (-emit-llvm), so unlowered TLX ops may stay.
  bool AllowUnlowered = false;
  /// Apply elementwise consumers of a GEMM as it writes C (tlx-tile).
  bool FuseEpilogues = true;
  /// Outline the kernels emitted into optnone (-O0) functions and optimize
  /// them (KernelOutliner.h, tlx-optimize-kernels).
  bool OptimizeKernels = true;
  /// Emit vector GEMMs for several x86 ISA levels and pick one at run time
  /// (GemmDispatch.cpp). On in the clang plugin, off by default in opt.
  bool Dispatch = false;
  /// Split big GEMMs over the OpenMP runtime's threads when the module is
  /// compiled with -fopenmp (GemmParallel.cpp); off keeps every kernel on
  /// the calling thread.
  bool Threads = true;
  /// Check at run time what run-time extents leave open (RuntimeShapes.h):
  /// matching dimensions, strides, overlaps. Off for benchmarking.
  bool RuntimeChecks = true;
  /// Static GEMMs that call the shared kernels (Tile.cpp).
  KernelSharing ShareKernels = KernelSharing::Auto;
};

/// Parses "auto|always|never".
bool parseKernelSharing(llvm::StringRef Name, KernelSharing &Out);

/// The options in force (opt's -tlx-* flags unless the clang plugin set them).
PipelineOptions &pipelineOptions();

/// Parses "auto|vector|amx|amx-emulate|sme|mma".
bool parseTarget(llvm::StringRef Name, TargetKind &Out);
llvm::StringRef targetName(TargetKind Kind);

/// Stage names accepted by stop-after, in pipeline order.
llvm::ArrayRef<llvm::StringRef> stageNames();
bool isStageName(llvm::StringRef Name);
/// True if the pipeline runs stage \p Stage (not stopped before it).
bool runsStage(llvm::StringRef Stage);

} // namespace tlx

#endif // TLX_PLUGIN_OPTIONS_H
