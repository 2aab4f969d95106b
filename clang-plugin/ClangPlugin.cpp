//===- ClangPlugin.cpp - The clang side of libtlx.so ----------------------===//
//
// -fplugin=libtlx.so registers the "tlx" plugin action. It runs before the
// main action, parses -fplugin-arg-tlx-<key>=<value>, checks calls to the TLX
// dummy functions on the AST, and hands the TLX pipeline to clang's code
// generator through CodeGenOptions::PassBuilderCallbacks, so -fplugin alone
// is enough at every -O level.
//
//===----------------------------------------------------------------------===//

#include "CallChecker.h"
#include "WideInitializers.h"

#include "IR/Diagnostics.h"
#include "Plugin/Options.h"
#include "Plugin/Plugin.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Passes/PassBuilder.h"

using namespace clang;

namespace {

/// With stop-after, the output shows the IR as the TLX stages left it:
/// once the AST is complete (clang has generated the IR at the user's -O
/// level), the optimizer runs the -O0 pipeline, which still runs the TLX
/// passes but none of LLVM's, so -O0..-O3 print the same TLX IR.
class KeepTLXOutputConsumer : public ASTConsumer {
  CodeGenOptions &CG;

public:
  explicit KeepTLXOutputConsumer(CodeGenOptions &CG) : CG(CG) {}
  void HandleTranslationUnit(ASTContext &) override {
    CG.DisableO0ImplyOptNone = true;
    CG.OptimizationLevel = 0;
  }
};

const char *const ValidArgs =
    "target=auto|vector|amx|amx-emulate, stop-after=<stage>";

class TLXPluginAction : public PluginASTAction {
  tlx::PipelineOptions Options;

  bool reportBadArg(const CompilerInstance &CI, llvm::StringRef Arg,
                    llvm::StringRef Why) {
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    unsigned ID = Diags.getCustomDiagID(
        DiagnosticsEngine::Error,
        "invalid TLX plugin argument '%0': %1 (valid arguments: %2)");
    Diags.Report(ID) << Arg << Why << ValidArgs;
    return false;
  }

  bool parseArg(const CompilerInstance &CI, llvm::StringRef Arg) {
    auto [Key, Value] = Arg.split('=');
    if (Key == "target") {
      if (!tlx::parseTarget(Value, Options.Target))
        return reportBadArg(CI, Arg, "unknown target");
      return true;
    }
    if (Key == "stop-after") {
      if (!tlx::isStageName(Value))
        return reportBadArg(CI, Arg,
                            "unknown stage; stages are " +
                                llvm::join(tlx::stageNames().begin(),
                                           tlx::stageNames().end(), ", "));
      Options.StopAfter = Value.str();
      return true;
    }
    return reportBadArg(CI, Arg, "unknown option");
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
    CodeGenOptions &CG = CI.getCodeGenOpts();
    // Errors and remarks raised in IR need file:line:col even without -g:
    // ask for location-tracking-only debug info, as clang does for -Rpass.
    if (CG.getDebugInfo() == llvm::codegenoptions::NoDebugInfo)
      CG.setDebugInfo(llvm::codegenoptions::LocTrackingOnly);

    frontend::ActionKind Action = CI.getFrontendOpts().ProgramAction;
    Options.AllowUnlowered =
        Action == frontend::EmitLLVM || Action == frontend::EmitBC;
    tlx::pipelineOptions() = Options;
    tlx::setHostIsClang();
    CG.PassBuilderCallbacks.push_back(
        [](llvm::PassBuilder &PB) { tlx::registerClangPipeline(PB); });
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(tlx::createCallChecker(CI));
    Consumers.push_back(tlx::createWideInitializers(CI));
    if (!Options.StopAfter.empty())
      Consumers.push_back(std::make_unique<KeepTLXOutputConsumer>(CG));
    return std::make_unique<MultiplexConsumer>(std::move(Consumers));
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<TLXPluginAction>
    X("tlx", "TLX: recognize and lower tensor operations");
