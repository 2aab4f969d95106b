//===- WideInitializers.cpp - Wide vector initializers as constants -----===//
//
// clang (19 and 22) emits the initializer list of a vector variable as one
// insertelement per element, each folding into a new constant vector: time
// and memory grow with the square of the vector's length. `_tensor_t t =
// {0};` on a 10000-int tensor took 10 s and 3 GB before any pass ran; a
// 65536-byte vector initialized with `{1, -1, 3}` needs about 140 GB
// (progs.py seed 1014, case 525). So, for wide vector variables:
//  - a list that only holds zeros means zero initialization: the variable
//    gets an implicit value initialization - one zeroinitializer constant,
//    which tlx-vector-ops stores with memset;
//  - any other constant list is evaluated once and kept as a ConstantExpr
//    holding its value, which clang emits as one constant vector (linear).
// Lists with run-time elements keep clang's own code.
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
        List->isValueDependent())
      return true;
    if (allZero(*List)) {
      D->setInit(new (Ctx) ImplicitValueInitExpr(D->getType()));
      return true;
    }
    Expr::EvalResult R;
    if (List->EvaluateAsRValue(R, Ctx) && !R.HasSideEffects &&
        R.Val.isVector())
      D->setInit(ConstantExpr::Create(Ctx, List, R.Val));
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
