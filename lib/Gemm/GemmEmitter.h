//===- GemmEmitter.h - Blocked GEMM code generation in LLVM IR --*- C++ -*-===//
//
// The one blocking framework behind every contraction TLX lowers (matmul,
// the mma family, contract, convolution through im2col): it emits LLVM IR
// for C (+)= A x B on 2-D operands addressed through element strides,
// choosing cache blocking, packing and a register- or tile-blocked
// microkernel from the target (AVX-512 / AVX2 / SSE / NEON / SVE vectors,
// Intel AMX tiles or Arm SME's ZA tiles).
//
//===----------------------------------------------------------------------===//

#ifndef TLX_TRANSFORMS_GEMMEMITTER_H
#define TLX_TRANSFORMS_GEMMEMITTER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include <functional>
#include <string>

namespace llvm {
class TargetTransformInfo;
}

namespace tlx {

/// A 2-D operand in memory: element (i, j) is at Ptr + i*RowStride +
/// j*ColStride elements. Either stride may be 1 (row- or column-major) or
/// anything else (sub-tensors, layouts).
struct GemmOperand {
  llvm::Value *Ptr = nullptr;
  llvm::Type *Elem = nullptr;
  llvm::Value *RowStride = nullptr; ///< i64, elements
  llvm::Value *ColStride = nullptr; ///< i64, elements
  /// Integer operands: widen with sign (true) or zero (false) extension.
  bool IsSigned = true;
};

/// Elementwise work fused into a GEMM (a consumer of its result): maps
/// \p Acc, the finished value of C's row \p Row from column \p Col on (a
/// vector of consecutive columns, or one element; C's element type), to
/// what C stores there. Row and Col are i64.
using GemmEpilogue = std::function<llvm::Value *(
    llvm::IRBuilderBase &B, llvm::Value *Acc, llvm::Value *Row,
    llvm::Value *Col)>;

/// C[M x N] = (Accumulate ? C : 0) + A[M x K] x B[K x N], products and sums
/// in C's element type (narrower operands are widened to it; integers wrap),
/// then C = Epilogue(C) when an epilogue is given: applied in registers as
/// the last K block writes C back. C holds partial sums before that, so it
/// must not be read by the epilogue or overlap A or B.
///
/// With Out (its Ptr set), the finished values go to Out instead, in Out's
/// element type (an epilogue ending in a narrower type: i32 -> i8, f32 ->
/// bf16; the epilogue returns Out's type), and C only holds partial sums
/// between K blocks - never touched when K fits one block. Out must not
/// overlap anything the GEMM or the epilogue reads.
///
/// With Init (its Ptr set; needs Accumulate) the sums start from Init
/// rather than C: any strides, e.g. 0 for a broadcast bias. Init must not
/// overlap C.
///
/// RuntimeM/N/K (i64 values) are the extents of a GEMM whose sizes the
/// program computes (docs/ops.md, "Run-time sizes"): when set, the loops
/// run to them and M, N, K are only the sizes the blocking plans for
/// (PlanningExtent). AMX kernels compute their tile configurations at run
/// time, SME kernels their predicates.
///
/// RowBegin/RowEnd and ColBegin/ColEnd (i64 values, null for all of C) make
/// the code compute only that share of C: one thread's part of a GEMM split
/// over threads (GemmParallel.cpp). M and N stay the whole GEMM's, so every
/// share is blocked alike.
struct GemmDesc {
  int64_t M = 0, N = 0, K = 0;
  llvm::Value *RuntimeM = nullptr, *RuntimeN = nullptr, *RuntimeK = nullptr;
  GemmOperand A, B, C;
  GemmOperand Out;
  GemmOperand Init;
  bool Accumulate = false;
  GemmEpilogue Epilogue;
  /// The epilogue reads no memory and cannot trap (unary elementwise ops,
  /// roundings): it may run on the lanes of a vector past C's edge.
  bool LanewiseEpilogue = false;
  /// A run-time-sized GEMM's register block: the one that pads an M of
  /// this many rows least, as that constant M would choose (0: the widest).
  int64_t BlockRowsFor = 0;
  llvm::Value *RowBegin = nullptr, *RowEnd = nullptr;
  llvm::Value *ColBegin = nullptr, *ColEnd = nullptr;
  /// A batch of Count GEMMs whose k runs on across the batch (the group
  /// sums of group-quantized weights, docs/pipeline.md "Quantized
  /// weights"): GEMM i reads A's columns and B's rows from i K and writes
  /// C and Init i CStride and InitStride elements further. Run-time sizes,
  /// vector targets and no epilogue only (emitSegmentedStreamedGemm).
  struct {
    llvm::Value *Count = nullptr, *CStride = nullptr, *InitStride = nullptr;
  } Segments;
  /// Run-time sizes: whether M or N may be small enough to stream the
  /// product (a shared kernel no skinny GEMM of its module calls leaves
  /// the streamed branch out).
  bool MayStream = true;

  /// Where the finished values go: Out when set, else C.
  const GemmOperand &result() const { return Out.Ptr ? Out : C; }
  bool isRuntimeSized() const { return RuntimeM != nullptr; }
  /// The extents as i64 values: the run-time ones, or constants.
  llvm::Value *extentM(llvm::IRBuilderBase &B) const {
    return RuntimeM ? RuntimeM : B.getInt64(M);
  }
  llvm::Value *extentN(llvm::IRBuilderBase &B) const {
    return RuntimeN ? RuntimeN : B.getInt64(N);
  }
  llvm::Value *extentK(llvm::IRBuilderBase &B) const {
    return RuntimeK ? RuntimeK : B.getInt64(K);
  }
};

/// The M, N and K a GEMM with run-time extents is blocked for: large, so
/// that every cache block is as big as the target allows (the loops cut
/// the last block of each dimension to the real extent).
constexpr int64_t PlanningExtent = 4096;

/// The M up to which a run-time-sized GEMM is blocked as one of that M (its
/// second plan: a register block that pads such an M least).
constexpr int64_t SmallRuntimeM = 64;

enum class GemmTarget { Vector, AMX, SME, MMA };

/// What the emitter chose, for remarks and tests.
struct GemmPlan {
  std::string Kernel;             ///< e.g. "avx512 f32 broadcast-FMA 14x32"
  int64_t MC = 0, NC = 0, KC = 0; ///< cache blocks
  int64_t MR = 0, NR = 0;         ///< register / tile block
  /// NR is per 128 bits of vector length (SVE: the register block is
  /// NR x vscale columns wide).
  bool ScalableNR = false;
  bool PackedA = false, PackedB = false;
  /// A skinny product streamed through its large operand
  /// (GemmStreamed.cpp): no cache or register blocks to speak of.
  bool Streamed = false;
  /// What a run-time-sized GEMM runs instead when its sizes call for it
  /// ("streamed ... when M or N <= 16 at run time"), for the remark.
  std::string RuntimeAlternative;
  /// How the GEMM is split over the OpenMP threads ("" when it runs on the
  /// calling thread only), e.g. "rows, in blocks of 14".
  std::string Split;
};

/// Emits the GEMM at \p B's insertion point (which must be inside a
/// function whose entry block can hold allocas); on return \p B is
/// positioned after the emitted code. Returns false, emitting nothing and
/// saying why in \p Why, when \p Target cannot do this GEMM (e.g. AMX with
/// f64 elements); the caller then falls back or reports. AMX stores C
/// tiles straight to memory, so its kernels apply an epilogue to each
/// 32 x 32 block of C right after storing it, while it is in L1.
bool emitGemm(llvm::IRBuilderBase &B, const GemmDesc &G, GemmTarget Target,
              const llvm::TargetTransformInfo &TTI, GemmPlan &Plan,
              std::string &Why);

/// emitGemm for GemmTarget::Vector with run-time dispatch (GemmDispatch.cpp):
/// when the function's x86 target lacks a level TLX has faster kernels for
/// (AVX2, AVX-512, AVX-512 VNNI/BF16), the GEMM is emitted once per level
/// into internal functions and the best one for the CPU is called. \p Plan
/// describes the base version; \p Versions names each version's kernel
/// (empty when the GEMM was emitted once). \p GetTTI gives the cost model
/// of a function (the versions have their own targets).
bool emitDispatchedGemm(
    llvm::IRBuilderBase &B, const GemmDesc &G,
    llvm::function_ref<const llvm::TargetTransformInfo &(llvm::Function &)>
        GetTTI,
    GemmPlan &Plan, std::string &Why,
    llvm::SmallVectorImpl<std::string> &Versions);

namespace gemm {
/// True if \p F's target enables \p Feature (given without the leading
/// '+', e.g. "avx512vnni"): its "target-cpu" as the target's CPU tables
/// define it, with its "target-features" applied on top.
bool hasTargetFeature(const llvm::Function &F, llvm::StringRef Feature);
} // namespace gemm

/// The x86 feature of the AMX tile product \p G needs ("amx-int8",
/// "amx-bf16" or "amx-fp16"), or "" when AMX cannot compute \p G.
llvm::StringRef getAMXFeature(const GemmDesc &G);

/// Whether Arm SME outer products can compute \p G (GemmSME.cpp): f32,
/// bf16 or f16 -> f32 (or a bf16/f16 result, summed in f32), i8 -> i32.
bool canUseSME(const GemmDesc &G);

} // namespace tlx

#endif // TLX_TRANSFORMS_GEMMEMITTER_H
