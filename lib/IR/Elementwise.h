//===- Elementwise.h - The short form's elementwise arithmetic --*- C++ -*-===//
//
// tlx.h's tlx_add, tlx_sub, tlx_mul, tlx_div, tlx_max and tlx_min take two
// tensors, or a tensor and a scalar, and broadcast them numpy-style. They
// are made of the ops C operators become (llvm.tensor.fadd, ...): each
// tensor operand that is not already of the result's type is broadcast to
// it, a scalar fills it, then the operator applies element by element. One
// builder serves tlx-recognize (the program's IR) and the AST's shape model
// (clang-plugin/ShapeChecker.cpp), so both check the same ops.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_IR_ELEMENTWISE_H
#define TLX_IR_ELEMENTWISE_H

#include "IR/TLXOps.h"
#include "IR/TensorInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>
#include <string>

namespace tlx {

/// The tensor type of `tlx_<op>(Operands)` (ShortAdd .. ShortMin): the
/// operands' logical shapes broadcast numpy-style (trailing dims aligned;
/// an extent broadcasts where it is the constant 1, a run-time extent must
/// equal the other's, checked when it runs), row-major, unpadded, in the
/// tensors' element type. \p Operands are tokens or scalars, at least one
/// token. On failure says why in the user's words.
std::optional<TensorType>
inferElementwiseType(OpKind Kind, llvm::ArrayRef<llvm::Value *> Operands,
                     std::string &Why);

/// Emits `tlx_<op>(Operands)` at \p B: the data op whose result has
/// inferElementwiseType's type (its vector type; the caller names it with
/// a typeinfo), or null with \p Why on failure. Integers divide and compare
/// as signed (the IR has no signedness; docs/decisions.md). \p Emitted, when
/// given, receives every call emitted.
llvm::CallInst *
emitElementwise(llvm::IRBuilderBase &B, OpKind Kind,
                llvm::ArrayRef<llvm::Value *> Operands, std::string &Why,
                llvm::SmallVectorImpl<llvm::CallInst *> *Emitted = nullptr);

/// The accumulator of `tlx_umma/smma/usmma/summa(S, a, b)` with the C
/// scalar \p S in its place: a tensor of `a x b`'s logical shape filled
/// with S (a typeinfo of `<1 x T> S`, broadcast, named row-major), T int32
/// - int64 when an operand is - so that an int8 product sums in int32
/// without an accumulator in memory. Emitted at \p B: the broadcast's
/// typeinfo (a token), or null with \p Why.
llvm::CallInst *emitScalarAccumulator(llvm::IRBuilderBase &B, llvm::Value *S,
                                      llvm::Value *A, llvm::Value *Bt,
                                      std::string &Why);

} // namespace tlx

#endif // TLX_IR_ELEMENTWISE_H
