//===- RuntimeShapes.h - Extents the program computes -----------*- C++ -*-===//
//
// What the lowering needs for tensors whose shape or strides are C
// variables (docs/ops.md, "Run-time sizes"): their extents and strides as
// i64 values at the point of use, and the run-time checks of what the
// compiler could not decide (lib/Runtime/shape_checks.c reports them).
//
//===----------------------------------------------------------------------===//

#ifndef TLX_TRANSFORMS_RUNTIMESHAPES_H
#define TLX_TRANSFORMS_RUNTIMESHAPES_H

#include "../IR/TensorInfo.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/IRBuilder.h"
#include <optional>
#include <string>

namespace tlx {

/// A 2-D tensor in memory by logical index: element (i, j) at Ptr +
/// i*RowStride + j*ColStride elements; every field an i64 value.
struct RuntimeMatrix {
  llvm::Value *Ptr = nullptr;
  llvm::Type *Elem = nullptr;
  llvm::Value *Rows = nullptr, *Cols = nullptr;
  llvm::Value *RowStride = nullptr, *ColStride = nullptr;
};

/// The extent of storage dim \p Dim of \p Ty as an i64: its constant, or
/// read where it lives (Ty.ShapeRefs).
llvm::Value *emitExtent(llvm::IRBuilderBase &B, const TensorType &Ty,
                        unsigned Dim);

/// The memory of the 2-D tensor a load or memory-form typeinfo stands for;
/// nullopt for other tokens.
std::optional<RuntimeMatrix> emitTokenMatrix(llvm::IRBuilderBase &B,
                                             const llvm::Value *Token);
/// The memory a tensor.store of a 2-D tensor writes.
RuntimeMatrix emitStoreMatrix(llvm::IRBuilderBase &B,
                              const llvm::CallBase &Store);

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
  /// require() that \p M's extents are >= 0 and that its rows do not
  /// overlap (a row stride of at least its columns), naming it \p What.
  void requireValidMatrix(const RuntimeMatrix &M, llvm::StringRef What);
  /// require() that \p A and \p B are equal extents.
  void requireEqual(llvm::Value *A, llvm::Value *B, const llvm::Twine &Format,
                    llvm::ArrayRef<llvm::Value *> Args);

private:
  llvm::IRBuilderBase &B;
  std::string Where;  ///< "file:line:col" of the op
  std::string OpName; ///< its C function, e.g. tensor_matmul
};

} // namespace tlx

#endif // TLX_TRANSFORMS_RUNTIMESHAPES_H
