//===- WideInitializers.h - Wide vector initializers as constants -*- C++ -*-===//

#ifndef TLX_CLANG_PLUGIN_WIDEINITIALIZERS_H
#define TLX_CLANG_PLUGIN_WIDEINITIALIZERS_H

#include <memory>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace tlx {

/// An AST consumer that gives local variables of wide vector type with a
/// constant initializer list an initializer clang emits as one constant
/// (zero initialization for `_tensor_t t = {0};`, the list's value
/// otherwise) instead of an insertelement per element, whose cost grows
/// with the square of the vector's length.
std::unique_ptr<clang::ASTConsumer>
createWideInitializers(clang::CompilerInstance &CI);

} // namespace tlx

#endif // TLX_CLANG_PLUGIN_WIDEINITIALIZERS_H
