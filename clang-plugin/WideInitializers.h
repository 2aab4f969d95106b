//===- WideInitializers.h - Zero-initialize wide vectors cheaply -*- C++ -*-===//

#ifndef TLX_CLANG_PLUGIN_WIDEINITIALIZERS_H
#define TLX_CLANG_PLUGIN_WIDEINITIALIZERS_H

#include <memory>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace tlx {

/// An AST consumer that gives local variables of wide vector type whose
/// initializer list holds only zeros (`_tensor_t t = {0};`) a plain zero
/// initialization, which clang emits as one constant instead of an
/// insertelement per element.
std::unique_ptr<clang::ASTConsumer>
createWideInitializers(clang::CompilerInstance &CI);

} // namespace tlx

#endif // TLX_CLANG_PLUGIN_WIDEINITIALIZERS_H
