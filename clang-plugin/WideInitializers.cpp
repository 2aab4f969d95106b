//===- WideInitializers.cpp - Zero-initialize wide vectors cheaply --------===//
//
// clang 19 emits the initializer list of a vector variable as one
// insertelement per element, each folding into a new constant vector:
// `_tensor_t t = {0};` on a 10000-int tensor takes 10 s and 3 GB before
// any pass runs. A list that only holds zeros means zero initialization,
// so the variable gets an implicit value initialization instead - one
// zeroinitializer constant, which tlx-vector-ops stores with memset.
//
//===----------------------------------------------------------------------===//

#include "WideInitializers.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"

using namespace clang;

namespace tlx {
namespace {

/// Vectors above this many bytes are tensors (as LargeVectorBytes in the
/// passes).
constexpr uint64_t WideVectorBytes = 256;

class ZeroListVisitor : public RecursiveASTVisitor<ZeroListVisitor> {
public:
  explicit ZeroListVisitor(ASTContext &Ctx) : Ctx(Ctx) {}

  bool VisitVarDecl(VarDecl *D) {
    auto *List = dyn_cast_or_null<InitListExpr>(D->getInit());
    const auto *VT = D->getType()->getAs<VectorType>();
    if (!List || !VT || D->getType()->isDependentType() ||
        Ctx.getTypeSizeInChars(D->getType()).getQuantity() <=
            (int64_t)WideVectorBytes ||
        !allZero(*List))
      return true;
    D->setInit(new (Ctx) ImplicitValueInitExpr(D->getType()));
    return true;
  }

private:
  /// Every explicit element a constant zero (C fills the rest with zeros).
  bool allZero(const InitListExpr &List) {
    for (const Expr *E : List.inits()) {
      Expr::EvalResult R;
      if (E->isValueDependent() || !E->EvaluateAsRValue(R, Ctx) ||
          R.HasSideEffects)
        return false;
      const APValue &V = R.Val;
      if (!(V.isInt() && V.getInt().isZero()) &&
          !(V.isFloat() && V.getFloat().isPosZero()))
        return false;
    }
    return true;
  }

  ASTContext &Ctx;
};

class WideInitializers : public ASTConsumer {
public:
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      if (auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->hasBody())
        ZeroListVisitor(FD->getASTContext()).TraverseDecl(FD);
    return true;
  }
};

} // namespace

std::unique_ptr<ASTConsumer> createWideInitializers(CompilerInstance &) {
  return std::make_unique<WideInitializers>();
}

} // namespace tlx
