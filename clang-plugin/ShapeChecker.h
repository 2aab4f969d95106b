//===- ShapeChecker.h - TLX shape rules on the AST --------------*- C++ -*-===//

#ifndef TLX_CLANG_PLUGIN_SHAPECHECKER_H
#define TLX_CLANG_PLUGIN_SHAPECHECKER_H

#include "llvm/ADT/DenseSet.h"

namespace clang {
class ASTContext;
class CallExpr;
class DiagnosticsEngine;
class FunctionDecl;
} // namespace clang

namespace tlx {

/// Checks the shape, layout, padding, stride and op rules of the TLX calls
/// in the body of \p FD that are decidable from constants, and reports
/// each broken rule at the C call (see ShapeChecker.cpp). Calls in \p Skip
/// (already reported by the operand checks) are left alone.
void checkShapes(const clang::FunctionDecl &FD, clang::ASTContext &Ctx,
                 clang::DiagnosticsEngine &Diags,
                 const llvm::DenseSet<const clang::CallExpr *> &Skip);

} // namespace tlx

#endif // TLX_CLANG_PLUGIN_SHAPECHECKER_H
