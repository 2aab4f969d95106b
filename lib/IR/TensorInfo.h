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
#include <optional>
#include <string>

namespace llvm {
class CallBase;
class Type;
class Value;
} // namespace llvm

namespace tlx {

using Dims = llvm::SmallVector<int64_t, 4>;

/// Shape, layout and padding, as the RFC's typeinfo gives them. Shape is in
/// storage order (outermost first); Layout[i] is the logical dimension that
/// storage dimension i holds; Padding is per storage dimension.
struct TensorType {
  llvm::Type *Elem = nullptr;
  Dims Shape;
  Dims Layout;
  Dims Padding;

  unsigned rank() const { return Shape.size(); }
  int64_t numElements() const;
  /// Extents by logical dimension: Logical[Layout[i]] = Shape[i].
  Dims logicalShape() const;
  bool hasIdentityLayout() const;
};

/// \p Ty's tensor packed in logical row-major order: what its tovector
/// holds, and what the data of a totensor is.
TensorType getLogicalRowMajor(const TensorType &Ty);

/// The tensor a token stands for.
struct TensorValue {
  const llvm::CallBase *Def = nullptr; ///< typeinfo, load or totensor
  TensorType Type;
  llvm::Value *Data = nullptr; ///< vector value or pointer
  /// load only: BLAS-style leading dimensions (see docs/decisions.md).
  Dims Strides;

  bool isMemory() const;
};

/// Element type of the pointer operand \p ArgNo: its elementtype(T)
/// attribute, or the element of byval(<N x T>) / elementtype(<N x T>).
llvm::Type *getPointerElementType(const llvm::CallBase &Call, unsigned ArgNo);

/// Describes the tensor \p Token stands for. On failure returns nullopt and
/// says why in \p Why (when given).
std::optional<TensorValue> getTensorValue(const llvm::Value *Token,
                                          std::string *Why = nullptr);

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
