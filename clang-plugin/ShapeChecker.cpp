//===- ShapeChecker.cpp - TLX shape rules on the AST ----------------------===//
//
// The rules tlx-verify checks on IR (lib/IR/Verifier.cpp: shapes, layouts,
// padding, strides, each op's shape rule) are checked here on the AST too,
// where clang can name the C function, highlight the arguments, and where
// -fsyntax-only (what editors run) sees them. The rules are not written a
// second time: each function body is modelled as IR and handed to the same
// verifier.
//
// Algorithm, per function body:
//  1. Find the local variables the body never changes after their
//     initializer (no assignment, ++/--, address taken, non-const
//     reference): reading one gives its initializer's value.
//  2. Walk the TLX calls in evaluation order (arguments first) and model
//     each one whose operands are all decidable as a call of its
//     llvm.tensor.* intrinsic in a scratch IR function:
//       - dimension vectors and axes: constant-evaluated, through such
//         variables (the RFC's `_shape_t shape = {1, 10, 800, 800};`);
//       - tokens: the model of the call that made them, directly or
//         through such a variable;
//       - tensor data: the model of the data op that produced it, else a
//         poison vector of its C vector type;
//       - pointers: a null pointer with elementtype() of the C pointee,
//         through array extents (what tlx.h's element tag carries);
//       - scalars: poison of the tensor's element type (tlx-recognize
//         converts them).
//     A call with an operand that is not decidable (a token or shape
//     through control flow, a parameter, ...) is not modelled, nor is what
//     depends on it: tlx-recognize and tlx-verify check those on the real IR.
//  3. Verify the scratch function (lib/IR/Verifier), and report each broken
//     rule at its C call: named after the C function, with the arguments the
//     rule names highlighted, and a note at the result's typeinfo or the
//     function's declaration when the rule is about them.
//  4. Warn where an integer contraction widens elements whose C type has the
//     other signedness (matmul, contract and convolution widen as signed;
//     umma/smma/usmma/summa as their names say), and name the op that reads
//     the data as it is.
//  5. For a valid load, store or typeinfo_mem, compare the memory its
//     pointer reaches (shape and strides, as lib/Analysis/TensorMemory
//     views it) with the C object the pointer certainly points into
//     (ObjectBounds.h: arrays, [static N] parameters, constant mallocs).
//  6. Where that extent is known only at run time, hand the object to the
//     run-time checks (markRuntimeBounds: the one change made to the AST).
//
//===----------------------------------------------------------------------===//

#include "ShapeChecker.h"
#include "ObjectBounds.h"
#include "TLXCall.h"

#include "IR/Diagnostics.h"
#include "IR/Elementwise.h"
#include "IR/ShapeInference.h"
#include "IR/TLXOps.h"
#include "IR/TensorInfo.h"
#include "IR/Verifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include <map>

using namespace clang;

namespace tlx {
namespace {

//===----------------------------------------------------------------------===//
// Step 1: variables that keep their initializer.
//===----------------------------------------------------------------------===//

class ChangedVariables : public RecursiveASTVisitor<ChangedVariables> {
public:
  llvm::DenseSet<const VarDecl *> Changed;
  /// The variables themselves changed, not an element or member: a pointer
  /// written through (p[i] = x) still points where it did.
  llvm::DenseSet<const VarDecl *> Rebound;

  /// Marks the variable \p E (or an element or member of it) designates.
  void mark(const Expr *E) {
    bool Whole = true;
    while (true) {
      E = E->IgnoreParenCasts();
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
        E = ASE->getBase();
      else if (const auto *EV = dyn_cast<ExtVectorElementExpr>(E))
        E = EV->getBase();
      else if (const auto *ME = dyn_cast<MemberExpr>(E))
        E = ME->getBase();
      else
        break;
      Whole = false;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        Changed.insert(VD);
        if (Whole)
          Rebound.insert(VD);
      }
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      mark(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      mark(UO->getSubExpr());
    return true;
  }
  // C++: a non-const reference may change what it binds to.
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() &&
        !VD->getType().getNonReferenceType().isConstQualified() &&
        VD->getInit())
      mark(VD->getInit());
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // tlx.h's element tag asks __builtin_classify_type(p), which reads no
    // value of p (let alone changes it).
    if (CE->getBuiltinCallee() == Builtin::BI__builtin_classify_type)
      return true;
    const FunctionDecl *FD = CE->getDirectCallee();
    for (unsigned I = 0, E = CE->getNumArgs(); I != E; ++I) {
      const ParmVarDecl *P =
          FD && I < FD->getNumParams() ? FD->getParamDecl(I) : nullptr;
      if (!P || (P->getType()->isReferenceType() &&
                 !P->getType().getNonReferenceType().isConstQualified()))
        if (CE->getArg(I)->isGLValue())
          mark(CE->getArg(I));
    }
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *CE) {
    if (CE->isAssignmentOp() && CE->getNumArgs() > 0)
      mark(CE->getArg(0));
    return true;
  }
};

//===----------------------------------------------------------------------===//
// Steps 2-4.
//===----------------------------------------------------------------------===//

/// A TLX call modelled in the scratch function.
struct Model {
  TLXCall Call;
  llvm::CallInst *IR = nullptr;
  /// Token producers: the C element type of the data they name.
  QualType CElem;
};

class ShapeModel : public RecursiveASTVisitor<ShapeModel> {
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  const llvm::DenseSet<const CallExpr *> &Skip;
  const llvm::DenseSet<const VarDecl *> &Changed;
  const llvm::DenseSet<const VarDecl *> &Rebound;

  mutable llvm::LLVMContext LCtx;
  llvm::Module M{"tlx.ast.model", LCtx};
  llvm::Function *F = nullptr;
  llvm::IRBuilder<> B{LCtx};
  /// What run-time entries of dimension vectors read (evaluateRuntimeDims).
  llvm::GlobalVariable *RuntimeValue = nullptr;

  /// (A std::map: Back points into it, so its values must not move.)
  std::map<const CallExpr *, Model> Models;
  llvm::DenseMap<const llvm::Instruction *, const Model *> Back;
  /// The models in evaluation order.
  llvm::SmallVector<const Model *, 8> Order;

public:
  /// The function template instantiation (or member of a class template
  /// instantiation) being checked, if it is one: errors name it.
  const FunctionDecl *Instantiation = nullptr;

  ShapeModel(ASTContext &Ctx, DiagnosticsEngine &Diags,
             const llvm::DenseSet<const CallExpr *> &Skip,
             const llvm::DenseSet<const VarDecl *> &Changed,
             const llvm::DenseSet<const VarDecl *> &Rebound)
      : Ctx(Ctx), Diags(Diags), Skip(Skip), Changed(Changed),
        Rebound(Rebound) {
    F = llvm::Function::Create(
        llvm::FunctionType::get(llvm::Type::getVoidTy(LCtx), false),
        llvm::GlobalValue::ExternalLinkage, "body", M);
    B.SetInsertPoint(llvm::BasicBlock::Create(LCtx, "entry", F));
  }

  bool shouldTraversePostOrder() const { return true; }
  bool VisitCallExpr(CallExpr *CE);
  bool modelInferredTypeInfo(const TLXCall &Call, const CallExpr *Data);
  bool modelElementwise(const TLXCall &Call);
  bool isTokenArgument(const Expr *Arg) const;

  /// Steps 3 to 5.
  void verify();
  /// The loads, stores and typeinfo_mems whose extents step 5 compared
  /// with their objects (constant extents).
  llvm::DenseSet<const CallExpr *> CheckedBounds;

private:
  // Reading C values.
  const Expr *follow(const Expr *E, bool ThroughCasts) const;
  std::optional<Dims> evaluateDims(const Expr *Arg) const;
  std::optional<int64_t> evaluateInt(const Expr *Arg) const;
  llvm::Value *evaluateRuntimeDims(const Expr *Arg);
  llvm::Type *toIRScalar(QualType T) const;
  llvm::FixedVectorType *toIRVector(QualType T) const;
  llvm::Value *token(const Expr *Arg) const;
  llvm::Value *data(const Expr *Arg) const;
  QualType tokenCElem(const llvm::Value *Token) const;

  // Reporting, at the places the user wrote: tlx.h's macros (tensor_load,
  // TLX_SHAPE...) would otherwise point into tlx.h, with notes.
  SourceLocation written(SourceLocation Loc) const {
    return Ctx.getSourceManager().getFileLoc(Loc);
  }
  CharSourceRange written(SourceRange R) const {
    CharSourceRange File =
        Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R),
                                 Ctx.getSourceManager(), Ctx.getLangOpts());
    return File.isValid() ? File : CharSourceRange::getTokenRange(R);
  }
  template <unsigned N>
  DiagnosticBuilder report(DiagnosticsEngine::Level Level, SourceLocation Loc,
                           const char (&Fmt)[N]) {
    if (Level == DiagnosticsEngine::Warning)
      Level = warningLevel(Diags);
    return Diags.Report(Loc, Diags.getCustomDiagID(Level, Fmt));
  }
  void reportError(const Model &Md, llvm::StringRef Msg);
  std::string inCTypes(const Model &Md, llvm::StringRef Msg) const;
  void checkSignedness(const Model &Md, const OpResult &Result);
  void warnSignedness(const Model &Md, unsigned Arg, QualType CElem,
                      bool ReadSigned, const OpResult &Result);
  void checkBounds(const Model &Md);
  void noteInstantiation();
};

/// \p E without parentheses and value-preserving implicit casts (and, with
/// \p ThroughCasts, any implicit cast), followed through variables that
/// keep their initializer.
const Expr *ShapeModel::follow(const Expr *E, bool ThroughCasts) const {
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    while (true) {
      E = E->IgnoreParens();
      const auto *ICE = dyn_cast<ImplicitCastExpr>(E);
      if (const auto *EWC = dyn_cast<FullExpr>(E)) {
        E = EWC->getSubExpr();
        continue;
      }
      if (!ICE || !(ThroughCasts || ICE->getCastKind() == CK_LValueToRValue ||
                    ICE->getCastKind() == CK_NoOp))
        break;
      E = ICE->getSubExpr();
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() ||
        !VD->getInit() || VD->getType().isVolatileQualified() ||
        VD->getType()->isReferenceType() || Changed.contains(VD))
      return E;
    E = VD->getInit();
  }
  return E;
}

std::optional<Dims> ShapeModel::evaluateDims(const Expr *Arg) const {
  const Expr *E = follow(Arg, /*ThroughCasts=*/false);
  if (E->isValueDependent() || E->getType() != Arg->getType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsRValue(R, Ctx) || !R.Val.isVector())
    return std::nullopt;
  Dims Values;
  for (unsigned I = 0, N = R.Val.getVectorLength(); I != N; ++I) {
    const APValue &Elt = R.Val.getVectorElt(I);
    if (!Elt.isInt())
      return std::nullopt;
    // The IR operand is <n x i32>: what a larger C integer becomes there.
    Values.push_back(Elt.getInt().sextOrTrunc(32).getSExtValue());
  }
  return Values;
}

std::optional<int64_t> ShapeModel::evaluateInt(const Expr *Arg) const {
  const Expr *E = follow(Arg, /*ThroughCasts=*/true);
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx) ||
      R.Val.getInt().getSignificantBits() > 64)
    return std::nullopt;
  return R.Val.getInt().getSExtValue();
}

/// A dimension vector some of whose entries are computed at run time
/// (`TLX_SHAPE(m, 3)`, m a parameter), as tlx-recognize sees it: its
/// constant lanes, the others read from memory - extents the rules take as
/// run-time ones, so that what the constants decide is checked here too.
/// Null when \p Arg is not a braced list of integers.
llvm::Value *ShapeModel::evaluateRuntimeDims(const Expr *Arg) {
  const Expr *E = follow(Arg, /*ThroughCasts=*/false)->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Extension)
    E = UO->getSubExpr()->IgnoreParens();
  const auto *CL = dyn_cast<CompoundLiteralExpr>(E);
  const auto *IL =
      CL ? dyn_cast<InitListExpr>(CL->getInitializer()) : nullptr;
  const auto *VT = Arg->getType()->getAs<VectorType>();
  if (!IL || !VT || IL->getNumInits() > VT->getNumElements())
    return nullptr;
  Dims Known(VT->getNumElements(), 0);
  llvm::SmallVector<unsigned, 4> Unknown;
  for (unsigned I = 0; I < IL->getNumInits(); ++I) {
    const Expr *Init = IL->getInit(I);
    if (!Init->getType()->isIntegerType())
      return nullptr;
    if (std::optional<int64_t> V = evaluateInt(Init))
      Known[I] = static_cast<int32_t>(*V); // what the <n x i32> holds
    else
      Unknown.push_back(I);
  }
  llvm::Value *Vec = getI32Vector(LCtx, Known);
  if (Unknown.empty())
    return Vec;
  if (!RuntimeValue)
    RuntimeValue = new llvm::GlobalVariable(
        M, B.getInt32Ty(), /*isConstant=*/false,
        llvm::GlobalValue::ExternalLinkage, nullptr, "tlx.ast.runtime");
  for (unsigned I : Unknown)
    Vec = B.CreateInsertElement(
        Vec, B.CreateLoad(B.getInt32Ty(), RuntimeValue), uint64_t(I));
  return Vec;
}

/// The IR type clang gives the C scalar type \p T, if TLX could see it.
llvm::Type *ShapeModel::toIRScalar(QualType T) const {
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *ET = T->getAs<EnumType>())
    T = ET->getDecl()->getIntegerType();
  if (T.isNull())
    return nullptr;
  const auto *BT = T->getAs<BuiltinType>();
  if (!BT)
    return nullptr;
  switch (BT->getKind()) {
  case BuiltinType::Bool:
    return llvm::Type::getInt1Ty(LCtx);
  case BuiltinType::Half:
  case BuiltinType::Float16:
    return llvm::Type::getHalfTy(LCtx);
  case BuiltinType::BFloat16:
    return llvm::Type::getBFloatTy(LCtx);
  default:
    break;
  }
  if (T->isIntegerType())
    return llvm::IntegerType::get(LCtx, Ctx.getTypeSize(T));
  if (!T->isRealFloatingType())
    return nullptr;
  const llvm::fltSemantics &Sem = Ctx.getFloatTypeSemantics(T);
  if (&Sem == &llvm::APFloat::IEEEsingle())
    return llvm::Type::getFloatTy(LCtx);
  if (&Sem == &llvm::APFloat::IEEEdouble())
    return llvm::Type::getDoubleTy(LCtx);
  if (&Sem == &llvm::APFloat::x87DoubleExtended())
    return llvm::Type::getX86_FP80Ty(LCtx);
  if (&Sem == &llvm::APFloat::IEEEquad())
    return llvm::Type::getFP128Ty(LCtx);
  return nullptr;
}

llvm::FixedVectorType *ShapeModel::toIRVector(QualType T) const {
  const auto *VT = T->getAs<VectorType>();
  llvm::Type *Elem = VT ? toIRScalar(VT->getElementType()) : nullptr;
  if (!Elem || VT->getNumElements() == 0)
    return nullptr;
  return llvm::FixedVectorType::get(Elem, VT->getNumElements());
}

llvm::Value *ShapeModel::token(const Expr *Arg) const {
  const auto *CE = dyn_cast<CallExpr>(follow(Arg, /*ThroughCasts=*/true));
  auto It = CE ? Models.find(CE) : Models.end();
  if (It == Models.end() || !It->second.IR->getType()->isTokenTy())
    return nullptr;
  return It->second.IR;
}

llvm::Value *ShapeModel::data(const Expr *Arg) const {
  llvm::FixedVectorType *Ty = toIRVector(Arg->getType());
  if (!Ty)
    return nullptr;
  if (const auto *CE = dyn_cast<CallExpr>(follow(Arg, /*ThroughCasts=*/false)))
    if (auto It = Models.find(CE);
        It != Models.end() && It->second.IR->getType() == Ty)
      return It->second.IR;
  return llvm::PoisonValue::get(Ty);
}

QualType ShapeModel::tokenCElem(const llvm::Value *Token) const {
  const auto *I = dyn_cast<llvm::Instruction>(Token);
  auto It = I ? Back.find(I) : Back.end();
  return It == Back.end() ? QualType() : It->second->CElem;
}

bool ShapeModel::VisitCallExpr(CallExpr *CE) {
  std::optional<TLXCall> Call = getTLXCall(CE, Ctx);
  if (!Call || Skip.contains(CE) || CE->isTypeDependent() ||
      CE->isValueDependent())
    return true;
  const OpDesc &D = Call->desc();
  if (const CallExpr *Data; Call->isInferredTypeInfo(Ctx, &Data))
    return modelInferredTypeInfo(*Call, Data);
  if (isShortElementwise(Call->Kind))
    return modelElementwise(*Call);
  if (Call->NumArgs < D.MinArgs || Call->NumArgs > D.MaxArgs)
    return true;

  llvm::SmallVector<llvm::Value *, 5> Args;
  llvm::Type *PointerElem = nullptr;
  QualType CElem;
  bool RuntimeDims = false, CData = false;
  llvm::Value *ScalarAcc = nullptr; // tlx_smma(0, a, b)
  for (unsigned I = 0; I < Call->NumArgs; ++I) {
    const Expr *Arg = CE->getArg(I);
    QualType T = Arg->getType();
    llvm::Value *V = nullptr;
    switch (llvm::toUpper(D.Signature[I])) {
    case 'T':
      if (I == 0 && isMMA(Call->Kind) && Call->returnsInferred() &&
          !isTokenArgument(Arg)) {
        if (llvm::Type *Ty = toIRScalar(T))
          V = ScalarAcc = llvm::PoisonValue::get(Ty);
        break;
      }
      V = token(Arg);
      break;
    case 'V':
      if (std::optional<Dims> Values = evaluateDims(Arg)) {
        // A store's strides TLX_DIMS(0): packed, whatever the rank.
        std::optional<TensorValue> Stored =
            Call->Kind == OpKind::Store && Args.size() == 2
                ? getTensorValue(Args[1])
                : std::nullopt;
        if (Stored && *Values == Dims{0})
          Values = Dims(Stored->Type.rank(), 0);
        V = getI32Vector(LCtx, *Values);
      } else if (mayBeRuntimeOperand(Call->Kind, I)) {
        V = evaluateRuntimeDims(Arg);
        RuntimeDims = true;
      }
      break;
    case 'D':
      if (T->isVectorType()) {
        V = data(Arg);
        CData = isa_and_nonnull<llvm::PoisonValue>(V);
        CElem = T->getAs<VectorType>()->getElementType();
        break;
      }
      [[fallthrough]];
    case 'P':
      if (T->isPointerType() && Call->HasTag) {
        CElem = getPointeeElementType(T, Ctx);
        PointerElem = toIRScalar(CElem);
        if (PointerElem)
          V = llvm::ConstantPointerNull::get(
              llvm::PointerType::getUnqual(LCtx));
      }
      break;
    case 'S':
      if (std::optional<TensorValue> TV =
              Args.empty() ? std::nullopt : getTensorValue(Args.front()))
        V = llvm::PoisonValue::get(TV->Type.Elem);
      break;
    case 'I':
      if (std::optional<int64_t> Axis = evaluateInt(Arg);
          Axis && llvm::isInt<32>(*Axis))
        V = B.getInt32(*Axis);
      break;
    }
    if (!V)
      return true;
    Args.push_back(V);
  }
  // A run-time shape for C vector data: a value C operators computed from
  // run-time-sized results (r = p + b), which is a TLX result in the IR.
  if (RuntimeDims && CData)
    return true;
  if (ScalarAcc) {
    std::string Why;
    Args[0] = emitScalarAccumulator(B, ScalarAcc, Args[1], Args[2], Why);
    if (!Args[0]) { // as tlx-recognize says it
      report(DiagnosticsEngine::Error, written(CE->getExprLoc()), "%0: %1")
          << Call->writtenName() << Why << written(CE->getSourceRange());
      return true;
    }
  }

  llvm::Type *RetTy = nullptr;
  switch (D.Result) {
  case ResultKind::Token:
    RetTy = llvm::Type::getTokenTy(LCtx);
    break;
  case ResultKind::Void:
    RetTy = llvm::Type::getVoidTy(LCtx);
    break;
  case ResultKind::Data:
    RetTy = toIRVector(CE->getType());
    break;
  }
  if (!RetTy)
    return true;
  Model &Md = Models[CE];
  Md.Call = *Call;
  Md.CElem = CElem;
  Md.IR = createOpCall(B, Call->Kind, RetTy, Args, PointerElem);
  Back[Md.IR] = &Md;
  Order.push_back(&Md);
  // The short form: the result is the tensor TLX infers (as tlx-recognize
  // types it), so the rules check what the program will compute.
  std::string Why;
  if (Call->returnsInferred())
    if (std::optional<TensorType> Ty =
            inferUntypedResult(B, Call->Kind, Args, Why)) {
      llvm::CallInst *Typed = createOpCall(
          B, Call->Kind, llvm::FixedVectorType::get(Ty->Elem, Ty->numElements()),
          Args, PointerElem);
      Back.erase(Md.IR);
      Md.IR->eraseFromParent();
      Md.IR = Typed;
      Back[Md.IR] = &Md;
    }
  return true;
}

/// Whether argument \p Arg of a short-form elementwise op is a token rather
/// than a scalar (both are integers in C): typed tlx_token_t, or coming
/// from a TLX call (as tlx-recognize decides).
bool ShapeModel::isTokenArgument(const Expr *Arg) const {
  if (!Arg->getType()->isIntegerType())
    return false;
  if (token(Arg) || isTokenType(Arg->IgnoreParenImpCasts()->getType()))
    return true;
  const auto *CE = dyn_cast<CallExpr>(follow(Arg, /*ThroughCasts=*/true));
  return CE && getTLXCall(CE, Ctx);
}

/// The short form's elementwise ops (tlx_add ..): modelled as tlx-recognize
/// emits them (IR/Elementwise.h), so that shapes that cannot broadcast and
/// mixed element types are errors here; a token operand not decidable here
/// leaves the call to tlx-recognize.
bool ShapeModel::modelElementwise(const TLXCall &Call) {
  if (Call.NumArgs != Call.desc().MinArgs)
    return true;
  llvm::SmallVector<llvm::Value *, 2> Args;
  QualType CElem;
  for (unsigned I = 0; I < Call.NumArgs; ++I) {
    const Expr *Arg = Call.arg(I);
    llvm::Value *V = nullptr;
    if (isTokenArgument(Arg)) {
      V = token(Arg);
      if (V && CElem.isNull())
        CElem = tokenCElem(V);
    } else if (llvm::Type *Ty = toIRScalar(Arg->getType())) {
      V = llvm::PoisonValue::get(Ty);
    }
    if (!V)
      return true;
    Args.push_back(V);
  }
  std::string Why;
  llvm::SmallVector<llvm::CallInst *, 8> Emitted;
  llvm::CallInst *Op = emitElementwise(B, Call.Kind, Args, Why, &Emitted);
  if (!Op) {
    report(DiagnosticsEngine::Error, written(Call.Call->getExprLoc()),
           "%0: %1")
        << Call.writtenName() << Why << written(Call.Call->getSourceRange());
    return true;
  }
  Model &Md = Models[Call.Call];
  Md.Call = Call;
  Md.CElem = CElem;
  Md.IR = Op;
  for (llvm::CallInst *I : Emitted)
    Back[I] = &Md;
  Order.push_back(&Md);
  return true;
}

/// The short form's `tensor_typeinfo(tensor_<op>_tlx_inferred(...))`: the
/// typeinfo of the inferred type, or an error naming the long form.
bool ShapeModel::modelInferredTypeInfo(const TLXCall &Call,
                                       const CallExpr *Data) {
  auto It = Models.find(Data);
  if (It == Models.end())
    return true; // its operands are unknown here
  std::string Why;
  llvm::CallInst *Op = It->second.IR;
  SmallVector<llvm::Value *, 5> Args(Op->args());
  std::optional<TensorType> Ty =
      inferUntypedResult(B, *getOpKind(*Op), Args, Why);
  if (!Ty) {
    // An invalid op is reported by its own rules (verify); only a valid
    // one whose result shape needs a typeinfo gets this message.
    if (!StringRef(Why).starts_with("the result shape cannot be inferred"))
      return true;
    report(DiagnosticsEngine::Error, written(Data->getExprLoc()),
           "the result of %0 cannot be inferred (%1): name it with "
           "tensor_typeinfo(data, shape, layout, padding), the long form")
        << It->second.Call.writtenName() << Why
        << written(Data->getSourceRange());
    return true;
  }
  Model &Md = Models[Call.Call];
  Md.Call = Call;
  Md.CElem = It->second.CElem;
  Md.IR = emitTypeInfo(B, It->second.IR, *Ty);
  Back[Md.IR] = &Md;
  Order.push_back(&Md);
  return true;
}

/// The arguments a rule's message names, by the operand names the verifier
/// uses ("op1", "input dilations", ...); longer names first, whole words.
static llvm::SmallVector<unsigned, 4> namedOperands(const TLXCall &Call,
                                                    llvm::StringRef Msg) {
  llvm::SmallVector<std::pair<llvm::StringRef, unsigned>, 6> Names;
  for (unsigned I = 0; I < Call.NumArgs; ++I)
    Names.push_back({getOperandName(Call.Kind, I), I});
  llvm::stable_sort(Names, [](const auto &A, const auto &B) {
    return A.first.size() > B.first.size();
  });
  std::string Text = Msg.str();
  llvm::SmallVector<unsigned, 4> Found;
  auto IsWordChar = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (auto [Name, I] : Names) {
    for (size_t Pos = Text.find(Name.str()); Pos != std::string::npos;
         Pos = Text.find(Name.str(), Pos + 1)) {
      size_t End = Pos + Name.size();
      if ((Pos > 0 && IsWordChar(Text[Pos - 1])) ||
          (End < Text.size() && IsWordChar(Text[End])))
        continue;
      // Consume it, so that "op1" does not match inside "op1 axes".
      std::fill(Text.begin() + Pos, Text.begin() + End, '#');
      if (!llvm::is_contained(Found, I))
        Found.push_back(I);
    }
  }
  llvm::sort(Found);
  return Found;
}

/// \p Msg with the element types the verifier names (int32_t for any
/// 32-bit integer: IR has no signedness) spelled as this call's C operands
/// and result write them (int, unsigned, signed char...), where that is
/// unambiguous.
std::string ShapeModel::inCTypes(const Model &Md,
                                 llvm::StringRef Msg) const {
  std::map<std::string, llvm::SmallVector<std::string, 2>> Spellings;
  auto Add = [&](const llvm::Type *IR, QualType C) {
    if (!IR || C.isNull())
      return;
    std::string Spelling =
        C.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
    auto &List = Spellings[userTypeName(IR)];
    if (!llvm::is_contained(List, Spelling))
      List.push_back(Spelling);
  };
  const llvm::CallBase &IR = *Md.IR;
  for (unsigned I = 0; I < IR.arg_size(); ++I) {
    const llvm::Value *V = IR.getArgOperand(I);
    if (V->getType()->isTokenTy()) {
      if (std::optional<TensorValue> TV = getTensorValue(V))
        Add(TV->Type.Elem, tokenCElem(V));
    } else if (V->getType()->isPointerTy()) {
      Add(getPointerElementType(IR, I), Md.CElem);
    } else if (auto *VT = dyn_cast<llvm::FixedVectorType>(V->getType());
               VT && llvm::toUpper(Md.Call.desc().Signature[I]) == 'D') {
      if (const auto *CVT = Md.Call.arg(I)->getType()->getAs<VectorType>())
        Add(VT->getElementType(), CVT->getElementType());
    }
  }
  if (auto *VT = dyn_cast<llvm::FixedVectorType>(IR.getType()))
    if (const auto *CVT = Md.Call.Call->getType()->getAs<VectorType>())
      Add(VT->getElementType(), CVT->getElementType());
  if (const llvm::CallBase *TI = getResultTypeInfo(IR))
    if (std::optional<TensorValue> TV = getTensorValue(TI))
      Add(TV->Type.Elem, tokenCElem(TI));

  std::string Text = Msg.str();
  auto IsWordChar = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (const auto &[Name, List] : Spellings) {
    if (List.size() != 1 || List.front() == Name)
      continue;
    for (size_t Pos = Text.find(Name); Pos != std::string::npos;
         Pos = Text.find(Name, Pos + 1)) {
      size_t End = Pos + Name.size();
      if ((Pos > 0 && IsWordChar(Text[Pos - 1])) ||
          (End < Text.size() && IsWordChar(Text[End])))
        continue;
      Text.replace(Pos, Name.size(), List.front());
      Pos += List.front().size() - 1;
    }
  }
  return Text;
}

void ShapeModel::reportError(const Model &Md, llvm::StringRef IRMsg) {
  // The AST cannot tell whether a result typeinfo exists elsewhere (the
  // data may leave through memory); tlx-verify reports this one.
  if (IRMsg.starts_with("the result shape cannot be inferred"))
    return;
  std::string CMsg = inCTypes(Md, IRMsg);
  llvm::StringRef Msg = CMsg;
  const TLXCall &Call = Md.Call;
  llvm::SmallVector<unsigned, 4> Args = namedOperands(Call, Msg);
  // A tensor's own element type: the data (or pointer) it comes from.
  if (Args.empty() && Msg.starts_with("element type") &&
      Call.desc().Result == ResultKind::Token)
    Args.push_back(0);
  SourceLocation Loc = Args.size() == 1 ? Call.arg(Args[0])->getExprLoc()
                                        : Call.Call->getExprLoc();
  {
    DiagnosticBuilder DB =
        report(DiagnosticsEngine::Error, written(Loc), "%0: %1")
        << Call.writtenName() << Msg;
    for (unsigned I : Args)
      DB << written(Call.arg(I)->getSourceRange());
  }
  const llvm::CallBase *TI = getResultTypeInfo(*Md.IR);
  if (Msg.starts_with("result typeinfo") && TI)
    if (auto It = Back.find(TI); It != Back.end())
      report(DiagnosticsEngine::Note,
             written(It->second->Call.Call->getExprLoc()),
             "the result's type is given here")
          << written(It->second->Call.Call->getSourceRange());
  // tovector only flattens: a shape for its result is vector_totensor's job.
  if (Call.Kind == OpKind::ToVector &&
      Msg.starts_with("result typeinfo shape") && TI)
    if (std::optional<TensorValue> TV = getTensorValue(TI))
      report(DiagnosticsEngine::Note, written(Call.Call->getExprLoc()),
             "%0 flattens its operand to a 1-D vector; to give the flat "
             "data the shape %1, name it with vector_totensor(data, "
             "TLX_SHAPE(%2), layout, padding)")
          << Call.writtenName() << formatShape(TV->Type.Shape)
          << llvm::join(llvm::map_range(TV->Type.Shape,
                                        [](int64_t D) {
                                          return std::to_string(D);
                                        }),
                        ", ");
  if (Msg.starts_with("result element type") || Msg.starts_with("result has"))
    report(DiagnosticsEngine::Note, Call.Callee->getLocation(),
           "%0 is declared here to return %1")
        << Call.Callee << Call.Callee->getReturnType();
  noteInstantiation();
}

/// Each instantiation of a template is checked as a program of its own
/// (its shapes are constants there): say which one an error is about, as
/// clang does for its own errors in templates.
void ShapeModel::noteInstantiation() {
  if (!Instantiation)
    return;
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  Instantiation->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(),
                                      /*Qualified=*/true);
  report(DiagnosticsEngine::Note, Instantiation->getPointOfInstantiation(),
         "in instantiation of '%0' requested here")
      << Name;
}

/// The C spelling users know for an unsigned/signed integer type.
static std::string describeInt(QualType T) { return T.getAsString(); }

void ShapeModel::warnSignedness(const Model &Md, unsigned Arg, QualType CElem,
                                bool ReadSigned, const OpResult &Result) {
  const TLXCall &Call = Md.Call;
  unsigned Bits = Ctx.getTypeSize(CElem);
  const Expr *E = Call.arg(Arg);
  if (ReadSigned) {
    llvm::APInt Max = llvm::APInt::getSignedMaxValue(Bits);
    report(DiagnosticsEngine::Warning, written(E->getExprLoc()),
           "%0 widens integer elements as signed, but argument %1 holds %2: "
           "values above %3 read as negative%4")
        << Call.writtenName() << Arg + 1 << describeInt(CElem)
        << llvm::toString(Max, 10, false)
        << (Bits == 8 ? " (200 as -56)" : "") << written(E->getSourceRange());
  } else {
    report(DiagnosticsEngine::Warning, written(E->getExprLoc()),
           "%0 widens argument %1 as unsigned, but it holds %2: negative "
           "values read as large positive ones%3")
        << Call.writtenName() << Arg + 1 << describeInt(CElem)
        << (Bits == 8 ? " (-1 as 255)" : "") << written(E->getSourceRange());
  }
}

/// Step 4: for a valid integer contraction, whether each operand's C
/// element type has the signedness the op reads it with.
void ShapeModel::checkSignedness(const Model &Md, const OpResult &Result) {
  OpKind Kind = Md.Call.Kind;
  std::optional<MMASignedness> MMA = getMMASignedness(Kind);
  bool Contraction = Kind == OpKind::MatMul || Kind == OpKind::Contract ||
                     Kind == OpKind::Convolution;
  if ((!MMA && !Contraction) || !Result.Elem->isIntegerTy())
    return;
  unsigned First = MMA ? 1 : 0;
  // Per operand: whether the op reads it as unsigned, and whether its C
  // element type asks for that.
  bool WantUnsigned[2], Conflict = false;
  for (unsigned Side = 0; Side < 2; ++Side) {
    bool ReadSigned =
        MMA ? (Side == 0 ? MMA->Op1Signed : MMA->Op2Signed) : true;
    WantUnsigned[Side] = !ReadSigned;
    unsigned Arg = First + Side;
    llvm::Value *Token = Md.IR->getArgOperand(Arg);
    std::optional<TensorValue> TV = getTensorValue(Token);
    QualType CElem = tokenCElem(Token);
    if (!TV || CElem.isNull() || !CElem->isIntegerType() ||
        !TV->Type.Elem->isIntegerTy() ||
        TV->Type.Elem->getIntegerBitWidth() >=
            Result.Elem->getIntegerBitWidth())
      continue; // not widened: signedness does not matter
    // Plain char is signed or not by target; only say what is explicit.
    bool IsUnsigned = CElem->isUnsignedIntegerType() &&
                      !CElem->isSpecificBuiltinType(BuiltinType::Char_U);
    bool IsSigned = CElem->isSignedIntegerType() &&
                    !CElem->isSpecificBuiltinType(BuiltinType::Char_S);
    if ((ReadSigned && IsUnsigned) || (!ReadSigned && IsSigned)) {
      warnSignedness(Md, Arg, CElem, ReadSigned, Result);
      WantUnsigned[Side] = IsUnsigned;
      Conflict = true;
    }
  }
  if (!Conflict)
    return;
  // The op that reads both operands as their C types say.
  static const char *const Ops[2][2] = {{"smma", "summa"}, {"usmma", "umma"}};
  llvm::StringRef Better = Ops[WantUnsigned[0]][WantUnsigned[1]];
  const TLXCall &Call = Md.Call;
  if (!MMA) {
    if (Kind == OpKind::MatMul)
      report(DiagnosticsEngine::Note, written(Call.Call->getExprLoc()),
             "tensor_%0(acc, a, b) reads the operands as they are; with a "
             "zero accumulator it computes this matmul")
          << Better;
    else
      report(DiagnosticsEngine::Note, written(Call.Call->getExprLoc()),
             "%0 reads integer elements as signed; widen unsigned data to a "
             "wider signed type first")
          << Call.Callee;
    return;
  }
  // Rename the op inside the callee's name (tensor_smma_s8 -> tensor_usmma_s8)
  // when the file declares that function; the short form's macro
  // (tlx_smma -> tlx_usmma) where the call is written.
  llvm::StringRef Name = Call.Callee->getName();
  llvm::StringRef OpName = Call.desc().CName;
  std::string NewName =
      ("tensor_" + Better + Name.drop_front(OpName.size())).str();
  std::string Spelled = getSpelledName(NewName);
  DiagnosticBuilder DB =
      report(DiagnosticsEngine::Note, written(Call.Call->getExprLoc()),
             "use %0 to read the operands as they are")
      << Spelled;
  const Expr *Callee = Call.Call->getCallee()->IgnoreParenImpCasts();
  SourceLocation NameLoc = Callee->getBeginLoc();
  std::string Written = getSpelledName(Name);
  if (Call.returnsInferred())
    NameLoc = written(Call.Call->getExprLoc());
  bool Declared = Call.returnsInferred() ||
                  !Ctx.getTranslationUnitDecl()
                       ->lookup(&Ctx.Idents.get(NewName))
                       .empty();
  if (NameLoc.isFileID() && Declared)
    DB << FixItHint::CreateReplacement(
        CharSourceRange::getCharRange(
            NameLoc, NameLoc.getLocWithOffset(Written.size())),
        Spelled);
}

namespace {
/// The memory a load, store or typeinfo_mem addresses through its pointer:
/// the storage shape, and its element strides as lib/Analysis/TensorMemory
/// views it (expandLeadingDims: BLAS-style leading dimensions, 0 packed).
struct Extent {
  Dims Shape;
  Dims LeadingDims;
  int64_t Count = 1; ///< elements the tensor has
  int64_t Span = 1;  ///< elements from the first to the last one touched
};
} // namespace

/// The extent of \p Call's pointer operand, when it is a valid memory
/// access with constant operands; without overflow.
static std::optional<Extent> getExtent(const llvm::CallBase &Call,
                                       OpKind Kind) {
  Extent E;
  std::string Why;
  std::optional<Dims> LD;
  if (Kind == OpKind::Store) {
    std::optional<TensorValue> TV = getTensorValue(Call.getArgOperand(1));
    if (!TV || !checkTensorValue(*TV, Why))
      return std::nullopt;
    E.Shape = TV->Type.Shape;
    LD = getConstantIntVector(Call.getArgOperand(2));
  } else if (Kind == OpKind::Load ||
             (Kind == OpKind::TypeInfo &&
              Call.getArgOperand(0)->getType()->isPointerTy())) {
    std::optional<Dims> Shape = getConstantIntVector(Call.getArgOperand(1));
    if (!Shape)
      return std::nullopt;
    E.Shape = *Shape;
    LD = Kind == OpKind::Load ? getConstantIntVector(Call.getArgOperand(4))
                              : Dims();
  }
  if (E.Shape.empty() || !LD)
    return std::nullopt;
  E.LeadingDims = *LD;
  Dims Strides = expandLeadingDims(E.Shape, E.LeadingDims);
  int64_t Last = 0;
  for (unsigned I = 0; I < E.Shape.size(); ++I) {
    int64_t Step;
    if (E.Shape[I] < 1 || Strides[I] < 1 ||
        llvm::MulOverflow(E.Shape[I] - 1, Strides[I], Step) ||
        llvm::AddOverflow(Last, Step, Last) ||
        llvm::MulOverflow(E.Count, E.Shape[I], E.Count))
      return std::nullopt;
  }
  if (llvm::AddOverflow(Last, int64_t(1), E.Span))
    return std::nullopt;
  return E;
}

/// Step 5: a load, store or typeinfo_mem whose extent certainly reaches
/// past the C object its pointer points into.
void ShapeModel::checkBounds(const Model &Md) {
  const TLXCall &Call = Md.Call;
  std::optional<Extent> E = getExtent(*Md.IR, Call.Kind);
  const Expr *PtrArg = Call.arg(0);
  if (!E || !PtrArg->getType()->isPointerType())
    return;
  std::optional<KnownObject> Obj = findKnownObject(PtrArg, Ctx, Rebound);
  QualType CElem = getPointeeElementType(PtrArg->getType(), Ctx);
  if (!Obj || CElem.isNull() || CElem->isIncompleteType())
    return;
  CheckedBounds.insert(Call.Call);
  int64_t ElemSize = Ctx.getTypeSizeInChars(CElem).getQuantity();
  int64_t Bytes, End;
  if (ElemSize < 1 || llvm::MulOverflow(E->Span, ElemSize, Bytes) ||
      llvm::AddOverflow(Obj->OffsetBytes, Bytes, End))
    return;
  if (Obj->OffsetBytes >= 0 && End <= Obj->SizeBytes)
    return;

  std::string Elem = CElem.getAsString(Ctx.getPrintingPolicy());
  std::string Start =
      Obj->OffsetBytes % ElemSize == 0
          ? "element " + std::to_string(Obj->OffsetBytes / ElemSize)
          : "byte " + std::to_string(Obj->OffsetBytes);
  // "16 (float[2][2])", "16 bytes (malloc(64))" when no whole element fits
  std::string Has = std::to_string(Obj->SizeBytes / ElemSize);
  if (Obj->SizeBytes % ElemSize)
    Has += " (" + std::to_string(Obj->SizeBytes) + " bytes)";
  Has += " (" + Obj->Origin + ")";
  llvm::StringRef Verb = Call.Kind == OpKind::Store  ? "writes"
                         : Call.Kind == OpKind::Load ? "reads"
                                                     : "describes";
  std::string What =
      E->Span == E->Count
          ? std::to_string(E->Count) + " elements (" + formatShape(E->Shape) +
                " " + Elem + ")"
          : formatShape(E->Shape) + " " + Elem + " with strides " +
                formatList(E->LeadingDims) + ", spanning " +
                std::to_string(E->Span) + " elements";
  // A [static N] parameter only promises at least N elements: reading more
  // is not certainly wrong, so it is a warning.
  SourceLocation Loc = written(PtrArg->getExprLoc());
  if (Obj->AtLeast)
    report(DiagnosticsEngine::Warning, Loc,
           "%0 %1 %2 starting at %3 of %4, which is declared to have at "
           "least %5")
        << Call.writtenName() << Verb << What << Start << Obj->Var << Has
        << written(PtrArg->getSourceRange());
  else
    report(DiagnosticsEngine::Error, Loc,
           "%0 %1 %2 starting at %3 of %4, which has %5")
        << Call.writtenName() << Verb << What << Start << Obj->Var << Has
        << written(PtrArg->getSourceRange());
  report(DiagnosticsEngine::Note, Obj->Var->getLocation(),
         "%0 is declared here")
      << Obj->Var;
  noteInstantiation();
}

void ShapeModel::verify() {
  // Call by call, in evaluation order, so that each call's bounds error
  // follows its own shape errors (and is left out when there are any).
  for (const Model *Md : Order) {
    bool Failed = false;
    verifyTLXCall(
        *Md->IR,
        [&](const llvm::CallBase &IR, const llvm::Twine &Msg) {
          Failed = true;
          if (auto It = Back.find(&IR); It != Back.end())
            reportError(*It->second, Msg.str());
        },
        [&](const llvm::CallBase &IR, const OpResult &Result) {
          if (auto It = Back.find(&IR); It != Back.end())
            checkSignedness(*It->second, Result);
        });
    if (!Failed)
      checkBounds(*Md);
  }
}

} // namespace

void checkShapes(const FunctionDecl &FD, ASTContext &Ctx,
                 DiagnosticsEngine &Diags,
                 const llvm::DenseSet<const CallExpr *> &Skip) {
  Stmt *Body = FD.getBody();
  if (!Body || FD.isDependentContext())
    return;
  ChangedVariables Changed;
  Changed.TraverseStmt(Body);
  ShapeModel Model(Ctx, Diags, Skip, Changed.Changed, Changed.Rebound);
  if (FD.isTemplateInstantiation() &&
      FD.getPointOfInstantiation().isValid())
    Model.Instantiation = &FD;
  Model.TraverseStmt(Body);
  Model.verify();
  if (!Diags.hasErrorOccurred())
    markRuntimeBounds(Body, Ctx, Changed.Rebound, Model.CheckedBounds);
}

} // namespace tlx
