//===- RuntimeFusion.h - Fused ops with run-time extents --------*- C++ -*-===//
//
// tlx-legalize computes a store of ops with run-time extents (transpose,
// broadcast, pad, concat, reduce.*, the unary elementwise ops) as one loop
// nest, each element through the ops' index maps (ElementEmitter). Before
// the nest, once: every extent and parameter those maps read, as values,
// and the run-time checks of what the compiler could not decide (docs/
// ops.md, "Run-time sizes").
//
//===----------------------------------------------------------------------===//

#ifndef TLX_LEGALIZE_RUNTIMEFUSION_H
#define TLX_LEGALIZE_RUNTIMEFUSION_H

#include "Codegen/IndexMap.h"
#include "Codegen/RuntimeShapes.h"

namespace tlx {

/// Emits at \p B, for the tokens of \p Tree with run-time extents, their
/// extents, views and parameters (for an ElementEmitter) and the checks of
/// each op: parameters in range, operands that must agree, and the
/// result's typeinfo against the extents the op computes.
RuntimeTokens prepareRuntimeTree(llvm::IRBuilderBase &B, const FusedTree &Tree);

} // namespace tlx

#endif // TLX_LEGALIZE_RUNTIMEFUSION_H
