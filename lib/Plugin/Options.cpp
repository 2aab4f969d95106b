//===- Options.cpp - TLX pipeline options ---------------------------------===//

#include "Options.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace tlx {

PipelineOptions &pipelineOptions() {
  static PipelineOptions Options;
  return Options;
}

static cl::opt<std::string> TargetFlag(
    "tlx-target",
    cl::desc("TLX lowering target: auto|vector|amx|amx-emulate|sme|mma"),
    cl::init("auto"), cl::cb<void, std::string>([](const std::string &V) {
      if (!parseTarget(V, pipelineOptions().Target))
        report_fatal_error(
            "-tlx-target: unknown target '" + Twine(V) +
                "' (valid: auto, vector, amx, amx-emulate, sme, mma)",
            /*gen_crash_diag=*/false);
    }));

static cl::opt<std::string> StopAfterFlag(
    "tlx-stop-after", cl::desc("Stop the TLX pipeline after this stage"),
    cl::init(""), cl::cb<void, std::string>([](const std::string &V) {
      if (!isStageName(V))
        report_fatal_error("-tlx-stop-after: unknown stage '" + Twine(V) + "'",
                           /*gen_crash_diag=*/false);
      pipelineOptions().StopAfter = V;
    }));

static cl::opt<bool> FuseEpiloguesFlag(
    "tlx-fuse-epilogues",
    cl::desc("Fuse elementwise consumers of a GEMM into its C write-back"),
    cl::init(true), cl::cb<void, bool>([](bool V) {
      pipelineOptions().FuseEpilogues = V;
    }));

static cl::opt<bool> RuntimeChecksFlag(
    "tlx-runtime-checks",
    cl::desc("Check the shapes of ops with run-time extents when they run"),
    cl::init(true), cl::cb<void, bool>([](bool V) {
      pipelineOptions().RuntimeChecks = V;
    }));

static cl::opt<bool> OptimizeKernelsFlag(
    "tlx-optimize-kernels",
    cl::desc("Outline the kernels TLX emits into optnone functions and "
             "optimize them at -O2"),
    cl::init(true), cl::cb<void, bool>([](bool V) {
      pipelineOptions().OptimizeKernels = V;
    }));

static cl::opt<bool> DispatchFlag(
    "tlx-dispatch",
    cl::desc("Emit vector GEMMs for several x86 ISA levels and choose one at "
             "run time"),
    cl::init(false), cl::cb<void, bool>([](bool V) {
      pipelineOptions().Dispatch = V;
    }));

static cl::opt<bool> ThreadsFlag(
    "tlx-threads",
    cl::desc("With -fopenmp (the module's \"openmp\" flag), split big GEMMs "
             "over the OpenMP runtime's threads"),
    cl::init(true), cl::cb<void, bool>([](bool V) {
      pipelineOptions().Threads = V;
    }));

static cl::opt<std::string> ShareKernelsFlag(
    "tlx-share-kernels",
    cl::desc("GEMMs of constant extents that call the module's shared "
             "kernel of their kind: auto|always|never"),
    cl::init("auto"), cl::cb<void, std::string>([](const std::string &V) {
      if (!parseKernelSharing(V, pipelineOptions().ShareKernels))
        report_fatal_error("-tlx-share-kernels: unknown value '" + Twine(V) +
                               "' (valid: auto, always, never)",
                           false);
    }));

bool parseKernelSharing(StringRef Name, KernelSharing &Out) {
  std::optional<KernelSharing> Kind =
      StringSwitch<std::optional<KernelSharing>>(Name)
          .Case("auto", KernelSharing::Auto)
          .Case("always", KernelSharing::Always)
          .Case("never", KernelSharing::Never)
          .Default(std::nullopt);
  if (!Kind)
    return false;
  Out = *Kind;
  return true;
}

bool parseTarget(StringRef Name, TargetKind &Out) {
  std::optional<TargetKind> Kind =
      StringSwitch<std::optional<TargetKind>>(Name)
          .Case("auto", TargetKind::Auto)
          .Case("vector", TargetKind::Vector)
          .Case("amx", TargetKind::AMX)
          .Case("amx-emulate", TargetKind::AMXEmulate)
          .Case("sme", TargetKind::SME)
          .Case("mma", TargetKind::MMA)
          .Default(std::nullopt);
  if (!Kind)
    return false;
  Out = *Kind;
  return true;
}

StringRef targetName(TargetKind Kind) {
  switch (Kind) {
  case TargetKind::Auto:
    return "auto";
  case TargetKind::Vector:
    return "vector";
  case TargetKind::AMX:
    return "amx";
  case TargetKind::AMXEmulate:
    return "amx-emulate";
  case TargetKind::SME:
    return "sme";
  case TargetKind::MMA:
    return "mma";
  }
  return "auto";
}

// Keep in pipeline order; lowering stages append their names here.
static const StringRef StageNames[] = {"recognize", "vector-ops", "bufferize", "nd-to-2d",
                                       "tile", "legalize"};

ArrayRef<StringRef> stageNames() { return StageNames; }

bool isStageName(StringRef Name) { return is_contained(StageNames, Name); }

bool runsStage(StringRef Stage) {
  StringRef Stop = pipelineOptions().StopAfter;
  if (Stop.empty())
    return true;
  auto StopIt = find(StageNames, Stop);
  auto StageIt = find(StageNames, Stage);
  return StageIt <= StopIt;
}

} // namespace tlx
