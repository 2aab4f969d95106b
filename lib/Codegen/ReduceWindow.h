//===- ReduceWindow.h - reduce.* as vector loop nests -----------*- C++ -*-===//
//
// tlx-legalize's lowering of the reduce-window ops (reduce.max, .min, .add,
// .mul, .and, .or, .xor): the loop structure is chosen per op from where
// its input is contiguous and how its window lies (ReduceWindow.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TLX_CODEGEN_REDUCEWINDOW_H
#define TLX_CODEGEN_REDUCEWINDOW_H

#include "Codegen/IndexMap.h"

namespace llvm {
class CallBase;
class TargetTransformInfo;
} // namespace llvm

namespace tlx {

/// Writes the result of the reduce op \p Op into \p Dst at \p B's insertion
/// point, sharing the outermost output loop out through \p Share if given,
/// and says with a remark how it was vectorized.
/// The identity of reduce \p Kind in compute type \p Ty (-0 for a float
/// sum, so a window of -0 sums to -0 as its in-order fold does).
llvm::Constant *reduceIdentity(OpKind Kind, llvm::Type *Ty);
/// OP(Acc, X) for reduce \p Kind, exactly as the in-order fold computes it
/// (float max/min: the first NaN wins, -0 < +0).
llvm::Value *reduceCombine(llvm::IRBuilderBase &B, OpKind Kind,
                           llvm::Value *Acc, llvm::Value *X);

void emitReduceWindow(llvm::IRBuilderBase &B, TensorValues &Values,
                      const llvm::TargetTransformInfo &TTI,
                      const llvm::CallBase &Op, const StridedView &Dst,
                      LoopSharer Share);

} // namespace tlx

#endif // TLX_CODEGEN_REDUCEWINDOW_H
