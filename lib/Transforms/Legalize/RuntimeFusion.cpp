//===- RuntimeFusion.cpp - Fused ops with run-time extents ----------------===//

#include "Transforms/Legalize/RuntimeFusion.h"

#include "IR/ShapeInference.h"
#include "IR/TLXOps.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace tlx {
namespace {

/// The extents and checks of one op whose result has run-time extents.
class OpPreparer {
public:
  OpPreparer(IRBuilderBase &B, const CallBase &Op, const CallBase &TI)
      : B(B), Op(Op), TI(TI), Kind(*getOpKind(Op)), Check(B, Op) {}

  RuntimeTokenExtents run();

private:
  Value *toI64(Value *V) { return B.CreateSExt(V, B.getInt64Ty()); }
  /// \p X, then \p Y: a message's arguments.
  SmallVector<Value *, 8> concat(ArrayRef<Value *> X, ArrayRef<Value *> Y) {
    SmallVector<Value *, 8> All(X.begin(), X.end());
    All.append(Y.begin(), Y.end());
    return All;
  }
  /// require() that the run-time entries of \p List are >= \p Min.
  void requireAtLeast(ArrayRef<Value *> List, int64_t Min, StringRef Name);
  void checkPad();
  void checkConcat();
  void checkBroadcast();
  void checkReduce();
  void checkReshapeBlock();
  void checkReshapePermute();
  void checkOperatorOperands();
  void checkResultTypeInfo();

  IRBuilderBase &B;
  const CallBase &Op, &TI;
  OpKind Kind;
  RuntimeChecker Check;
  RuntimeTokenExtents X;
};

void OpPreparer::requireAtLeast(ArrayRef<Value *> List, int64_t Min,
                                StringRef Name) {
  for (unsigned D = 0; D < List.size(); ++D)
    if (!isa<ConstantInt>(List[D]))
      Check.require(B.CreateICmpSGE(List[D], B.getInt64(Min)),
                    Name + " entry %lld of dimension " + Twine(D) +
                        " must be >= " + Twine(Min),
                    {List[D]});
}

void OpPreparer::checkPad() {
  requireAtLeast(X.Param1, 0, "low");
  requireAtLeast(X.Param2, 0, "high");
}

void OpPreparer::checkConcat() {
  std::string Why;
  unsigned Axis = *getConcatAxis(Op, Why);
  ArrayRef<Value *> A = X.Operands[0], Bv = X.Operands[1];
  std::string Shape = shapeFormat(A.size());
  for (unsigned D = 0; D < A.size(); ++D)
    if (D != Axis)
      Check.requireEqual(A[D], Bv[D],
                         "dimension " + Twine(D) +
                             " differs at run time: op1 is " + Shape +
                             ", op2 is " + Shape + " (only axis " +
                             Twine(Axis) + " may differ)",
                         concat(A, Bv));
}

void OpPreparer::checkBroadcast() {
  if (Op.arg_size() == 2)
    return; // the fill form takes its operand's shape
  ArrayRef<Value *> In = X.Operands[0];
  SmallVector<Value *, 4> Out =
      emitLogicalExtents(B, getTensorValue(&TI)->Type);
  unsigned Lead = Out.size() - In.size();
  for (unsigned I = 0; I < In.size(); ++I) {
    auto *C = dyn_cast<ConstantInt>(In[I]);
    if (C && C->isOne())
      continue; // broadcast
    Check.requireEqual(In[I], Out[Lead + I],
                       "cannot broadcast " + shapeFormat(In.size()) + " to " +
                           shapeFormat(Out.size()) +
                           " at run time: extent %lld of dimension " +
                           Twine(I) +
                           " is not %lld (only a constant 1 "
                           "broadcasts)",
                       concat(concat(In, Out), {In[I], Out[Lead + I]}));
  }
}

void OpPreparer::checkReduce() {
  requireAtLeast(X.Param1, 1, "window");
  requireAtLeast(X.Param2, 1, "strides");
  ArrayRef<Value *> In = X.Operands[0];
  for (unsigned D = 0; D < In.size(); ++D)
    if (!isa<ConstantInt>(In[D]) || !isa<ConstantInt>(X.Param1[D]))
      Check.require(B.CreateICmpSLE(X.Param1[D], In[D]),
                    "window %lld exceeds extent %lld of dimension " + Twine(D) +
                        " at run time",
                    {X.Param1[D], In[D]});
}

void OpPreparer::checkReshapeBlock() {
  std::string Why;
  Dims Blocks = *getReshapeBlocks(Op, Why);
  ArrayRef<Value *> In = X.Operands[0];
  for (unsigned D = 0; D < In.size(); ++D)
    if (Blocks[D] > 1 && !isa<ConstantInt>(In[D]))
      Check.require(B.CreateICmpEQ(B.CreateSRem(In[D], B.getInt64(Blocks[D])),
                                   B.getInt64(0)),
                    "block " + Twine(Blocks[D]) +
                        " does not divide extent %lld of dimension " +
                        Twine(D) + " at run time",
                    {In[D]});
}

void OpPreparer::checkReshapePermute() {
  ArrayRef<Value *> In = X.Operands[0], Out = X.Result;
  Value *InCount = B.getInt64(1), *OutCount = B.getInt64(1);
  for (Value *E : In)
    InCount = B.CreateMul(InCount, E);
  for (Value *E : Out)
    OutCount = B.CreateMul(OutCount, E);
  Check.requireEqual(InCount, OutCount,
                     "the result " + shapeFormat(Out.size()) +
                         " holds %lld elements at run time, but the input " +
                         shapeFormat(In.size()) + " holds %lld",
                     concat(concat(Out, {OutCount}), concat(In, {InCount})));
}

/// A C operator's operands: one shape (a run-time extent never
/// broadcasts; a scalar operand is a fill of the other's shape).
void OpPreparer::checkOperatorOperands() {
  ArrayRef<Value *> First = X.Operands[0];
  std::string Shape = shapeFormat(First.size());
  for (unsigned I = 1; I < X.Operands.size(); ++I) {
    ArrayRef<Value *> Other = X.Operands[I];
    Value *Same = emitSameExtents(B, First, Other);
    if (isa<Constant>(Same))
      continue;
    Check.require(Same,
                  "operand shapes differ at run time: op1 is " + Shape +
                      ", op" + Twine(I + 1) + " is " + Shape,
                  concat(First, Other));
  }
}

/// The result's typeinfo (the program's, or the one the short form
/// inferred) against the extents the op computes from its operands.
void OpPreparer::checkResultTypeInfo() {
  SmallVector<Value *, 4> Declared =
      emitLogicalExtents(B, getTensorValue(&TI)->Type);
  SmallVector<Value *, 4> Computed;
  for (unsigned D = 0; D < Declared.size(); ++D)
    Computed.push_back(toI64(emitResultExtent(B, Op, D)));
  Value *Same = emitSameExtents(B, Computed, Declared);
  if (isa<Constant>(Same))
    return;
  std::string Shape = shapeFormat(Declared.size());
  Check.require(Same,
                "the result is " + Shape +
                    " at run time, but its typeinfo "
                    "says " +
                    Shape,
                concat(Computed, Declared));
}

RuntimeTokenExtents OpPreparer::run() {
  for (const Use &Arg : Op.args())
    if (Arg->getType()->isTokenTy())
      X.Operands.push_back(
          emitLogicalExtents(B, getTensorValue(Arg.get())->Type));
  bool Reduce = isReduce(Kind);
  if (Kind == OpKind::Pad || Reduce)
    for (unsigned D = 0; D < X.Operands[0].size(); ++D) {
      X.Param1.push_back(toI64(emitLaneI32(B, Op.getArgOperand(1), D)));
      X.Param2.push_back(toI64(emitLaneI32(B, Op.getArgOperand(2), D)));
    }
  if (Kind == OpKind::ReshapePermute)
    X.Result = emitLogicalExtents(B, getTensorValue(&TI)->Type);
  if (Kind == OpKind::Pad)
    checkPad();
  else if (Kind == OpKind::ReshapeBlock)
    checkReshapeBlock();
  else if (Kind == OpKind::ReshapePermute)
    checkReshapePermute();
  else if (Kind == OpKind::Concat)
    checkConcat();
  else if (Kind == OpKind::Broadcast)
    checkBroadcast();
  else if (Reduce)
    checkReduce();
  else if (isCOperatorOp(Kind))
    checkOperatorOperands();
  checkResultTypeInfo();
  return std::move(X);
}

} // namespace

RuntimeTokens prepareRuntimeTree(IRBuilderBase &B, const FusedTree &Tree) {
  RuntimeTokens Tokens;
  for (const Value *Leaf : Tree.Leaves) {
    std::optional<TensorValue> TV = getTensorValue(Leaf);
    if (!TV || !TV->hasRuntimeSizes())
      continue;
    std::optional<RuntimeView> View = emitTokenView(B, Leaf);
    if (!View)
      continue; // not memory: the lowering reports it
    RuntimeChecker(B, *TV->Def).requireValidView(*View, "the tensor");
    RuntimeTokenExtents X;
    X.View = std::move(*View);
    Tokens[Leaf] = std::move(X);
  }
  // Operands before their readers: checks in the order the ops run. A
  // reduce.* of constant extents too, stored through run-time strides: the
  // emitter computes reduce.* per element only here.
  for (unsigned I = Tree.Ops.size(); I-- > 0;) {
    const CallBase &Op = *Tree.Ops[I], &TI = *Tree.TypeInfos[I];
    if (getTensorValue(&TI)->Type.isDynamic() ||
        !isFusibleProducer(*getOpKind(Op)))
      Tokens[&Op] = OpPreparer(B, Op, TI).run();
    else if (readsRuntimeExtents(Op))
      // A result of constant extents from operands of run-time ones (a
      // broadcast of an n x 3 load to 4 x 3): computed as of constant
      // extents, but n is checked against them.
      OpPreparer(B, Op, TI).run();
  }
  return Tokens;
}

} // namespace tlx
