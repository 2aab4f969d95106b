//===- ShapeInference.h - What each TLX op computes -------------*- C++ -*-===//
//
// The shape rules of every TLX op, in one place: the element type and logical
// shape a compute op (Result == Data in TLXOps.def) produces from its
// operands, and the checked constant operands (axes, windows, strides,
// permutations) the lowering needs. Every function that can fail returns
// nullopt/false and names the violated rule in \p Why, without the op name
// ("inner dimensions differ: op1 is 3x4 (M=3, K=4), op2 is 5x3 (K=5, N=3)");
// tlx-verify and the clang plugin's AST checks report these reasons, the
// lowering relies on them on verified IR.
//
// Shapes here are logical (TensorType::logicalShape()) unless a name says
// otherwise; see docs/verifier.md for the rules.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_IR_SHAPEINFERENCE_H
#define TLX_IR_SHAPEINFERENCE_H

#include "TLXOps.h"
#include "TensorInfo.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"
#include <optional>
#include <string>

namespace llvm {
class CallBase;
class Type;
class Value;
} // namespace llvm

namespace tlx {

/// The largest rank TLX supports, as tlx.h and the runtime (TLX_MAX_RANK).
constexpr unsigned MaxRank = 8;

/// What a compute op produces.
struct OpResult {
  llvm::Type *Elem = nullptr;
  Dims LogicalShape;
  /// Where DynamicExtent entries of LogicalShape live (one per dim, null
  /// Vec for constant ones; empty when every extent is a constant).
  ExtentRefs LogicalRefs;
};

/// Whether extents \p A and \p B may be equal: equal constants, or one
/// known only at run time (then a run-time check compares them).
inline bool mayEqualExtent(int64_t A, int64_t B) {
  return A == B || A == DynamicExtent || B == DynamicExtent;
}

/// Whether run-time extents can reach op \p Kind (docs/ops.md, "Run-time
/// sizes"): matmul, the mma family and the unary elementwise ops, in this
/// version.
bool acceptsRuntimeExtents(OpKind Kind);
/// The ops of acceptsRuntimeExtents that tlx-legalize computes element by
/// element into a store's destination with run-time extents (their results
/// fuse into one loop nest): the unary elementwise ops, transpose,
/// broadcast, pad, concat and reduce.*.
bool isRuntimeFusible(OpKind Kind);

/// Whether \p V is the data of tensors with run-time extents merged across
/// control flow: a phi or select, through others, of TLX results - the
/// tovectors tlx-recognize makes, whose <1 x T> only stands for the
/// tensors, or (while it makes them) the results a C variable holds.
bool isRuntimeMergeData(const llvm::Value *V);
/// Whether the tovector \p Call only feeds such merges.
bool onlyFeedsRuntimeMerges(const llvm::CallBase &Call);

/// The extent of storage dim \p Dim of \p Ty as an i32: its constant, or
/// read where it lives (Ty.ShapeRefs) at \p B.
llvm::Value *emitExtentI32(llvm::IRBuilderBase &B, const TensorType &Ty,
                           unsigned Dim);

/// Lane \p Lane of the <n x i32> operand \p V as an i32: its constant, or
/// read from \p V at \p B.
llvm::Value *emitLaneI32(llvm::IRBuilderBase &B, const llvm::Value *V,
                         unsigned Lane);
/// Emits at \p B the extent of logical dim \p Dim of the result of \p Op
/// (an op of acceptsRuntimeExtents) as an i32, from its operands' extents
/// and parameters where they live: a constant when they are all constants.
llvm::Value *emitResultExtent(llvm::IRBuilderBase &B, const llvm::CallBase &Op,
                              unsigned Dim);

/// Infers the result of the compute op \p Op. Element type and shape come
/// from the operands; matmul, contract and convolution take the element type
/// the result declares (its vector type, else its first typeinfo), else the
/// wider operand. broadcast(T) and reshape.permute take the shape from the
/// result's first typeinfo, which they (and reshape.block, whose blocked
/// shape is inferred) require. Does not check that this typeinfo agrees
/// with the inferred result (tlx-verify does).
std::optional<OpResult> inferResult(const llvm::CallBase &Op, std::string &Why);

/// How the result of the compute op \p Op is stored: the type of its first
/// typeinfo when it has one; otherwise the inferred logical shape with an
/// identity layout and no padding (transpose(T, perm): layout perm, the
/// input's padding permuted alike).
std::optional<TensorType> getResultTensorType(const llvm::CallBase &Op,
                                              std::string &Why);

/// The result of op \p Kind on \p Args as TLX infers it when the program
/// gives no result type (tlx.h's short form): inferred with the element
/// type of the first token operand as the result's, through a probe call
/// emitted at \p B and erased again.
std::optional<TensorType> inferUntypedResult(llvm::IRBuilderBase &B,
                                             OpKind Kind,
                                             llvm::ArrayRef<llvm::Value *> Args,
                                             std::string &Why);

/// The type TLX infers for \p Op's result from its operands (as if no
/// typeinfo named it), its run-time extents homed: those the op computes
/// in a shape vector emitted at \p B.
std::optional<TensorType> inferHomedResultType(llvm::IRBuilderBase &B,
                                               const llvm::CallBase &Op,
                                               std::string &Why);
/// inferHomedResultType stored as \p Named says: its layout and padding
/// (a result named by a typeinfo the op's extents must match); nullopt
/// when the element type or rank differs.
std::optional<TensorType> inferHomedResultTypeAs(llvm::IRBuilderBase &B,
                                                 const llvm::CallBase &Op,
                                                 const TensorType &Named,
                                                 std::string &Why);

/// The tensor of type \p Ty whose logical row-major order is the tensor
/// \p RowMajor names (what `totensor(data, Ty)` means for a TLX result):
/// `typeinfo(transpose(RowMajor, Ty.Layout), Ty)`, the transpose only for a
/// non-identity layout. \p VecTy is the data's vector type.
llvm::CallInst *createFromLogicalOrder(llvm::IRBuilderBase &B,
                                       llvm::Value *RowMajor, llvm::Type *VecTy,
                                       const TensorType &Ty);

/// \p Ty's shape operand: a constant, or for run-time extents a vector
/// built at \p B from where they live (Ty.ShapeRefs).
llvm::Value *emitShapeVector(llvm::IRBuilderBase &B, const TensorType &Ty);

/// Emits exactly `typeinfo(Data, Ty)` at \p B (createTypeInfo below also
/// keeps an op's natural result type first).
llvm::CallInst *emitTypeInfo(llvm::IRBuilderBase &B, llvm::Value *Data,
                             const TensorType &Ty);

/// Emits `typeinfo(Data, Ty)` at \p B. The first typeinfo of a compute op's
/// result fixes how the op writes it, so when \p Data is such a result
/// without a typeinfo and \p Ty is not its natural type
/// (getResultTensorType), the natural one is emitted first, after the op.
llvm::CallInst *createTypeInfo(llvm::IRBuilderBase &B, llvm::Value *Data,
                               const TensorType &Ty);

/// Checks that \p Op has an operand count its op accepts (MinArgs..MaxArgs).
bool checkArity(const llvm::CallBase &Op, std::string &Why);

/// Checks a tensor type on its own: supported element type, rank <=
/// MaxRank, shape, layout and padding of one length, extents >= 1, layout a
/// permutation, padding >= 0, element count representable.
bool checkTensorType(const TensorType &Ty, std::string &Why);

/// Checks what a typeinfo, load or totensor describes: its type
/// (checkTensorType), its data (vector length, or a pointer's element type)
/// and, for load, its strides (checkLeadingDims).
bool checkTensorValue(const TensorValue &TV, std::string &Why);

/// Checks BLAS-style leading dimensions of a load or store of storage
/// extents \p Shape: one per dimension, LeadingDims[0] == 0 (unused), every
/// other entry 0 (packed) or at least the extent its inner dimensions span,
/// so that no two elements share an address.
bool checkLeadingDims(llvm::ArrayRef<int64_t> Shape,
                      llvm::ArrayRef<int64_t> LeadingDims, std::string &Why);

/// The tensor the token operand \p ArgNo of \p Op stands for, checked with
/// checkTensorValue.
std::optional<TensorValue> getOperandTensor(const llvm::CallBase &Op,
                                            unsigned ArgNo, std::string &Why);

/// convolution: per spatial dimension, every entry >= 1 (0 entries and
/// absent operands read as 1).
struct ConvolutionParams {
  Dims Strides;
  Dims InputDilations;
  Dims KernelDilations;
};
std::optional<ConvolutionParams> getConvolutionParams(const llvm::CallBase &Op,
                                                      std::string &Why);

/// contract: the paired contraction axes (logical dims of op1 and op2).
struct ContractAxes {
  Dims Op1;
  Dims Op2;
};
std::optional<ContractAxes> getContractAxes(const llvm::CallBase &Op,
                                            std::string &Why);
/// The dims 0..Rank-1 not in \p Contracted, in order: an operand's free
/// dims, which the result of contract keeps.
Dims getFreeAxes(unsigned Rank, llvm::ArrayRef<int64_t> Contracted);

/// reduce.*: window and strides per logical dimension.
struct ReduceWindow {
  Dims Window;
  Dims Strides;
};
std::optional<ReduceWindow> getReduceWindow(const llvm::CallBase &Op,
                                            std::string &Why);

/// pad: elements added before (Low) and after (High) each logical dimension,
/// and the fill value.
struct PadAmounts {
  Dims Low;
  Dims High;
  llvm::Value *Value = nullptr;
};
std::optional<PadAmounts> getPadAmounts(const llvm::CallBase &Op,
                                        std::string &Why);

/// concat: the logical dimension joined.
std::optional<unsigned> getConcatAxis(const llvm::CallBase &Op,
                                      std::string &Why);

/// transpose: true for the one-operand form, a logical transpose of the last
/// two dims; false for transpose(T, perm), a layout change.
bool isLogicalTranspose(const llvm::CallBase &Op);
/// transpose(T, perm): the new layout, a permutation of the operand's rank.
std::optional<Dims> getTransposePermutation(const llvm::CallBase &Op,
                                            std::string &Why);

/// reshape.block: one block size per logical dim, each dividing its extent.
std::optional<Dims> getReshapeBlocks(const llvm::CallBase &Op,
                                     std::string &Why);

/// umma/smma/usmma/summa: whether op1 and op2 widen with sign extension.
struct MMASignedness {
  bool Op1Signed;
  bool Op2Signed;
};
std::optional<MMASignedness> getMMASignedness(OpKind Kind);

/// Operand \p ArgNo's role in diagnostics: "shape", "op1", "window"...
llvm::StringRef getOperandName(OpKind Kind, unsigned ArgNo);

/// "3x4x5" (an empty shape prints as "scalar").
std::string formatShape(llvm::ArrayRef<int64_t> Shape);
/// "<0, 1, 2>", as a constant vector is written in IR.
std::string formatList(llvm::ArrayRef<int64_t> Values);

} // namespace tlx

#endif // TLX_IR_SHAPEINFERENCE_H
