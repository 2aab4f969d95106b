//===- CallChecker.h - AST checks of TLX dummy-function calls ---*- C++ -*-===//

#ifndef TLX_CLANG_PLUGIN_CALLCHECKER_H
#define TLX_CLANG_PLUGIN_CALLCHECKER_H

#include <memory>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace tlx {

/// An AST consumer that checks every call to a TLX dummy function and
/// reports misuse with clang diagnostics at the call's location.
std::unique_ptr<clang::ASTConsumer>
createCallChecker(clang::CompilerInstance &CI);

} // namespace tlx

#endif // TLX_CLANG_PLUGIN_CALLCHECKER_H
