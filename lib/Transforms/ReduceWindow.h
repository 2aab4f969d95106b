//===- ReduceWindow.h - reduce.* as vector loop nests -----------*- C++ -*-===//
//
// tlx-legalize's lowering of the reduce-window ops (reduce.max, .min, .add,
// .mul, .and, .or, .xor): the loop structure is chosen per op from where
// its input is contiguous and how its window lies (ReduceWindow.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TLX_TRANSFORMS_REDUCEWINDOW_H
#define TLX_TRANSFORMS_REDUCEWINDOW_H

#include "IndexMap.h"

namespace llvm {
class CallBase;
class TargetTransformInfo;
} // namespace llvm

namespace tlx {

/// Writes the result of the reduce op \p Op into \p Dst at \p B's insertion
/// point, sharing the outermost output loop out through \p Share if given,
/// and says with a remark how it was vectorized.
void emitReduceWindow(llvm::IRBuilderBase &B, TensorValues &Values,
                      const llvm::TargetTransformInfo &TTI,
                      const llvm::CallBase &Op, const StridedView &Dst,
                      LoopSharer Share);

} // namespace tlx

#endif // TLX_TRANSFORMS_REDUCEWINDOW_H
