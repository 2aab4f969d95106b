//===- RuntimeShapes.cpp - Extents the program computes -------------------===//

#include "RuntimeShapes.h"

#include "../IR/TLXOps.h"
#include "../Plugin/Options.h"
#include "Gemm/GemmEmitterImpl.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

Value *emitExtent(IRBuilderBase &B, const TensorType &Ty, unsigned Dim) {
  if (Ty.Shape[Dim] != DynamicExtent)
    return B.getInt64(Ty.Shape[Dim]);
  const ExtentRef &R = Ty.ShapeRefs[Dim];
  Value *Lane = B.CreateExtractElement(const_cast<Value *>(R.Vec),
                                       uint64_t(R.Lane), "tlx.extent");
  return B.CreateSExt(Lane, B.getInt64Ty());
}

/// Lane \p I of the strides operand \p LD (known lanes as constants).
static Value *emitLeadingDim(IRBuilderBase &B, const Value *LD,
                             ArrayRef<int64_t> Known, unsigned I) {
  if (Known[I] != DynamicExtent)
    return B.getInt64(Known[I]);
  Value *Lane =
      B.CreateExtractElement(const_cast<Value *>(LD), uint64_t(I), "tlx.ld");
  return B.CreateSExt(Lane, B.getInt64Ty());
}

/// \p Ty's 2-D memory at \p Ptr through leading dims \p LD (null: packed):
/// storage dim 1 is contiguous, storage dim 0 steps LD[1] elements, or
/// the extent of dim 1 when that is 0.
static RuntimeMatrix emitMatrix(IRBuilderBase &B, Value *Ptr,
                                const TensorType &Ty, const Value *LD) {
  Value *Extents[2] = {emitExtent(B, Ty, 0), emitExtent(B, Ty, 1)};
  Value *Outer = Extents[1];
  if (LD) {
    std::optional<Dims> Known = getKnownLanes(LD);
    Value *Step = emitLeadingDim(B, LD, *Known, 1);
    Outer = isa<Constant>(Step) && cast<Constant>(Step)->isNullValue()
                ? Extents[1]
                : B.CreateSelect(B.CreateICmpEQ(Step, B.getInt64(0)),
                                 Extents[1], Step, "tlx.rowstride");
  }
  Value *Strides[2] = {Outer, B.getInt64(1)};
  RuntimeMatrix M;
  M.Ptr = Ptr;
  M.Elem = Ty.Elem;
  // Logical dim Layout[I] is storage dim I.
  bool Transposed = Ty.Layout[0] == 1;
  M.Rows = Extents[Transposed ? 1 : 0];
  M.Cols = Extents[Transposed ? 0 : 1];
  M.RowStride = Strides[Transposed ? 1 : 0];
  M.ColStride = Strides[Transposed ? 0 : 1];
  return M;
}

std::optional<RuntimeMatrix> emitTokenMatrix(IRBuilderBase &B,
                                             const Value *Token) {
  std::optional<TensorValue> TV = getTensorValue(Token);
  if (!TV || !TV->isMemory() || TV->Type.rank() != 2 ||
      getOpKind(*TV->Def) == OpKind::ToTensor)
    return std::nullopt;
  const Value *LD = getOpKind(*TV->Def) == OpKind::Load
                        ? TV->Def->getArgOperand(4)
                        : nullptr;
  return emitMatrix(B, TV->Data, TV->Type, LD);
}

RuntimeMatrix emitStoreMatrix(IRBuilderBase &B, const CallBase &Store) {
  std::optional<TensorValue> TV = getTensorValue(Store.getArgOperand(1));
  return emitMatrix(B, Store.getArgOperand(0), TV->Type,
                    Store.getArgOperand(2));
}

//===----------------------------------------------------------------------===//
// RuntimeChecker
//===----------------------------------------------------------------------===//

RuntimeChecker::RuntimeChecker(IRBuilderBase &B, const CallBase &Op)
    : B(B), OpName(getOpDesc(*getOpKind(Op)).CName.str()) {
  if (const DILocation *Loc = Op.getDebugLoc())
    Where = (Loc->getFilename() + ":" + Twine(Loc->getLine()) + ":" +
             Twine(Loc->getColumn()))
                .str();
  else
    Where = Op.getFunction()->getName().str();
}

void RuntimeChecker::require(Value *Cond, const Twine &Format,
                             ArrayRef<Value *> Args) {
  if (!pipelineOptions().RuntimeChecks)
    return;
  if (auto *C = dyn_cast<ConstantInt>(Cond); C && C->isOne())
    return;
  Module &M = *B.GetInsertBlock()->getModule();
  FunctionCallee Report = M.getOrInsertFunction(
      "tlxrt_shape_error", FunctionType::get(B.getVoidTy(),
                                             {B.getPtrTy(), B.getPtrTy()},
                                             /*isVarArg=*/true));
  if (auto *Fn = dyn_cast<Function>(Report.getCallee())) {
    Fn->setDoesNotReturn();
    Fn->setDoesNotThrow();
    Fn->addFnAttr(Attribute::Cold);
  }
  std::string Message = ("'" + OpName + "': " + Format).str();
  gemm::emitIf(B, B.CreateNot(Cond), [&] {
    SmallVector<Value *, 8> CallArgs{
        B.CreateGlobalString(Where, "tlx.where"),
        B.CreateGlobalString(Message, "tlx.check")};
    CallArgs.append(Args.begin(), Args.end());
    B.CreateCall(Report, CallArgs)->setDoesNotReturn();
  });
}

void RuntimeChecker::requireValidMatrix(const RuntimeMatrix &M,
                                        StringRef What) {
  Value *Zero = B.getInt64(0);
  require(B.CreateAnd(B.CreateICmpSGE(M.Rows, Zero),
                      B.CreateICmpSGE(M.Cols, Zero)),
          What + " has a negative extent at run time: %lldx%lld",
          {M.Rows, M.Cols});
  // One of the strides is 1 (storage dim 1 is contiguous); the other
  // must step over a whole row or column.
  Value *RowMajor = B.CreateICmpEQ(M.ColStride, B.getInt64(1));
  Value *Span = B.CreateSelect(RowMajor, M.Cols, M.Rows);
  Value *Step = B.CreateSelect(RowMajor, M.RowStride, M.ColStride);
  Value *Lines = B.CreateSelect(RowMajor, M.Rows, M.Cols);
  require(B.CreateOr(B.CreateICmpSLE(Lines, B.getInt64(1)),
                     B.CreateICmpSGE(Step, Span)),
          What + " has a leading dimension of %lld at run time, less than "
                 "the %lld elements of each of its rows: elements would "
                 "share addresses",
          {Step, Span});
}

void RuntimeChecker::requireEqual(Value *A, Value *Bv, const Twine &Format,
                                  ArrayRef<Value *> Args) {
  require(B.CreateICmpEQ(A, Bv), Format, Args);
}

} // namespace tlx
