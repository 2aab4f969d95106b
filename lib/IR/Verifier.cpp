//===- Verifier.cpp - Every rule a TLX call must follow -------------------===//
//
// The checks of tlx-verify (lib/Transforms/Frontend/Verify.cpp), which reports their
// messages as errors at the call, and of the clang plugin's AST checks
// (clang-plugin/ShapeChecker.cpp), which run them on IR built from the
// constant arguments of C calls. docs/verifier.md lists the rules and their
// messages.
//
// Algorithm:
//  1. Visit every call whose callee is named llvm.tensor.* or
//     llvm.vector.totensor; an unknown name is an error.
//  2. Check the operand count against TLXOps.def, each operand against its
//     Signature letter, and the return type against the Result column.
//  3. By result kind:
//     - token (typeinfo, load, totensor): the tensor it describes
//       (checkTensorValue: element type, shape/layout/padding, data, strides);
//     - void (store): the stored tensor, the pointer's element type and the
//       strides;
//     - data (compute ops): the op's shape rule (inferResult), then the
//       agreement of the inferred result with the call's vector type and with
//       its first result typeinfo.
//  4. A call whose token operand comes from an invalid typeinfo/load/totensor
//     is not checked further: the definition's own error says what is wrong,
//     and one mistake should give one error.
//  5. A valid compute op is handed to OnValid with its inferred result (the
//     pass remarks on it).
//
//===----------------------------------------------------------------------===//

#include "Verifier.h"

#include "Diagnostics.h"
#include "ShapeInference.h"
#include "TLXOps.h"
#include "TensorInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include <algorithm>
#include <cstdint>

using namespace llvm;

namespace tlx {

namespace {

/// The outcome of a group of checks on one call.
enum class Check {
  Passed,
  Failed,  ///< an error was reported at this call
  Skipped, ///< an operand's definition is invalid and reported there
};

class TLXVerifier {
  VerifierReport Report;
  VerifierOnValid OnValid;

public:
  TLXVerifier(VerifierReport Report, VerifierOnValid OnValid)
      : Report(Report), OnValid(OnValid) {}

  /// Checks every TLX call in \p F, reporting each violation.
  void verifyFunction(const Function &F);
  void verifyCall(const CallBase &Call, OpKind Kind);

private:
  Check verifyOperands(const CallBase &Call, const OpDesc &Desc);
  Check verifyOperand(const CallBase &Call, const OpDesc &Desc, unsigned ArgNo);
  Check verifyTokenOperand(const CallBase &Call, const OpDesc &Desc,
                           unsigned ArgNo);
  bool verifyReturnType(const CallBase &Call, const OpDesc &Desc);
  void verifyTensorDef(const CallBase &Call);
  void verifyStore(const CallBase &Call);
  void verifyCompute(const CallBase &Call, OpKind Kind);
  bool verifyResultAgreement(const CallBase &Call, OpKind Kind,
                             const OpResult &Result);
  bool verifyRuntimeResultUse(const CallBase &Call);

  void report(const CallBase &Call, const Twine &Msg) { Report(Call, Msg); }
  bool reportFailure(const CallBase &Call, const Twine &Msg) {
    report(Call, Msg);
    return false;
  }
  static std::string operandName(const OpDesc &Desc, unsigned ArgNo) {
    return getOperandName(Desc.Kind, ArgNo).str();
  }
};

} // namespace

void TLXVerifier::verifyFunction(const Function &F) {
  for (const Instruction &I : instructions(F)) {
    const auto *Call = dyn_cast<CallBase>(&I);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || !isTLXName(Callee->getName()))
      continue;
    if (std::optional<OpKind> Kind = getOpKind(*Call))
      verifyCall(*Call, *Kind);
    else
      report(*Call, "unknown TLX operation");
  }
}

void TLXVerifier::verifyCall(const CallBase &Call, OpKind Kind) {
  const OpDesc &Desc = getOpDesc(Kind);
  std::string Why;
  if (!checkArity(Call, Why))
    return report(Call, Why);
  bool ReturnOK = verifyReturnType(Call, Desc);
  if (verifyOperands(Call, Desc) != Check::Passed || !ReturnOK)
    return;
  switch (Desc.Result) {
  case ResultKind::Token:
    return verifyTensorDef(Call);
  case ResultKind::Void:
    return verifyStore(Call);
  case ResultKind::Data:
    return verifyCompute(Call, Kind);
  }
}

bool TLXVerifier::verifyReturnType(const CallBase &Call, const OpDesc &Desc) {
  Type *Ty = Call.getType();
  switch (Desc.Result) {
  case ResultKind::Token:
    if (Ty->isTokenTy())
      return true;
    report(Call, "must return a token");
    return false;
  case ResultKind::Void:
    if (Ty->isVoidTy())
      return true;
    report(Call, "must return void");
    return false;
  case ResultKind::Data:
    if (isa<FixedVectorType>(Ty) || Ty->isPointerTy())
      return true;
    report(Call, "must return a fixed-length vector or a pointer");
    return false;
  }
  return false;
}

Check TLXVerifier::verifyOperands(const CallBase &Call, const OpDesc &Desc) {
  // Check all operands so that one run names every bad one.
  bool Failed = false, Skipped = false;
  unsigned NumArgs = std::min<size_t>(Call.arg_size(), Desc.Signature.size());
  for (unsigned ArgNo = 0; ArgNo < NumArgs; ++ArgNo) {
    Check C = verifyOperand(Call, Desc, ArgNo);
    Failed |= C == Check::Failed;
    Skipped |= C == Check::Skipped;
  }
  return Failed ? Check::Failed : Skipped ? Check::Skipped : Check::Passed;
}

Check TLXVerifier::verifyOperand(const CallBase &Call, const OpDesc &Desc,
                                 unsigned ArgNo) {
  const Value *V = Call.getArgOperand(ArgNo);
  Type *Ty = V->getType();
  std::string Name = operandName(Desc, ArgNo);
  auto Fail = [&](const Twine &Msg) {
    report(Call, Name + " " + Msg);
    return Check::Failed;
  };
  switch (toUpper(Desc.Signature[ArgNo])) {
  case 'T':
    return verifyTokenOperand(Call, Desc, ArgNo);
  case 'V': {
    auto *VT = dyn_cast<FixedVectorType>(Ty);
    if (!VT || !VT->getElementType()->isIntegerTy(32))
      return Fail("must be a <n x i32> vector");
    if (!getConstantIntVector(V) && !mayBeRuntimeOperand(Desc.Kind, ArgNo))
      return Fail("must be a constant <n x i32> vector (only shapes, "
                  "strides, pad amounts and reduce windows and strides may "
                  "be computed at run time)");
    return Check::Passed;
  }
  case 'P':
    if (!Ty->isPointerTy())
      return Fail("must be a pointer");
    if (!getPointerElementType(Call, ArgNo))
      return Fail("needs an elementtype() attribute giving the tensor's "
                  "element type");
    return Check::Passed;
  case 'D':
    if (isa<FixedVectorType>(Ty))
      return Check::Passed;
    if (!Ty->isPointerTy())
      return Fail("must be a fixed-length vector or a pointer");
    if (!getPointerElementType(Call, ArgNo))
      return Fail("is a pointer without elementtype() or byval(): its "
                  "element type is unknown");
    return Check::Passed;
  case 'S':
    if (!Ty->isIntegerTy() && !Ty->isFloatingPointTy())
      return Fail("must be a scalar of the tensor's element type");
    return Check::Passed;
  case 'I': {
    const auto *C = dyn_cast<ConstantInt>(V);
    if (!C || !C->getType()->isIntegerTy(32))
      return Fail("must be a constant i32");
    return Check::Passed;
  }
  case 'N':
    if (!Ty->isIntegerTy())
      return Fail("must be an integer");
    return Check::Passed;
  }
  return Check::Passed;
}

Check TLXVerifier::verifyTokenOperand(const CallBase &Call, const OpDesc &Desc,
                                      unsigned ArgNo) {
  const Value *V = Call.getArgOperand(ArgNo);
  std::string Name = operandName(Desc, ArgNo);
  if (!V->getType()->isTokenTy()) {
    report(Call, Name + " must be a token");
    return Check::Failed;
  }
  std::optional<OpKind> DefKind = getOpKind(V);
  if (DefKind != OpKind::TypeInfo && DefKind != OpKind::Load &&
      DefKind != OpKind::ToTensor) {
    report(Call, Name + " must be a token from typeinfo, load or totensor");
    return Check::Failed;
  }
  // The definition reports its own errors.
  std::string Why;
  std::optional<TensorValue> TV = getTensorValue(V, &Why);
  if (!TV || !checkTensorValue(*TV, Why))
    return Check::Skipped;
  return Check::Passed;
}

void TLXVerifier::verifyTensorDef(const CallBase &Call) {
  std::string Why;
  std::optional<TensorValue> TV = getTensorValue(&Call, &Why);
  if (!TV || !checkTensorValue(*TV, Why))
    report(Call, Why);
}

void TLXVerifier::verifyStore(const CallBase &Call) {
  std::string Why;
  std::optional<TensorValue> TV = getOperandTensor(Call, 1, Why);
  if (!TV)
    return report(Call, Why);
  Type *PtrElem = getPointerElementType(Call, 0);
  if (PtrElem != TV->Type.Elem)
    return report(Call, "pointer element type " + userTypeName(PtrElem) +
                            " differs from the stored tensor's " +
                            userTypeName(TV->Type.Elem));
  std::optional<Dims> Strides = getKnownLanes(Call.getArgOperand(2));
  if (!checkLeadingDims(TV->Type.Shape, *Strides, Why))
    report(Call, Why);
}

/// The ops whose result shape comes from their result typeinfo.
static bool takesShapeFromResultTypeInfo(const CallBase &Call, OpKind Kind) {
  return Kind == OpKind::ReshapeBlock || Kind == OpKind::ReshapePermute ||
         (Kind == OpKind::Broadcast && Call.arg_size() == 1);
}

void TLXVerifier::verifyCompute(const CallBase &Call, OpKind Kind) {
  // A path's contribution to a merge of run-time-sized tensors: its
  // <1 x T> stands for the operand, which tlx-bufferize copies.
  if (Kind == OpKind::ToVector) {
    std::optional<TensorValue> In = getTensorValue(Call.getArgOperand(0));
    if (In && In->hasRuntimeSizes() && onlyFeedsRuntimeMerges(Call))
      return;
    if (In && In->Type.isDynamic())
      return report(Call, "the elements of a tensor whose extents are "
                          "computed at run time cannot be read as a C vector");
  }
  const CallBase *TI = getResultTypeInfo(Call);
  std::string Why;
  std::optional<TensorValue> ResultTV =
      TI ? getTensorValue(TI, &Why) : std::nullopt;
  bool ResultTypeInfoOK = ResultTV && checkTensorValue(*ResultTV, Why);
  // An invalid result typeinfo reports itself; do not repeat it here.
  if (TI && !ResultTypeInfoOK && takesShapeFromResultTypeInfo(Call, Kind))
    return;
  std::optional<OpResult> Result = inferResult(Call, Why);
  if (!Result)
    return report(Call, Why);
  if (TI && !ResultTypeInfoOK)
    return;
  if (verifyResultAgreement(Call, Kind, *Result) && OnValid)
    OnValid(Call, *Result);
}

/// A result with run-time extents is read by TLX ops only: its data by
/// typeinfos, whose tokens C code cannot read, and by C operators, which
/// tlx-vector-ops makes TLX ops (docs/ops.md, "Run-time sizes"). Its
/// vector's length does not hold it.
bool TLXVerifier::verifyRuntimeResultUse(const CallBase &Call) {
  for (const Use &U : Call.uses()) {
    const auto *TI = dyn_cast<CallBase>(U.getUser());
    if (TI && getOpKind(*TI) == OpKind::TypeInfo && U.getOperandNo() == 0)
      continue;
    if (const auto *I = dyn_cast<Instruction>(U.getUser());
        I && isCVectorOperator(*I))
      continue;
    return reportFailure(Call, "a result whose extents are computed at run "
                               "time is read by TLX ops, C operators and "
                               "tensor_store only, not as C data (element "
                               "reads, C stores, by value to a function)");
  }
  return true;
}

/// Where the result typeinfo \p TI comes from when tlx-recognize made it
/// from the typeinfo that names the variable a result is merged into.
static std::string describeMergedTypeInfo(const CallBase &TI) {
  const DebugLoc &Loc = TI.getDebugLoc();
  if (!TI.getMetadata(MergedTypeInfoMD))
    return "";
  if (!Loc)
    return " (the typeinfo after the control-flow merge names it)";
  return (" (the typeinfo at line " + Twine(Loc.getLine()) + ", column " +
          Twine(Loc.getCol()) +
          " names the variable it is merged into)")
      .str();
}

bool TLXVerifier::verifyResultAgreement(const CallBase &Call, OpKind Kind,
                                        const OpResult &Result) {
  // -1 (matching no vector) when the count overflows.
  int64_t Count = 1;
  for (int64_t D : Result.LogicalShape)
    Count = Count >= 0 && D > 0 && Count <= INT64_MAX / D ? Count * D : -1;
  // A result with run-time extents: its vector type carries only the
  // element type, and it may only be stored (the lowering writes it into
  // the store's destination).
  const CallBase *ResultTI = getResultTypeInfo(Call);
  std::optional<TensorValue> ResultTV =
      ResultTI ? getTensorValue(ResultTI) : std::nullopt;
  bool Dynamic = !Result.LogicalRefs.empty() ||
                 (ResultTV && ResultTV->Type.isDynamic());
  if (Dynamic && !verifyRuntimeResultUse(Call))
    return false;
  if (auto *VT = dyn_cast<FixedVectorType>(Call.getType())) {
    if (VT->getElementType() != Result.Elem)
      return reportFailure(Call, "result element type " +
                                     userTypeName(VT->getElementType()) +
                                     " differs from the inferred " +
                                     userTypeName(Result.Elem));
    if (!Dynamic && (int64_t)VT->getNumElements() != Count)
      return reportFailure(Call,
                           "result has " + Twine(VT->getNumElements()) +
                               " elements, but the inferred result shape " +
                               formatShape(Result.LogicalShape) + " holds " +
                               Twine(Count));
  }
  const CallBase *TI = getResultTypeInfo(Call);
  std::optional<TensorValue> TV = TI ? getTensorValue(TI) : std::nullopt;
  if (!TV)
    return true;
  const TensorType &Ty = TV->Type;
  std::string Where = describeMergedTypeInfo(*TI);
  if (Ty.Elem != Result.Elem)
    return reportFailure(Call, "result typeinfo element type " +
                                   userTypeName(Ty.Elem) +
                                   " differs from the inferred " +
                                   userTypeName(Result.Elem) + Where);
  Dims Logical = Ty.logicalShape();
  // The typeinfo's shape is written in storage order; the op's result is
  // logical. Say which is which when a layout makes them differ. Run-time
  // extents are compared at run time (Codegen/RuntimeShapes.h).
  bool MayAgree = Logical.size() == Result.LogicalShape.size() &&
                  all_of(seq<size_t>(0, Logical.size()), [&](size_t I) {
                    return mayEqualExtent(Logical[I], Result.LogicalShape[I]);
                  });
  if (!MayAgree) {
    // With a permuting layout, also say what to write: the inferred shape
    // in the typeinfo's storage order (storage dim I is logical Layout[I]).
    std::string InStorage;
    if (Logical != Ty.Shape && Ty.Layout.size() == Result.LogicalShape.size()) {
      Dims Storage;
      for (int64_t D : Ty.Layout)
        Storage.push_back(Result.LogicalShape[D]);
      InStorage =
          " (" + formatShape(Storage) + " in this layout's storage order)";
    }
    return reportFailure(Call,
                         "result typeinfo shape " + formatShape(Ty.Shape) +
                             (Logical == Ty.Shape
                                  ? std::string()
                                  : " as written (storage order; logical " +
                                        formatShape(Logical) + ")") +
                             " differs from the inferred result shape " +
                             formatShape(Result.LogicalShape) + InStorage +
                             Where);
  }
  if (Kind == OpKind::Transpose && !isLogicalTranspose(Call)) {
    std::string Why;
    std::optional<Dims> Perm = getTransposePermutation(Call, Why);
    if (Perm && Ty.Layout != *Perm)
      return reportFailure(
          Call, "result typeinfo layout " + formatList(Ty.Layout) +
                    " differs from the permutation " + formatList(*Perm) +
                    Where);
  }
  return true;
}

bool isTLXName(StringRef Name) {
  return Name.starts_with("llvm.tensor.") ||
         Name.starts_with("llvm.vector.totensor");
}

void verifyTLXCalls(const Function &F, VerifierReport Report,
                    VerifierOnValid OnValid) {
  TLXVerifier(Report, OnValid).verifyFunction(F);
}

void verifyTLXCall(const CallBase &Call, VerifierReport Report,
                   VerifierOnValid OnValid) {
  if (std::optional<OpKind> Kind = getOpKind(Call))
    TLXVerifier(Report, OnValid).verifyCall(Call, *Kind);
  else
    Report(Call, "unknown TLX operation");
}

} // namespace tlx
