//===- TensorMemory.h - Where tensors live, what touches them --*- C++ -*-===//
//
// The memory analyses the lowering stages share (tlx-bufferize, nd-to-2d,
// tile, legalize): the strided view a token or a store stands for, the
// buffers TLX allocates, and what may write the memory a tensor is read
// from. They read the IR TLX's stages leave (tokens, typeinfos, loads and
// stores) and emit nothing.
//
//  - StridedView: a tensor in memory, element (i0,..,in-1) (logical index)
//    at Ptr + sum(i_d * Strides[d]) elements. Layouts, BLAS-style leading
//    dimensions and padded buffers all reduce to per-logical-dim strides.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_ANALYSIS_TENSORMEMORY_H
#define TLX_ANALYSIS_TENSORMEMORY_H

#include "../IR/TLXOps.h"
#include "../IR/TensorInfo.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace llvm {
class AAResults;
class CallBase;
class Function;
class Instruction;
class Type;
class Value;
} // namespace llvm

namespace tlx {

/// A tensor in memory, addressed by logical index.
struct StridedView {
  llvm::Value *Ptr = nullptr;
  llvm::Type *Elem = nullptr;
  Dims Shape;   ///< logical extents
  Dims Strides; ///< element stride per logical dim

  unsigned rank() const { return Shape.size(); }
};

/// The view of storage \p StorageStrides (per storage dim) holding a tensor
/// of type \p Ty at \p Ptr.
StridedView makeView(llvm::Value *Ptr, const TensorType &Ty,
                     llvm::ArrayRef<int64_t> StorageStrides);
/// The memory a token stands for: a load (through its strides) or a
/// memory-form typeinfo / totensor (densely packed); nullopt for tokens of
/// vector data, and for memory whose extents or strides the program
/// computes (TensorValue::hasRuntimeSizes): only a run-time view
/// (Codegen/RuntimeShapes.h, emitTokenView) describes that.
std::optional<StridedView> getMemoryView(const llvm::Value *Token);
/// getMemoryView, or for a 2-D transpose or a broadcast (of a transpose
/// ...) of memory that tlx-bufferize left unbuffered because only GEMM
/// operands read it: the memory read through swapped strides, or stride 0
/// along broadcast dims (the GEMM's packing, or its first read of the
/// accumulator, does the index map).
std::optional<StridedView> getViewThroughIndexMaps(const llvm::Value *Token);
/// Whether \p Store writes through strides the program computes: only a
/// run-time view (emitStoreView) describes its destination.
bool storesThroughRuntimeStrides(const llvm::CallBase &Store);
/// The memory a tensor.store of constant strides writes.
StridedView getStoreView(const llvm::CallBase &Store);

/// Element strides per storage dim of a buffer TLX allocates for \p Ty:
/// packed, with Padding[i] extra positions in storage dim i.
Dims paddedStrides(const TensorType &Ty);
/// Elements a buffer with \p Ty's padded strides spans.
int64_t paddedNumElements(const TensorType &Ty);
/// BLAS-style leading dimensions (a load/store strides operand) describing
/// \p Ty's padded buffer.
Dims paddedLeadingDims(const TensorType &Ty);

/// Whether memory that \p Roots point into may be written by an instruction
/// strictly between \p From and \p To (same block); TLX intrinsics that do
/// not write memory are skipped, and a write into an object alias analysis
/// tells apart from a root's (restrict parameters seen through their stack
/// slots) is no clobber. Conservative across blocks (returns true).
bool mayClobberBetween(llvm::ArrayRef<llvm::Value *> Roots,
                       const llvm::Instruction *From,
                       const llvm::Instruction *To, llvm::AAResults &AA);

/// The runtime's allocator of temporaries' heap buffers and its free
/// (lib/Runtime/temp_alloc.c), which generated code calls.
inline constexpr char TempAllocFunction[] = "tlxrt_temp_alloc";
inline constexpr char TempFreeFunction[] = "tlxrt_temp_free";

/// Whether \p Ptr is a buffer only TLX addresses: a heap buffer (malloc,
/// the runtime's allocators) or alloca whose every user is a TLX
/// intrinsic, a free or a lifetime marker. Its address never reaches the
/// program's own code, so it overlaps no other pointer.
bool isTLXOwnedBuffer(const llvm::Value *Ptr);

/// The argument a pointer parameter's stack slot holds, for \p Ptr loaded
/// from that slot (clang spills every parameter to an alloca, stored once;
/// TLX runs before SROA): its noalias (restrict) attribute then applies.
/// Otherwise \p Ptr itself.
llvm::Value *stripParameterSpill(llvm::Value *Ptr);

/// Whether \p A and \p B are certainly the same address: one value, or
/// two loads of one variable in one block with no write to it in between
/// (at -O0, and at the start of the -O2 pipeline where TLX runs, every use
/// of a pointer parameter reloads it from its alloca).
bool isSamePointer(llvm::Value *A, llvm::Value *B, llvm::AAResults &AA);

/// The memory roots (pointers) a token reads, through fused producers.
void collectMemoryRoots(const llvm::Value *Token,
                        llvm::SmallVectorImpl<llvm::Value *> &Roots);
/// The memory roots of all of \p Op's token operands.
llvm::SmallVector<llvm::Value *, 4> collectTokenRoots(const llvm::CallBase &Op);

/// Whether \p V is a call to free or to the runtime's free of temporaries.
bool isFreeCall(const llvm::Value *V);

} // namespace tlx

#endif // TLX_ANALYSIS_TENSORMEMORY_H
