//===- Diagnostics.cpp - Errors and remarks with source locations ---------===//

#include "Diagnostics.h"
#include "TLXOps.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <cstdlib>

using namespace llvm;

namespace tlx {

static std::atomic<unsigned> NumErrors{0};

unsigned errorCount() { return NumErrors; }

static bool HostIsClang = false;

/// clang turns error diagnostics into "file:line:col: error:" and fails the
/// compile after the pass; opt's default handler exits at the first error,
/// so outside clang print every error here and exit once the pass is done
/// (exitIfErrorsOutsideClang).
static void report(const DiagnosticInfoUnsupported &DI) {
  ++NumErrors;
  if (HostIsClang) {
    DI.getFunction().getContext().diagnose(DI);
    return;
  }
  DiagnosticPrinterRawOStream DP(WithColor::error(errs(), "tlx"));
  DI.print(DP);
}

void emitError(const Instruction &I, const Twine &Msg) {
  report(DiagnosticInfoUnsupported(*I.getFunction(), Msg, I.getDebugLoc(),
                                   DS_Error));
}

void emitError(const Function &F, const Twine &Msg) {
  report(DiagnosticInfoUnsupported(F, Msg, DebugLoc(), DS_Error));
}

void emitRemark(const char *PassName, StringRef RemarkName,
                const Instruction &I, const Twine &Msg) {
  OptimizationRemarkEmitter ORE(I.getFunction());
  ORE.emit([&] {
    return OptimizationRemark(PassName, RemarkName, &I) << Msg.str();
  });
}

void emitMissedRemark(const char *PassName, StringRef RemarkName,
                      const Instruction &I, const Twine &Msg) {
  OptimizationRemarkEmitter ORE(I.getFunction());
  ORE.emit([&] {
    return OptimizationRemarkMissed(PassName, RemarkName, &I) << Msg.str();
  });
}

void setHostIsClang() { HostIsClang = true; }

bool hostIsClang() { return HostIsClang; }

/// The C type clang gives \p Ty, for integers the <stdint.h> name of its
/// width: the IR does not say whether the C type was signed.
static std::string cTypeName(const Type *Ty) {
  if (Ty->isFloatTy())
    return "float";
  if (Ty->isDoubleTy())
    return "double";
  if (Ty->isHalfTy())
    return "_Float16";
  if (Ty->isBFloatTy())
    return "__bf16";
  if (Ty->isX86_FP80Ty())
    return "long double";
  if (Ty->isFP128Ty())
    return "__float128";
  if (Ty->isIntegerTy(1))
    return "_Bool";
  if (Ty->isIntegerTy(128))
    return "__int128";
  if (Ty->isIntegerTy(8) || Ty->isIntegerTy(16) || Ty->isIntegerTy(32) ||
      Ty->isIntegerTy(64))
    return "int" + std::to_string(Ty->getIntegerBitWidth()) + "_t";
  if (Ty->isIntegerTy())
    return "_BitInt(" + std::to_string(Ty->getIntegerBitWidth()) + ")";
  return elementTypeName(Ty);
}

std::string userTypeName(const Type *Ty) {
  if (!Ty)
    return "<none>";
  return HostIsClang ? cTypeName(Ty) : elementTypeName(Ty);
}

void exitIfErrorsOutsideClang() {
  // clang counts error diagnostics and fails the compile by itself; opt
  // prints them and carries on, so stop here with a non-zero exit.
  if (NumErrors == 0 || HostIsClang)
    return;
  WithColor::error(errs(), "tlx")
      << NumErrors << " error(s) in TLX code; stopping\n";
  std::exit(1);
}

} // namespace tlx
