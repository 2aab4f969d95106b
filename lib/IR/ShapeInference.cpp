//===- ShapeInference.cpp - What each TLX op computes, and from what ------===//
//
// Every rule returns its reason in Why; none asserts on the IR it reads,
// since tlx-verify calls these functions on arbitrary user IR.
//
//===----------------------------------------------------------------------===//

#include "ShapeInference.h"
#include "Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace tlx {

//===----------------------------------------------------------------------===//
// Formatting and failure helpers
//===----------------------------------------------------------------------===//

std::string formatShape(ArrayRef<int64_t> Shape) {
  if (Shape.empty())
    return "scalar";
  std::string Str;
  for (int64_t D : Shape)
    Str += (Str.empty() ? "" : "x") +
           (D == DynamicExtent ? std::string("?") : std::to_string(D));
  return Str;
}

std::string formatList(ArrayRef<int64_t> Values) {
  std::string Str = "<";
  for (int64_t V : Values)
    Str += (Str.size() > 1 ? ", " : "") + std::to_string(V);
  return Str + ">";
}

/// "1 entry", "3 entries".
static std::string entries(size_t N) {
  return std::to_string(N) + (N == 1 ? " entry" : " entries");
}

static std::string typeName(const Type *Ty) {
  return userTypeName(Ty); // C's words inside clang
}

static bool fail(std::string &Why, const Twine &Msg) {
  Why = Msg.str();
  return false;
}

static std::nullopt_t failNone(std::string &Why, const Twine &Msg) {
  Why = Msg.str();
  return std::nullopt;
}

static bool isPermutation(ArrayRef<int64_t> Perm) {
  SmallBitVector Seen(Perm.size());
  for (int64_t P : Perm) {
    if (P < 0 || P >= (int64_t)Perm.size() || Seen[P])
      return false;
    Seen.set(P);
  }
  return true;
}

/// Product of \p Shape, or nullopt when it does not fit in int64_t.
static std::optional<int64_t> checkedProduct(ArrayRef<int64_t> Shape) {
  int64_t N = 1;
  for (int64_t D : Shape)
    if (MulOverflow(N, D, N))
      return std::nullopt;
  return N;
}

static int64_t product(ArrayRef<int64_t> Shape) {
  return checkedProduct(Shape).value_or(-1);
}

static unsigned bitWidth(const Type *Ty) {
  return Ty->getPrimitiveSizeInBits().getFixedValue();
}

//===----------------------------------------------------------------------===//
// Operand names
//===----------------------------------------------------------------------===//

StringRef getOperandName(OpKind Kind, unsigned ArgNo) {
  static const char *const TypeInfo[] = {"data", "shape", "layout", "padding"};
  static const char *const Load[] = {"pointer", "shape", "layout", "padding",
                                     "strides"};
  static const char *const Store[] = {"pointer", "tensor", "strides"};
  static const char *const Binary[] = {"op1", "op2"};
  static const char *const Contract[] = {"op1", "op2", "op1 axes", "op2 axes"};
  static const char *const MMA[] = {"acc", "op1", "op2"};
  static const char *const Conv[] = {"input", "kernel", "strides",
                                     "input dilations", "kernel dilations"};
  static const char *const Unary[] = {"input"};
  static const char *const Broadcast[] = {"input", "value"};
  static const char *const Reduce[] = {"input", "window", "strides"};
  static const char *const Block[] = {"input", "blocks"};
  static const char *const Transpose[] = {"input", "permutation"};
  static const char *const Pad[] = {"input", "low", "high", "value"};
  static const char *const Concat[] = {"op1", "op2", "axis"};
  static const char *const Compare[] = {"op1", "op2", "predicate"};
  static const char *const Select[] = {"condition", "op1", "op2"};
  static const char *const Insert[] = {"input", "value", "position"};

  ArrayRef<const char *> Names = Unary;
  switch (Kind) {
  case OpKind::TypeInfo:
  case OpKind::ToTensor:
    Names = TypeInfo;
    break;
  case OpKind::Load:
    Names = Load;
    break;
  case OpKind::Store:
    Names = Store;
    break;
  case OpKind::MatMul:
    Names = Binary;
    break;
  case OpKind::Contract:
    Names = Contract;
    break;
  case OpKind::UMMA:
  case OpKind::SMMA:
  case OpKind::USMMA:
  case OpKind::SUMMA:
    Names = MMA;
    break;
  case OpKind::Convolution:
    Names = Conv;
    break;
  case OpKind::Broadcast:
    Names = Broadcast;
    break;
  case OpKind::ReshapeBlock:
    Names = Block;
    break;
  case OpKind::Transpose:
    Names = Transpose;
    break;
  case OpKind::Pad:
    Names = Pad;
    break;
  case OpKind::Concat:
    Names = Concat;
    break;
  case OpKind::ICmp:
  case OpKind::FCmp:
    Names = Compare;
    break;
  case OpKind::Select:
    Names = Select;
    break;
  case OpKind::InsertElement:
    Names = Insert;
    break;
  default:
    if (isReduce(Kind))
      Names = Reduce;
    else if (getOpDesc(Kind).Signature == "TT" ||
             getOpDesc(Kind).Signature == "XX")
      Names = Binary;
    break;
  }
  return ArgNo < Names.size() ? Names[ArgNo] : "operand";
}

static std::string operandName(const CallBase &Op, unsigned ArgNo) {
  std::optional<OpKind> Kind = getOpKind(Op);
  return Kind ? getOperandName(*Kind, ArgNo).str() : "operand";
}

static std::string describeArity(const OpDesc &Desc, unsigned NumArgs) {
  std::string Expected = std::to_string(Desc.MinArgs);
  if (Desc.MaxArgs != Desc.MinArgs)
    Expected += " to " + std::to_string(Desc.MaxArgs);
  return "expects " + Expected + " operands, got " + std::to_string(NumArgs);
}

bool checkArity(const CallBase &Op, std::string &Why) {
  std::optional<OpKind> Kind = getOpKind(Op);
  if (!Kind)
    return fail(Why, "not a TLX operation");
  const OpDesc &Desc = getOpDesc(*Kind);
  if (Op.arg_size() < Desc.MinArgs || Op.arg_size() > Desc.MaxArgs)
    return fail(Why, describeArity(Desc, Op.arg_size()));
  return true;
}

//===----------------------------------------------------------------------===//
// Tensor types and values
//===----------------------------------------------------------------------===//

bool checkTensorType(const TensorType &Ty, std::string &Why) {
  if (!Ty.Elem || !isSupportedElementType(Ty.Elem))
    return fail(Why, "element type " + typeName(Ty.Elem) +
                         " is not supported (" +
                         (hostIsClang() ? "int8_t, int16_t, int32_t, int64_t, "
                                          "_Float16, __bf16, float, double"
                                        : "i8, i16, i32, i64, f16, bf16, "
                                          "f32, f64") +
                         ")");
  unsigned Rank = Ty.rank();
  if (Rank > MaxRank)
    return fail(Why, "rank " + Twine(Rank) + " exceeds the maximum of " +
                         Twine(MaxRank));
  if (Ty.Layout.size() != Rank)
    return fail(Why, "layout has " + entries(Ty.Layout.size()) +
                         ", but shape has " + entries(Rank));
  if (Ty.Padding.size() != Rank)
    return fail(Why, "padding has " + entries(Ty.Padding.size()) +
                         ", but shape has " + entries(Rank));
  for (unsigned I = 0; I < Rank; ++I)
    if (Ty.Shape[I] < 1 && Ty.Shape[I] != DynamicExtent)
      return fail(Why, "shape extent " + Twine(Ty.Shape[I]) + " of dimension " +
                           Twine(I) + " must be >= 1");
  if (!isPermutation(Ty.Layout))
    return fail(Why, "layout " + formatList(Ty.Layout) +
                         " is not a permutation of 0.." + Twine(Rank - 1));
  for (unsigned I = 0; I < Rank; ++I)
    if (Ty.Padding[I] < 0)
      return fail(Why, "padding " + Twine(Ty.Padding[I]) + " of dimension " +
                           Twine(I) + " must be >= 0");
  if (!Ty.isDynamic() && !checkedProduct(Ty.Shape))
    return fail(Why,
                "shape " + formatShape(Ty.Shape) + " has too many elements");
  return true;
}

/// The element count a pointer operand's byval(<N x T>) or
/// elementtype(<N x T>) gives, if any.
static std::optional<uint64_t> pointeeVectorLength(const CallBase &Call,
                                                   unsigned ArgNo) {
  Type *Pointee = Call.getParamElementType(ArgNo);
  if (!Pointee)
    Pointee = Call.getParamByValType(ArgNo);
  if (auto *VT = dyn_cast_or_null<FixedVectorType>(Pointee))
    return VT->getNumElements();
  return std::nullopt;
}

/// Whether \p V is the data result of a TLX op (not C vector data): of an
/// op, of a tensor_<op> call recognition has yet to rewrite (the long
/// form's typeinfo of a result, nested in a short-form call), or of C
/// operators that tlx-vector-ops makes TLX ops of, computing from such a
/// result (`xw + bias` on run-time-sized results).
static bool isOpResult(const Value *V) {
  return isComputedThroughOperators(V, [](const Value *X) {
    std::optional<OpKind> K = getOpKind(X);
    if (const auto *Call = dyn_cast<CallBase>(X); !K && Call)
      if (const auto *Callee =
              dyn_cast<Function>(Call->getCalledOperand()->stripPointerCasts()))
        K = matchCName(Callee->getName());
    return K ? std::optional<bool>(getOpDesc(*K).Result == ResultKind::Data)
             : std::nullopt;
  });
}

static bool checkData(const TensorValue &TV, std::string &Why) {
  // A run-time shape names memory or an op's result, whose C vector type
  // carries only the element type; C vector data has a constant shape.
  if (TV.Type.isDynamic()) {
    if (TV.isMemory() || isOpResult(TV.Data) || isRuntimeMergeData(TV.Data))
      return true;
    return fail(Why, "shape " + formatShape(TV.Type.Shape) +
                         " is computed at run time, but the data is a C "
                         "vector value, whose shape is constant");
  }
  int64_t N = TV.Type.numElements();
  Type *DataTy = TV.Data->getType();
  if (auto *VT = dyn_cast<FixedVectorType>(DataTy)) {
    if ((int64_t)VT->getNumElements() != N)
      return fail(Why, "data has " + Twine(VT->getNumElements()) +
                           " elements, but shape " +
                           formatShape(TV.Type.Shape) + " holds " + Twine(N));
    return true;
  }
  if (!DataTy->isPointerTy())
    return fail(Why, "data must be a fixed-length vector or a pointer");
  std::optional<uint64_t> Len = pointeeVectorLength(*TV.Def, 0);
  if (Len && (int64_t)*Len != N)
    return fail(Why, "data points to " + Twine(*Len) + " elements, but shape " +
                         formatShape(TV.Type.Shape) + " holds " + Twine(N));
  return true;
}

bool checkLeadingDims(ArrayRef<int64_t> Shape, ArrayRef<int64_t> LeadingDims,
                      std::string &Why) {
  unsigned Rank = Shape.size();
  if (LeadingDims.size() != Rank)
    return fail(Why, "strides has " + entries(LeadingDims.size()) +
                         ", but the tensor has rank " + Twine(Rank));
  for (unsigned I = 0; I < Rank; ++I)
    if (LeadingDims[I] < 0 && LeadingDims[I] != DynamicExtent)
      return fail(Why, "strides entry " + Twine(LeadingDims[I]) +
                           " of dimension " + Twine(I) + " must be >= 0");
  if (Rank == 0)
    return true;
  if (LeadingDims[0] != 0 && LeadingDims[0] != DynamicExtent)
    return fail(Why, "strides[0] is unused and must be 0, not " +
                         Twine(LeadingDims[0]));
  // Run-time extents or strides: the rest is checked at run time
  // (Codegen/RuntimeShapes.h).
  if (is_contained(Shape, DynamicExtent) ||
      is_contained(LeadingDims, DynamicExtent))
    return true;
  // Walking outwards, Span is the number of elements from the first to one
  // past the last address of storage dims I..Rank-1. Dim I-1 steps
  // LeadingDims[I] elements (or, packed, Stride * Shape[I]); a step shorter
  // than Span would let two elements share an address.
  int64_t Stride = 1, Span = Shape[Rank - 1];
  for (int I = (int)Rank - 1; I >= 1; --I) {
    int64_t LD = LeadingDims[I];
    if (LD != 0 && LD < Span)
      return fail(Why, "strides[" + Twine(I) + "] = " + Twine(LD) +
                           " is less than the span of storage dimension " +
                           Twine(I) + " (" + Twine(Span) +
                           " elements): elements would share addresses");
    int64_t Packed, Reach;
    if (MulOverflow(Stride, Shape[I], Packed) ||
        MulOverflow(LD ? LD : Packed, Shape[I - 1] - 1, Reach) ||
        AddOverflow(Reach, Span, Span))
      return fail(Why, "strides address more elements than fit in 64 bits");
    Stride = LD ? LD : Packed;
  }
  return true;
}

bool checkTensorValue(const TensorValue &TV, std::string &Why) {
  if (!checkTensorType(TV.Type, Why))
    return false;
  if (getOpKind(*TV.Def) == OpKind::Load) {
    if (!TV.isMemory())
      return fail(Why, "pointer must be a pointer");
    std::optional<uint64_t> Len = pointeeVectorLength(*TV.Def, 0);
    if (Len)
      return fail(Why, "pointer needs elementtype() of the scalar element "
                       "type, not of a vector");
    return checkLeadingDims(TV.Type.Shape, TV.Strides, Why);
  }
  return checkData(TV, Why);
}

std::optional<TensorValue> getOperandTensor(const CallBase &Op, unsigned ArgNo,
                                            std::string &Why) {
  std::string Name = operandName(Op, ArgNo);
  if (ArgNo >= Op.arg_size())
    return failNone(Why, "missing operand " + Name);
  std::string Reason;
  std::optional<TensorValue> TV =
      getTensorValue(Op.getArgOperand(ArgNo), &Reason);
  if (!TV || !checkTensorValue(*TV, Reason))
    return failNone(Why, Name + ": " + Reason);
  return TV;
}

//===----------------------------------------------------------------------===//
// Constant operands
//===----------------------------------------------------------------------===//

/// Reads the constant <n x i32> operand \p ArgNo.
static std::optional<Dims> readAnyVector(const CallBase &Op, unsigned ArgNo,
                                         std::string &Why) {
  std::string Name = operandName(Op, ArgNo);
  if (ArgNo >= Op.arg_size())
    return failNone(Why, "missing operand " + Name);
  const Value *V = Op.getArgOperand(ArgNo);
  auto *VT = dyn_cast<FixedVectorType>(V->getType());
  if (!VT || !VT->getElementType()->isIntegerTy(32))
    return failNone(Why, Name + " must be a <n x i32> vector");
  // Parameters the program may compute (docs/ops.md, "Run-time sizes")
  // read DynamicExtent in the lanes it computes.
  std::optional<OpKind> Kind = getOpKind(Op);
  if (Kind && mayBeRuntimeOperand(*Kind, ArgNo))
    if (std::optional<Dims> Known = getKnownLanes(V))
      return Known;
  std::optional<SmallVector<int64_t, 4>> Values = getConstantIntVector(V);
  if (!Values)
    return failNone(Why, Name + " must be a constant <n x i32> vector");
  return Dims(Values->begin(), Values->end());
}

/// Reads the constant <n x i32> operand \p ArgNo, which must have \p Length
/// entries (the rank of \p Of, named in the message).
static std::optional<Dims> readVector(const CallBase &Op, unsigned ArgNo,
                                      size_t Length, const Twine &Of,
                                      std::string &Why) {
  std::optional<Dims> Values = readAnyVector(Op, ArgNo, Why);
  if (!Values)
    return std::nullopt;
  if (Values->size() != Length)
    return failNone(Why, operandName(Op, ArgNo) + " has " +
                             entries(Values->size()) + ", but " + Of + " is " +
                             Twine(Length));
  return Values;
}

static bool checkAtLeast(ArrayRef<int64_t> Values, int64_t Min, StringRef Name,
                         std::string &Why) {
  for (unsigned I = 0; I < Values.size(); ++I)
    if (Values[I] != DynamicExtent && Values[I] < Min)
      return fail(Why, Name + " entry " + Twine(Values[I]) + " of dimension " +
                           Twine(I) + " must be >= " + Twine(Min));
  return true;
}

//===----------------------------------------------------------------------===//
// Per-op operand accessors
//===----------------------------------------------------------------------===//

std::optional<ConvolutionParams> getConvolutionParams(const CallBase &Op,
                                                      std::string &Why) {
  std::optional<TensorValue> In = getOperandTensor(Op, 0, Why);
  if (!In)
    return std::nullopt;
  unsigned Rank = In->Type.rank();
  if (Rank < 3)
    return failNone(Why, "input is " + formatShape(In->Type.logicalShape()) +
                             ": rank >= 3 is required ([N, C, spatial...])");
  unsigned Spatial = Rank - 2;
  ConvolutionParams P;
  Dims *Params[] = {&P.Strides, &P.InputDilations, &P.KernelDilations};
  for (unsigned I = 0; I < 3; ++I) {
    unsigned ArgNo = 2 + I;
    Dims &Out = *Params[I];
    if (ArgNo >= Op.arg_size()) {
      Out.assign(Spatial, 1);
      continue;
    }
    std::optional<Dims> V = readVector(
        Op, ArgNo, Spatial, "the input's spatial dimension count", Why);
    if (!V ||
        !checkAtLeast(*V, 0, getOperandName(OpKind::Convolution, ArgNo), Why))
      return std::nullopt;
    for (int64_t &E : *V)
      E = E == 0 ? 1 : E;
    Out = *V;
  }
  return P;
}

/// Checks one side's contraction axes: in range and distinct.
static bool checkAxes(ArrayRef<int64_t> Axes, unsigned Rank, StringRef Name,
                      std::string &Why) {
  SmallBitVector Seen(Rank);
  for (int64_t A : Axes) {
    if (A < 0 || A >= (int64_t)Rank)
      return fail(Why, Name + " entry " + Twine(A) +
                           " is out of range for rank " + Twine(Rank));
    if (Seen[A])
      return fail(Why,
                  Name + " " + formatList(Axes) + " repeat axis " + Twine(A));
    Seen.set(A);
  }
  return true;
}

std::optional<ContractAxes> getContractAxes(const CallBase &Op,
                                            std::string &Why) {
  std::optional<TensorValue> A = getOperandTensor(Op, 0, Why);
  std::optional<TensorValue> B =
      A ? getOperandTensor(Op, 1, Why) : std::nullopt;
  if (!B)
    return std::nullopt;
  Dims LA = A->Type.logicalShape(), LB = B->Type.logicalShape();
  std::optional<Dims> AxesA = readAnyVector(Op, 2, Why);
  std::optional<Dims> AxesB =
      AxesA ? readVector(Op, 3, AxesA->size(), "the length of op1 axes", Why)
            : std::nullopt;
  if (!AxesB)
    return std::nullopt;
  if (!checkAxes(*AxesA, LA.size(), "op1 axes", Why) ||
      !checkAxes(*AxesB, LB.size(), "op2 axes", Why))
    return std::nullopt;
  for (unsigned I = 0; I < AxesA->size(); ++I) {
    int64_t ExtA = LA[(*AxesA)[I]], ExtB = LB[(*AxesB)[I]];
    if (!mayEqualExtent(ExtA, ExtB))
      return failNone(Why, "contracted extents differ: op1 axis " +
                               Twine((*AxesA)[I]) + " is " + Twine(ExtA) +
                               ", op2 axis " + Twine((*AxesB)[I]) + " is " +
                               Twine(ExtB));
  }
  return ContractAxes{*AxesA, *AxesB};
}

Dims getFreeAxes(unsigned Rank, ArrayRef<int64_t> Contracted) {
  Dims Free;
  for (unsigned D = 0; D < Rank; ++D)
    if (!is_contained(Contracted, (int64_t)D))
      Free.push_back(D);
  return Free;
}

std::optional<ReduceWindow> getReduceWindow(const CallBase &Op,
                                            std::string &Why) {
  std::optional<TensorValue> In = getOperandTensor(Op, 0, Why);
  if (!In)
    return std::nullopt;
  Dims Logical = In->Type.logicalShape();
  std::optional<Dims> Window =
      readVector(Op, 1, Logical.size(), "the input's rank", Why);
  std::optional<Dims> Strides =
      Window ? readVector(Op, 2, Logical.size(), "the input's rank", Why)
             : std::nullopt;
  if (!Strides || !checkAtLeast(*Window, 1, "window", Why) ||
      !checkAtLeast(*Strides, 1, "strides", Why))
    return std::nullopt;
  for (unsigned I = 0; I < Logical.size(); ++I)
    if ((*Window)[I] != DynamicExtent && Logical[I] != DynamicExtent &&
        (*Window)[I] > Logical[I])
      return failNone(Why, "window " + Twine((*Window)[I]) +
                               " exceeds extent " + Twine(Logical[I]) +
                               " of dimension " + Twine(I));
  return ReduceWindow{*Window, *Strides};
}

std::optional<PadAmounts> getPadAmounts(const CallBase &Op, std::string &Why) {
  std::optional<TensorValue> In = getOperandTensor(Op, 0, Why);
  if (!In)
    return std::nullopt;
  unsigned Rank = In->Type.rank();
  std::optional<Dims> Low = readVector(Op, 1, Rank, "the input's rank", Why);
  std::optional<Dims> High =
      Low ? readVector(Op, 2, Rank, "the input's rank", Why) : std::nullopt;
  if (!High || !checkAtLeast(*Low, 0, "low", Why) ||
      !checkAtLeast(*High, 0, "high", Why))
    return std::nullopt;
  if (Op.arg_size() < 4)
    return failNone(Why, "missing operand value");
  Value *Fill = Op.getArgOperand(3);
  if (Fill->getType() != In->Type.Elem)
    return failNone(Why, "value type " + typeName(Fill->getType()) +
                             " differs from the input's element type " +
                             typeName(In->Type.Elem));
  return PadAmounts{*Low, *High, Fill};
}

std::optional<unsigned> getConcatAxis(const CallBase &Op, std::string &Why) {
  std::optional<TensorValue> A = getOperandTensor(Op, 0, Why);
  if (!A)
    return std::nullopt;
  const auto *Axis =
      Op.arg_size() > 2 ? dyn_cast<ConstantInt>(Op.getArgOperand(2)) : nullptr;
  if (!Axis || !Axis->getType()->isIntegerTy(32))
    return failNone(Why, "axis must be a constant i32");
  int64_t V = Axis->getSExtValue();
  if (V < 0 || V >= (int64_t)A->Type.rank())
    return failNone(Why, "axis " + Twine(V) + " is out of range for rank " +
                             Twine(A->Type.rank()));
  return (unsigned)V;
}

bool isLogicalTranspose(const CallBase &Op) { return Op.arg_size() == 1; }

std::optional<Dims> getTransposePermutation(const CallBase &Op,
                                            std::string &Why) {
  std::optional<TensorValue> In = getOperandTensor(Op, 0, Why);
  if (!In)
    return std::nullopt;
  std::optional<Dims> Perm =
      readVector(Op, 1, In->Type.rank(), "the input's rank", Why);
  if (!Perm)
    return std::nullopt;
  if (!isPermutation(*Perm))
    return failNone(Why, "permutation " + formatList(*Perm) +
                             " is not a permutation of 0.." +
                             Twine(Perm->size() - 1));
  return Perm;
}

std::optional<Dims> getReshapeBlocks(const CallBase &Op, std::string &Why) {
  std::optional<TensorValue> In = getOperandTensor(Op, 0, Why);
  if (!In)
    return std::nullopt;
  Dims Logical = In->Type.logicalShape();
  std::optional<Dims> Blocks =
      readVector(Op, 1, Logical.size(), "the input's rank", Why);
  if (!Blocks || !checkAtLeast(*Blocks, 1, "blocks", Why))
    return std::nullopt;
  for (unsigned I = 0; I < Logical.size(); ++I)
    if (Logical[I] != DynamicExtent && Logical[I] % (*Blocks)[I] != 0)
      return failNone(Why, "block " + Twine((*Blocks)[I]) +
                               " does not divide extent " + Twine(Logical[I]) +
                               " of dimension " + Twine(I));
  return Blocks;
}

std::optional<MMASignedness> getMMASignedness(OpKind Kind) {
  switch (Kind) {
  case OpKind::UMMA:
    return MMASignedness{false, false};
  case OpKind::SMMA:
    return MMASignedness{true, true};
  case OpKind::USMMA:
    return MMASignedness{false, true};
  case OpKind::SUMMA:
    return MMASignedness{true, false};
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// Result inference
//===----------------------------------------------------------------------===//

namespace {

/// Infers one compute op's result; each inferXxx() handles one op family.
class ResultInference {
public:
  ResultInference(const CallBase &Op, OpKind Kind, std::string &Why)
      : Op(Op), Kind(Kind), Desc(getOpDesc(Kind)), Why(Why) {}

  std::optional<OpResult> infer();

private:
  bool readTensors();
  bool checkElementClass();
  Type *declaredResultElem() const;
  std::optional<TensorValue> resultTypeInfo(bool Required);
  Type *contractionElem();

  std::optional<OpResult> inferMatMul();
  std::optional<OpResult> inferContract();
  std::optional<OpResult> inferMMA();
  std::optional<OpResult> inferConvolution();
  std::optional<OpResult> inferBroadcast();
  std::optional<OpResult> inferReduce();
  std::optional<OpResult> inferReshapeBlock();
  std::optional<OpResult> inferReshapePermute();
  std::optional<OpResult> inferTranspose();
  std::optional<OpResult> inferPad();
  std::optional<OpResult> inferConcat();
  std::optional<OpResult> inferInstruction();
  std::optional<OpResult> inferCompare();
  std::optional<OpResult> inferConversion();

  std::optional<OpResult> result(Type *Elem, Dims Shape,
                                 ExtentRefs Refs = {}) const {
    return OpResult{Elem, std::move(Shape), std::move(Refs)};
  }
  bool checkRuntimeExtents();
  /// Refs for \p Out whose run-time extents the op computes (a null Vec:
  /// emitResultExtent emits them); empty when \p Out is all constants.
  static ExtentRefs computedRefs(const Dims &Out) {
    if (!is_contained(Out, DynamicExtent))
      return {};
    return ExtentRefs(Out.size());
  }
  /// Operand \p I's run-time extent of logical dim \p D (a null Vec for a
  /// constant extent).
  ExtentRef refOf(unsigned I, unsigned D) const {
    ExtentRefs Refs = Tensors[I].Type.logicalShapeRefs();
    return Logical[I][D] == DynamicExtent ? Refs[D] : ExtentRef();
  }
  /// Operand \p I's logical shape; "4x3 (logical; written 3x4 in storage
  /// order, layout <1, 0>)" when its layout makes the shape the user wrote
  /// differ.
  std::string shape(unsigned I) const {
    std::string Written = written(I);
    return formatShape(Logical[I]) +
           (Written.empty() ? "" : " (logical; " + Written + ")");
  }
  /// A contraction operand in its row and column names: "3x4 (M=3, K=4)".
  std::string matrix(unsigned I, char Rows, char Cols) const {
    const Dims &D = Logical[I];
    std::string Written = written(I);
    return formatShape(D) + " (" + Rows + "=" +
           formatShape(D[D.size() - 2]) + ", " + Cols + "=" +
           formatShape(D.back()) + (Written.empty() ? "" : "; " + Written) +
           ")";
  }
  /// How operand \p I's shape is written when it is not its logical shape.
  std::string written(unsigned I) const {
    const TensorType &Ty = Tensors[I].Type;
    if (Ty.Shape == Logical[I])
      return "";
    return "written " + formatShape(Ty.Shape) +
           " in storage order, layout " + formatList(Ty.Layout);
  }

  const CallBase &Op;
  OpKind Kind;
  const OpDesc &Desc;
  std::string &Why;
  /// The token operands, in order, and their logical shapes.
  SmallVector<TensorValue, 3> Tensors;
  SmallVector<Dims, 3> Logical;
};

} // namespace

bool ResultInference::readTensors() {
  for (unsigned I = 0; I < Op.arg_size() && I < Desc.Signature.size(); ++I) {
    if (Desc.Signature[I] != 'T')
      continue;
    std::optional<TensorValue> TV = getOperandTensor(Op, I, Why);
    if (!TV)
      return false;
    Logical.push_back(TV->Type.logicalShape());
    Tensors.push_back(std::move(*TV));
  }
  return true;
}

bool ResultInference::checkElementClass() {
  StringRef Allowed = Desc.Elements == ElementClass::Float
                          ? "floating-point elements only"
                          : "integer elements only";
  for (unsigned I = 0; I < Tensors.size(); ++I)
    if (!isAllowedElementType(Desc.Elements, Tensors[I].Type.Elem))
      return fail(Why, "element type " + typeName(Tensors[I].Type.Elem) +
                           " of " + operandName(Op, I) + " is not allowed (" +
                           Allowed + ")");
  return true;
}

Type *ResultInference::declaredResultElem() const {
  if (auto *VT = dyn_cast<VectorType>(Op.getType()))
    return VT->getElementType();
  if (const CallBase *TI = getResultTypeInfo(Op))
    if (std::optional<TensorValue> TV = getTensorValue(TI))
      return TV->Type.Elem;
  return nullptr;
}

std::optional<TensorValue> ResultInference::resultTypeInfo(bool Required) {
  const CallBase *TI = getResultTypeInfo(Op);
  if (!TI) {
    if (Required)
      Why = "the result shape cannot be inferred from the operands: the "
            "result needs a typeinfo";
    return std::nullopt;
  }
  std::string Reason;
  std::optional<TensorValue> TV = getTensorValue(TI, &Reason);
  if (!TV || !checkTensorValue(*TV, Reason))
    return failNone(Why, "result typeinfo: " + Reason);
  return TV;
}

/// A widening is exact when the types are equal or the wider type has the
/// same class (integer or floating-point) and more bits.
static bool widensTo(const Type *From, const Type *To) {
  return From == To || (From->isIntegerTy() == To->isIntegerTy() &&
                        bitWidth(From) < bitWidth(To));
}

Type *ResultInference::contractionElem() {
  Type *A = Tensors[0].Type.Elem, *B = Tensors[1].Type.Elem;
  if (A->isIntegerTy() != B->isIntegerTy()) {
    fail(Why, "operands mix integer and floating-point elements: " +
                  operandName(Op, 0) + " is " + typeName(A) + ", " +
                  operandName(Op, 1) + " is " + typeName(B));
    return nullptr;
  }
  if (Type *Res = declaredResultElem()) {
    if (!isSupportedElementType(Res)) {
      fail(Why, "result element type " + typeName(Res) + " is not supported");
      return nullptr;
    }
    for (Type *Operand : {A, B})
      if (!widensTo(Operand, Res)) {
        fail(Why, "operand element type " + typeName(Operand) +
                      " does not widen to the result element type " +
                      typeName(Res));
        return nullptr;
      }
    return Res;
  }
  if (widensTo(A, B))
    return B;
  if (widensTo(B, A))
    return A;
  fail(Why, "operand element types " + typeName(A) + " and " + typeName(B) +
                " differ and the result does not declare its type");
  return nullptr;
}

bool acceptsRuntimeExtents(OpKind Kind) {
  return isRuntimeFusible(Kind) || Kind == OpKind::MatMul ||
         Kind == OpKind::Contract || Kind == OpKind::Convolution ||
         getMMASignedness(Kind).has_value();
}

bool isRuntimeFusible(OpKind Kind) {
  switch (Kind) {
  case OpKind::Transpose:
  case OpKind::Broadcast:
  case OpKind::Pad:
  case OpKind::Concat:
  case OpKind::ReshapeBlock:
  case OpKind::ReshapePermute:
    return true;
  default:
    return isReduce(Kind) || isUnaryElementwise(Kind) || isCOperatorOp(Kind);
  }
}

bool isRuntimeMergeData(const Value *V) {
  if (!isMergeInst(V))
    return false;
  SmallVector<const Value *, 8> Work{V};
  SmallPtrSet<const Value *, 8> Seen{V};
  while (!Work.empty()) {
    const auto *I = cast<Instruction>(Work.pop_back_val());
    auto Inputs = isa<PHINode>(I)
                      ? SmallVector<const Value *, 4>(
                            cast<PHINode>(I)->incoming_values())
                      : SmallVector<const Value *, 4>{I->getOperand(1),
                                                      I->getOperand(2)};
    for (const Value *In : Inputs) {
      std::optional<OpKind> K = getOpKind(In);
      if (isa<UndefValue>(In) ||
          (K && getOpDesc(*K).Result == ResultKind::Data))
        continue;
      if (!isMergeInst(In))
        return false;
      if (Seen.insert(In).second)
        Work.push_back(In);
    }
  }
  return true;
}

bool onlyFeedsRuntimeMerges(const CallBase &Call) {
  return !Call.use_empty() && all_of(Call.users(), [](const User *U) {
    return isRuntimeMergeData(U);
  });
}

/// Run-time extents, and loads through run-time strides, reach only the
/// ops that lower them (their memory has only a run-time view).
bool ResultInference::checkRuntimeExtents() {
  if (acceptsRuntimeExtents(Kind) ||
      none_of(Tensors,
              [](const TensorValue &TV) { return TV.hasRuntimeSizes(); }))
    return true;
  bool Extents = any_of(
      Tensors, [](const TensorValue &TV) { return TV.Type.isDynamic(); });
  return fail(Why, Twine("operand ") + (Extents ? "extents" : "strides") +
                       " computed at run time are not supported by this "
                       "operation yet (only by matmul, the mma family, "
                       "contract, convolution, the elementwise ops and C "
                       "operators, transpose, broadcast, pad, concat, "
                       "reduce.* and the reshapes; docs/ops.md, \"Run-time "
                       "sizes\")");
}

/// The batch dims of \p X and \p Y (all but the last two) may be equal.
static bool mayEqualBatch(ArrayRef<int64_t> X, ArrayRef<int64_t> Y) {
  for (size_t D = 0; D + 2 < X.size() && D + 2 < Y.size(); ++D)
    if (!mayEqualExtent(X[D], Y[D]))
      return false;
  return true;
}

std::optional<OpResult> ResultInference::infer() {
  if (!checkArity(Op, Why) || !readTensors() || !checkElementClass() ||
      !checkRuntimeExtents())
    return std::nullopt;
  switch (Kind) {
  case OpKind::MatMul:
    return inferMatMul();
  case OpKind::Contract:
    return inferContract();
  case OpKind::UMMA:
  case OpKind::SMMA:
  case OpKind::USMMA:
  case OpKind::SUMMA:
    return inferMMA();
  case OpKind::Convolution:
    return inferConvolution();
  case OpKind::Broadcast:
    return inferBroadcast();
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceAdd:
  case OpKind::ReduceMul:
  case OpKind::ReduceAnd:
  case OpKind::ReduceOr:
  case OpKind::ReduceXor:
    return inferReduce();
  case OpKind::ReshapeBlock:
    return inferReshapeBlock();
  case OpKind::ReshapePermute:
    return inferReshapePermute();
  case OpKind::Transpose:
    return inferTranspose();
  case OpKind::Pad:
    return inferPad();
  case OpKind::Concat:
    return inferConcat();
  case OpKind::ToVector:
    return result(Tensors[0].Type.Elem, {Tensors[0].Type.numElements()});
  case OpKind::ICmp:
  case OpKind::FCmp:
    return inferCompare();
  case OpKind::Trunc:
  case OpKind::ZExt:
  case OpKind::SExt:
  case OpKind::FPTrunc:
  case OpKind::FPExt:
  case OpKind::FPToUI:
  case OpKind::FPToSI:
  case OpKind::UIToFP:
  case OpKind::SIToFP:
  case OpKind::BitCast:
    return inferConversion();
  case OpKind::TypeInfo:
  case OpKind::Load:
  case OpKind::Store:
  case OpKind::ToTensor:
    return failNone(Why, "does not compute a tensor");
  default:
    if (getInstructionOpcode(Kind))
      return inferInstruction();
    // The elementwise ops: same shape, same element type.
    return result(Tensors[0].Type.Elem, Logical[0],
                  Tensors[0].Type.logicalShapeRefs());
  }
}

/// Binary C operators and select: operands of one logical shape and
/// element type (select: the last two; its condition an integer tensor of
/// that shape).
std::optional<OpResult> ResultInference::inferInstruction() {
  if (Kind == OpKind::InsertElement &&
      Op.getArgOperand(1)->getType() != Tensors[0].Type.Elem)
    return failNone(Why, "the value's type " +
                             typeName(Op.getArgOperand(1)->getType()) +
                             " is not the element type " +
                             typeName(Tensors[0].Type.Elem));
  unsigned First = Kind == OpKind::Select ? 1 : 0;
  if (Kind == OpKind::Select && !Tensors[0].Type.Elem->isIntegerTy())
    return failNone(Why, "the condition (" + operandName(Op, 0) +
                             ") must have integer elements, not " +
                             typeName(Tensors[0].Type.Elem));
  bool Dynamic = any_of(
      Tensors, [](const TensorValue &TV) { return TV.Type.isDynamic(); });
  for (unsigned I = 0; I < Tensors.size(); ++I) {
    bool SameShape =
        Logical[I].size() == Logical[First].size() &&
        all_of(seq<size_t>(0, Logical[I].size()), [&](size_t D) {
          return Dynamic ? mayEqualExtent(Logical[I][D], Logical[First][D])
                         : Logical[I][D] == Logical[First][D];
        });
    if (!SameShape)
      return failNone(Why, "operand shapes differ: " + operandName(Op, First) +
                               " is " + shape(First) + ", " +
                               operandName(Op, I) + " is " + shape(I));
    // C operators work on storage positions: with run-time extents they
    // are the logical ones only for one layout (docs/ops.md).
    if (Dynamic && Tensors[I].Type.Layout != Tensors[First].Type.Layout)
      return failNone(Why, "operands whose extents are computed at run time "
                           "have one layout here: " +
                               operandName(Op, First) + " has layout " +
                               formatList(Tensors[First].Type.Layout) + ", " +
                               operandName(Op, I) + " has layout " +
                               formatList(Tensors[I].Type.Layout));
    if (I >= First && Tensors[I].Type.Elem != Tensors[First].Type.Elem)
      return failNone(Why, "operand element types differ: " +
                               typeName(Tensors[First].Type.Elem) + " and " +
                               typeName(Tensors[I].Type.Elem));
  }
  return result(Tensors[First].Type.Elem, Logical[First],
                Tensors[First].Type.logicalShapeRefs());
}

/// icmp/fcmp: a predicate of the comparison's kind; the result has
/// integers as wide as the operands (C: all ones or zero).
std::optional<OpResult> ResultInference::inferCompare() {
  std::optional<OpResult> R = inferInstruction();
  if (!R)
    return std::nullopt;
  const auto *Pred = dyn_cast<ConstantInt>(Op.getArgOperand(2));
  bool IsInt = Kind == OpKind::ICmp;
  if (!Pred || !(IsInt ? CmpInst::isIntPredicate(
                             (CmpInst::Predicate)Pred->getZExtValue())
                       : CmpInst::isFPPredicate(
                             (CmpInst::Predicate)Pred->getZExtValue())))
    return failNone(Why, Twine("the predicate must be a constant ") +
                             (IsInt ? "integer" : "floating-point") +
                             " comparison predicate");
  Type *Res = declaredResultElem();
  unsigned Bits = bitWidth(Tensors[0].Type.Elem);
  if (!Res || !Res->isIntegerTy(Bits))
    return failNone(Why, "the result must have i" + Twine(Bits) +
                             " elements, as wide as the operands");
  return result(Res, R->LogicalShape, R->LogicalRefs);
}

/// The conversions: LLVM's cast rules between the operand's element type
/// and the result's (from its vector type).
std::optional<OpResult> ResultInference::inferConversion() {
  Type *From = Tensors[0].Type.Elem, *To = declaredResultElem();
  if (!To || !isSupportedElementType(To))
    return failNone(Why, "the result element type is not supported");
  unsigned Opcode = *getInstructionOpcode(Kind);
  if (!CastInst::castIsValid((Instruction::CastOps)Opcode, From, To))
    return failNone(Why, "cannot convert " + typeName(From) + " to " +
                             typeName(To) + " with " +
                             getOpDesc(Kind).shortName().str());
  return result(To, Logical[0], Tensors[0].Type.logicalShapeRefs());
}

std::optional<OpResult> ResultInference::inferMatMul() {
  const Dims &A = Logical[0], &B = Logical[1];
  for (unsigned I = 0; I < 2; ++I)
    if (Logical[I].size() < 2)
      return failNone(Why, operandName(Op, I) + " is " + shape(I) +
                               ": rank >= 2 is required");
  if (A.size() != B.size())
    return failNone(Why, "ranks differ: op1 is " + shape(0) + ", op2 is " +
                             shape(1));
  unsigned R = A.size();
  if (!mayEqualBatch(A, B))
    return failNone(Why, "batch dimensions differ: op1 is " + shape(0) +
                             ", op2 is " + shape(1));
  if (!mayEqualExtent(A[R - 1], B[R - 2]))
    return failNone(Why, "inner dimensions differ: op1 is " +
                             matrix(0, 'M', 'K') + ", op2 is " +
                             matrix(1, 'K', 'N'));
  Type *Elem = contractionElem();
  if (!Elem)
    return std::nullopt;
  Dims Out(A.begin(), A.end() - 1);
  Out.push_back(B[R - 1]);
  ExtentRefs Refs;
  if (is_contained(Out, DynamicExtent)) {
    for (unsigned D = 0; D + 1 < R; ++D)
      Refs.push_back(refOf(0, D)); // batch dims and M: op1's
    Refs.push_back(refOf(1, R - 1));
  }
  return result(Elem, Out, Refs);
}

std::optional<OpResult> ResultInference::inferContract() {
  std::optional<ContractAxes> Axes = getContractAxes(Op, Why);
  if (!Axes)
    return std::nullopt;
  Type *Elem = contractionElem();
  if (!Elem)
    return std::nullopt;
  // tensordot: op1's free dims, then op2's.
  Dims Out;
  ExtentRefs Refs;
  for (unsigned Side = 0; Side < 2; ++Side)
    for (int64_t D :
         getFreeAxes(Logical[Side].size(), Side == 0 ? Axes->Op1 : Axes->Op2)) {
      Out.push_back(Logical[Side][D]);
      Refs.push_back(refOf(Side, D));
    }
  // A full contraction is a one-element tensor: IR has no rank-0 typeinfo.
  if (Out.empty())
    Out.push_back(1), Refs.push_back(ExtentRef());
  if (!is_contained(Out, DynamicExtent))
    Refs.clear();
  return result(Elem, Out, Refs);
}

std::optional<OpResult> ResultInference::inferMMA() {
  const Dims &Acc = Logical[0], &A = Logical[1], &B = Logical[2];
  for (unsigned I = 0; I < 3; ++I)
    if (Logical[I].size() < 2)
      return failNone(Why, operandName(Op, I) + " is " + shape(I) +
                               ": rank >= 2 is required");
  if (A.size() != Acc.size() || B.size() != Acc.size())
    return failNone(Why, "ranks differ: acc is " + shape(0) + ", op1 is " +
                             shape(1) + ", op2 is " + shape(2));
  unsigned R = Acc.size();
  if (!mayEqualBatch(A, B) || !mayEqualBatch(A, Acc))
    return failNone(Why, "batch dimensions differ: acc is " + shape(0) +
                             ", op1 is " + shape(1) + ", op2 is " + shape(2));
  if (!mayEqualExtent(A[R - 1], B[R - 2]))
    return failNone(Why, "inner dimensions differ: op1 is " +
                             matrix(1, 'M', 'K') + ", op2 is " +
                             matrix(2, 'K', 'N'));
  if (!mayEqualExtent(Acc[R - 2], A[R - 2]) ||
      !mayEqualExtent(Acc[R - 1], B[R - 1]))
    return failNone(Why, "accumulator is " + shape(0) + ", but op1 x op2 is " +
                             formatShape({A[R - 2], B[R - 1]}) + " (M=" +
                             formatShape(A[R - 2]) + ", N=" +
                             formatShape(B[R - 1]) + ")");
  Type *AccElem = Tensors[0].Type.Elem;
  for (unsigned I = 1; I < 3; ++I)
    if (bitWidth(Tensors[I].Type.Elem) > bitWidth(AccElem))
      return failNone(Why, operandName(Op, I) + " element type " +
                               typeName(Tensors[I].Type.Elem) +
                               " is wider than the accumulator's " +
                               typeName(AccElem));
  ExtentRefs Refs;
  if (is_contained(Acc, DynamicExtent))
    for (unsigned D = 0; D < R; ++D)
      Refs.push_back(refOf(0, D));
  return result(AccElem, Acc, Refs);
}

std::optional<OpResult> ResultInference::inferConvolution() {
  const Dims &In = Logical[0], &K = Logical[1];
  if (In.size() < 3)
    return failNone(Why, "input is " + shape(0) +
                             ": rank >= 3 is required ([N, C, spatial...])");
  if (K.size() != In.size())
    return failNone(Why, "ranks differ: input is " + shape(0) + ", kernel is " +
                             shape(1));
  if (!mayEqualExtent(In[1], K[1]))
    return failNone(Why, "channels differ: input " + shape(0) + " has " +
                             Twine(In[1]) + ", kernel " + shape(1) + " has " +
                             Twine(K[1]));
  std::optional<ConvolutionParams> P = getConvolutionParams(Op, Why);
  if (!P)
    return std::nullopt;
  Type *Elem = contractionElem();
  if (!Elem)
    return std::nullopt;
  Dims Out = {In[0], K[0]};
  for (unsigned D = 0; D + 2 < In.size(); ++D) {
    if (In[D + 2] == DynamicExtent || K[D + 2] == DynamicExtent) {
      Out.push_back(DynamicExtent); // checked at run time
      continue;
    }
    // Dilation d spreads n taps over (n - 1) * d + 1 positions.
    int64_t Input = (In[D + 2] - 1) * P->InputDilations[D] + 1;
    int64_t Window = (K[D + 2] - 1) * P->KernelDilations[D] + 1;
    if (Window > Input)
      return failNone(Why, "kernel window " + Twine(Window) +
                               " exceeds input extent " + Twine(Input) +
                               " in spatial dimension " + Twine(D) +
                               " (after dilation)");
    Out.push_back((Input - Window) / P->Strides[D] + 1);
  }
  if (!is_contained(Out, DynamicExtent))
    return result(Elem, Out);
  ExtentRefs Refs = computedRefs(Out);
  Refs[0] = refOf(0, 0), Refs[1] = refOf(1, 0); // N, O
  return result(Elem, Out, Refs);
}

std::optional<OpResult> ResultInference::inferBroadcast() {
  Type *Elem = Tensors[0].Type.Elem;
  if (Op.arg_size() == 2) {
    // broadcast(T, scalar) fills a tensor of T's shape.
    Type *ValueTy = Op.getArgOperand(1)->getType();
    if (ValueTy != Elem)
      return failNone(Why, "value type " + typeName(ValueTy) +
                               " differs from the input's element type " +
                               typeName(Elem));
    return result(Elem, Logical[0], Tensors[0].Type.logicalShapeRefs());
  }
  std::optional<TensorValue> Res = resultTypeInfo(/*Required=*/true);
  if (!Res)
    return std::nullopt;
  Dims To = Res->Type.logicalShape();
  const Dims &From = Logical[0];
  if (From.size() > To.size())
    return failNone(Why, "cannot broadcast " + shape(0) + " to " +
                             formatShape(To) +
                             ": the input has more "
                             "dimensions");
  // numpy: align trailing dims; each input extent equals the target's or 1.
  unsigned Offset = To.size() - From.size();
  // A run-time extent never broadcasts: it must equal the target's
  // (checked at run time); write 1 to broadcast a dim.
  for (unsigned I = 0; I < From.size(); ++I)
    if (From[I] != 1 && !mayEqualExtent(From[I], To[Offset + I]))
      return failNone(Why, "cannot broadcast " + shape(0) + " to " +
                               formatShape(To) + ": extent " + Twine(From[I]) +
                               " of dimension " + Twine(I) +
                               " is neither 1 nor " + Twine(To[Offset + I]));
  return result(Elem, To, Res->Type.logicalShapeRefs());
}

/// What \p V holds, looked through the memory -O0 code keeps values in (a
/// load of a local stored once).
static const Value *getStoredSource(const Value *V) {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const auto *LI = dyn_cast<LoadInst>(V);
    const auto *AI = LI && LI->isSimple()
                         ? dyn_cast<AllocaInst>(LI->getPointerOperand())
                         : nullptr;
    if (!AI) // a volatile local may change behind the program's back
      return V;
    const StoreInst *Only = nullptr;
    for (const User *U : AI->users()) {
      const auto *SI = dyn_cast<StoreInst>(U);
      if (SI && SI->getPointerOperand() == AI && !Only)
        Only = SI;
      else if (!isa<LoadInst>(U))
        return V;
    }
    if (!Only || Only->getValueOperand()->getType() != V->getType())
      return V;
    V = Only->getValueOperand();
  }
  return V;
}

/// Whether \p A and \p B are certainly the same run-time value.
static bool isSameValue(const Value *A, const Value *B) {
  A = getStoredSource(A), B = getStoredSource(B);
  if (A == B)
    return true;
  const auto *CA = dyn_cast<CastInst>(A), *CB = dyn_cast<CastInst>(B);
  return CA && CB && CA->getOpcode() == CB->getOpcode() &&
         CA->getType() == CB->getType() &&
         isSameValue(CA->getOperand(0), CB->getOperand(0));
}

/// The scalar lane \p Lane of the vector \p Vec was built from, if the
/// insertelement chain (or constant) that makes it shows it.
static const Value *findLaneSource(const Value *Vec, unsigned Lane) {
  for (unsigned Depth = 0; Vec && Depth < 64; ++Depth) {
    Vec = getStoredSource(Vec);
    if (const auto *C = dyn_cast<Constant>(Vec))
      return C->getAggregateElement(Lane);
    const auto *IE = dyn_cast<InsertElementInst>(Vec);
    const auto *Idx = IE ? dyn_cast<ConstantInt>(IE->getOperand(2)) : nullptr;
    if (!Idx)
      return nullptr;
    if (Idx->getZExtValue() != Lane) {
      Vec = IE->getOperand(0);
      continue;
    }
    // A lane copied from another shape vector (a result's extents, homed
    // from its operand's): that vector's lane.
    const Value *Scalar = getStoredSource(IE->getOperand(1));
    const auto *EE = dyn_cast<ExtractElementInst>(Scalar);
    const auto *From =
        EE ? dyn_cast<ConstantInt>(EE->getIndexOperand()) : nullptr;
    if (!From)
      return Scalar;
    Vec = EE->getVectorOperand();
    Lane = From->getZExtValue();
  }
  return nullptr;
}

std::optional<OpResult> ResultInference::inferReduce() {
  std::optional<ReduceWindow> W = getReduceWindow(Op, Why);
  if (!W)
    return std::nullopt;
  ExtentRefs InRefs = Tensors[0].Type.logicalShapeRefs();
  Dims Out;
  for (unsigned I = 0; I < Logical[0].size(); ++I) {
    int64_t In = Logical[0][I], Win = W->Window[I], Stride = W->Strides[I];
    bool Known =
        In != DynamicExtent && Win != DynamicExtent && Stride != DynamicExtent;
    // A window as wide as a run-time extent (TLX_DIMS(1, n) over n columns,
    // the same variable) leaves one element, whatever n is: softmax's and
    // a norm's row reductions keep a known shape to broadcast against.
    const Value *InLane =
        In == DynamicExtent && Win == DynamicExtent && InRefs[I].Vec
            ? findLaneSource(InRefs[I].Vec, InRefs[I].Lane)
            : nullptr;
    const Value *WinLane =
        InLane ? findLaneSource(Op.getArgOperand(1), I) : nullptr;
    if (WinLane && isSameValue(InLane, WinLane))
      Out.push_back(1);
    else
      Out.push_back(Known ? (In - Win) / Stride + 1 : DynamicExtent);
  }
  return result(Tensors[0].Type.Elem, Out, computedRefs(Out));
}

/// A reshape keeps every element: the result typeinfo fixes the new shape.
/// (With run-time extents the counts are compared at run time.)
static bool checkSameCount(ArrayRef<int64_t> In, ArrayRef<int64_t> Out,
                           std::string &Why) {
  if (is_contained(In, DynamicExtent) || is_contained(Out, DynamicExtent) ||
      product(In) == product(Out))
    return true;
  return fail(Why, "result shape " + formatShape(Out) + " holds " +
                       Twine(product(Out)) + " elements, but the input " +
                       formatShape(In) + " holds " + Twine(product(In)));
}

std::optional<OpResult> ResultInference::inferReshapeBlock() {
  std::optional<Dims> Blocks = getReshapeBlocks(Op, Why);
  if (!Blocks || !resultTypeInfo(/*Required=*/true))
    return std::nullopt;
  // oneDNN blocking: dim I becomes Extent / Block in place, and each block
  // larger than 1 appends an innermost dim, in dim order (NCHW with blocks
  // <1,16,1,1> is nChw16c).
  Dims Out;
  for (unsigned I = 0; I < Logical[0].size(); ++I)
    Out.push_back(Logical[0][I] == DynamicExtent
                      ? DynamicExtent
                      : Logical[0][I] / (*Blocks)[I]);
  for (int64_t B : *Blocks)
    if (B > 1)
      Out.push_back(B);
  return result(Tensors[0].Type.Elem, Out, computedRefs(Out));
}

std::optional<OpResult> ResultInference::inferReshapePermute() {
  std::optional<TensorValue> Res = resultTypeInfo(/*Required=*/true);
  if (!Res)
    return std::nullopt;
  Dims Out = Res->Type.logicalShape();
  if (!checkSameCount(Logical[0], Out, Why))
    return std::nullopt;
  return result(Tensors[0].Type.Elem, Out, Res->Type.logicalShapeRefs());
}

std::optional<OpResult> ResultInference::inferTranspose() {
  Dims Out = Logical[0];
  ExtentRefs Refs = Tensors[0].Type.logicalShapeRefs();
  if (isLogicalTranspose(Op)) {
    if (Out.size() < 2)
      return failNone(Why, "input is " + shape(0) +
                               ": one-operand transpose needs rank >= 2");
    std::swap(Out[Out.size() - 2], Out[Out.size() - 1]);
    if (!Refs.empty())
      std::swap(Refs[Out.size() - 2], Refs[Out.size() - 1]);
  } else if (!getTransposePermutation(Op, Why)) {
    return std::nullopt;
  }
  return result(Tensors[0].Type.Elem, Out, Refs);
}

std::optional<OpResult> ResultInference::inferPad() {
  std::optional<PadAmounts> P = getPadAmounts(Op, Why);
  if (!P)
    return std::nullopt;
  Dims Out = Logical[0];
  for (unsigned I = 0; I < Out.size(); ++I)
    Out[I] = Out[I] == DynamicExtent || P->Low[I] == DynamicExtent ||
                     P->High[I] == DynamicExtent
                 ? DynamicExtent
                 : Out[I] + P->Low[I] + P->High[I];
  return result(Tensors[0].Type.Elem, Out, computedRefs(Out));
}

std::optional<OpResult> ResultInference::inferConcat() {
  if (Tensors[0].Type.Elem != Tensors[1].Type.Elem)
    return failNone(Why, "element types differ: op1 is " +
                             typeName(Tensors[0].Type.Elem) + ", op2 is " +
                             typeName(Tensors[1].Type.Elem));
  std::optional<unsigned> Axis = getConcatAxis(Op, Why);
  if (!Axis)
    return std::nullopt;
  const Dims &A = Logical[0], &B = Logical[1];
  if (A.size() != B.size())
    return failNone(Why, "ranks differ: op1 is " + shape(0) + ", op2 is " +
                             shape(1));
  for (unsigned I = 0; I < A.size(); ++I)
    if (I != *Axis && !mayEqualExtent(A[I], B[I]))
      return failNone(Why, "dimension " + Twine(I) + " differs: op1 is " +
                               shape(0) + ", op2 is " + shape(1) +
                               " (only axis " + Twine(*Axis) + " may differ)");
  Dims Out = A;
  Out[*Axis] = A[*Axis] == DynamicExtent || B[*Axis] == DynamicExtent
                   ? DynamicExtent
                   : A[*Axis] + B[*Axis];
  // A run-time extent off the axis is op1's (a run-time check compares
  // op2's with it).
  for (unsigned I = 0; I < A.size(); ++I)
    if (I != *Axis && Out[I] == DynamicExtent && B[I] != DynamicExtent)
      Out[I] = B[I];
  ExtentRefs Refs = computedRefs(Out);
  for (unsigned I = 0; I < A.size(); ++I)
    if (I != *Axis && Out[I] == DynamicExtent)
      Refs[I] = refOf(0, I);
  return result(Tensors[0].Type.Elem, Out, Refs);
}

std::optional<OpResult> inferResult(const CallBase &Op, std::string &Why) {
  std::optional<OpKind> Kind = getOpKind(Op);
  if (!Kind)
    return failNone(Why, "not a TLX operation");
  if (getOpDesc(*Kind).Result != ResultKind::Data)
    return failNone(Why, "does not compute a tensor");
  std::optional<OpResult> Result = ResultInference(Op, *Kind, Why).infer();
  if (Result && Result->LogicalShape.size() > MaxRank)
    return failNone(Why, "result rank " + Twine(Result->LogicalShape.size()) +
                             " exceeds the maximum of " + Twine(MaxRank));
  return Result;
}

Value *emitShapeVector(IRBuilderBase &B, const TensorType &Ty) {
  LLVMContext &Ctx = B.getContext();
  if (!Ty.isDynamic())
    return getI32Vector(Ctx, Ty.Shape);
  Dims Known = Ty.Shape;
  for (int64_t &D : Known)
    D = D == DynamicExtent ? 0 : D;
  Value *Vec = getI32Vector(Ctx, Known);
  for (unsigned I = 0; I < Ty.rank(); ++I)
    if (Ty.Shape[I] == DynamicExtent && Ty.ShapeRefs[I].Vec)
      Vec = B.CreateInsertElement(Vec, emitExtentI32(B, Ty, I), uint64_t(I),
                                  "tlx.shape");
  return Vec;
}

CallInst *emitTypeInfo(IRBuilderBase &B, Value *Data, const TensorType &Ty) {
  LLVMContext &Ctx = B.getContext();
  return createOpCall(B, OpKind::TypeInfo, Type::getTokenTy(Ctx),
                      {Data, emitShapeVector(B, Ty),
                       getI32Vector(Ctx, Ty.Layout),
                       getI32Vector(Ctx, Ty.Padding)});
}

CallInst *createTypeInfo(IRBuilderBase &B, Value *Data, const TensorType &Ty) {
  auto *Op = dyn_cast<CallBase>(Data);
  std::optional<OpKind> Kind = Op ? getOpKind(*Op) : std::nullopt;
  if (Kind && getOpDesc(*Kind).Result == ResultKind::Data &&
      !getResultTypeInfo(*Op)) {
    std::string Why;
    std::optional<TensorType> Natural = getResultTensorType(*Op, Why);
    if (Natural && (Natural->Shape != Ty.Shape ||
                    Natural->Layout != Ty.Layout ||
                    Natural->Padding != Ty.Padding)) {
      IRBuilder<> After(Op->getNextNode());
      emitTypeInfo(After, Data, *Natural)->setDebugLoc(Op->getDebugLoc());
    }
  }
  return emitTypeInfo(B, Data, Ty);
}

CallInst *createFromLogicalOrder(IRBuilderBase &B, Value *RowMajor, Type *VecTy,
                                 const TensorType &Ty) {
  LLVMContext &Ctx = B.getContext();
  Value *Data = RowMajor;
  if (!Ty.hasIdentityLayout())
    Data = createOpCall(B, OpKind::Transpose, VecTy,
                        {RowMajor, getI32Vector(Ctx, Ty.Layout)});
  else
    Data = cast<CallBase>(RowMajor)->getArgOperand(0);
  return emitTypeInfo(B, Data, Ty);
}

Value *emitLaneI32(IRBuilderBase &B, const Value *V, unsigned Lane) {
  std::optional<Dims> Known = getKnownLanes(V);
  if (Known && Lane < Known->size() && (*Known)[Lane] != DynamicExtent)
    return B.getInt32((*Known)[Lane]);
  return B.CreateExtractElement(const_cast<Value *>(V), uint64_t(Lane),
                                "tlx.extent");
}

Value *emitExtentI32(IRBuilderBase &B, const TensorType &Ty, unsigned Dim) {
  if (Ty.Shape[Dim] != DynamicExtent)
    return B.getInt32(Ty.Shape[Dim]);
  const ExtentRef &R = Ty.ShapeRefs[Dim];
  assert(R.Vec && "a run-time extent with no home");
  return B.CreateExtractElement(const_cast<Value *>(R.Vec), uint64_t(R.Lane),
                                "tlx.extent");
}

/// Logical dim \p Dim of \p Ty's extents as an i32.
static Value *emitLogicalExtentI32(IRBuilderBase &B, const TensorType &Ty,
                                   unsigned Dim) {
  for (unsigned S = 0; S < Ty.rank(); ++S)
    if (Ty.Layout[S] == (int64_t)Dim)
      return emitExtentI32(B, Ty, S);
  llvm_unreachable("logical dim out of range");
}

Value *emitResultExtent(IRBuilderBase &B, const CallBase &Op, unsigned Dim) {
  std::string Why;
  auto Operand = [&](unsigned I, unsigned D) {
    return emitLogicalExtentI32(B, getOperandTensor(Op, I, Why)->Type, D);
  };
  OpKind Kind = *getOpKind(Op);
  switch (Kind) {
  case OpKind::Contract: {
    // op1's free dims, then op2's
    ContractAxes Axes = *getContractAxes(Op, Why);
    Dims Free =
        getFreeAxes(getOperandTensor(Op, 0, Why)->Type.rank(), Axes.Op1);
    if (Dim < Free.size())
      return Operand(0, Free[Dim]);
    Dims FreeB =
        getFreeAxes(getOperandTensor(Op, 1, Why)->Type.rank(), Axes.Op2);
    if (Dim - Free.size() < FreeB.size())
      return Operand(1, FreeB[Dim - Free.size()]);
    return B.getInt32(1); // a full contraction: [1]
  }
  case OpKind::Convolution: {
    if (Dim < 2) // N, O
      return Operand(Dim, 0);
    ConvolutionParams P = *getConvolutionParams(Op, Why);
    unsigned S = Dim - 2;
    // ((in - 1) * idil + 1 - ((k - 1) * kdil + 1)) / stride + 1
    auto Spread = [&](unsigned I, int64_t Dil) {
      return B.CreateMul(B.CreateSub(Operand(I, Dim), B.getInt32(1)),
                         B.getInt32(Dil));
    };
    Value *Span = B.CreateSub(Spread(0, P.InputDilations[S]),
                              Spread(1, P.KernelDilations[S]));
    return B.CreateAdd(B.CreateSDiv(Span, B.getInt32(P.Strides[S])),
                       B.getInt32(1), "tlx.extent");
  }
  case OpKind::Transpose: {
    unsigned Rank = getOperandTensor(Op, 0, Why)->Type.rank();
    if (isLogicalTranspose(Op) && Dim + 2 >= Rank)
      Dim = Dim == Rank - 1 ? Rank - 2 : Rank - 1;
    return Operand(0, Dim);
  }
  case OpKind::Pad:
    return B.CreateAdd(Operand(0, Dim),
                       B.CreateAdd(emitLaneI32(B, Op.getArgOperand(1), Dim),
                                   emitLaneI32(B, Op.getArgOperand(2), Dim)),
                       "tlx.extent");
  case OpKind::Concat: {
    Value *First = Operand(0, Dim);
    if (Dim != *getConcatAxis(Op, Why))
      return First;
    return B.CreateAdd(First, Operand(1, Dim), "tlx.extent");
  }
  case OpKind::Broadcast:
    if (Op.arg_size() == 2)
      return Operand(0, Dim);
    return emitLogicalExtentI32(B, *getResultTensorType(Op, Why), Dim);
  case OpKind::ReshapePermute:
    return emitLogicalExtentI32(B, *getResultTensorType(Op, Why), Dim);
  case OpKind::ReshapeBlock: {
    // dim I / block I in place, then one dim per block > 1
    Dims Blocks = *getReshapeBlocks(Op, Why);
    if (Dim < Blocks.size())
      return B.CreateSDiv(Operand(0, Dim), B.getInt32(Blocks[Dim]),
                          "tlx.extent");
    unsigned Next = Blocks.size();
    for (int64_t Block : Blocks)
      if (Block > 1 && Next++ == Dim)
        return B.getInt32(Block);
    llvm_unreachable("reshape.block result dim out of range");
  }
  case OpKind::MatMul: {
    unsigned Rank = getOperandTensor(Op, 0, Why)->Type.rank();
    return Dim + 1 == Rank ? Operand(1, Dim) : Operand(0, Dim);
  }
  default:
    if (getMMASignedness(Kind))
      return Operand(0, Dim); // the accumulator's
    if (isUnaryElementwise(Kind) || isCOperatorOp(Kind))
      return Operand(0, Dim); // C operators: all operands' (checked)
    assert(getReduceWindow(Op, Why) && "not an op with run-time extents");
    // (in - window) / stride + 1. This may run before the checks that a
    // stride is >= 1 (a result's shape is named where the op is): a
    // stride < 1 divides by 1 here rather than trap, and fails its check.
    Value *Span =
        B.CreateSub(Operand(0, Dim), emitLaneI32(B, Op.getArgOperand(1), Dim));
    Value *Stride = B.CreateBinaryIntrinsic(
        Intrinsic::smax, emitLaneI32(B, Op.getArgOperand(2), Dim),
        B.getInt32(1));
    return B.CreateAdd(B.CreateSDiv(Span, Stride), B.getInt32(1), "tlx.extent");
  }
}

/// Gives the run-time extents of \p Ty (the inferred result type of
/// \p Op) that \p Op computes a home: a shape vector emitted at \p B.
static void placeComputedExtents(IRBuilderBase &B, const CallBase &Op,
                                 TensorType &Ty) {
  if (none_of(Ty.ShapeRefs, [](const ExtentRef &R) { return !R.Vec; }) ||
      !Ty.isDynamic())
    return;
  Value *Vec = emitShapeVector(B, Ty);
  for (unsigned S = 0; S < Ty.rank(); ++S)
    if (Ty.Shape[S] == DynamicExtent && !Ty.ShapeRefs[S].Vec)
      Vec = B.CreateInsertElement(Vec, emitResultExtent(B, Op, Ty.Layout[S]),
                                  uint64_t(S), "tlx.shape");
  for (unsigned S = 0; S < Ty.rank(); ++S)
    if (Ty.Shape[S] == DynamicExtent)
      Ty.ShapeRefs[S] = {Vec, S};
}

std::optional<TensorType> inferUntypedResult(IRBuilderBase &B, OpKind Kind,
                                             ArrayRef<Value *> Args,
                                             std::string &Why) {
  // The first operand's element type; a product's is the wider of its two
  // operands' (bf16 weights x f32 activations give f32), as the long form
  // may declare.
  bool Product = Kind == OpKind::MatMul || Kind == OpKind::Contract ||
                 Kind == OpKind::Convolution;
  Type *Elem = nullptr;
  for (Value *A : Args)
    if (std::optional<TensorValue> TV =
            A->getType()->isTokenTy() ? getTensorValue(A) : std::nullopt) {
      if (!Elem || (Product && widensTo(Elem, TV->Type.Elem)))
        Elem = TV->Type.Elem;
      if (!Product)
        break;
    }
  if (!Elem)
    return failNone(Why, "its operands have no tensor type");
  CallInst *Probe =
      createOpCall(B, Kind, FixedVectorType::get(Elem, 1), Args);
  std::optional<TensorType> Ty = getResultTensorType(*Probe, Why);
  if (Ty)
    placeComputedExtents(B, *Probe, *Ty);
  Probe->eraseFromParent();
  return Ty;
}

static std::optional<TensorType> inferResultTensorType(const CallBase &Op,
                                                       std::string &Why);

std::optional<TensorType> getResultTensorType(const CallBase &Op,
                                              std::string &Why) {
  if (const CallBase *TI = getResultTypeInfo(Op)) {
    std::string Reason;
    std::optional<TensorValue> TV = getTensorValue(TI, &Reason);
    if (!TV || !checkTensorValue(*TV, Reason))
      return failNone(Why, "result typeinfo: " + Reason);
    return TV->Type;
  }
  return inferResultTensorType(Op, Why);
}

std::optional<TensorType>
inferHomedResultType(IRBuilderBase &B, const CallBase &Op, std::string &Why) {
  std::optional<TensorType> Ty = inferResultTensorType(Op, Why);
  if (Ty)
    placeComputedExtents(B, Op, *Ty);
  return Ty;
}

std::optional<TensorType> inferHomedResultTypeAs(IRBuilderBase &B,
                                                 const CallBase &Op,
                                                 const TensorType &Named,
                                                 std::string &Why) {
  std::optional<TensorType> Ty = inferHomedResultType(B, Op, Why);
  if (!Ty)
    return std::nullopt;
  if (Ty->Elem != Named.Elem || Ty->rank() != Named.rank()) {
    Why = "the result is not the tensor its typeinfo names";
    return std::nullopt;
  }
  Dims Logical = Ty->logicalShape();
  ExtentRefs Refs = Ty->logicalShapeRefs();
  TensorType As = *Ty;
  As.Layout = Named.Layout;
  As.Padding = Named.Padding;
  for (unsigned I = 0; I < Named.rank(); ++I) {
    As.Shape[I] = Logical[Named.Layout[I]];
    if (!Refs.empty())
      As.ShapeRefs[I] = Refs[Named.Layout[I]];
  }
  return As;
}

/// The type TLX infers for \p Op's result from its operands alone.
static std::optional<TensorType> inferResultTensorType(const CallBase &Op,
                                                       std::string &Why) {
  std::optional<OpResult> R = inferResult(Op, Why);
  if (!R)
    return std::nullopt;
  TensorType Ty;
  Ty.Elem = R->Elem;
  unsigned Rank = R->LogicalShape.size();
  if (getOpKind(Op) == OpKind::Transpose && !isLogicalTranspose(Op)) {
    std::optional<Dims> Perm = getTransposePermutation(Op, Why);
    std::optional<TensorValue> In = getOperandTensor(Op, 0, Why);
    if (!Perm || !In)
      return std::nullopt;
    // Storage dim I holds logical dim Perm[I], with that dim's padding
    // (RFC: 16x5x3 padded <3,2,1> by <2,0,1> is 3x16x5 padded <1,3,2>).
    Dims LogicalPadding(Rank, 0);
    for (unsigned I = 0; I < Rank; ++I)
      LogicalPadding[In->Type.Layout[I]] = In->Type.Padding[I];
    Ty.Layout = *Perm;
    for (int64_t L : *Perm) {
      Ty.Shape.push_back(R->LogicalShape[L]);
      Ty.Padding.push_back(LogicalPadding[L]);
      if (!R->LogicalRefs.empty())
        Ty.ShapeRefs.push_back(R->LogicalRefs[L]);
    }
    return Ty;
  }
  Ty.Shape = R->LogicalShape;
  Ty.ShapeRefs = R->LogicalRefs;
  Ty.Padding.assign(Rank, 0);
  for (unsigned I = 0; I < Rank; ++I)
    Ty.Layout.push_back(I);
  return Ty;
}

} // namespace tlx
