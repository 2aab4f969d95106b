//===- ClangPlugin.cpp - The clang side of libtlx.so ----------------------===//
//
// -fplugin=libtlx.so registers the "tlx" plugin action. It runs before the
// main action, parses -fplugin-arg-tlx-<key>=<value>, checks calls to the TLX
// dummy functions on the AST, and hands the TLX pipeline to clang's code
// generator through CodeGenOptions::PassBuilderCallbacks, so -fplugin alone
// is enough at every -O level.
//
// The plugin also makes itself known to the source: __TLX__ and the version
// macros are predefined for the translation unit, and the GNU attribute
// name tlx_plugin exists, so that __has_attribute(tlx_plugin) is true in
// every action that loads the plugin (-E too, where no AST consumer runs).
// tlx.h tests both to stop with an #error when the plugin is missing.
//
//===----------------------------------------------------------------------===//

#include "CallChecker.h"
#include "TLXCall.h"
#include "WideInitializers.h"

#include "IR/Diagnostics.h"
#include "Plugin/Options.h"
#include "Plugin/Plugin.h"
#include "Plugin/Version.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/ParsedAttr.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Passes/PassBuilder.h"

using namespace clang;

namespace {


/// The macros the plugin defines for every translation unit it compiles.
std::string getPredefines() {
  std::string Defines;
  llvm::raw_string_ostream OS(Defines);
  OS << "#define __TLX__ 1\n"
     << "#define __TLX_MAJOR__ " << TLX_VERSION_MAJOR_NUM << "\n"
     << "#define __TLX_MINOR__ " << TLX_VERSION_MINOR_NUM << "\n"
     << "#define __TLX_PATCHLEVEL__ " << TLX_VERSION_PATCH_NUM << "\n"
     << "#define __TLX_VERSION__ \"" << TLX_VERSION_STRING << "\"\n";
  return Defines;
}

/// __attribute__((tlx_plugin)): exists only so that __has_attribute can tell
/// that the plugin is loaded; it has no effect on what it is written on.
struct PluginPresenceAttr : public ParsedAttrInfo {
  static constexpr Spelling Spellings[] = {
      {ParsedAttr::AS_GNU, "tlx_plugin"}};
  PluginPresenceAttr() { ParsedAttrInfo::Spellings = Spellings; }
  AttrHandling handleDeclAttribute(Sema &, Decl *,
                                   const ParsedAttr &) const override {
    return AttributeApplied;
  }
};

/// Runs the -O0 pipeline after code generation: the TLX passes and none of
/// LLVM's, whatever -O level clang generated the IR at.
///  - With stop-after, the output shows the IR as the TLX stages left it;
///    -O2 would delete the unused readnone chain the user wanted to see, so
///    -O0..-O3 print the same TLX IR.
///  - -save-temps compiles in three steps: -E, then the AST to bitcode with
///    -disable-llvm-passes, then that bitcode (-x ir, where no plugin action
///    runs) to the output. The TLX passes must run in the second step, the
///    last with the plugin; the third optimizes as asked.
class RunTLXPassesOnlyConsumer : public ASTConsumer {
  CodeGenOptions &CG;

public:
  explicit RunTLXPassesOnlyConsumer(CodeGenOptions &CG) : CG(CG) {}
  void HandleTranslationUnit(ASTContext &) override {
    CG.DisableLLVMPasses = false;
    CG.DisableO0ImplyOptNone = true;
    CG.OptimizationLevel = 0;
  }
};

const char *const ValidArgs =
    "target=auto|vector|amx|amx-emulate|sme|mma, stop-after=<stage>, "
    "fuse-epilogues=on|off, optimize-kernels=on|off, dispatch=on|off, "
    "threads=on|off, runtime-checks=on|off, share-kernels=auto|always|never";

const llvm::StringRef TargetNames[] = {"auto", "vector", "amx",
                                       "amx-emulate", "sme", "mma"};
const llvm::StringRef SharingNames[] = {"auto", "always", "never"};
const llvm::StringRef OnOff[] = {"on", "off"};

/// The plugin arguments that are on or off, and what each sets.
struct SwitchArg {
  llvm::StringRef Key;
  bool tlx::PipelineOptions::*Field;
};
const SwitchArg SwitchArgs[] = {
    {"fuse-epilogues", &tlx::PipelineOptions::FuseEpilogues},
    {"optimize-kernels", &tlx::PipelineOptions::OptimizeKernels},
    {"dispatch", &tlx::PipelineOptions::Dispatch},
    {"threads", &tlx::PipelineOptions::Threads},
    {"runtime-checks", &tlx::PipelineOptions::RuntimeChecks}};

/// "; did you mean 'X'?" for the one of \p Choices that \p Typed most
/// likely misspells - within a third of its letters (at least one; of two
/// as near, one it begins), or the only choice it begins - else "".
std::string didYouMean(llvm::StringRef Typed,
                       llvm::ArrayRef<llvm::StringRef> Choices) {
  llvm::StringRef Best, Prefixed;
  unsigned Limit = std::max<size_t>(1, Typed.size() / 3);
  unsigned BestDistance = Limit + 1, PrefixOf = 0;
  for (llvm::StringRef Choice : Choices) {
    bool Begins = !Typed.empty() && Choice.starts_with(Typed);
    unsigned Distance = Typed.edit_distance(Choice, true, Limit + 1);
    if (Distance < BestDistance ||
        (Distance == BestDistance && Distance <= Limit && Begins &&
         !Best.starts_with(Typed)))
      Best = Choice, BestDistance = Distance;
    if (Begins)
      Prefixed = Choice, ++PrefixOf;
  }
  if (Best.empty() && PrefixOf == 1)
    Best = Prefixed;
  return Best.empty() ? "" : ("; did you mean '" + Best + "'?").str();
}

class TLXPluginAction : public PluginASTAction {
  tlx::PipelineOptions Options = [] {
    tlx::PipelineOptions Defaults;
    Defaults.Dispatch = true; // what `tlx-cc -O2 prog.c` should get
    return Defaults;
  }();

  bool reportBadArg(const CompilerInstance &CI, llvm::StringRef Arg,
                    llvm::StringRef Why) {
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    unsigned ID = Diags.getCustomDiagID(
        DiagnosticsEngine::Error,
        "invalid TLX plugin argument '%0': %1 (valid arguments: %2)");
    Diags.Report(ID) << Arg << Why << ValidArgs;
    return false;
  }

  /// -fplugin-arg-tlx-target=sme on a target without SME, amx on one
  /// without AMX, mma on one without Power's MMA: said once per compile
  /// (the GEMM lowering would fall back to vector code silently, or for amx
  /// not build at all), and the plugin uses vector code. amx-emulate runs
  /// anywhere (the runtime's emulator).
  void checkTargetForTriple(CompilerInstance &CI) {
    const llvm::Triple &TT = CI.getTarget().getTriple();
    const char *Needs = nullptr;
    if (Options.Target == tlx::TargetKind::SME && !TT.isAArch64())
      Needs = "an AArch64 target";
    else if (Options.Target == tlx::TargetKind::AMX && !TT.isX86())
      Needs = "an x86-64 target";
    else if (Options.Target == tlx::TargetKind::MMA &&
             TT.getArch() != llvm::Triple::ppc64le)
      Needs = "a powerpc64le target";
    if (!Needs)
      return;
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    unsigned ID = Diags.getCustomDiagID(
        tlx::warningLevel(Diags),
        "TLX plugin argument 'target=%0' needs %1, but the target is %2: "
        "TLX uses vector code instead%3");
    Diags.Report(ID) << tlx::targetName(Options.Target) << Needs << TT.str()
                     << (Options.Target == tlx::TargetKind::AMX
                             ? " (target=amx-emulate runs AMX code through "
                               "the runtime's emulator on any target)"
                             : "");
    Options.Target = tlx::TargetKind::Vector;
  }

  bool parseArg(const CompilerInstance &CI, llvm::StringRef Arg) {
    auto [Key, Value] = Arg.split('=');
    if (Key == "target") {
      if (!tlx::parseTarget(Value, Options.Target))
        return reportBadArg(CI, Arg,
                            "unknown target" + didYouMean(Value, TargetNames));
      return true;
    }
    if (Key == "stop-after") {
      if (!tlx::isStageName(Value))
        return reportBadArg(CI, Arg,
                            "unknown stage" +
                                didYouMean(Value, tlx::stageNames()) +
                                "; stages are " +
                                llvm::join(tlx::stageNames().begin(),
                                           tlx::stageNames().end(), ", "));
      Options.StopAfter = Value.str();
      return true;
    }
    if (Key == "share-kernels") {
      if (!tlx::parseKernelSharing(Value, Options.ShareKernels))
        return reportBadArg(CI, Arg,
                            "expected 'auto', 'always' or 'never'" +
                                didYouMean(Value, SharingNames));
      return true;
    }
    llvm::SmallVector<llvm::StringRef, 8> Keys = {"target", "stop-after",
                                                  "share-kernels"};
    for (const SwitchArg &Switch : SwitchArgs) {
      Keys.push_back(Switch.Key);
      if (Key != Switch.Key)
        continue;
      if (Value != "on" && Value != "off")
        return reportBadArg(CI, Arg,
                            "expected 'on' or 'off'" + didYouMean(Value, OnOff));
      Options.*Switch.Field = Value == "on";
      return true;
    }
    return reportBadArg(CI, Arg, "unknown option" + didYouMean(Key, Keys));
  }

protected:
  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &Arg : Args)
      if (!parseArg(CI, Arg))
        return false;
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    Preprocessor &PP = CI.getPreprocessor();
    PP.setPredefines(PP.getPredefines() + getPredefines());
    CodeGenOptions &CG = CI.getCodeGenOpts();
    // Errors and remarks raised in IR need file:line:col even without -g:
    // ask for location-tracking-only debug info, as clang does for -Rpass.
    if (CG.getDebugInfo() == llvm::codegenoptions::NoDebugInfo)
      CG.setDebugInfo(llvm::codegenoptions::LocTrackingOnly);

    frontend::ActionKind Action = CI.getFrontendOpts().ProgramAction;
    Options.AllowUnlowered =
        Action == frontend::EmitLLVM || Action == frontend::EmitBC;
    checkTargetForTriple(CI);
    tlx::pipelineOptions() = Options;
    tlx::setHostIsClang();
    CG.PassBuilderCallbacks.push_back(
        [](llvm::PassBuilder &PB) { tlx::registerClangPipeline(PB); });
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(tlx::createCallChecker(CI));
    Consumers.push_back(tlx::createWideInitializers(CI));
    if (!Options.StopAfter.empty() ||
        (CG.DisableLLVMPasses && Action == frontend::EmitBC))
      Consumers.push_back(std::make_unique<RunTLXPassesOnlyConsumer>(CG));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<TLXPluginAction>
    X("tlx", "TLX: recognize and lower tensor operations");
static ParsedAttrInfoRegistry::Add<PluginPresenceAttr>
    Y("tlx_plugin", "tells __has_attribute that the TLX plugin is loaded");
