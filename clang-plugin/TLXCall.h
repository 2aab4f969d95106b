//===- TLXCall.h - Calls of TLX dummy functions in the AST ------*- C++ -*-===//
//
// What the AST checks (CallChecker.cpp, ShapeChecker.cpp) share: which calls
// are TLX calls, their operands without tlx.h's element tag, the C element
// type a pointer argument carries, and the level of TLX's warnings.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_CLANG_PLUGIN_TLXCALL_H
#define TLX_CLANG_PLUGIN_TLXCALL_H

#include "IR/TLXOps.h"

#include "clang/AST/Type.h"
#include "clang/Basic/Diagnostic.h"
#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
} // namespace clang

namespace tlx {

/// The level a TLX warning is reported at: -w drops it, -Werror makes it an
/// error. (Clang 19's custom diagnostics keep the level they are created
/// with, whatever -w and -Werror say.)
inline clang::DiagnosticsEngine::Level
warningLevel(const clang::DiagnosticsEngine &Diags) {
  if (Diags.getIgnoreAllWarnings())
    return clang::DiagnosticsEngine::Ignored;
  return Diags.getWarningsAsErrors() ? clang::DiagnosticsEngine::Error
                                     : clang::DiagnosticsEngine::Warning;
}

/// The TLX op a called declaration denotes: an undefined function whose
/// name matches tensor_<op> (design.md "Names").
std::optional<OpKind> getDummyKind(const clang::FunctionDecl *FD);

/// Whether \p T is tlx.h's tlx_token_t (or a typedef of it): an int that
/// names a tensor.
bool isTokenType(clang::QualType T);

/// How a diagnostic names the TLX function \p FD, quoted: as the program
/// spells it ('tlx_relu' for tlx.h's short form, whose functions are
/// tensor_<op>_tlx_inferred), else its own name.
std::string getWrittenName(const clang::FunctionDecl *FD);

/// A call of a TLX dummy function.
struct TLXCall {
  const clang::CallExpr *Call = nullptr;
  const clang::FunctionDecl *Callee = nullptr;
  OpKind Kind;
  /// The operands, without the element tag tlx.h's macros append.
  unsigned NumArgs = 0;
  /// True when the last argument is the element tag.
  bool HasTag = false;

  const OpDesc &desc() const { return getOpDesc(Kind); }
  const clang::Expr *arg(unsigned I) const;
  /// tlx.h's short form: a data op declared to return tlx__inferred_t,
  /// whose result type TLX infers.
  bool returnsInferred() const;
  /// The function as the user wrote it, quoted: 'tensor_matmul', or the
  /// short form's 'tlx_matmul' (not its declaration's name).
  std::string writtenName() const;
  /// The short form's `tensor_typeinfo(data)`: a typeinfo of a short-form
  /// op's result alone; \p Data is that op's call.
  bool isInferredTypeInfo(const clang::ASTContext &Ctx,
                          const clang::CallExpr **Data = nullptr) const;
};

/// The TLX call \p CE makes, if it calls a TLX dummy function.
std::optional<TLXCall> getTLXCall(const clang::CallExpr *CE,
                                  const clang::ASTContext &Ctx);

/// The scalar type a pointer (or array) argument type \p PtrTy points to,
/// through array extents and without qualifiers: what tlx.h's element tag
/// carries (float for float (*)[3]).
clang::QualType getPointeeElementType(clang::QualType PtrTy,
                                      const clang::ASTContext &Ctx);

} // namespace tlx

#endif // TLX_CLANG_PLUGIN_TLXCALL_H
