//===- ObjectBounds.cpp - C objects of known size behind a pointer --------===//
//
// Follows a pointer expression back to the object it points into, adding
// up constant offsets in bytes:
//   a, &a[1][0], a[1], a + 4, *a, (const float *)a    an array variable
//   p (a parameter declared float p[static 16])        16 floats, at least
//   p (float *p = malloc(64), never reassigned)        64 bytes
// and stops (no object) at anything else. A pointer variable is followed
// to its initializer only when the function never changes it, so what is
// reported is certain.
//
//===----------------------------------------------------------------------===//

#include "ObjectBounds.h"
#include "TLXCall.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;

namespace tlx {
namespace {

class ObjectFinder {
  ASTContext &Ctx;
  const llvm::DenseSet<const VarDecl *> &Rebound;
  unsigned Depth = 0;

public:
  ObjectFinder(ASTContext &Ctx, const llvm::DenseSet<const VarDecl *> &Rebound)
      : Ctx(Ctx), Rebound(Rebound) {}

  std::optional<KnownObject> pointerValue(const Expr *E);
  std::optional<KnownObject> lvalue(const Expr *E);

private:
  std::optional<int64_t> constantInt(const Expr *E) const {
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx) ||
        R.Val.getInt().getSignificantBits() > 63)
      return std::nullopt;
    return R.Val.getInt().getSExtValue();
  }
  std::optional<int64_t> sizeOf(QualType T) const {
    if (T->isIncompleteType() || T->isDependentType() ||
        !T->isConstantSizeType())
      return std::nullopt;
    return Ctx.getTypeSizeInChars(T).getQuantity();
  }
  /// \p Obj moved by \p Count objects of \p Elem.
  std::optional<KnownObject> advance(std::optional<KnownObject> Obj,
                                     const Expr *Count, QualType Elem,
                                     bool Negate) const;
  std::optional<KnownObject> variable(const VarDecl *VD) const;
  std::optional<KnownObject> pointerVariable(const VarDecl *VD);
  std::optional<KnownObject> allocation(const Expr *Init,
                                        const VarDecl *VD) const;
};

std::optional<KnownObject> ObjectFinder::advance(std::optional<KnownObject> Obj,
                                                 const Expr *Count,
                                                 QualType Elem,
                                                 bool Negate) const {
  std::optional<int64_t> N = constantInt(Count);
  std::optional<int64_t> Size = sizeOf(Elem);
  int64_t Bytes;
  if (!Obj || !N || !Size || llvm::MulOverflow(*N, *Size, Bytes) ||
      llvm::AddOverflow(Obj->OffsetBytes, Negate ? -Bytes : Bytes,
                        Obj->OffsetBytes))
    return std::nullopt;
  return Obj;
}

/// An object the variable itself is: a C array (or scalar) of constant
/// size, local, global or static. Records are left alone (a flexible
/// array member may extend them).
std::optional<KnownObject> ObjectFinder::variable(const VarDecl *VD) const {
  QualType T = VD->getType();
  if (isa<ParmVarDecl>(VD) || T->isReferenceType() ||
      !(T->isConstantArrayType() || T->isArithmeticType()))
    return std::nullopt;
  std::optional<int64_t> Size = sizeOf(T);
  if (!Size || *Size == 0)
    return std::nullopt;
  KnownObject Obj;
  Obj.Var = VD;
  Obj.SizeBytes = *Size;
  Obj.Origin = T.getAsString(Ctx.getPrintingPolicy());
  return Obj;
}

/// malloc(N) or calloc(N, M) of constant sizes, the initializer of \p VD.
std::optional<KnownObject> ObjectFinder::allocation(const Expr *Init,
                                                    const VarDecl *VD) const {
  const auto *CE = dyn_cast<CallExpr>(Init->IgnoreParenCasts());
  if (!CE)
    return std::nullopt;
  unsigned ID = CE->getBuiltinCallee();
  bool Malloc = ID == Builtin::BImalloc || ID == Builtin::BI__builtin_malloc;
  bool Calloc = ID == Builtin::BIcalloc;
  if (!(Malloc && CE->getNumArgs() == 1) && !(Calloc && CE->getNumArgs() == 2))
    return std::nullopt;
  std::optional<int64_t> N = constantInt(CE->getArg(0));
  std::optional<int64_t> M = Calloc ? constantInt(CE->getArg(1)) : 1;
  KnownObject Obj;
  if (!N || !M || *N < 0 || *M < 0 || llvm::MulOverflow(*N, *M, Obj.SizeBytes))
    return std::nullopt;
  Obj.Var = VD;
  Obj.Origin = Calloc ? "calloc(" + std::to_string(*N) + ", " +
                            std::to_string(*M) + ")"
                      : "malloc(" + std::to_string(*N) + ")";
  return Obj;
}

/// What a pointer variable holds: a [static N] parameter's array, or a
/// local's initializer when nothing changes the local.
std::optional<KnownObject> ObjectFinder::pointerVariable(const VarDecl *VD) {
  if (const auto *PVD = dyn_cast<ParmVarDecl>(VD)) {
    const auto *AT = Ctx.getAsConstantArrayType(PVD->getOriginalType());
    if (!AT || AT->getSizeModifier() != ArraySizeModifier::Static ||
        Rebound.contains(VD))
      return std::nullopt;
    std::optional<int64_t> Size = sizeOf(QualType(AT, 0));
    if (!Size || *Size == 0)
      return std::nullopt;
    KnownObject Obj;
    Obj.Var = VD;
    Obj.SizeBytes = *Size;
    Obj.Origin = PVD->getOriginalType().getAsString(Ctx.getPrintingPolicy());
    Obj.AtLeast = true;
    return Obj;
  }
  if (!VD->hasLocalStorage() || !VD->getInit() ||
      VD->getType().isVolatileQualified() || Rebound.contains(VD))
    return std::nullopt;
  if (std::optional<KnownObject> Obj = allocation(VD->getInit(), VD))
    return Obj;
  return pointerValue(VD->getInit());
}

std::optional<KnownObject> ObjectFinder::pointerValue(const Expr *E) {
  if (++Depth > 32)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *FE = dyn_cast<FullExpr>(E))
    return pointerValue(FE->getSubExpr());
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    const Expr *Sub = CE->getSubExpr();
    switch (CE->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return lvalue(Sub);
    case CK_NoOp:
    case CK_BitCast:
      return Sub->getType()->isPointerType() ? pointerValue(Sub)
                                             : std::nullopt;
    case CK_LValueToRValue: {
      const auto *DRE = dyn_cast<DeclRefExpr>(Sub->IgnoreParens());
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!VD || DRE->refersToEnclosingVariableOrCapture() ||
          !VD->getType()->isPointerType())
        return std::nullopt;
      return pointerVariable(VD);
    }
    default:
      return std::nullopt;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_AddrOf ? lvalue(UO->getSubExpr())
                                        : std::nullopt;
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      return std::nullopt;
    const Expr *Ptr = BO->getLHS(), *Count = BO->getRHS();
    if (!Ptr->getType()->isPointerType())
      std::swap(Ptr, Count);
    if (!Ptr->getType()->isPointerType() ||
        !Count->getType()->isIntegerType())
      return std::nullopt;
    return advance(pointerValue(Ptr), Count,
                   Ptr->getType()->getPointeeType(),
                   BO->getOpcode() == BO_Sub);
  }
  return std::nullopt;
}

std::optional<KnownObject> ObjectFinder::lvalue(const Expr *E) {
  if (++Depth > 32)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || DRE->refersToEnclosingVariableOrCapture())
      return std::nullopt;
    return variable(VD);
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    if (!ASE->getBase()->getType()->isPointerType())
      return std::nullopt; // 4[a], or a vector element
    return advance(pointerValue(ASE->getBase()), ASE->getIdx(),
                   ASE->getType(), /*Negate=*/false);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref ? pointerValue(UO->getSubExpr())
                                       : std::nullopt;
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
    return ICE->getCastKind() == CK_NoOp ? lvalue(ICE->getSubExpr())
                                         : std::nullopt;
  return std::nullopt;
}

/// Wraps pointer arguments in tlx__known_object calls (markRuntimeBounds).
class RuntimeBoundsMarker : public RecursiveASTVisitor<RuntimeBoundsMarker> {
  ASTContext &Ctx;
  const llvm::DenseSet<const VarDecl *> &Rebound;
  const llvm::DenseSet<const CallExpr *> &CheckedAtCompileTime;
  FunctionDecl *Marker = nullptr;

public:
  RuntimeBoundsMarker(ASTContext &Ctx,
                      const llvm::DenseSet<const VarDecl *> &Rebound,
                      const llvm::DenseSet<const CallExpr *> &Checked)
      : Ctx(Ctx), Rebound(Rebound), CheckedAtCompileTime(Checked) {
    // tlx.h declares it; without tlx.h nothing is wrapped.
    IdentifierInfo &Name = Ctx.Idents.get(KnownObjectFunction);
    for (NamedDecl *D : Ctx.getTranslationUnitDecl()->lookup(&Name))
      if ((Marker = dyn_cast<FunctionDecl>(D)))
        break;
  }

  bool VisitCallExpr(CallExpr *CE) {
    std::optional<TLXCall> Call = getTLXCall(CE, Ctx);
    if (!Marker || !Call || Call->NumArgs == 0 ||
        CheckedAtCompileTime.contains(CE) || isWrapped(CE->getArg(0)) ||
        !(Call->Kind == OpKind::Load || Call->Kind == OpKind::Store ||
          Call->Kind == OpKind::TypeInfo) ||
        !CE->getArg(0)->getType()->isPointerType())
      return true;
    if (std::optional<KnownObject> Obj =
            findKnownObject(CE->getArg(0), Ctx, Rebound))
      CE->setArg(0, wrap(CE->getArg(0), *Obj));
    return true;
  }

private:
  /// Already a tlx__known_object call (a call the traversal meets twice).
  bool isWrapped(const Expr *Arg) const {
    const auto *CE = dyn_cast<CallExpr>(Arg->IgnoreParenImpCasts());
    return CE && CE->getDirectCallee() == Marker;
  }
  Expr *integer(int64_t V, SourceLocation Loc) const {
    return IntegerLiteral::Create(Ctx, llvm::APInt(64, V, /*isSigned=*/true),
                                  Ctx.LongLongTy, Loc);
  }
  Expr *string(llvm::StringRef S, SourceLocation Loc) const {
    QualType Array = Ctx.getStringLiteralArrayType(Ctx.CharTy, S.size());
    Expr *Literal = StringLiteral::Create(Ctx, S, StringLiteralKind::Ordinary,
                                          /*Pascal=*/false, Array, Loc);
    return ImplicitCastExpr::Create(Ctx, Ctx.getArrayDecayedType(Array),
                                    CK_ArrayToPointerDecay, Literal, nullptr,
                                    VK_PRValue, FPOptionsOverride());
  }
  /// tlx__known_object(Ptr, size, offset, at_least, "name", "origin")
  Expr *wrap(Expr *Ptr, const KnownObject &Obj) const {
    SourceLocation Loc = Ptr->getBeginLoc();
    QualType FnTy = Marker->getType();
    Expr *Ref = DeclRefExpr::Create(
        Ctx, NestedNameSpecifierLoc(), SourceLocation(), Marker,
        /*RefersToEnclosingVariableOrCapture=*/false, Loc, FnTy,
        Ctx.getLangOpts().CPlusPlus ? VK_LValue : VK_PRValue);
    Expr *Callee = ImplicitCastExpr::Create(
        Ctx, Ctx.getPointerType(FnTy), CK_FunctionToPointerDecay, Ref, nullptr,
        VK_PRValue, FPOptionsOverride());
    Expr *Args[] = {Ptr,
                    integer(Obj.SizeBytes, Loc),
                    integer(Obj.OffsetBytes, Loc),
                    integer(Obj.AtLeast, Loc),
                    string(Obj.Var->getName(), Loc),
                    string(Obj.Origin, Loc)};
    return CallExpr::Create(Ctx, Callee, Args, Marker->getReturnType(),
                            VK_PRValue, Ptr->getEndLoc(), FPOptionsOverride());
  }
};

} // namespace

void markRuntimeBounds(
    Stmt *Body, ASTContext &Ctx, const llvm::DenseSet<const VarDecl *> &Rebound,
    const llvm::DenseSet<const CallExpr *> &CheckedAtCompileTime) {
  RuntimeBoundsMarker(Ctx, Rebound, CheckedAtCompileTime).TraverseStmt(Body);
}

std::optional<KnownObject>
findKnownObject(const Expr *Ptr, ASTContext &Ctx,
                const llvm::DenseSet<const VarDecl *> &Rebound) {
  return ObjectFinder(Ctx, Rebound).pointerValue(Ptr);
}

} // namespace tlx
