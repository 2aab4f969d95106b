//===- TensorValues.h - Tokens decoded once for the lowering ----*- C++ -*-===//
//
// The lowering's view of a token: what tlx-legalize and tlx-tile emit code
// from when they evaluate a token element by element (the ElementEmitter).
// Each token is decoded on first use - its tensor type, its memory view or
// the fused op producing it, and that op's index-map parameters - and kept
// for the rest of the pass, so the emitter reads typed values instead of
// re-reading typeinfos, shapes and op operands at every element it emits.
// Entries follow the IR: one whose value is deleted is dropped (ValueMap).
//
//===----------------------------------------------------------------------===//

#ifndef TLX_ANALYSIS_TENSORVALUES_H
#define TLX_ANALYSIS_TENSORVALUES_H

#include "TensorMemory.h"

#include "../IR/ShapeInference.h"
#include "llvm/IR/ValueMap.h"

namespace tlx {

/// A token as the lowering reads it.
struct TokenInfo {
  TensorType Type; ///< the tensor it stands for
  /// Its memory, for a load or a memory-form typeinfo / totensor.
  std::optional<StridedView> Memory;
  /// Otherwise the fused producer whose result it types, and its kind.
  const llvm::CallBase *Op = nullptr;
  OpKind Kind = OpKind::Load;
  /// The logical shapes of Op's token operands, in operand order.
  llvm::SmallVector<Dims, 2> OperandShapes;
  /// Op's index map: transpose swaps the last two logical dims (not a
  /// mere layout change); reshape.block's blocks; pad's amounts; concat's
  /// axis.
  bool LogicalTranspose = false;
  Dims Blocks;
  PadAmounts Pad;
  unsigned Axis = 0;
};

/// The tokens of one function, decoded on first use.
class TensorValues {
public:
  /// \p Token's info, or null for a token TLX's verifier would have
  /// rejected (no tensor behind it).
  const TokenInfo *get(const llvm::Value *Token);

private:
  /// An entry describes its key's IR: it is not carried over to a value
  /// that replaces it (RAUW), and goes when the key is deleted.
  struct KeepKey : llvm::ValueMapConfig<const llvm::Value *> {
    enum { FollowRAUW = false };
  };
  llvm::ValueMap<const llvm::Value *, std::unique_ptr<TokenInfo>, KeepKey>
      Infos;
};

} // namespace tlx

#endif // TLX_ANALYSIS_TENSORVALUES_H
