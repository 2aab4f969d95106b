//===- CallChecker.cpp - AST checks of TLX dummy-function calls -----------===//
//
// Calls to the TLX dummy functions (tensor_<op>, see headers/tlx.h) are
// checked on the AST, where clang can point at the offending argument:
// operand counts and kinds per TLXOps.def, dimension vectors of one length,
// shapes that are certainly not constant, and tokens that certainly do not
// come from a TLX op. What the AST cannot decide (a variable assigned on
// several paths...) is left to tlx-recognize, which reports at the same
// file:line:col from the IR.
//
// The checker also keeps two warnings that the RFC's idiom triggers on
// every call away from TLX calls, without hiding them for user code:
// -Wdeprecated-non-prototype (tlx.h declares the dummies K&R style so user
// prototypes stay compatible) and -Wpsabi (tensors are vectors wider than
// the target's vector registers; the dummy calls never reach the backend).
//
//===----------------------------------------------------------------------===//

#include "CallChecker.h"
#define TLX_COMPAT_CLANG
#include "Compat.h"
#include "ShapeChecker.h"
#include "TLXCall.h"

#include "IR/TLXOps.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"

#include <memory>

using namespace clang;

namespace tlx {
namespace {

/// Source locations of TLX dummy calls.
using CallLocationSet = llvm::DenseSet<SourceLocation>;

//===----------------------------------------------------------------------===//
// Warning filter.
//===----------------------------------------------------------------------===//

class TLXWarningFilter : public DiagnosticConsumer {
  DiagnosticConsumer *Inner;
  std::unique_ptr<DiagnosticConsumer> Owned;
  CallLocationSet CallLocs;

  bool isTLXNoise(const Diagnostic &Info) const {
    switch (Info.getID()) {
    case diag::warn_strict_uses_without_prototype:
      // "passing arguments to %select{a function|%1}0 without a prototype"
      if (Info.getNumArgs() > 1 &&
          Info.getArgKind(1) == DiagnosticsEngine::ak_nameddecl) {
        // Null when the callee is not a declaration (an indirect call).
        const auto *FD = dyn_cast_or_null<FunctionDecl>(
            reinterpret_cast<const NamedDecl *>(Info.getRawArg(1)));
        return getDummyKind(FD).has_value();
      }
      return false;
    case diag::warn_avx_calling_convention:
      return CallLocs.contains(Info.getLocation());
    default:
      return false;
    }
  }

public:
  TLXWarningFilter(DiagnosticConsumer *Inner,
                   std::unique_ptr<DiagnosticConsumer> Owned)
      : Inner(Inner), Owned(std::move(Owned)) {}

  /// Filled by the checker before clang's code generator, which reports
  /// -Wpsabi, sees a function.
  CallLocationSet &callLocations() { return CallLocs; }

  // Everything else goes to the wrapped consumer; its counts are the ones
  // clang reports (-verify counts only verification failures).
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Inner->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override {
    Inner->EndSourceFile();
    syncCounts();
  }
  void finish() override {
    Inner->finish();
    syncCounts();
  }
  void clear() override {
    Inner->clear();
    syncCounts();
  }
  bool IncludeInDiagnosticCounts() const override {
    return Inner->IncludeInDiagnosticCounts();
  }
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    if (isTLXNoise(Info))
      return;
    Inner->HandleDiagnostic(Level, Info);
    syncCounts();
  }

private:
  void syncCounts() {
    NumWarnings = Inner->getNumWarnings();
    NumErrors = Inner->getNumErrors();
  }
};

//===----------------------------------------------------------------------===//
// The checks.
//===----------------------------------------------------------------------===//

bool isIntVector(QualType T) {
  const auto *VT = T->getAs<VectorType>();
  return VT && VT->getElementType()->isIntegerType();
}

/// True if \p E certainly has no compile-time value: it reads a function
/// parameter or calls a function.
bool isCertainlyRuntime(const Expr *E, ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      Found |= isa<ParmVarDecl>(DRE->getDecl());
      return !Found;
    }
    bool VisitCallExpr(CallExpr *CE) {
      Found |= !CE->getBuiltinCallee();
      return !Found;
    }
  } F;
  if (E->isValueDependent() || E->isEvaluatable(Ctx))
    return false;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

class CallVisitor : public RecursiveASTVisitor<CallVisitor> {
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  CallLocationSet &CallLocs;
  /// The call being checked, and the calls errors were reported for.
  const CallExpr *Current = nullptr;
  llvm::DenseSet<const CallExpr *> Reported;
  /// Functions with bodies, for the shape checks.
  llvm::SmallVector<const FunctionDecl *, 4> Functions;

  template <unsigned N>
  DiagnosticBuilder report(SourceLocation Loc, const char (&Fmt)[N]) {
    Reported.insert(Current);
    return Diags.Report(Loc,
                        Diags.getCustomDiagID(DiagnosticsEngine::Error, Fmt));
  }

  void locateInMacroArgument(CallExpr *CE);
  void nameLikeC(const FunctionDecl *FD);

  /// The argument's type as written, before C's default promotions.
  static QualType writtenType(const Expr *Arg) {
    return Arg->IgnoreParenImpCasts()->getType();
  }

  void checkToken(const CallExpr *CE, const FunctionDecl *FD, unsigned I,
                  const Expr *Arg);
  void checkConstantDims(const CallExpr *CE, const FunctionDecl *FD, unsigned I,
                         const Expr *Arg);

  void checkPointee(const CallExpr *CE, const FunctionDecl *FD, unsigned I,
                    const Expr *Arg);

  bool checkArgCount(const CallExpr *CE, const FunctionDecl *FD,
                     const OpDesc &D, unsigned NumArgs);
  void checkArgument(
      const CallExpr *CE, const FunctionDecl *FD, const OpDesc &D, unsigned I,
      bool HasTag,
      llvm::SmallVectorImpl<std::pair<unsigned, unsigned>> &DimLengths);
  void
  checkDimLengths(const CallExpr *CE, const FunctionDecl *FD,
                  llvm::ArrayRef<std::pair<unsigned, unsigned>> DimLengths);
  void checkResult(const CallExpr *CE, const FunctionDecl *FD, const OpDesc &D);

  bool checkTokenOperand(SourceLocation OpLoc, StringRef Op, const Expr *E,
                         const BinaryOperator *BO = nullptr);
  FixItHint shortFormFixIt(const BinaryOperator &BO, StringRef Function);

public:
  CallVisitor(ASTContext &Ctx, DiagnosticsEngine &Diags,
              CallLocationSet &CallLocs)
      : Ctx(Ctx), Diags(Diags), CallLocs(CallLocs) {}

  bool VisitCallExpr(CallExpr *CE);
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign || BO->getOpcode() == BO_Comma)
      return true;
    // One error per operator, at its first token operand.
    if (!checkTokenOperand(BO->getOperatorLoc(), BO->getOpcodeStr(),
                           BO->getLHS(), BO))
      checkTokenOperand(BO->getOperatorLoc(), BO->getOpcodeStr(),
                        BO->getRHS(), BO);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() != UO_AddrOf && UO->getOpcode() != UO_Deref)
      checkTokenOperand(UO->getOperatorLoc(),
                        UnaryOperator::getOpcodeStr(UO->getOpcode()),
                        UO->getSubExpr());
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isInvalidDecl())
      Functions.push_back(FD);
    return true;
  }

  /// The shape checks of every function visited, once its calls passed
  /// the operand checks above.
  void checkShapes() {
    for (const FunctionDecl *FD : Functions)
      tlx::checkShapes(*FD, Ctx, Diags, Reported);
  }
};

/// Gives a TLX call written inside a macro argument (tensor_store(p,
/// tensor_typeinfo(...), ...): tensor_store is a tlx.h macro) the location
/// where its name is written. clang locates everything in a macro
/// expansion, debug locations included, at the outermost macro's name, so
/// without this every IR-level error and remark about the inner calls
/// would point at the outer call. The callee's DeclRefExpr gives the call
/// its location; the AST consumers run before code generation.
void CallVisitor::locateInMacroArgument(CallExpr *CE) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = CE->getExprLoc();
  if (!Loc.isMacroID())
    return;
  SourceLocation Written = SM.getFileLoc(Loc);
  if (Written == SM.getExpansionLoc(Loc))
    return; // not in a macro argument: the expansion is where it is written
  auto *DRE = dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts());
  if (!DRE || DRE->hasQualifier())
    return;
  DRE->setLocation(Written);
  compat::refreshCallBeginLoc(CE);
}

/// Gives a TLX dummy with C++ linkage its C name in IR. tlx.h declares its
/// dummies extern "C", but a C++ declaration the user writes at block scope
/// - the only place where a function template can declare an op returning
/// its dependent vector type (`vMN tensor_matmul_t(...);`) - has C++
/// linkage and would be called as _Z15tensor_matmul_tz, which tlx-recognize
/// does not know. An asm label is what extern "C" would have done.
void CallVisitor::nameLikeC(const FunctionDecl *FD) {
  if (!Ctx.getLangOpts().CPlusPlus || FD->isExternC() ||
      FD->hasAttr<AsmLabelAttr>())
    return;
  auto *Decl = const_cast<FunctionDecl *>(FD);
#if LLVM_VERSION_MAJOR >= 21
  Decl->addAttr(AsmLabelAttr::CreateImplicit(Ctx, FD->getName()));
#else
  Decl->addAttr(
      AsmLabelAttr::CreateImplicit(Ctx, FD->getName(), /*LiteralLabel=*/true));
#endif
}

void CallVisitor::checkToken(const CallExpr *CE, const FunctionDecl *FD,
                             unsigned I, const Expr *Arg) {
  SourceLocation Loc = Arg->getExprLoc();
  if (!Arg->getType()->isIntegerType()) {
    report(Loc, "argument %0 of %1 must be a TLX token (an int returned by "
                "tensor_typeinfo, tensor_load or vector_totensor), not %2")
        << I + 1 << getWrittenName(FD) << writtenType(Arg)
        << Arg->getSourceRange();
    return;
  }
  const Expr *E = Arg->IgnoreParenImpCasts();
  if (E->isValueDependent())
    return;
  if (E->isIntegerConstantExpr(Ctx)) {
    report(Loc, "argument %0 of %1 is a constant, not a TLX token")
        << I + 1 << getWrittenName(FD) << Arg->getSourceRange();
    return;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    std::optional<OpKind> Kind = getDummyKind(Callee);
    if (!Kind) {
      report(Loc, "argument %0 of %1 comes from %2, not from a TLX operation")
          << I + 1 << getWrittenName(FD)
          << (Callee ? Callee->getName() : "a function call")
          << Arg->getSourceRange();
      return;
    }
    if (getOpDesc(*Kind).Result != ResultKind::Token)
      report(Loc, "argument %0 of %1 comes from %2, which returns tensor "
                  "data, not a token; name the data with tensor_typeinfo")
          << I + 1 << getWrittenName(FD) << Callee << Arg->getSourceRange();
    return;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (isa<ParmVarDecl>(DRE->getDecl()))
      report(Loc, "argument %0 of %1 is a function parameter; TLX tokens "
                  "cannot be passed between functions")
          << I + 1 << getWrittenName(FD) << Arg->getSourceRange();
}

/// A C operator on a TLX token computes with the number that names a
/// tensor (`xw + TLX_LOAD(b, 1, n)` adds two handles): an error at the
/// operator, which says how to compute with the tensors instead.
/// Returns whether it reported one.
bool CallVisitor::checkTokenOperand(SourceLocation OpLoc, StringRef Op,
                                    const Expr *E, const BinaryOperator *BO) {
  const Expr *Operand = E->IgnoreParenImpCasts();
  if (Operand->isTypeDependent() || !isTokenType(Operand->getType()))
    return false;
  Diags.Report(OpLoc, Diags.getCustomDiagID(
                          DiagnosticsEngine::Error,
                          "operator '%0' on a TLX token: a tlx_token_t names "
                          "a tensor, it is not its data"))
      << Op << Operand->getSourceRange();
  // + - * / (and their assignments) have a short-form function.
  StringRef Function;
  if (BO)
    switch (BO->isCompoundAssignmentOp()
                ? BinaryOperator::getOpForCompoundAssignment(BO->getOpcode())
                : BO->getOpcode()) {
    case BO_Add:
      Function = "tlx_add";
      break;
    case BO_Sub:
      Function = "tlx_sub";
      break;
    case BO_Mul:
      Function = "tlx_mul";
      break;
    case BO_Div:
      Function = "tlx_div";
      break;
    default:
      break;
    }
  if (!Function.empty()) {
    Diags.Report(Operand->getExprLoc(),
                 Diags.getCustomDiagID(
                     DiagnosticsEngine::Note,
                     "compute with the tensors in the short form: %0(a, b) "
                     "(numpy broadcasting; either may be a C scalar)"))
        << Function << shortFormFixIt(*BO, Function);
    return true;
  }
  Diags.Report(Operand->getExprLoc(),
               Diags.getCustomDiagID(
                   DiagnosticsEngine::Note,
                   "TLX ops take tokens (tlx_relu(t), tlx_add(a, b), "
                   "tlx_max(a, b)); C operators apply to a result kept as a "
                   "C vector and named by tensor_typeinfo (the long form: "
                   "docs/ops.md, \"C vector operators\")"));
  return true;
}

/// `a + b` -> `tlx_add(a, b)`, `a += b` -> `a = tlx_add(a, b)`; none where
/// the operands come from macros (the replacement would not be the code).
FixItHint CallVisitor::shortFormFixIt(const BinaryOperator &BO,
                                      StringRef Function) {
  const SourceManager &SM = Ctx.getSourceManager();
  // As written in the file: a macro argument's text, a whole macro call.
  auto InFile = [&](SourceRange R) {
    return Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM,
                                    Ctx.getLangOpts());
  };
  auto Text = [&](const Expr *E) -> std::optional<StringRef> {
    CharSourceRange R = InFile(E->getSourceRange());
    bool Invalid = !R.isValid();
    StringRef T = Invalid ? StringRef()
                          : Lexer::getSourceText(R, SM, Ctx.getLangOpts(),
                                                 &Invalid);
    return Invalid ? std::nullopt : std::optional<StringRef>(T);
  };
  std::optional<StringRef> L = Text(BO.getLHS()), R = Text(BO.getRHS());
  CharSourceRange Whole = InFile(BO.getSourceRange());
  if (!L || !R || !Whole.isValid())
    return FixItHint();
  std::string Call = (Function + "(" + *L + ", " + *R + ")").str();
  if (BO.isCompoundAssignmentOp())
    Call = (*L + " = " + Call).str();
  return FixItHint::CreateReplacement(Whole, Call);
}

/// The scalar type the pointer argument \p Arg points to, through array
/// extents (what tlx.h's element tag carries), and whether it can be a
/// tensor's element type.
void CallVisitor::checkPointee(const CallExpr *CE, const FunctionDecl *FD,
                               unsigned I, const Expr *Arg) {
  QualType Pointee = getPointeeElementType(Arg->getType(), Ctx);
  if (Pointee->isVoidType()) {
    report(Arg->getExprLoc(),
           "%0 needs a typed pointer: argument %1 is %2, which does not say "
           "what the tensor holds; cast it to a pointer to the element type, "
           "for example (const float *)")
        << getWrittenName(FD) << I + 1 << writtenType(Arg)
        << Arg->getSourceRange();
    return;
  }
  const auto *BT = Pointee->getAs<BuiltinType>();
  bool Scalar = BT && !Pointee->isBooleanType() &&
                (Pointee->isIntegerType() || Pointee->isRealFloatingType());
  if (Scalar)
    return;
  report(Arg->getExprLoc(),
         "argument %0 of %1 points to %2, which cannot be a tensor's "
         "element type (int8_t, uint8_t, int16_t, int32_t, int64_t, "
         "_Float16, __bf16, float, double)")
      << I + 1 << getWrittenName(FD) << Pointee << Arg->getSourceRange();
  // A tensor kept in memory as a C vector (passed by pointer): its data is
  // the vector's elements, which TLX's pointers point to.
  if (const auto *VT = Pointee->getAs<VectorType>())
    Diags.Report(Arg->getExprLoc(),
                 Diags.getCustomDiagID(DiagnosticsEngine::Note,
                                       "the data of a vector in memory is its "
                                       "elements: pass a pointer to them, "
                                       "(const %0 *)"))
        << VT->getElementType().getAsString() << Arg->getSourceRange();
}

void CallVisitor::checkConstantDims(const CallExpr *CE, const FunctionDecl *FD,
                                    unsigned I, const Expr *Arg) {
  std::optional<TLXCall> Call = getTLXCall(CE, Ctx);
  if (Call && mayBeRuntimeOperand(Call->Kind, I))
    return;
  const Expr *E = Arg->IgnoreParenImpCasts();
  // A local initialised with a constant (the RFC's `_shape_t shape =
  // {1, 10, 800, 800};`) counts as constant; tlx-recognize checks the rest.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && !isa<ParmVarDecl>(VD))
      return;
  if (isCertainlyRuntime(E, Ctx))
    report(Arg->getExprLoc(), "argument %0 of %1 must be a constant integer "
                              "vector (only the shape and strides of "
                              "tensor_load, tensor_typeinfo and tensor_store "
                              "may be computed at run time)")
        << I + 1 << getWrittenName(FD) << Arg->getSourceRange();
}

/// Reports a call with too few or too many arguments; false if so.
bool CallVisitor::checkArgCount(const CallExpr *CE, const FunctionDecl *FD,
                                const OpDesc &D, unsigned NumArgs) {
  SourceLocation CallLoc = CE->getExprLoc();
  if (NumArgs < D.MinArgs || NumArgs > D.MaxArgs) {
    llvm::SmallString<16> Expected(std::to_string(D.MinArgs));
    if (D.MaxArgs != D.MinArgs)
      Expected += " to " + std::to_string(D.MaxArgs);
    report(CallLoc, "%0 (TLX operation '%1') takes %2 argument%s3, got %4")
        << getWrittenName(FD) << D.shortName() << Expected << D.MaxArgs
        << NumArgs << CE->getSourceRange();
    return false;
  }
  return true;
}

/// Checks argument \p I against its letter in \p D's signature, noting the
/// lengths of dimension vectors in \p DimLengths.
void CallVisitor::checkArgument(
    const CallExpr *CE, const FunctionDecl *FD, const OpDesc &D, unsigned I,
    bool HasTag,
    llvm::SmallVectorImpl<std::pair<unsigned, unsigned>> &DimLengths) {
  const Expr *Arg = CE->getArg(I);
  QualType T = Arg->getType();
  SourceLocation Loc = Arg->getExprLoc();
  // The short form's mma may take a C scalar accumulator (tlx_smma(0, a,
  // b)): checked as tlx_add's operands are.
  bool ScalarAccumulator = I == 0 && isMMA(D.Kind) &&
                           FD->getName().ends_with("_tlx_inferred") &&
                           !isTokenType(Arg->IgnoreParenImpCasts()->getType());
  switch (ScalarAccumulator ? 'X' : D.Signature[I]) {
  case 'T':
    checkToken(CE, FD, I, Arg);
    break;
  case 'D':
    if (!T->isVectorType() && !T->isPointerType())
      report(Loc, "argument %0 of %1 must be tensor data (a vector value or "
                  "a pointer), not %2")
          << I + 1 << getWrittenName(FD) << writtenType(Arg)
          << Arg->getSourceRange();
    else if (T->isPointerType() && !HasTag)
      report(Loc, "the element type of pointer argument %0 of %1 is "
                  "unknown; use tensor_typeinfo_mem(ptr, ...) from tlx.h")
          << I + 1 << getWrittenName(FD) << Arg->getSourceRange();
    else if (T->isPointerType())
      checkPointee(CE, FD, I, Arg);
    break;
  case 'P':
    if (!T->isPointerType())
      report(Loc, "argument %0 of %1 must be a pointer, not %2")
          << I + 1 << getWrittenName(FD) << writtenType(Arg)
          << Arg->getSourceRange();
    else if (!HasTag)
      report(Loc, "the element type of pointer argument %0 of %1 is "
                  "unknown; use tlx.h's %1 macro, or pass "
                  "TLX_ELEMENT_TAG(ptr) last")
          << I + 1 << getWrittenName(FD) << Arg->getSourceRange();
    else
      checkPointee(CE, FD, I, Arg);
    break;
  case 'V':
  case 'v':
    if (!isIntVector(T)) {
      report(Loc, "argument %0 of %1 must be an integer vector (for "
                  "example TLX_SHAPE(...)), not %2")
          << I + 1 << getWrittenName(FD) << writtenType(Arg)
          << Arg->getSourceRange();
      break;
    }
    DimLengths.push_back({I, T->getAs<VectorType>()->getNumElements()});
    checkConstantDims(CE, FD, I, Arg);
    break;
  case 'S':
  case 's':
    if (!T->isArithmeticType())
      report(Loc, "argument %0 of %1 must be a scalar, not %2")
          << I + 1 << getWrittenName(FD) << writtenType(Arg)
          << Arg->getSourceRange();
    break;
  case 'X': // a token, or a scalar (both integers when not floating point)
    if (!T->isArithmeticType())
      report(Loc, "argument %0 of %1 must be a tensor (a token) or a "
                  "scalar, not %2")
          << I + 1 << getWrittenName(FD) << writtenType(Arg)
          << Arg->getSourceRange();
    break;
  case 'I':
  case 'i':
    if (!T->isIntegerType())
      report(Loc, "argument %0 of %1 must be an integer constant, not %2")
          << I + 1 << getWrittenName(FD) << writtenType(Arg)
          << Arg->getSourceRange();
    else if (isCertainlyRuntime(Arg->IgnoreParenImpCasts(), Ctx))
      report(Loc, "argument %0 of %1 must be an integer constant")
          << I + 1 << getWrittenName(FD) << Arg->getSourceRange();
    break;
  }
}

/// Reports the first dimension vector whose length differs from the first's.
void CallVisitor::checkDimLengths(
    const CallExpr *CE, const FunctionDecl *FD,
    llvm::ArrayRef<std::pair<unsigned, unsigned>> DimLengths) {
  // All dimension vectors of one call describe the same dimensions.
  for (auto [I, Len] : DimLengths)
    if (Len != DimLengths.front().second) {
      std::string Lengths;
      for (auto [J, L] : DimLengths)
        Lengths += (Lengths.empty() ? "" : ", ") + std::string("argument ") +
                   std::to_string(J + 1) + ": " + std::to_string(L);
      report(CE->getArg(I)->getExprLoc(),
             "the dimension vectors of %0 have different lengths (%1)")
          << getWrittenName(FD) << Lengths << CE->getArg(I)->getSourceRange();
      break;
    }
}

/// Reports a declared result type that does not fit \p D's result kind.
void CallVisitor::checkResult(const CallExpr *CE, const FunctionDecl *FD,
                              const OpDesc &D) {
  SourceLocation CallLoc = CE->getExprLoc();
  // Results: tokens are integers, data are vectors.
  QualType Ret = CE->getType();
  switch (D.Result) {
  case ResultKind::Token:
    if (!Ret->isIntegerType())
      report(CallLoc, "%0 returns a TLX token: declare it to return an "
                      "integer type (tlx_token_t), not %1")
          << getWrittenName(FD) << Ret << CE->getSourceRange();
    break;
  case ResultKind::Data:
    if (!Ret->isVectorType())
      report(CallLoc, "%0 returns tensor data: declare it to return the "
                      "tensor's vector type (for example with "
                      "TLX_DECLARE_TENSOR_OPS(type) from tlx.h), not %1")
          << getWrittenName(FD) << Ret << CE->getSourceRange();
    break;
  case ResultKind::Void:
    break;
  }
}

bool CallVisitor::VisitCallExpr(CallExpr *CE) {
  std::optional<TLXCall> Call = getTLXCall(CE, Ctx);
  if (!Call)
    return true;
  Current = CE;
  locateInMacroArgument(CE);
  const FunctionDecl *FD = Call->Callee;
  nameLikeC(FD);
  CallLocs.insert(CE->getBeginLoc());
  CallLocs.insert(CE->getExprLoc());
  if (CE->isValueDependent() || CE->isTypeDependent())
    return true;

  const OpDesc &D = Call->desc();
  unsigned NumArgs = Call->NumArgs;
  bool HasTag = Call->HasTag;
  if (Call->isInferredTypeInfo(Ctx))
    return true; // the short form: the data op is checked itself
  if (!checkArgCount(CE, FD, D, NumArgs))
    return true;

  llvm::SmallVector<std::pair<unsigned, unsigned>, 4> DimLengths;
  for (unsigned I = 0; I < NumArgs; ++I)
    checkArgument(CE, FD, D, I, HasTag, DimLengths);
  checkDimLengths(CE, FD, DimLengths);
  checkResult(CE, FD, D);
  return true;
}

class CallChecker : public ASTConsumer {
  CompilerInstance &CI;
  CallLocationSet &CallLocs;

public:
  CallChecker(CompilerInstance &CI, CallLocationSet &CallLocs)
      : CI(CI), CallLocs(CallLocs) {}

  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    CallVisitor V(CI.getASTContext(), CI.getDiagnostics(), CallLocs);
    for (Decl *D : DG)
      V.TraverseDecl(D);
    V.checkShapes();
    return true;
  }
};

} // namespace

std::unique_ptr<ASTConsumer> createCallChecker(CompilerInstance &CI) {
  DiagnosticsEngine &Diags = CI.getDiagnostics();
  bool Owns = Diags.ownsClient();
  std::unique_ptr<DiagnosticConsumer> Owned;
  if (Owns)
    Owned = Diags.takeClient();
  DiagnosticConsumer *Inner = Owns ? Owned.get() : Diags.getClient();
  auto *Filter = new TLXWarningFilter(Inner, std::move(Owned));
  Diags.setClient(Filter, /*ShouldOwnClient=*/true);
  // A filtered warning that -Werror made an error would still fail the
  // compile, silently: keep these two groups warnings.
  if (Diags.getWarningsAsErrors()) {
    Diags.setDiagnosticGroupWarningAsError("psabi", false);
    Diags.setDiagnosticGroupWarningAsError("deprecated-non-prototype", false);
  }
  return std::make_unique<CallChecker>(CI, Filter->callLocations());
}

} // namespace tlx
