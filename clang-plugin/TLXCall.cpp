//===- TLXCall.cpp - Calls of TLX dummy functions in the AST --------------===//

#include "TLXCall.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace tlx {

std::optional<OpKind> getDummyKind(const FunctionDecl *FD) {
  if (!FD || FD->isDefined() || !FD->getIdentifier())
    return std::nullopt;
  return matchCName(FD->getName());
}

const Expr *TLXCall::arg(unsigned I) const { return Call->getArg(I); }

/// A zero 16-byte vector compound literal, alone (C++, older tlx.h) or as
/// the value of a statement expression (C): what TLX_ELEMENT_TAG expands to.
static bool isExpandedElementTag(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Extension)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *SE = dyn_cast<StmtExpr>(E)) {
    const CompoundStmt *Body = SE->getSubStmt();
    const auto *Last =
        Body->body_empty() ? nullptr : dyn_cast<Expr>(Body->body_back());
    if (!Last)
      return false;
    E = Last->IgnoreParenImpCasts();
  }
  const auto *CL = dyn_cast<CompoundLiteralExpr>(E);
  return CL && CL->getType()->isVectorType() &&
         Ctx.getTypeSize(CL->getType()) == 128;
}

/// True if \p E, the last of \p NumArgs arguments of an op that accepts at
/// most \p MaxArgs, is tlx.h's element tag: spelled with the TLX_ELEMENT_TAG
/// macro, or (in preprocessed input, as -save-temps compiles it) what the
/// macro expands to, in the place of an extra argument.
static bool isElementTag(const Expr *E, unsigned NumArgs, unsigned MaxArgs,
                         const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (SourceLocation L = E->getBeginLoc(); L.isMacroID();
       L = SM.getImmediateMacroCallerLoc(L))
    if (Lexer::getImmediateMacroName(L, SM, Ctx.getLangOpts()) ==
        "TLX_ELEMENT_TAG")
      return true;
  return NumArgs == MaxArgs + 1 && isExpandedElementTag(E, Ctx);
}

bool TLXCall::returnsInferred() const {
  const auto *TT = Callee->getReturnType()->getAs<TypedefType>();
  return desc().Result == ResultKind::Data && TT &&
         TT->getDecl()->getName() == "tlx__inferred_t";
}

bool isTokenType(QualType T) {
  while (const auto *TD = T->getAs<TypedefType>()) {
    if (TD->getDecl()->getName() == "tlx_token_t")
      return true;
    T = TD->desugar();
  }
  return false;
}

std::string getWrittenName(const FunctionDecl *FD) {
  return "'" + getSpelledName(FD->getName()) + "'";
}

std::string TLXCall::writtenName() const { return getWrittenName(Callee); }

bool TLXCall::isInferredTypeInfo(const ASTContext &Ctx,
                                 const CallExpr **Data) const {
  if (Kind != OpKind::TypeInfo || NumArgs != 1)
    return false;
  const auto *CE =
      dyn_cast<CallExpr>(Call->getArg(0)->IgnoreParenImpCasts());
  std::optional<TLXCall> Op = CE ? getTLXCall(CE, Ctx) : std::nullopt;
  if (!Op || !Op->returnsInferred())
    return false;
  if (Data)
    *Data = CE;
  return true;
}

std::optional<TLXCall> getTLXCall(const CallExpr *CE, const ASTContext &Ctx) {
  const FunctionDecl *FD = CE->getDirectCallee();
  std::optional<OpKind> Kind = getDummyKind(FD);
  if (!Kind)
    return std::nullopt;
  TLXCall Call;
  Call.Call = CE;
  Call.Callee = FD;
  Call.Kind = *Kind;
  Call.NumArgs = CE->getNumArgs();
  // tlx.h's load/store/typeinfo_mem macros append an element tag vector.
  const OpDesc &D = getOpDesc(*Kind);
  bool TakesPointer = D.Signature.find_first_of("DP") != llvm::StringRef::npos;
  Call.HasTag = TakesPointer && Call.NumArgs > 0 &&
                isElementTag(CE->getArg(Call.NumArgs - 1), Call.NumArgs,
                             D.MaxArgs, Ctx);
  if (Call.HasTag)
    --Call.NumArgs;
  return Call;
}

QualType getPointeeElementType(QualType PtrTy, const ASTContext &Ctx) {
  QualType Pointee = PtrTy->getPointeeType();
  if (Pointee.isNull())
    if (const ArrayType *AT = Ctx.getAsArrayType(PtrTy))
      Pointee = AT->getElementType();
  while (!Pointee.isNull())
    if (const ArrayType *AT = Ctx.getAsArrayType(Pointee))
      Pointee = AT->getElementType();
    else
      break;
  return Pointee.isNull() ? Pointee : Pointee.getUnqualifiedType();
}

} // namespace tlx
