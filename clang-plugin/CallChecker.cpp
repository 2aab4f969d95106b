//===- CallChecker.cpp - AST checks of TLX dummy-function calls -----------===//

#include "CallChecker.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"

namespace tlx {

std::unique_ptr<clang::ASTConsumer>
createCallChecker(clang::CompilerInstance &) {
  return std::make_unique<clang::ASTConsumer>();
}

} // namespace tlx
