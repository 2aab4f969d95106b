//===- RuntimeShapes.h - Extents the program computes -----------*- C++ -*-===//
//
// What the lowering needs for tensors whose shape or strides are C
// variables (docs/ops.md, "Run-time sizes"): their extents and strides as
// i64 values at the point of use, and the run-time checks of what the
// compiler could not decide (lib/Runtime/shape_checks.c reports them).
//
//===----------------------------------------------------------------------===//

#ifndef TLX_CODEGEN_RUNTIMESHAPES_H
#define TLX_CODEGEN_RUNTIMESHAPES_H

#include "IR/TensorInfo.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/IRBuilder.h"
#include <optional>
#include <string>

namespace llvm {
class AAResults;
} // namespace llvm

namespace tlx {

/// A tensor in memory by logical index: element (i0, .., in-1) at Ptr +
/// sum(i_d * Strides[d]) elements; extents and strides are i64 values.
/// StorageOrder lists the logical dims outermost first as they are stored
/// (the layout): the last one is contiguous.
struct RuntimeView {
  llvm::Value *Ptr = nullptr;
  llvm::Type *Elem = nullptr;
  llvm::SmallVector<llvm::Value *, 4> Extents, Strides;
  llvm::SmallVector<unsigned, 4> StorageOrder;
  /// The load, store or typeinfo_mem the view is the memory of, when its
  /// pointer points into a C object the frontend knows (getObjectBound):
  /// requireValidView keeps the view inside it.
  const llvm::CallBase *KnownObjectOp = nullptr;

  unsigned rank() const { return Extents.size(); }
};

/// The last two dims of a RuntimeView (one matrix of a batch) by its rows
/// and columns.
struct RuntimeMatrix {
  llvm::Value *Ptr = nullptr;
  llvm::Type *Elem = nullptr;
  llvm::Value *Rows = nullptr, *Cols = nullptr;
  llvm::Value *RowStride = nullptr, *ColStride = nullptr;
};
RuntimeMatrix asMatrix(const RuntimeView &V);

/// The extent of storage dim \p Dim of \p Ty as an i64: its constant, or
/// read where it lives (Ty.ShapeRefs).
llvm::Value *emitExtent(llvm::IRBuilderBase &B, const TensorType &Ty,
                        unsigned Dim);

/// The memory a token stands for, as values: a load through its leading
/// dimensions (constant or run-time), a memory-form typeinfo or totensor
/// packed; nullopt for tokens of vector data. Every lowering that reads
/// memory of run-time sizes reads it through this view.
std::optional<RuntimeView> emitTokenView(llvm::IRBuilderBase &B,
                                         const llvm::Value *Token);
/// emitTokenView, or for a transpose or broadcast of memory of constant
/// sizes that tlx-bufferize left unbuffered for a GEMM operand
/// (getViewThroughIndexMaps: swapped strides, stride 0 along repeated
/// dims) that view as constants; nullopt for other tokens.
std::optional<RuntimeView> emitViewThroughIndexMaps(llvm::IRBuilderBase &B,
                                                    const llvm::Value *Token);
/// The memory a tensor.store writes.
RuntimeView emitStoreView(llvm::IRBuilderBase &B, const llvm::CallBase &Store);

/// Whether \p TV is memory that holds its tensor densely packed in its
/// storage order, known when compiling: a memory-form typeinfo, or a load
/// whose leading dimensions are constant zeros; no padding.
bool isPackedMemory(const TensorValue &TV);

/// What a stored token holds, through unary elementwise ops: the ops,
/// outermost (last applied) first, the typeinfo each was reached through
/// (the stored token first), and the token beneath them - memory, or the
/// typeinfo of another op's result. Dynamic: some token on the way, the
/// root included, has run-time sizes.
struct UnaryChain {
  llvm::SmallVector<llvm::CallBase *, 4> Ops;
  llvm::SmallVector<const llvm::CallBase *, 4> TypeInfos;
  const llvm::Value *Root = nullptr;
  /// Some typeinfo on the way, or an operand of the root op, has run-time
  /// sizes (a matmul of a run-time K, or of an operand with run-time
  /// leading dimensions, has a result of constant extents).
  bool Dynamic = false;

  /// The op whose result the root token types, or null (memory).
  llvm::CallBase *rootOp() const;
};
UnaryChain walkUnaryChain(const llvm::Value *Token);

/// Whether a token operand of \p Op has run-time extents (what C sees of
/// its result).
bool readsRuntimeExtents(const llvm::CallBase &Op);
/// Whether a token operand of \p Op has run-time extents or strides
/// (TensorValue::hasRuntimeSizes): \p Op then reads its operands through
/// run-time views, so only the run-time lowerings compute it.
bool readsRuntimeSizes(const llvm::CallBase &Op);

/// What a stored token is computed from through the ops tlx-legalize
/// evaluates element by element (isRuntimeFusible, and fusible producers
/// with constant extents): those ops, each once, each with the typeinfo of
/// its result it was reached through; and the leaves: tokens of memory, or
/// of a result computed apart (a contraction's). Dynamic: some token has
/// run-time sizes (extents, or a load's strides).
struct FusedTree {
  llvm::SmallVector<llvm::CallBase *, 8> Ops;
  llvm::SmallVector<const llvm::CallBase *, 8> TypeInfos;
  llvm::SmallVector<const llvm::Value *, 4> Leaves;
  bool Dynamic = false;
  /// Leaves some op reads at other positions than the root writes (through
  /// a broadcast, a transpose, a reduction, a conversion to another width).
  llvm::SmallPtrSet<const llvm::Value *, 4> ShiftedLeaves;

  /// Whether each element of \p Leaf is read only where the root writes the
  /// same position, in the same width (element for element in place).
  bool readsInPlace(const llvm::Value *Leaf) const {
    return !ShiftedLeaves.contains(Leaf);
  }
};
FusedTree walkFusedTree(const llvm::Value *Token);

/// Address of the element at \p Idx of \p V: one i64 index per leading
/// dim of \p V (all of them, or fewer: the first element of that
/// sub-tensor).
llvm::Value *emitViewAddress(llvm::IRBuilderBase &B, const RuntimeView &V,
                             llvm::ArrayRef<llvm::Value *> Idx);

/// \p Ty's logical extents as i64 values.
llvm::SmallVector<llvm::Value *, 4> emitLogicalExtents(llvm::IRBuilderBase &B,
                                                       const TensorType &Ty);

/// An i1 that is true when the bytes \p X and \p Y address do not
/// overlap: true where alias analysis tells them apart, else their
/// address ranges compared (strides are non-negative).
llvm::Value *emitRuntimeDisjoint(llvm::IRBuilderBase &B, const RuntimeView &X,
                                 const RuntimeView &Y, llvm::AAResults &AA);

/// A heap buffer for a tensor of \p Elem with the i64 \p Extents, emitted
/// at \p B for \p Op: tlxrt_alloc_tensor, which names \p Op and the
/// extents when one is negative or the size overflows (or malloc fails).
llvm::Value *emitRuntimeTensorAlloc(llvm::IRBuilderBase &B,
                                    const llvm::CallBase &Op, llvm::Type *Elem,
                                    llvm::ArrayRef<llvm::Value *> Extents);

/// An i1 that is true when the extents \p X and \p Y (i64, dim by dim)
/// are equal.
llvm::Value *emitSameExtents(llvm::IRBuilderBase &B,
                             llvm::ArrayRef<llvm::Value *> X,
                             llvm::ArrayRef<llvm::Value *> Y);

/// "%lldx%lld.." for \p Rank extents in a check's message.
std::string shapeFormat(unsigned Rank);

/// Checks at \p B, without a branch (ops stay in their readers' blocks),
/// that the typeinfo \p TI names the extents of \p Actual, the tensor it
/// stands for: "the result is 3x4 at run time, but this typeinfo says 3x2".
void emitTypeInfoCheck(llvm::IRBuilderBase &B, const TensorType &Actual,
                       const llvm::CallBase &TI);

/// Emits the checks of one op at \p B: each require() branches to a call
/// of tlxrt_shape_error, which names the op's C function and source
/// location and ends the program, when its condition is false. With the
/// runtime-checks option off, require() emits nothing.
class RuntimeChecker {
public:
  RuntimeChecker(llvm::IRBuilderBase &B, const llvm::CallBase &Op);

  /// Reports "'<C function>': " + \p Format (printf, one %lld per value
  /// of \p Args, i64 values) unless \p Cond (an i1) holds.
  void require(llvm::Value *Cond, const llvm::Twine &Format,
               llvm::ArrayRef<llvm::Value *> Args);
  /// require() for what is suspect, not certainly wrong: a call of
  /// tlxrt_shape_warning, which prints "warning: ..." once and returns.
  void warnUnless(llvm::Value *Cond, const llvm::Twine &Format,
                  llvm::ArrayRef<llvm::Value *> Args);
  /// require() without control flow: a call of tlxrt_shape_check, for a
  /// pass that keeps ops and their readers in one block.
  void requireInline(llvm::Value *Cond, const llvm::Twine &Format,
                     llvm::ArrayRef<llvm::Value *> Args);
  /// require() that \p V's extents are >= 0, that no two of its
  /// elements share an address (each storage dim steps over the inner
  /// ones) and that it stays inside its known C object, naming it \p What.
  void requireValidView(const RuntimeView &V, llvm::StringRef What);
  /// A reason a buffer cannot be allocated: an i1, and its message.
  struct AllocFailure {
    llvm::Value *Cond;
    std::string Format;
  };
  /// malloc(\p Bytes) (an i64) for a TLX buffer of run-time size, through
  /// tlxrt_alloc_tensor: reports "'<C function>': " + the Format (with
  /// \p Args) of the first of \p Failures whose Cond holds, or of the last
  /// when memory runs out. Adds no control flow.
  llvm::Value *emitCheckedAlloc(llvm::Value *Bytes,
                                llvm::ArrayRef<AllocFailure> Failures,
                                llvm::ArrayRef<llvm::Value *> Args);
  /// require() that \p A and \p B are equal extents.
  void requireEqual(llvm::Value *A, llvm::Value *B, const llvm::Twine &Format,
                    llvm::ArrayRef<llvm::Value *> Args);

private:
  void report(llvm::Value *Cond, llvm::StringRef Reporter,
              const llvm::Twine &Format, llvm::ArrayRef<llvm::Value *> Args);
  void requireInsideObject(const RuntimeView &V, llvm::Value *Span,
                           llvm::Value *Empty, llvm::StringRef What);

  llvm::Value *whereString();

  llvm::IRBuilderBase &B;
  std::string Where;  ///< "file:line:col" of the op
  llvm::Value *WhereString = nullptr; ///< Where as a global, once
  std::string OpName; ///< its C name quoted, e.g. 'tensor_matmul'
};

} // namespace tlx

#endif // TLX_CODEGEN_RUNTIMESHAPES_H
