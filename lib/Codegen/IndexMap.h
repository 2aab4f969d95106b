//===- IndexMap.h - Tensors as functions of their logical index -*- C++ -*-===//
//
// The vocabulary the lowering stages share (where tensors live in memory
// and what may touch it: Analysis/TensorMemory.h):
//  - ElementEmitter: the value of a token at a logical index, following the
//    index maps of the ops it was fused through (XLA-style indexing maps:
//    transpose, broadcast, reshape, pad and concat are index transformations,
//    elementwise ops apply to the elements they map to), VF lanes at a time
//    along one logical dimension.
//  - counted loops, element loads/stores with f16/bf16 conversions, and
//    buffer allocation (stack up to a bound, heap beyond).
//
//===----------------------------------------------------------------------===//

#ifndef TLX_CODEGEN_INDEXMAP_H
#define TLX_CODEGEN_INDEXMAP_H

#include "Analysis/TensorMemory.h"
#include "Analysis/TensorValues.h"
#include "IR/TensorInfo.h"
#include "Codegen/Loops.h"
#include "Codegen/RuntimeShapes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"
#include <functional>
#include <optional>

namespace llvm {
class AAResults;
class DataLayout;
class TargetTransformInfo;
} // namespace llvm

namespace tlx {

/// Buffers up to this size go on the stack (entry-block allocas).
constexpr int64_t MaxStackBufferBytes = 4096;

/// Tensor-sized values larger than this live on the heap, never on the
/// stack (tlx-heap-values, docs/pipeline.md): vector locals, the caller's
/// copies of by-value arguments (passed by pointer above this size) and
/// the temporaries receiving returned vectors. 64 KiB keeps a program's
/// stack use far from the 8 MiB default whatever its tensors' sizes.
constexpr uint64_t MaxStackValueBytes = 64 * 1024;

/// Vectors wider than this many bytes (four 512-bit registers) are tensors
/// for TLX: tlx-vector-ops turns C code on them into TLX ops and memory
/// traffic, and tlx-check-lowered reports any left in TLX code.
constexpr uint64_t LargeVectorBytes = 256;
/// Whether \p Ty is a fixed vector wider than LargeVectorBytes.
bool isWideVector(const llvm::Type *Ty, const llvm::DataLayout &DL);

/// The type arithmetic is done in: float for f16/bf16, else \p Elem.
llvm::Type *getComputeType(llvm::Type *Elem);
/// \p VF lanes of compute type (a scalar when VF == 1).
llvm::Type *getLanesType(llvm::Type *Scalar, unsigned VF);

/// Loads \p VF elements of type \p Elem starting at \p Ptr, \p ElemStride
/// elements apart (0: one element splatted), converted to compute type.
llvm::Value *emitLoadLanes(llvm::IRBuilderBase &B, llvm::Value *Ptr,
                           llvm::Type *Elem, unsigned VF, int64_t ElemStride);
/// The elements of \p View at logical index \p Idx and, when \p VF > 1,
/// the next VF-1 indices along logical dim \p LaneDim (\p LaneStep apart;
/// one element splatted along an extent-1 dim or with LaneDim < 0), in
/// compute type.
llvm::Value *emitViewLanes(llvm::IRBuilderBase &B, const StridedView &View,
                           llvm::ArrayRef<llvm::Value *> Idx, unsigned VF,
                           int LaneDim, int64_t LaneStep = 1);
/// Converts \p V (compute type) to \p Elem and stores its lanes.
void emitStoreLanes(llvm::IRBuilderBase &B, llvm::Value *V, llvm::Value *Ptr,
                    llvm::Type *Elem, int64_t ElemStride);
llvm::Value *convertToCompute(llvm::IRBuilderBase &B, llvm::Value *V);
/// f32 -> bf16 / f16 with round to nearest even; identity otherwise.
llvm::Value *convertFromCompute(llvm::IRBuilderBase &B, llvm::Value *V,
                                llvm::Type *Elem);

/// Address of element \p Idx (i64 values, one per logical dim) of \p View.
llvm::Value *emitAddress(llvm::IRBuilderBase &B, const StridedView &View,
                         llvm::ArrayRef<llvm::Value *> Idx);

/// Emits `for (IV = Begin; IV < End; IV += Step) Body(IV)` (constant bounds,
/// Begin < End) at \p B's insertion point, which must precede existing
/// instructions of its block; \p B ends up after the loop.
using LoopBodyFn =
    llvm::function_ref<void(llvm::IRBuilderBase &, llvm::Value *)>;
void emitCountedLoop(llvm::IRBuilderBase &B, int64_t Begin, int64_t End,
                     int64_t Step, const llvm::Twine &Name, LoopBodyFn Body,
                     LoopHint Hint = {});
/// The same with run-time bounds, which must satisfy Begin < End.
void emitCountedLoop(llvm::IRBuilderBase &B, llvm::Value *Begin,
                     llvm::Value *End, int64_t Step, const llvm::Twine &Name,
                     LoopBodyFn Body, LoopHint Hint = {});
/// Emits `if (Cond) Then()` at \p B's insertion point (as emitCountedLoop);
/// \p B ends up after it.
void emitIfThen(llvm::IRBuilderBase &B, llvm::Value *Cond,
                const llvm::Twine &Name,
                llvm::function_ref<void(llvm::IRBuilderBase &)> Then);
/// Positions 0 .. Ext-1 of a lane dim: \p VF lanes at a time (a loop
/// `<Name>.vec`, or one step), then the rest one at a time (a loop
/// `<Name>.tail`, or one step); \p Body gets the first position and the
/// lane count. \p VecHint is the `.vec` loop's.
void emitLaneLoops(
    llvm::IRBuilderBase &B, int64_t Ext, unsigned VF, const llvm::Twine &Name,
    llvm::function_ref<void(llvm::IRBuilderBase &, llvm::Value *, unsigned)>
        Body,
    LoopHint VecHint = {});
/// A run-time range [Begin, End) of a loop's iterations, not empty.
struct LoopRange {
  llvm::Value *Begin, *End;
};
/// Loop order 0, 1, .., N-1 (dims outermost first).
llvm::SmallVector<unsigned, 8> inOrder(unsigned N);
/// Loops over every index of \p Shape (dims in \p Order, outermost first;
/// extent-1 dims get no loop), calling \p Body with one i64 per dim. With
/// \p Outermost, the outermost loop runs only over that range.
void emitLoopNest(llvm::IRBuilderBase &B, llvm::ArrayRef<int64_t> Shape,
                  llvm::ArrayRef<unsigned> Order, const llvm::Twine &Name,
                  llvm::function_ref<void(llvm::IRBuilderBase &,
                                          llvm::ArrayRef<llvm::Value *>)>
                      Body,
                  const LoopRange *Outermost = nullptr);

/// Shares a loop nest's outermost loop out (over threads:
/// Codegen/Threads.h): given its trip count, it emits \p EmitRange at a
/// builder of its choice once per share of the iterations.
using LoopSharer = llvm::function_ref<void(
    llvm::IRBuilderBase &B, int64_t Trips,
    llvm::function_ref<void(llvm::IRBuilderBase &, const LoopRange &)>
        EmitRange)>;

/// emitLoopNest, its outermost loop shared out through \p Share when one
/// is given and that loop has two or more iterations (\p Body may then be
/// called at another function's builder).
void emitSharedLoopNest(
    llvm::IRBuilderBase &B, llvm::ArrayRef<int64_t> Shape,
    llvm::ArrayRef<unsigned> Order, const llvm::Twine &Name,
    llvm::function_ref<void(llvm::IRBuilderBase &,
                            llvm::ArrayRef<llvm::Value *>)>
        Body,
    LoopSharer Share);
/// A buffer the lowering allocates for \p NumElems elements of \p Elem:
/// an entry-block alloca up to MaxStackBufferBytes, else a heap buffer
/// (emitTempAlloc) at \p B's insertion point. IsHeap says which; heap
/// buffers need emitFree.
struct Buffer {
  llvm::Value *Ptr = nullptr;
  bool IsHeap = false;
  int64_t Bytes = 0; ///< -1: computed at run time
};
Buffer emitAllocBuffer(llvm::IRBuilderBase &B, llvm::Type *Elem,
                       int64_t NumElems, const llvm::Twine &Name);
/// A heap buffer of \p Bytes (an i64 computed at run time), allocated at
/// \p B (the Buffer's Bytes is -1).
Buffer emitAllocBuffer(llvm::IRBuilderBase &B, llvm::Type *Elem,
                       llvm::Value *Bytes, const llvm::Twine &Name);
/// The alignment of every heap buffer of a temporary.
constexpr uint64_t TempBufferAlign = 64;
/// A heap buffer of \p Bytes for a temporary: tlxrt_temp_alloc, the
/// runtime's allocator, which keeps each thread's last few large buffers
/// for later calls instead of returning them to malloc (glibc unmaps or
/// trims those, and every call faults them back in).
llvm::CallInst *emitTempAlloc(llvm::IRBuilderBase &B, llvm::Value *Bytes,
                              const llvm::Twine &Name);
/// Frees a heap buffer of emitTempAlloc, or of the runtime's
/// tlxrt_alloc_tensor (tlxrt_temp_free).
void emitFree(llvm::IRBuilderBase &B, llvm::Value *Ptr);
/// \p Name of type \p Ty declared as an allocator like malloc: it returns
/// fresh memory and touches none the program can see.
llvm::FunctionCallee getAllocatorFunction(llvm::Module &M, llvm::StringRef Name,
                                          llvm::FunctionType *Ty);
/// Writes the vector constant \p C at \p Ptr without a vector of its size:
/// memset (all bytes alike), a vectorized fill loop (a splat), or a copy
/// of a private constant global.
void emitConstantStore(llvm::IRBuilderBase &B, llvm::Value *Ptr,
                       llvm::Align PtrAlign, llvm::Constant *C,
                       const llvm::TargetTransformInfo &TTI);
/// A private constant global (unnamed_addr) holding \p C.
llvm::GlobalVariable *createConstantGlobal(llvm::Module &M, llvm::Constant *C);
/// Frees \p Ptr, a heap buffer, at every return of \p F.
void freeAtReturns(llvm::Function &F, llvm::Value *Ptr);

/// Vector lanes for element type \p Elem on \p F's target: register width
/// over the compute type's width, at most 32, at least 1.
unsigned getVectorWidth(const llvm::TargetTransformInfo &TTI, llvm::Type *Elem);
/// Whether the element-wise loop nests of \p F are left scalar for LLVM's
/// loop vectorizer, which makes them vector-length agnostic: where the
/// vector length is known only at run time and the target's fixed-length
/// vectors are register groups sized for its shortest one (RISC-V V:
/// 256-bit groups at every VLEN). Not SVE: NEON is AArch64's own
/// fixed-length ISA. (docs/pipeline.md, "Element-wise loops on RISC-V V".)
bool leavesLanesToLoopVectorizer(const llvm::TargetTransformInfo &TTI,
                                 const llvm::Function &F);
/// Lanes of an element-wise loop nest (emitWriteLoop, emitMaterialize)
/// writing \p Elem in \p F: getVectorWidth's, or where
/// leavesLanesToLoopVectorizer, vscale x N for the loop vectorizer - twice
/// its register for the compute type (LMUL 4 on RISC-V, whose vectorizer
/// counts LMUL-2 groups; the register budget decides, docs/pipeline.md).
llvm::ElementCount getElementwiseWidth(const llvm::TargetTransformInfo &TTI,
                                       const llvm::Function &F,
                                       llvm::Type *Elem);

/// Logical dims of \p Dst in storage order (decreasing stride, extent-1
/// dims first); the last one is the lane dim.
llvm::SmallVector<unsigned, 8> storageOrder(const StridedView &Dst);
/// The first memory a token reads: its own (getMemoryView), else that of
/// its fused producer's token operands, depth first; nullopt if none.
std::optional<StridedView> firstMemoryView(const llvm::Value *Token);
/// Computes the lanes at a logical index (see ElementEmitter::emit).
using ElementFn = llvm::function_ref<llvm::Value *(
    llvm::IRBuilderBase &, llvm::ArrayRef<llvm::Value *>, unsigned, int)>;
/// Writes every element of \p Dst with \p Elements: a loop nest in \p Dst's
/// storage order, the innermost loop \p Lanes wide with an exact scalar
/// tail. Returns the vector width used. With scalable \p Lanes the
/// innermost loop is scalar, for the loop vectorizer (getElementwiseWidth,
/// LoopHint::ScalableVF), and 1 is returned.
/// With \p RowBlock > 1 and fixed \p Lanes the next-outer dim is walked in
/// blocks of up to that many rows inside the lane loop (cache reuse for
/// gathered reads).
/// With \p Share, the outermost loop (when it has two or more iterations)
/// is shared out through it; \p Elements may then be called at another
/// function's builder.
unsigned emitWriteLoop(llvm::IRBuilderBase &B, const StridedView &Dst,
                       llvm::ElementCount Lanes, ElementFn Elements,
                       int64_t RowBlock = 1, LoopSharer Share = {});
/// Writes \p Src (any token: memory, or fused ops) into \p Dst: a loop nest
/// in \p Dst's storage order, the innermost loop \p Lanes wide with an
/// exact scalar tail (emitWriteLoop), its outermost loop shared out through
/// \p Share if given. Returns the vector width used.
unsigned emitMaterialize(llvm::IRBuilderBase &B, TensorValues &Values,
                         const llvm::Value *Src, const StridedView &Dst,
                         llvm::ElementCount Lanes, LoopSharer Share = {});

/// Ops whose result ElementEmitter computes element by element from its
/// operands (so a consumer can read it without a buffer).
bool isFusibleProducer(OpKind Kind);
/// Ops that read their operands element by element through ElementEmitter.
bool isFusibleConsumer(OpKind Kind);
/// The unary ops and the ops made from C vector operators: each result
/// element depends only on the operands' elements at its index.
bool isElementwise(OpKind Kind);
bool isContraction(OpKind Kind);
/// Whether \p U only takes its operand's shape (the fill form of broadcast,
/// which a splat `t * 0.5f` or `t >> 8` becomes), not its data.
bool readsShapeOnly(const llvm::Use &U);

/// Lanes \p X (compute type) through the unary elementwise op \p Kind.
llvm::Value *emitUnaryElementwise(llvm::IRBuilderBase &B, OpKind Kind,
                                  llvm::Value *X);

/// What ElementEmitter reads of a token with run-time extents, as i64
/// values emitted once before the loop nest (RuntimeFusion.h), valid in
/// the parallel regions forked there too.
struct RuntimeTokenExtents {
  std::optional<RuntimeView> View; ///< a tensor in memory
  /// Otherwise, its op's operands' logical extents, in operand order, and
  /// the op's parameters per logical dim: pad's low and high, reduce.*'s
  /// window and strides.
  llvm::SmallVector<llvm::SmallVector<llvm::Value *, 4>, 2> Operands;
  llvm::SmallVector<llvm::Value *, 4> Param1, Param2;
  /// The result's logical extents (reshape.permute).
  llvm::SmallVector<llvm::Value *, 4> Result;
};

/// The run-time extents of the tokens of one loop nest: memory tokens, and
/// the ops computing the others, as keys.
using RuntimeTokens = llvm::DenseMap<const llvm::Value *, RuntimeTokenExtents>;

/// The value of a token at a logical index.
class ElementEmitter {
public:
  /// Emits at \p B, reading tokens through \p Values; the extents of those
  /// in \p Runtime from there (reduce.* is then computed per element too).
  ElementEmitter(llvm::IRBuilderBase &B, TensorValues &Values,
                 const RuntimeTokens *Runtime = nullptr)
      : B(B), Values(Values), Runtime(Runtime) {}

  /// The elements of \p Token at logical index \p Idx and, when \p VF > 1,
  /// the next VF-1 indices along logical dim \p LaneDim (each lane adds
  /// \p LaneStep to that dim's index). Returns compute-type lanes.
  llvm::Value *emit(const llvm::Value *Token, llvm::ArrayRef<llvm::Value *> Idx,
                    unsigned VF, int LaneDim, int64_t LaneStep = 1);

  /// Computes the lanes of a substituted token (see substitute()).
  using LeafFn = std::function<llvm::Value *(
      llvm::IRBuilderBase &, llvm::ArrayRef<llvm::Value *> Idx, unsigned VF,
      int LaneDim)>;
  /// From now on emit() takes \p Token's lanes from \p Fn instead of its
  /// memory or producer: values computed elsewhere, e.g. the finished
  /// accumulators of a GEMM whose consumer is fused into it.
  void substitute(const llvm::Value *Token, LeafFn Fn) {
    Leaves[Token] = std::move(Fn);
  }

private:
  const RuntimeTokenExtents *runtimeOf(const llvm::Value *Key) const {
    if (!Runtime)
      return nullptr;
    auto It = Runtime->find(Key);
    return It == Runtime->end() ? nullptr : &It->second;
  }
  /// Extent of logical dim \p Dim of the token operand \p I of the op
  /// \p Info types, as an i64.
  llvm::Value *operandExtent(const TokenInfo &Info, unsigned I, unsigned Dim);
  /// pad's low (\p Second false) or high amount of logical dim \p Dim.
  llvm::Value *padAmount(const TokenInfo &Info, bool Second, unsigned Dim);
  /// \p Read()'s lanes where operand \p I of \p Info's op has elements;
  /// poison, and nothing read, where it is empty at run time (a clamped
  /// index would read outside it).
  llvm::Value *readUnlessEmpty(const TokenInfo &Info, unsigned I,
                               llvm::function_ref<llvm::Value *()> Read);
  llvm::Value *emitPad(const TokenInfo &Info, llvm::ArrayRef<llvm::Value *> Idx,
                       unsigned VF, int LaneDim, int64_t LaneStep);
  llvm::Value *emitConcat(const TokenInfo &Info,
                          llvm::ArrayRef<llvm::Value *> Idx, unsigned VF,
                          int LaneDim, int64_t LaneStep);
  /// reduce.* of a token with run-time extents: its window folded in
  /// order per output.
  llvm::Value *emitReduce(const TokenInfo &Info,
                          llvm::ArrayRef<llvm::Value *> Idx, unsigned VF,
                          int LaneDim, int64_t LaneStep);
  /// Lanes of a tensor in memory with run-time extents.
  llvm::Value *emitRuntimeLoad(const RuntimeView &View,
                               llvm::ArrayRef<llvm::Value *> Idx, unsigned VF,
                               int LaneDim, int64_t LaneStep);

  /// The lanes of the fused producer of a token (\p Info).
  llvm::Value *emitOp(const TokenInfo &Info, llvm::ArrayRef<llvm::Value *> Idx,
                      unsigned VF, int LaneDim, int64_t LaneStep);
  /// Its lanes one at a time (index maps that are not affine along the
  /// lane dim: concat, reshape.permute across rows).
  llvm::Value *emitPerLane(const TokenInfo &Info,
                           llvm::ArrayRef<llvm::Value *> Idx, unsigned VF,
                           int LaneDim, int64_t LaneStep);
  llvm::Value *emitUnary(OpKind Kind, llvm::Value *X);
  llvm::Value *emitInstruction(const llvm::CallBase &Op, unsigned Opcode,
                               llvm::ArrayRef<llvm::Value *> Lanes);
  llvm::Value *emitFPConvert(llvm::Value *X, llvm::Type *Elem);
  llvm::Value *emitInsertElement(const llvm::CallBase &Op,
                                 const TensorType &ResultTy,
                                 llvm::ArrayRef<llvm::Value *> Idx,
                                 unsigned VF, int LaneDim, int64_t LaneStep);

  llvm::IRBuilderBase &B;
  TensorValues &Values;
  llvm::DenseMap<const llvm::Value *, LeafFn> Leaves;
  const RuntimeTokens *Runtime;
};

/// The contractions computed into a tensor.store's destination (the store
/// of the typeinfo of the op's result, as tlx-bufferize leaves them), as
/// (store, op) pairs in program order, for which \p Wanted(kind, rank of
/// the stored tensor) holds.
llvm::SmallVector<std::pair<llvm::CallBase *, llvm::CallBase *>, 8>
collectStoredContractions(llvm::Function &F,
                          llvm::function_ref<bool(OpKind, unsigned)> Wanted);

/// Erases a lowered op's typeinfos and then the op, once nothing reads them.
void eraseOpIfDead(llvm::CallBase &Op);

} // namespace tlx

#endif // TLX_CODEGEN_INDEXMAP_H
