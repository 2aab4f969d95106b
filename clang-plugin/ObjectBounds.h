//===- ObjectBounds.h - C objects of known size behind a pointer -*- C++ -*-===//
//
// What the AST knows for certain about the memory a pointer argument of a
// TLX call points into: the C object (an array variable, a [static N]
// parameter, a local initialized by malloc/calloc of a constant size), its
// size, and the constant offset of the pointer into it. ShapeChecker.cpp
// compares it with the extent a tensor_load/tensor_store/typeinfo_mem
// touches. Anything not certain (a pointer of unknown provenance, a
// non-constant index, a pointer variable that is reassigned) gives no
// object: that is a run-time matter (-fsanitize=address).
//
//===----------------------------------------------------------------------===//

#ifndef TLX_CLANG_PLUGIN_OBJECTBOUNDS_H
#define TLX_CLANG_PLUGIN_OBJECTBOUNDS_H

#include "llvm/ADT/DenseSet.h"
#include <cstdint>
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class Stmt;
class VarDecl;
} // namespace clang

namespace tlx {

/// A C object of known size and where a pointer points into it.
struct KnownObject {
  const clang::VarDecl *Var = nullptr; ///< the array, parameter or pointer
  int64_t SizeBytes = 0;
  int64_t OffsetBytes = 0; ///< of the pointer from the object's start
  /// How the object got its size, in C: "float[2][2]", "malloc(64)".
  std::string Origin;
  /// True for [static N] parameters: the caller passes at least SizeBytes.
  bool AtLeast = false;
};

/// The object \p Ptr (a pointer or array expression) certainly points
/// into. Local pointer variables are followed to their initializer unless
/// they are in \p Rebound (assigned, incremented, address taken).
std::optional<KnownObject>
findKnownObject(const clang::Expr *Ptr, clang::ASTContext &Ctx,
                const llvm::DenseSet<const clang::VarDecl *> &Rebound);

/// Step 6 of ShapeChecker.cpp: wraps the pointer argument of each load,
/// store and typeinfo_mem in \p Body that points into a known object and
/// whose extent was not compared with it at compile time (a run-time
/// extent, or a call the AST could not model) in a call of tlx.h's
/// tlx__known_object carrying the object (lib/IR/TLXOps.h, ObjectBound),
/// which the run-time checks compare the extent with. \p CheckedAtCompileTime
/// lists the calls whose extents were constant.
void markRuntimeBounds(
    clang::Stmt *Body, clang::ASTContext &Ctx,
    const llvm::DenseSet<const clang::VarDecl *> &Rebound,
    const llvm::DenseSet<const clang::CallExpr *> &CheckedAtCompileTime);

} // namespace tlx

#endif // TLX_CLANG_PLUGIN_OBJECTBOUNDS_H
