//===- GemmEmitterImpl.h - Shared pieces of the GEMM emitter ----*- C++ -*-===//
//
// Loop and addressing helpers shared by the GEMM emitter's kernels (vector,
// AMX, scalar). Internal to lib/Gemm and lib/Target.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_GEMM_GEMMEMITTERIMPL_H
#define TLX_GEMM_GEMMEMITTERIMPL_H

#include "Codegen/KernelFunctions.h"
#include "Codegen/Loops.h"
#include "Gemm/GemmEmitter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Triple;
}

namespace tlx {
namespace gemm {

/// Makes the backend keep \p Bits-wide vectors in \p F legal (raises its
/// "min-legal-vector-width").
void requireVectorWidth(llvm::Function &F, unsigned Bits);

/// Runtime scratch buffers (lib/Runtime/scratch.c), one per slot and thread.
enum class ScratchSlot {
  PackedA = 0,
  PackedB = 1,
  ColumnSums = 2,
  CStage = 3,
  AEdge = 4,
  RowSums = 5
};

/// Emits a call returning a 64-byte aligned buffer of \p Bytes bytes.
llvm::Value *emitScratch(llvm::IRBuilderBase &B, ScratchSlot Slot,
                         int64_t Bytes);
/// The same for a size computed at run time (an i64 value).
llvm::Value *emitScratch(llvm::IRBuilderBase &B, ScratchSlot Slot,
                         llvm::Value *Bytes);

/// Address of element (Row, Col) of \p Op (i64 indices).
llvm::Value *elementPtr(llvm::IRBuilderBase &B, const GemmOperand &Op,
                        llvm::Value *Row, llvm::Value *Col);

/// Converts one element (or each lane of a vector) to \p To: sign/zero
/// extension or truncation for integers per \p IsSigned, int<->fp
/// conversions, fp extension.
llvm::Value *convertElement(llvm::IRBuilderBase &B, llvm::Value *V,
                            llvm::Type *To, bool IsSigned);

/// Acc + X * Y in Acc's type: llvm.fmuladd for floats, wrapping mul/add for
/// integers. Works on scalars and vectors.
llvm::Value *multiplyAdd(llvm::IRBuilderBase &B, llvm::Value *Acc,
                         llvm::Value *X, llvm::Value *Y);

/// Where a packed micro-panel's elements come from: an Extent x Kc block
/// of Op at (Row0, Col0), in the "m-or-n by k" orientation; KIsRow says k
/// indexes Op's rows (B) rather than its columns (A).
struct PanelSource {
  const GemmOperand &Op;
  llvm::Value *Row0, *Col0;
  llvm::Value *Extent, *Kc;
  bool KIsRow;
};

/// \p AddC ? \p Old + \p Acc : \p Acc (a block's sums added to C's so
/// far, or not), for floats and integers, scalars and vectors.
llvm::Value *addOrKeep(llvm::IRBuilderBase &B, llvm::Value *AddC,
                       llvm::Value *Old, llvm::Value *Acc);

/// Whether a micro-panel of \p Width rows or columns and \p Kcp k values
/// gets less than that from its block (\p Extent of them, \p Kc k values):
/// it must be zeroed first, as the microkernel always runs whole panels.
llvm::Value *isPartialPanel(llvm::IRBuilderBase &B, llvm::Value *Extent,
                            llvm::Value *Width, llvm::Value *Kc,
                            llvm::Value *Kcp);

/// When \p Partial: zeros the Kcp x Width elements of \p PackT at \p Panel.
void emitZeroPanelIf(llvm::IRBuilderBase &B, llvm::Value *Partial,
                     llvm::Value *Panel, llvm::Value *Width, llvm::Value *Kcp,
                     llvm::Type *PackT);

/// Copies \p Src element by element into a micro-panel laid out
/// [Kc/KG][PanelWidth][KG] of \p PackT: element (r, k) goes to
/// (k/KG)*PanelWidth*KG + r*KG + k%KG, converted to \p PackT (and with its
/// sign bit flipped when \p FlipSign). Elements of the panel the block
/// does not cover are left as they are.
void emitPanelCopy(llvm::IRBuilderBase &B, const PanelSource &Src,
                   llvm::Type *PackT, unsigned KG, llvm::Value *Panel,
                   llvm::Value *PanelWidth, bool FlipSign);

/// Applies \p G's epilogue to the finished sums of C's block of \p Rows
/// rows from \p Row0 and \p Cols columns from \p Col0, read from \p Sums
/// (C, or a staging copy of it addressed by C's row and column numbers)
/// and written to G.result(): 4 columns at a time where both have
/// contiguous rows (kernels whose accumulators the epilogue cannot take:
/// ZA tiles, scalable vectors).
void emitEpiloguePass(llvm::IRBuilderBase &B, const GemmDesc &G,
                      const GemmOperand &Sums, llvm::Value *Row0,
                      llvm::Value *Rows, llvm::Value *Col0, llvm::Value *Cols);

/// GemmTarget::Vector (GemmVector.cpp). Returns false, emitting nothing,
/// when no vector kernel handles the element types.
bool emitVectorGemm(llvm::IRBuilderBase &B, const GemmDesc &G,
                    const llvm::TargetTransformInfo &TTI, GemmPlan &Plan,
                    std::string &Why);

/// How a run-time-sized GEMM blocks an M of at most SmallRuntimeM rows:
/// as any other M (the widest register block), with a register block that
/// pads such an M least for every M (one loop nest), or with that block
/// for such an M only (a second copy of the loop nest).
enum class SmallRowsBlocking { AsAnyM, ForEveryM, SecondNest };
SmallRowsBlocking chooseSmallRowsBlocking(const GemmDesc &G,
                                          const llvm::TargetTransformInfo &TTI,
                                          const llvm::Function &F);

/// A dot product or widening multiply-add a vector target has beyond the
/// plain multiply-add, chosen in its folder: x86's (chooseX86Dot), NEON's
/// (chooseNeonDot), a scalable target's (ScalableTarget::ChooseDot).
struct VectorDot {
  /// acc = ID(acc, a, b) on <[vscale x] lanes x C> accumulators and
  /// <[vscale x] lanes * KG x PackT> operands (NEON and SVE sdot, bfdot),
  /// each operand bitcast to the type ID takes (x86's vpdpbusd: i32 lanes).
  llvm::Intrinsic::ID ID = llvm::Intrinsic::not_intrinsic;
  /// The types ID is overloaded on.
  enum class Overload { None, Accumulator, AccumulatorAndOperand };
  Overload Overloads = Overload::Accumulator;
  bool SwapOperands = false; ///< B first (USDOT's unsigned operand)
  /// acc += ID(a, b): ID returns the k group's sums without accumulating
  /// (x86's vpmaddwd).
  bool AddsProducts = false;
  /// A's sign bit flipped (a + 128: signed A on an instruction that
  /// multiplies unsigned bytes by signed ones, vpdpbusd) while it is packed,
  /// or in each broadcast of A read in place; the accumulators start at
  /// -128 * sum_k B[k][j], which the driver computes with the same
  /// instruction from the packed B panel.
  bool BiasA = false;
  /// k groups per iteration of the microkernel's k loop (2: the loop's own
  /// instructions amortized over more of a short dot product's).
  unsigned KUnroll = 1;
  /// K blocks sized for the B micro-panel to take all of L1 rather than
  /// two thirds (operands widened to i16 while packed: the A panel is
  /// small next to B's).
  bool KBlockFillsL1 = false;
  /// Vectors of B per register block, when the target's cores prefer a
  /// shape of their own (0: the driver's, two vectors and as many rows as
  /// the registers hold).
  unsigned BlockVectors = 0;
  /// Instead of ID: acc += sext(a) * sext(b) on operands packed as PackT,
  /// which the backend selects as a widening multiply-add (RVV vwmacc).
  bool Widening = false;
  /// Instead of both: emits Acc's next value for \p A, one k group of one
  /// row of A as a scalar (a PackT, or KG of them as one integer), and
  /// \p BVec, a vector of B's packed elements - for an instruction that
  /// takes A's element as a scalar operand and that generic IR does not
  /// select (RVV vfwmacc.vf: the multiply-add of extended operands
  /// becomes a conversion and vfmacc.vf).
  llvm::Value *(*EmitScalarStep)(llvm::IRBuilderBase &B, llvm::Value *Acc,
                                 llvm::Value *A, llvm::Value *BVec) = nullptr;
  llvm::Type *PackT = nullptr; ///< packed A and B elements
  unsigned KG = 1;             ///< k values per accumulator lane
  std::string Name;            ///< the remark's kernel, e.g. "s8s8s32 sdot"
};

/// What a target with scalable vector registers brings to the vector GEMM
/// driver (GemmVector.cpp), which then emits vector-length agnostic code.
/// Each lives in its folder: lib/Target/AArch64/SVEKernels.cpp,
/// lib/Target/RISCV/RVVKernels.cpp.
struct ScalableTarget {
  const char *Name;    ///< the remark's kernel prefix: "sve", "rvv"
  unsigned VscaleBits; ///< bits of one register per vscale: SVE 128, RVV 64
  /// The target's dot product for \p G with \p F's features, if any.
  bool (*ChooseDot)(const GemmDesc &G, const llvm::Function &F, VectorDot &Dot);
  /// Whether vectors of \p Elem convert to wider types in registers with
  /// \p F's features (else B is packed element by element).
  bool (*ConvertsInVectors)(const llvm::Type *Elem, const llvm::Function &F);
};
const ScalableTarget &sveTarget();
const ScalableTarget &rvvTarget();

/// AArch64's NEON dot products for \p G with \p F's features: int8 ->
/// i32 (SDOT, UDOT, USDOT either way round) and bf16 -> f32 (BFDOT)
/// (lib/Target/AArch64/DotProducts.cpp).
bool chooseNeonDot(const GemmDesc &G, const llvm::Function &F, VectorDot &Dot);

/// x86's dot products for \p G on \p Bits-bit vectors with \p F's
/// features: vpdpbusd (VNNI) for int8 with signed B, vpmaddwd or vpdpwssd
/// for every integer operand that fits i16, vdpbf16ps for bf16
/// (lib/Target/X86/VectorDots.cpp).
/// Without \p AllowBias, signed int8 A takes vpdpwssd on VNNI rather than
/// vpdpbusd with a bias (a kernel with no column sums to correct it).
bool chooseX86Dot(const GemmDesc &G, const llvm::Function &F, unsigned Bits,
                  VectorDot &Dot, bool AllowBias = true);

/// The fixed-width vector target's dot product for \p G on \p Bits-bit
/// vectors of \p F: x86's (chooseX86Dot) or, on 128 bits, NEON's
/// (chooseNeonDot); \p AllowBias as for chooseX86Dot.
bool chooseFixedWidthDot(const GemmDesc &G, const llvm::Function &F,
                         unsigned Bits, VectorDot &Dot, bool AllowBias = true);

/// \p Dot's intrinsic (Dot.ID) on the accumulator \p Acc and the operand
/// vectors \p X (A's side) and \p Y: Acc's next value (acc + ID(x, y) where
/// Dot.AddsProducts).
llvm::Value *emitVectorDotCall(llvm::IRBuilderBase &B, const VectorDot &Dot,
                               llvm::Value *Acc, llvm::Value *X,
                               llvm::Value *Y);

/// The L2 cache of \p F's CPU in bytes where TLX knows it better than
/// LLVM's x86 cost model, else 0 (lib/Target/X86/VectorDots.cpp).
uint64_t x86L2CacheBytes(const llvm::Function &F);

/// The scalable-vector target of \p F, or null when its vector GEMMs use
/// fixed-width vectors.
const ScalableTarget *scalableTargetFor(const llvm::Function &F,
                                        const llvm::TargetTransformInfo &TTI);

/// The rows of A or columns of B up to which a GEMM is a skinny product
/// that GemmStreamed.cpp streams.
constexpr int64_t MaxStreamedRows = 16;
/// The limit in force: MaxStreamedRows, or what -tlx-stream-max-rows says.
int64_t streamedRowsLimit();

/// A GEMM with static extents whose M or N is at most MaxStreamedRows
/// (a matrix-vector product, a few tokens) and whose large operand has a
/// contiguous side, on a target with vector registers for C's type: emits
/// the streaming kernel (GemmStreamed.cpp) and returns true; else emits
/// nothing and returns false.
bool emitStreamedGemm(llvm::IRBuilderBase &B, const GemmDesc &G,
                      const llvm::TargetTransformInfo &TTI, GemmPlan &Plan);

/// A GEMM with run-time extents: the streaming kernels when M or N is at
/// most \p MaxRows (<= MaxStreamedRows) at run time and the large operand
/// has a contiguous side, else \p EmitOther's code.
void emitRuntimeStreamedGemmOr(llvm::IRBuilderBase &B, const GemmDesc &G,
                               int64_t MaxRows,
                               const llvm::TargetTransformInfo &TTI,
                               GemmPlan &Plan,
                               llvm::function_ref<void()> EmitOther);

/// Whether emitSegmentedStreamedGemm can compute \p G (GemmDesc::Segments)
/// on \p F and every target above it: A's rows contiguous (its column
/// stride the constant 1), C's type accumulated in \p F's vectors.
bool canStreamSegments(const GemmDesc &G, const llvm::Function &F,
                       const llvm::TargetTransformInfo &TTI);

/// A batch of GEMMs whose k runs on across the batch (GemmDesc::Segments)
/// with N at most MaxStreamedRows at run time (the caller checks): the dot
/// kernel streams A's rows once, summing each GEMM's segment of k into its
/// own C - the group sums of group-quantized weights in one pass.
void emitSegmentedStreamedGemm(llvm::IRBuilderBase &B, const GemmDesc &G,
                               const llvm::TargetTransformInfo &TTI,
                               GemmPlan &Plan);

/// GemmTarget::AMX (GemmAMX.cpp). Returns false, emitting nothing, when
/// AMX cannot do the element types.
bool emitAMXGemm(llvm::IRBuilderBase &B, const GemmDesc &G, GemmPlan &Plan,
                 std::string &Why);

/// GemmTarget::SME (lib/Target/AArch64/GemmSME.cpp). Returns false,
/// emitting nothing, when SME cannot do the element types or the target
/// is not AArch64.
bool emitSMEGemm(llvm::IRBuilderBase &B, const GemmDesc &G, GemmPlan &Plan,
                 std::string &Why);
/// Whether emitSMEGemm can compute \p G in \p M (it would not decline).
bool canEmitSMEGemm(const llvm::Module &M, const GemmDesc &G);

/// The fallback: a triple loop through the strides, any element types.
void emitScalarGemm(llvm::IRBuilderBase &B, const GemmDesc &G);

/// \p X rounded up to a multiple of \p M (both positive).
inline int64_t roundUp(int64_t X, int64_t M) { return (X + M - 1) / M * M; }

/// Whether \p V is the constant 1 (a unit stride).
bool isConstOne(const llvm::Value *V);

/// The alignment of one element of \p T: its size in bytes.
llvm::Align elementAlign(const llvm::Type *T);

/// Which dimension of C a GEMM is split along over threads.
enum class GemmSplit { None, Rows, Cols };

/// How a GEMM of \p G on \p F with an MR x NR register block is split over
/// the OpenMP threads (GemmParallel.cpp): None unless \p F's module is
/// compiled with -fopenmp, threads are on and \p G is big enough - its
/// multiply-adds, each costing \p WorkPerMAC times a blocked GEMM's (a
/// streamed product's are memory-bound), reach -tlx-threads-min-work.
GemmSplit chooseGemmSplit(const llvm::Function &F, const GemmDesc &G,
                          int64_t MR, int64_t NR, int64_t WorkPerMAC = 1);

/// Emits at \p B a fork of \p G over the OpenMP threads: each thread runs
/// \p EmitShare's code on a contiguous share of C's rows or columns (per
/// \p Split, whole multiples of \p Unit), given as \p G with
/// RowBegin/RowEnd or ColBegin/ColEnd set. Describes the split in
/// \p Plan.Split.
void emitForkedGemm(
    llvm::IRBuilderBase &B, const GemmDesc &G, GemmSplit Split, int64_t Unit,
    GemmPlan &Plan,
    llvm::function_ref<void(llvm::IRBuilderBase &, const GemmDesc &)>
        EmitShare);

/// Emits \p G through \p EmitShare, which emits one share of C with an
/// MR x NR register block: on the calling thread, or forked over the
/// OpenMP threads (chooseGemmSplit, or emitRuntimeForkedGemm for run-time
/// extents). What every kernel with a loop nest of its own calls.
void emitThreadedGemm(
    llvm::IRBuilderBase &B, const GemmDesc &G, int64_t MR, int64_t NR,
    GemmPlan &Plan,
    llvm::function_ref<void(llvm::IRBuilderBase &, const GemmDesc &)>
        EmitShare,
    int64_t WorkPerMAC = 1);

/// A GEMM with run-time extents (G.isRuntimeSized()) on \p F with an
/// MR x NR register block: when threads are on (chooseGemmSplit's rules),
/// emits a run-time choice between \p EmitShare on all of C, for GEMMs
/// below the threads' minimum work, and a fork over the larger of M and N
/// in whole MR or NR blocks, each thread running \p EmitShare on its
/// share. Returns false, emitting nothing, when threads are off.
bool emitRuntimeForkedGemm(
    llvm::IRBuilderBase &B, const GemmDesc &G, int64_t MR, int64_t NR,
    GemmPlan &Plan,
    llvm::function_ref<void(llvm::IRBuilderBase &, const GemmDesc &)>
        EmitShare,
    int64_t WorkPerMAC = 1);

/// The share of C \p Share computes (its RowBegin..ColEnd as
/// emitRuntimeForkedGemm sets them, or the one range emitForkedGemm sets)
/// as a run-time-sized GEMM of its own: operands start at the share, the
/// epilogue is told where its values really are. \p Share itself when it
/// is all of C.
GemmDesc shareAsGemm(llvm::IRBuilderBase &B, const GemmDesc &Share);

/// The rows or columns of C each chunk of an AMX GEMM split over threads
/// has (GemmParallel.cpp): whole 2 x 2 tile blocks, about 8 chunks.
int64_t amxThreadChunk(const GemmDesc &G);

/// emitForkedGemm for kernels that need static shapes (AMX): C is split
/// into chunks of \p Chunk rows or columns (the last one shorter), and each
/// thread calls \p EmitChunk for each of its chunks with a GEMM of that
/// shape whose operands start at the chunk (the epilogue still sees C's
/// row and column numbers).
void emitForkedChunks(
    llvm::IRBuilderBase &B, const GemmDesc &G, GemmSplit Split, int64_t Chunk,
    GemmPlan &Plan,
    llvm::function_ref<void(llvm::IRBuilderBase &, const GemmDesc &)>
        EmitChunk);

/// C = Init, element by element (before a kernel that reads C itself).
void emitInitCopy(llvm::IRBuilderBase &B, const GemmDesc &G);

/// One ISA level of run-time GEMM dispatch (GemmDispatch.cpp).
struct ISALevel {
  int32_t Level;        ///< what tlxrt_isa_level() returns for it
  const char *Name;     ///< the version's name, in symbols and remarks
  const char *Key;      ///< the feature that tells whether a target has it
  const char *Features; ///< the target features the version adds
  /// Whether a version at this level has a faster kernel for the GEMM
  /// (null: every GEMM).
  bool (*Helps)(const GemmDesc &);
};

/// The levels a target architecture dispatches between, lowest first;
/// empty where TLX emits one version. Each target's table lives in its
/// folder (lib/Target/<Arch>/DispatchLevels.cpp).
llvm::ArrayRef<ISALevel> dispatchLevels(const llvm::Triple &TT);
llvm::ArrayRef<ISALevel> x86DispatchLevels();
llvm::ArrayRef<ISALevel> powerDispatchLevels();

/// s8, u8 and s16 operands fit i16 exactly: the integer kernels that
/// multiply i16 pairs (vpmaddwd, xvi16ger2, vwmacc) take them widened.
bool fitsI16(const GemmOperand &Op);

/// "s8u8s32": an integer GEMM's operand and result types, for remarks.
std::string intTypesName(const GemmDesc &G);

/// A matrix-accumulator kernel of the fixed-width vector driver
/// (GemmVector.cpp): accumulator registers hold the register block, each
/// 4 rows of C by one vector of columns, fed by outer products of packed
/// rows of A and a packed vector of B. Power10's MMA
/// (lib/Target/PowerPC/MMAKernels.cpp).
struct AccumulatorKernel {
  llvm::Intrinsic::ID ID = llvm::Intrinsic::not_intrinsic; ///< outer product
  std::string Name;            ///< the remark's kernel: "f32 mma xvf32gerpp"
  llvm::Type *PackT = nullptr; ///< packed A and B elements
  unsigned KG = 1;             ///< k values per 32-bit lane of an operand
  unsigned MR = 0, NV = 0;     ///< the register block: rows, B vectors
  /// Sign bits flipped while packed, for an outer product whose operands'
  /// signedness is not the GEMM's (xvi8ger4: signed A bytes by unsigned B
  /// bytes): unsigned A as A - 128, signed B as B + 128. The driver adds
  /// the correction: -128 x A's packed row sums (FlipB), +128 x B's packed
  /// column sums (FlipA), and -16384 x K when both are flipped.
  bool FlipA = false, FlipB = false;
  /// Adds the KG packed elements in each 32-bit lane of \p Packed (one
  /// 16-byte vector of a panel) to that lane of \p Sums (<4 x i32>), read as
  /// \p Signed elements - the row and column sums of FlipA / FlipB.
  llvm::Value *(*SumGroups)(llvm::IRBuilderBase &B, llvm::Value *Sums,
                            llvm::Value *Packed, bool Signed) = nullptr;
  bool flipsSigns() const { return FlipA || FlipB; }
};

/// Power10's kernel for \p G when \p F has MMA (and LLVM compiles it
/// right).
bool chooseMMAKernel(const GemmDesc &G, const llvm::Function &F,
                     AccumulatorKernel &K);

/// Whether Power10's MMA has an outer product for \p G's element types
/// (the dispatch level's filter).
bool hasMMAKernel(const GemmDesc &G);

/// The target features a Power10 MMA kernel adds to a POWER8/9 function:
/// ISA 3.1 vectors and MMA, not prefixed or PC-relative code.
const char *mmaTargetFeatures();

/// GemmTarget::MMA (-fplugin-arg-tlx-target=mma): the GEMM on MMA, in a
/// kernel function with MMA's features when the caller lacks them, after
/// a run-time check (tlxrt_mma_require). Returns false, emitting nothing,
/// when MMA cannot do it (not ppc64le, no outer product for the types,
/// TLX built for LLVM 19).
bool emitMMATargetGemm(llvm::IRBuilderBase &B, const GemmDesc &G,
                       const llvm::TargetTransformInfo &TTI, GemmPlan &Plan,
                       std::string &Why);

/// The k loop of an MMA kernel over packed panels (A [kc/KG][MR][KG] at
/// \p APanel; B's k groups \p BStride elements apart at \p BPanel):
/// returns the block as MR x NV vectors of \p AccVecT, element V * MR + R
/// holding row R, columns [V * W, V * W + W).
llvm::SmallVector<llvm::Value *, 32>
emitMMAKLoop(llvm::IRBuilderBase &B, const AccumulatorKernel &K,
             llvm::FixedVectorType *AccVecT, llvm::Value *APanel,
             llvm::Value *BPanel, llvm::Value *BStride, llvm::Value *Kcp);

} // namespace gemm
} // namespace tlx

#endif // TLX_GEMM_GEMMEMITTERIMPL_H
