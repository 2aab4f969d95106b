//===- Compat.h - Differences between the LLVM versions TLX builds with --===//
//
// TLX builds with LLVM/Clang 19 and 22 (CMake: TLX_LLVM_VERSION). Every
// difference between their APIs that TLX meets is bridged here, and only
// here.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_COMPAT_H
#define TLX_COMPAT_H

#include "llvm/Config/llvm-config.h"

#ifdef TLX_COMPAT_CLANG
#include "clang/AST/Expr.h"
#endif

namespace tlx {
namespace compat {

#ifdef TLX_COMPAT_CLANG
/// After the callee's location changed: clang 21+ caches a CallExpr's begin
/// location; recompute it (setUsesMemberSyntax refreshes the cache).
inline void refreshCallBeginLoc(clang::CallExpr *CE) {
#if LLVM_VERSION_MAJOR >= 21
  CE->setUsesMemberSyntax(CE->usesMemberSyntax());
#else
  (void)CE;
#endif
}
#endif

} // namespace compat
} // namespace tlx

#endif // TLX_COMPAT_H
