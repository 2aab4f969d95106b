//===- TensorInfo.h - What a TLX token stands for ---------------*- C++ -*-===//
//
// For a token produced by typeinfo, load or totensor: the tensor's element
// type, shape, layout, padding and data (a vector value, or a pointer to
// memory - the "memory form" the RFC's testing section uses).
//
//===----------------------------------------------------------------------===//

#ifndef TLX_IR_TENSORINFO_H
#define TLX_IR_TENSORINFO_H

#include "TLXOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"
#include <optional>
#include <string>

namespace llvm {
class CallBase;
class FixedVectorType;
class Type;
class Value;
} // namespace llvm

namespace tlx {

using Dims = llvm::SmallVector<int64_t, 4>;

/// An extent known only at run time (docs/ops.md, "Run-time sizes"): the
/// entry of a shape or strides list whose value a program computes.
constexpr int64_t DynamicExtent = INT64_MIN;

/// Where a run-time extent lives: lane \p Lane of the <n x i32> vector
/// \p Vec (a shape or strides operand). The lowering reads it there
/// (emitExtent), so it is valid wherever \p Vec is.
struct ExtentRef {
  const llvm::Value *Vec = nullptr;
  unsigned Lane = 0;
  bool operator==(const ExtentRef &O) const {
    return Vec == O.Vec && Lane == O.Lane;
  }
};
using ExtentRefs = llvm::SmallVector<ExtentRef, 4>;

/// Reads a dimension list: the constant lanes of \p V (a constant vector,
/// or an insertelement chain of some constants), DynamicExtent for the
/// others; nullopt when \p V is no <n x i32> vector.
std::optional<Dims> getKnownLanes(const llvm::Value *V);

/// Shape, layout and padding, as the RFC's typeinfo gives them. Shape is in
/// storage order (outermost first); Layout[i] is the logical dimension that
/// storage dimension i holds; Padding is per storage dimension.
struct TensorType {
  llvm::Type *Elem = nullptr;
  Dims Shape;
  Dims Layout;
  Dims Padding;
  /// Where the DynamicExtent entries of Shape live (one per storage dim;
  /// empty when every extent is a constant).
  ExtentRefs ShapeRefs;

  unsigned rank() const { return Shape.size(); }
  /// The element count; only for static shapes (isDynamic() false).
  int64_t numElements() const;
  /// Extents by logical dimension: Logical[Layout[i]] = Shape[i].
  Dims logicalShape() const;
  /// ShapeRefs by logical dimension (empty when static).
  ExtentRefs logicalShapeRefs() const;
  bool hasIdentityLayout() const;
  /// Whether some extent is known only at run time.
  bool isDynamic() const;
};

/// The vector type of \p Ty's data: <numElements() x Elem>, or for a shape
/// known only at run time <1 x Elem> - a run-time-shaped value's vector
/// type carries only its element type (docs/ops.md, "Run-time sizes").
llvm::FixedVectorType *getDataVectorType(const TensorType &Ty);

/// \p Ty's tensor packed in logical row-major order: what its tovector
/// holds, and what the data of a totensor is.
TensorType getLogicalRowMajor(const TensorType &Ty);

/// The tensor a token stands for.
struct TensorValue {
  const llvm::CallBase *Def = nullptr; ///< typeinfo, load or totensor
  TensorType Type;
  llvm::Value *Data = nullptr; ///< vector value or pointer
  /// load only: BLAS-style leading dimensions (see docs/decisions.md);
  /// DynamicExtent entries are computed by the program, read at StridesVec.
  Dims Strides;
  const llvm::Value *StridesVec = nullptr;

  bool isMemory() const;
  /// Whether some extent or load stride is computed at run time: the
  /// tensor's memory is then read only through run-time views
  /// (Codegen/RuntimeShapes.h, emitTokenView), never a StridedView.
  bool hasRuntimeSizes() const;
};

/// Element type of the pointer operand \p ArgNo: its elementtype(T)
/// attribute, or the element of byval(<N x T>) / elementtype(<N x T>).
llvm::Type *getPointerElementType(const llvm::CallBase &Call, unsigned ArgNo);

/// Describes the tensor \p Token stands for. On failure returns nullopt and
/// says why in \p Why (when given).
std::optional<TensorValue> getTensorValue(const llvm::Value *Token,
                                          std::string *Why = nullptr);

/// A phi, or a select on one condition (C's `c ? x : y` with a scalar c):
/// a value merged across control flow. A select on a vector of conditions
/// is C's elementwise `?:` on vectors, an operator like `+`.
inline bool isMergeInst(const llvm::Value *V) {
  if (llvm::isa<llvm::PHINode>(V))
    return true;
  auto *Sel = llvm::dyn_cast<llvm::SelectInst>(V);
  return Sel && !Sel->getCondition()->getType()->isVectorTy();
}

/// Metadata kind on the typeinfo tlx-recognize gives a result that is
/// merged across control flow without a typeinfo of its own: a copy of the
/// typeinfo naming the merged variable (messages point there).
inline constexpr const char *MergedTypeInfoMD = "tlx.merged";

/// The first typeinfo (in program order; in the op's block if one is) that
/// types the data result of the compute op \p Op, or null.
const llvm::CallBase *getResultTypeInfo(const llvm::CallBase &Op);

/// Element strides (outermost first) of a densely packed tensor of storage
/// extents \p Shape.
Dims packedStrides(llvm::ArrayRef<int64_t> Shape);

/// Expands BLAS-style leading-dimension strides of a load/store into element
/// strides per storage dimension (0 entries mean packed).
Dims expandLeadingDims(llvm::ArrayRef<int64_t> Shape,
                       llvm::ArrayRef<int64_t> LeadingDims);

} // namespace tlx

#endif // TLX_IR_TENSORINFO_H
