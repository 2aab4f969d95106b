//===- GemmStreamed.cpp - Skinny products at memory speed ------------------===//
//
// C = A x B where M or N is small (a matrix-vector product, a few tokens of
// a decode step): the work is a single pass over the large operand, so the
// blocked GEMM's packing and its MR x NR register block - with one useful
// column of 16 or 32 when N is 1 - cost more than the arithmetic. Here the
// large operand P (the weights) is streamed once, in place; the small one,
// X (the activations), is converted once into a scratch buffer of C's
// element type; C is l x s where l runs over P's long side and s over X's
// rows (up to MaxStreamedRows of them).
//
// Two kernels, by which of P's sides is contiguous:
//   dot:  P's k is (W x with W row-major, x W with W column-major): R rows
//         of P against SG rows of X in vector accumulators, U vectors of k
//         per step, summed across lanes at the end (then the k tail).
//   axpy: P's l is (x W with W row-major, W x with W column-major): KU
//         rows of P at a time scaled by X's elements and added into an
//         L1-resident block of sums - the whole row streams, as a plain
//         C loop's does.
// Each kernel is an internal function shared by every product of the same
// form, types, group width and target in the module (tlx.stream.*); a call
// site packs X, calls it on its share of l (threads split l) and applies
// the fused epilogue to C's few values afterwards, while they are in cache.
// docs/pipeline.md, "Skinny products".
//
//===----------------------------------------------------------------------===//

#include "Gemm/GemmEmitterImpl.h"
#include "Codegen/KernelFunctions.h"
#include "Codegen/Threads.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

#include <algorithm>
#include <optional>

using namespace llvm;

// Tests of the blocked GEMM's own mechanics on small shapes turn streaming
// off (0); the kernels take at most MaxStreamedRows.
static cl::opt<int64_t> StreamMaxRows(
    "tlx-stream-max-rows", cl::Hidden, cl::init(tlx::gemm::MaxStreamedRows),
    cl::desc("M or N up to which a product is streamed rather than blocked "
             "(0: never; at most 16)"));

// The axpy kernel reads KU rows of P a block of sums at a time, each a new
// stream that hardware prefetchers would start on only after a few misses
// (and stop at its page's end): it asks for the next step's rows as it
// reads this step's, this many bytes further along (0: not at all). On
// Zen 3, x W with W 4096 x 4096 f32 and M = 4: 11.9 -> 17.5 GB/s; the dot
// kernel's long row streams gained nothing from it.
static cl::opt<int64_t> StreamPrefetchBytes(
    "tlx-stream-prefetch", cl::Hidden, cl::init(0),
    cl::desc("Bytes past the same columns the axpy kernel prefetches the "
             "next rows of the large operand at (-1: none)"));

static cl::opt<unsigned> AxpyStepRows(
    "tlx-stream-axpy-step", cl::Hidden, cl::init(4),
    cl::desc("Rows of the large operand the axpy kernel reads per step"));

static cl::opt<bool> DotPrefetch(
    "tlx-stream-dot-prefetch", cl::Hidden, cl::init(true),
    cl::desc("The dot kernel prefetches the next block's rows where a step "
             "reads less than a cache line of each"));

// Four rows of X against two of P beat eight against one (fewer loads per
// multiply-add): on Zen 3, 4096 x 4096 f32 with N = 8 9.8 against 7.0
// GB/s, N = 16 5.8 against 4.0 (blocked GEMM: 5.7, 4.7). Blocks of k
// keeping X's block in L1 were slower still (the rows of W read in strips).
static cl::opt<unsigned> DotMaxGroup(
    "tlx-stream-dot-group", cl::Hidden, cl::init(4),
    cl::desc("Rows of the small operand the dot kernel takes at a time"));

namespace tlx {
namespace gemm {

int64_t streamedRowsLimit() {
  return std::clamp<int64_t>(StreamMaxRows, 0, MaxStreamedRows);
}

namespace {

enum class StreamForm { Dot, Axpy };

/// The product as the kernels see it: P (l, k), X (s, k), C and Init (l, s);
/// k summed in segments of Seg, segment i into C and Init i CSeg and ISeg
/// elements further (GemmDesc::Segments; else one segment of K).
struct StreamedProduct {
  GemmOperand P, X, C, Init;
  Value *L = nullptr, *S = nullptr, *K = nullptr;
  Value *Seg = nullptr, *CSeg = nullptr, *ISeg = nullptr;
};

GemmOperand transposed(GemmOperand Op) {
  std::swap(Op.RowStride, Op.ColStride);
  return Op;
}

/// \p G with its small side as X: A's rows (\p SmallM) or B's columns.
StreamedProduct normalize(IRBuilderBase &B, const GemmDesc &G, bool SmallM) {
  StreamedProduct SP;
  SP.K = G.extentK(B);
  if (SmallM) {
    SP.P = transposed(G.B);
    SP.X = G.A;
    SP.C = transposed(G.C);
    SP.Init = G.Init.Ptr ? transposed(G.Init) : SP.C;
    SP.L = G.extentN(B);
    SP.S = G.extentM(B);
  } else {
    SP.P = G.A;
    SP.X = transposed(G.B);
    SP.C = G.C;
    SP.Init = G.Init.Ptr ? G.Init : G.C;
    SP.L = G.extentM(B);
    SP.S = G.extentN(B);
  }
  SP.Seg = SP.K;
  SP.CSeg = SP.ISeg = B.getInt64(0);
  if (G.Segments.Count) {
    // X is B's rows of every GEMM of the batch, one after the other.
    SP.K = B.CreateMul(SP.K, G.Segments.Count);
    SP.CSeg = G.Segments.CStride;
    SP.ISeg = G.Init.Ptr ? G.Segments.InitStride : SP.CSeg;
  }
  return SP;
}

/// An element type in kernel names and remarks: "f32", "bf16", or
/// \p IntPrefix and the width ("s8", "i32").
std::string elemName(const Type *T, const char *IntPrefix) {
  if (T->isIntegerTy())
    return IntPrefix + std::to_string(T->getIntegerBitWidth());
  return T->isBFloatTy() ? "bf16"
                         : "f" + std::to_string(T->getPrimitiveSizeInBits());
}

/// One kernel function's code: everything its name says.
struct StreamKernel {
  StreamForm Form = StreamForm::Dot;
  Type *PT = nullptr, *AccT = nullptr;
  /// X's elements and signedness, which pick the dot product.
  Type *XElem = nullptr;
  bool PSigned = true, XSigned = true;
  /// dot: the target's dot product (Dot.KG k per lane: vpmaddwd, NEON
  /// sdot), when Dot.ID is set; else multiply-adds on AccT.
  VectorDot Dot;
  bool Accumulate = false;
  bool Segmented = false; ///< for a batch whose k runs on across it
  unsigned W = 0;  ///< AccT lanes per vector
  unsigned SG = 1; ///< rows of X per group
  unsigned R = 1, U = 1; ///< dot: rows of P per block, vectors of k per step
  unsigned KU = 1;       ///< axpy: rows of P per step
  int64_t LC = 0;        ///< axpy: l values per block of sums

  bool usesDot() const { return Dot.ID != Intrinsic::not_intrinsic; }
  /// k per vector step: W lanes of Dot.KG k each (1 without a dot product).
  unsigned kPerVector() const { return W * Dot.KG; }
  /// The packed X's elements: the dot product's operand type, else AccT.
  Type *packedX() const { return usesDot() ? Dot.PackT : AccT; }

  std::string name() const {
    // P's integers widen per their signedness; C's just have a width.
    // (Which dot product a target's kernel uses follows from the target,
    // which the module's kernels are keyed by besides: getStreamKernel.
    // X's type and signedness pick it too - sdot, udot or usdot - when X
    // is packed in its operand type rather than C's.)
    std::string XName =
        usesDot() ? elemName(XElem, XSigned ? "s" : "u") + "." : "";
    return std::string("tlx.stream.") +
           (Form == StreamForm::Dot ? "dot." : "axpy.") +
           elemName(PT, PSigned ? "s" : "u") + "." + XName +
           elemName(AccT, "i") + ".x" + std::to_string(SG) +
           (Accumulate ? ".acc" : "") + (Segmented ? ".seg" : "");
  }
};

/// The kernel's parameters, in order. The dot kernel sums k in segments
/// of Seg (K itself but for a batch whose k runs on across it: segment
/// i's sums go to C and Init i CSeg and ISeg elements further).
struct StreamArgs {
  Value *P, *PStride, *X, *K, *S, *C, *CL, *CS, *Init, *IL, *IS, *L0, *L1;
  Value *Seg, *CSeg, *ISeg;
};

constexpr unsigned NumStreamArgs = 16;

/// Bits of the vectors the kernels use on \p F, 0 when it has none.
unsigned streamVectorBits(const Function &F, const TargetTransformInfo &TTI) {
  unsigned Bits =
      TTI.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector)
          .getFixedValue();
  if (hasTargetFeature(F, "avx512f"))
    Bits = std::max(Bits, 512u);
  return Bits;
}

/// The target's dot product for the dot kernel on \p SP (P as A, X as B):
/// one that sums KG products per lane of the accumulator (vpmaddwd,
/// vpdpwssd, vpdpbusd with unsigned P, NEON sdot/udot), not one that needs
/// a bias or a per-element step. Integers only: bf16 weights with f32
/// activations are multiply-adds, as they are loaded.
bool chooseStreamDot(const Function &F, unsigned Bits,
                     const StreamedProduct &SP, Type *AccT, VectorDot &Dot) {
  if (!AccT->isIntegerTy(32) || !SP.P.Elem->isIntegerTy() ||
      !SP.X.Elem->isIntegerTy())
    return false;
  GemmDesc D;
  D.A = SP.P;
  D.B = SP.X;
  D.C = SP.C;
  D.C.Elem = AccT;
  VectorDot Found;
  if (!chooseFixedWidthDot(D, F, Bits, Found, /*AllowBias=*/false) ||
      Found.ID == Intrinsic::not_intrinsic || Found.BiasA || Found.Widening ||
      Found.EmitScalarStep)
    return false;
  Dot = Found;
  return true;
}

/// The kernel for \p Form on \p F with groups of \p SG rows of X.
StreamKernel chooseStreamKernel(const Function &F,
                                const TargetTransformInfo &TTI,
                                const StreamedProduct &SP, const GemmDesc &G,
                                StreamForm Form, unsigned SG) {
  StreamKernel Kn;
  Kn.Form = Form;
  Kn.PT = SP.P.Elem;
  Kn.PSigned = SP.P.IsSigned;
  Kn.AccT = G.C.Elem;
  Kn.Accumulate = G.Accumulate;
  unsigned Bits = streamVectorBits(F, TTI);
  Kn.W = Bits / Kn.AccT->getPrimitiveSizeInBits();
  Kn.SG = SG;
  Kn.XElem = SP.X.Elem;
  Kn.XSigned = SP.X.IsSigned;
  if (Form == StreamForm::Dot)
    chooseStreamDot(F, Bits, SP, Kn.AccT, Kn.Dot);
  unsigned Regs = std::max(
      8u, TTI.getNumberOfRegisters(TTI.getRegisterClassForType(true)));
  // dot: R x SG x U accumulators, R vectors of P and SG of X in registers;
  // two vectors of k per step hide the multiply-add's latency when there
  // is one row of X.
  // A batch's short segments (GemmDesc::Segments: 32 int8 are one or two
  // vectors) gain nothing from two vectors per step, and the registers
  // are wanted for addresses (Zen 3, q8 4096 x 4096: 7.6 -> 8.9 GB/s).
  Kn.Segmented = G.Segments.Count != nullptr;
  Kn.U = SG == 1 && !Kn.Segmented ? 2 : 1;
  Kn.R = std::max(1u, std::min(4u, (Regs - SG) / (SG * Kn.U + 1)));
  // axpy: KU x SG broadcasts of X stay in registers; the sums (SG x LC,
  // 16 KiB) in L1.
  Kn.KU = std::max(1u, std::min(AxpyStepRows.getValue(), 8u / SG));
  int64_t AccBytes = Kn.AccT->getPrimitiveSizeInBits() / 8;
  Kn.LC = std::max<int64_t>(Kn.W, 16384 / (SG * AccBytes) / Kn.W * Kn.W);
  return Kn;
}

Value *loadAs(IRBuilderBase &B, Type *T, Type *To, Value *Ptr, bool Signed,
              unsigned Lanes) {
  Type *LT = Lanes > 1 ? FixedVectorType::get(T, Lanes) : T;
  return convertElement(B, B.CreateAlignedLoad(LT, Ptr, elementAlign(T)), To,
                        Signed);
}

/// Asks for the cache line at \p Ptr to be read into every cache level.
void prefetch(IRBuilderBase &B, Value *Ptr) {
  B.CreateIntrinsic(Intrinsic::prefetch, {Ptr->getType()},
                    {Ptr, B.getInt32(0), B.getInt32(3), B.getInt32(1)});
}

Value *splat(IRBuilderBase &B, Value *V, unsigned Lanes) {
  return Lanes > 1 ? B.CreateVectorSplat(Lanes, V) : V;
}

Value *addValues(IRBuilderBase &B, Value *X, Value *Y) {
  return X->getType()->isFPOrFPVectorTy() ? B.CreateFAdd(X, Y)
                                          : B.CreateAdd(X, Y);
}

/// The sum of \p V's lanes, in any order.
Value *sumLanes(IRBuilderBase &B, Value *V) {
  if (!V->getType()->isVectorTy())
    return V;
  if (!V->getType()->isFPOrFPVectorTy())
    return B.CreateAddReduce(V);
  auto *Sum = cast<Instruction>(B.CreateFAddReduce(
      ConstantFP::getNegativeZero(V->getType()->getScalarType()), V));
  Sum->setHasAllowReassoc(true);
  return Sum;
}

/// Each of \p Vs's sums across its lanes, in any order, computed together:
/// every vector folded in halves to 128 bits, then pairs of vectors added
/// lane pair by lane pair into one ([a0+a1, a2+a3, b0+b1, b2+b3]), until
/// each vector's sum is one lane. Four vectors of 8 lanes take 17
/// operations this way against 28 one by one - per block of rows and
/// segment of k, which is 32 int8 in a quantized product's batch.
SmallVector<Value *, 8> sumLanesOfEach(IRBuilderBase &B, ArrayRef<Value *> Vs) {
  SmallVector<Value *, 8> Sums;
  auto *VT = dyn_cast<FixedVectorType>(Vs.front()->getType());
  if (Vs.size() == 1 || !VT) {
    for (Value *V : Vs)
      Sums.push_back(sumLanes(B, V));
    return Sums;
  }
  auto Halves = [&](Value *X, Value *Y, unsigned Width, bool Pairs) {
    // Pairs: lanes 2i and 2i + 1 of X then of Y; else X's halves.
    SmallVector<int, 16> First, Second;
    for (unsigned L = 0; L < Width; ++L) {
      First.push_back(Pairs ? 2 * L : L);
      Second.push_back(Pairs ? 2 * L + 1 : L + Width);
    }
    Value *A = B.CreateShuffleVector(X, Y, First);
    return addValues(B, A, B.CreateShuffleVector(X, Y, Second));
  };
  // Work[i] holds its vectors' sums in runs of Run lanes, Owner[i][l] being
  // whose sum lane l holds part of; a power of two of vectors (the last
  // ones zero), so that pairs never mix runs.
  unsigned Width = VT->getNumElements();
  unsigned Run = std::min(Width, std::max(2u, 128 / VT->getScalarSizeInBits()));
  SmallVector<Value *, 8> Work;
  SmallVector<SmallVector<int, 8>, 8> Owner;
  for (unsigned I = 0; I < PowerOf2Ceil(Vs.size()); ++I) {
    Value *V = I < Vs.size() ? Vs[I] : Constant::getNullValue(VT);
    for (unsigned W = Width; W > Run; W /= 2)
      V = Halves(V, V, W / 2, false);
    Work.push_back(V);
    Owner.emplace_back(Run, I < Vs.size() ? int(I) : -1);
  }
  for (; Run > 1; Run /= 2) {
    // One vector left: its runs halve, its lanes' upper half repeating.
    SmallVector<Value *, 8> Next;
    SmallVector<SmallVector<int, 8>, 8> NextOwner;
    for (unsigned I = 0; I < Work.size(); I += 2) {
      unsigned J = std::min<unsigned>(I + 1, Work.size() - 1);
      unsigned W = Owner[I].size();
      Next.push_back(Halves(Work[I], Work[J], W, true));
      SmallVector<int, 8> O;
      for (unsigned L = 0; L < 2 * W; L += 2)
        O.push_back(L < W ? Owner[I][L] : Owner[J][L - W]);
      NextOwner.push_back(O);
    }
    Work = std::move(Next);
    Owner = std::move(NextOwner);
  }
  Sums.assign(Vs.size(), nullptr);
  for (unsigned I = 0; I < Work.size(); ++I)
    for (unsigned L = 0; L < Owner[I].size(); ++L)
      if (Owner[I][L] >= 0 && !Sums[Owner[I][L]])
        Sums[Owner[I][L]] = B.CreateExtractElement(Work[I], L);
  return Sums;
}

/// The row of the packed X that group row \p G of the group at \p S0 reads:
/// the last one for rows past S (their sums are not stored).
Value *xRowOffset(IRBuilderBase &B, const StreamArgs &A, Value *S0,
                  unsigned G) {
  Value *Row = B.CreateAdd(S0, B.getInt64(G));
  Row = B.CreateIntrinsic(Intrinsic::smin, {B.getInt64Ty()},
                          {Row, B.CreateSub(A.S, B.getInt64(1))});
  return B.CreateMul(Row, A.K);
}

/// C(l, s) = (Init(l, s) +) Sum, for a row s < S.
void storeSum(IRBuilderBase &B, const StreamKernel &Kn, const StreamArgs &A,
              Value *L, Value *S, Value *Sum) {
  if (Kn.Accumulate) {
    Value *InitPtr = B.CreateGEP(
        Kn.AccT, A.Init,
        B.CreateAdd(B.CreateMul(L, A.IL), B.CreateMul(S, A.IS)));
    Sum = addValues(B, B.CreateLoad(Kn.AccT, InitPtr), Sum);
  }
  B.CreateStore(Sum, B.CreateGEP(Kn.AccT, A.C,
                                 B.CreateAdd(B.CreateMul(L, A.CL),
                                             B.CreateMul(S, A.CS))));
}

// The dot kernel's block of Rows rows of P from L against the group of X's
// rows from S0, over k in [KBegin, KEnd):
//   acc[r][g][u] = 0 (vectors)
//   for k in steps of U vectors: acc[r][g][u] += P[L+r][k+uW..] * X[..]
//   then single vectors, then single elements; C = the sums across lanes
// With FixedSteps, k's range is that many vectors: one step, no loop.
void emitDotGroup(IRBuilderBase &B, const StreamKernel &Kn, const StreamArgs &A,
                  Value *L, unsigned Rows, Value *S0, Value *KBegin,
                  Value *KEnd, unsigned FixedSteps) {
  SmallVector<Value *, 8> PRow, XRow;
  Type *XT = Kn.packedX();
  for (unsigned R = 0; R < Rows; ++R)
    PRow.push_back(B.CreateGEP(
        Kn.PT, A.P, B.CreateMul(B.CreateAdd(L, B.getInt64(R)), A.PStride)));
  for (unsigned G = 0; G < Kn.SG; ++G)
    XRow.push_back(B.CreateGEP(XT, A.X, xRowOffset(B, A, S0, G)));
  // k per step of Steps vectors at width Lanes: vectors take KG k per lane
  // with the target's dot product, single elements (Lanes 1) one.
  auto KPerStep = [&](unsigned Lanes, unsigned Steps) {
    return (Lanes > 1 && Kn.usesDot() ? Lanes * Kn.Dot.KG : Lanes) * Steps;
  };
  // One step from k = K: Steps vectors of Lanes lanes, each block's sum in
  // AccPer accumulators.
  auto Step = [&](IRBuilderBase &B, Value *K, ArrayRef<Value *> Acc,
                  unsigned Lanes, unsigned Steps, unsigned AccPer) {
    bool UseDot = Lanes > 1 && Kn.usesDot();
    unsigned KPer = KPerStep(Lanes, 1);
    Type *OpT = UseDot ? XT : Kn.AccT;
    SmallVector<Value *, 8> Next(Acc.begin(), Acc.end());
    for (unsigned U = 0; U < Steps; ++U) {
      Value *KU = B.CreateAdd(K, B.getInt64(U * KPer));
      SmallVector<Value *, 8> XV;
      for (unsigned G = 0; G < Kn.SG; ++G)
        XV.push_back(
            loadAs(B, XT, OpT, B.CreateGEP(XT, XRow[G], KU), Kn.XSigned, KPer));
      for (unsigned R = 0; R < Rows; ++R) {
        // The next block's row, as far along, where a step reads
        // less than a cache line of each row (narrow weights, groups
        // of X): hardware prefetchers catch up with such rows too
        // late. Zen 3: the bf16 decode step 88 -> 116 tokens/s, N = 4
        // f32 15.5 -> 17.7 GB/s; a whole line a step (f32, N = 1)
        // lost to the extra instructions (1024 x 1024: 66 -> 40).
        if (U == 0 && Lanes > 1 && DotPrefetch &&
            Steps * KPer * Kn.PT->getPrimitiveSizeInBits() < 512)
          prefetch(B, B.CreateGEP(Kn.PT, PRow[R],
                                  B.CreateAdd(KU, B.CreateMul(B.getInt64(Rows),
                                                              A.PStride))));
        Value *PV = loadAs(B, Kn.PT, OpT, B.CreateGEP(Kn.PT, PRow[R], KU),
                           Kn.PSigned, KPer);
        for (unsigned G = 0; G < Kn.SG; ++G) {
          unsigned I = (R * Kn.SG + G) * AccPer + U % AccPer;
          Next[I] = UseDot ? emitVectorDotCall(B, Kn.Dot, Next[I], PV, XV[G])
                           : multiplyAdd(B, Next[I], PV, XV[G]);
        }
      }
    }
    return Next;
  };
  // The k loop over [Begin, End) in such steps.
  auto Pass = [&](Value *Begin, Value *End, unsigned Lanes, unsigned Steps,
                  unsigned AccPer, ArrayRef<Value *> Inits) {
    return emitLoop(B, Begin, End, B.getInt64(KPerStep(Lanes, Steps)),
                    "stream.k", Inits,
                    [&](IRBuilderBase &B, Value *K, ArrayRef<Value *> Acc) {
                      return Step(B, K, Acc, Lanes, Steps, AccPer);
                    });
  };
  unsigned Blocks = Rows * Kn.SG;
  auto *VT = FixedVectorType::get(Kn.AccT, Kn.W);
  Value *Len = B.CreateSub(KEnd, KBegin);
  auto Tail = [&](unsigned Width) {
    return B.CreateSub(KEnd, B.CreateURem(Len, B.getInt64(Width)));
  };
  SmallVector<Value *, 8> One;
  if (FixedSteps) {
    One.assign(Blocks, Constant::getNullValue(VT));
    One = sumLanesOfEach(B, Step(B, KBegin, One, Kn.W, FixedSteps, 1));
  } else {
    Value *KWide = Tail(Kn.kPerVector() * Kn.U), *KVec = Tail(Kn.kPerVector());
    SmallVector<Value *, 8> Acc(Blocks * Kn.U, Constant::getNullValue(VT));
    Acc = Pass(KBegin, KWide, Kn.W, Kn.U, Kn.U, Acc);
    for (unsigned I = 0; I < Blocks; ++I) {
      Value *Sum = Acc[I * Kn.U];
      for (unsigned U = 1; U < Kn.U; ++U)
        Sum = addValues(B, Sum, Acc[I * Kn.U + U]);
      One.push_back(Sum);
    }
    if (Kn.U > 1)
      One = Pass(KWide, KVec, Kn.W, 1, 1, One);
    One = sumLanesOfEach(B, One);
    One = Pass(KVec, KEnd, 1, 1, 1, One);
  }
  for (unsigned R = 0; R < Rows; ++R)
    for (unsigned G = 0; G < Kn.SG; ++G) {
      Value *Row = B.CreateAdd(L, B.getInt64(R));
      Value *S = B.CreateAdd(S0, B.getInt64(G));
      emitIfFolded(B, G == 0 ? B.getTrue() : B.CreateICmpSLT(S, A.S),
                   [&] { storeSum(B, Kn, A, Row, S, One[R * Kn.SG + G]); });
    }
}

// for l in [L0, L1) in blocks of R rows (then single rows):
//   for each segment of k (one but for a batch whose k runs on across it):
//     for each group of SG rows of X: emitDotGroup
void emitDotLoops(IRBuilderBase &B, const StreamKernel &Kn, const StreamArgs &A,
                  unsigned FixedSteps) {
  Value *Seg = FixedSteps ? B.getInt64(FixedSteps * Kn.kPerVector()) : A.Seg;
  Value *Segments = B.CreateUDiv(A.K, Seg);
  auto Rows = [&](Value *Begin, Value *End, unsigned R) {
    emitLoop(B, Begin, End, B.getInt64(R), "stream.l",
             [&](IRBuilderBase &B, Value *L) {
               emitLoop(
                   B, B.getInt64(0), Segments, B.getInt64(1), "stream.seg",
                   [&](IRBuilderBase &B, Value *I) {
                     StreamArgs SA = A;
                     SA.C = B.CreateGEP(Kn.AccT, A.C, B.CreateMul(I, A.CSeg));
                     SA.Init =
                         B.CreateGEP(Kn.AccT, A.Init, B.CreateMul(I, A.ISeg));
                     Value *KBegin = B.CreateMul(I, Seg);
                     Value *KEnd = B.CreateAdd(KBegin, Seg);
                     emitLoop(B, B.getInt64(0), A.S, B.getInt64(Kn.SG),
                              "stream.s", [&](IRBuilderBase &B, Value *S0) {
                                emitDotGroup(B, Kn, SA, L, R, S0, KBegin, KEnd,
                                             FixedSteps);
                              });
                   });
             });
  };
  Value *Count = B.CreateSub(A.L1, A.L0);
  Value *Whole = B.CreateAdd(
      A.L0, B.CreateSub(Count, B.CreateURem(Count, B.getInt64(Kn.R))));
  Rows(A.L0, Whole, Kn.R);
  Rows(Whole, A.L1, 1);
}

// An integer batch's segments of 1, 2 or 4 vectors (32 or 64 int8, a
// quantized product's groups) take a copy of these loops each, with a step
// of that many vectors and no k loop or tails: the generic segment's loop
// set-up, tails and sums were twice the multiply-adds (Zen 3, q8 1024 x
// 1024: 10.9 -> 20 GB/s, 4096 x 4096: 8.9 -> 14). Here: the copy for
// segments of \p Steps vectors if they are, else the next choice.
void emitSegmentChoice(IRBuilderBase &B, const StreamKernel &Kn,
                       const StreamArgs &A, unsigned Steps) {
  if (Steps > 4)
    return emitDotLoops(B, Kn, A, 0);
  emitIf(
      B, B.CreateICmpEQ(A.Seg, B.getInt64(Steps * Kn.kPerVector())),
      [&] { emitDotLoops(B, Kn, A, Steps); },
      [&] { emitSegmentChoice(B, Kn, A, Steps * 2); });
}

void emitDotKernel(IRBuilderBase &B, const StreamKernel &Kn,
                   const StreamArgs &A) {
  if (Kn.Segmented && Kn.usesDot())
    emitSegmentChoice(B, Kn, A, 1);
  else
    emitDotLoops(B, Kn, A, 0);
}

// One step of the axpy kernel: rows K..K+Steps of P, the block of sums
// Sums (SG rows of LC) for l in [L, L + N):
//   x[g][u] = X[s0+g][K+u]
//   for i < N (vectors, then elements):
//     Sums[g][i] += sum_u P[K+u][L+i] * x[g][u]
void emitAxpyStep(IRBuilderBase &B, const StreamKernel &Kn,
                  const StreamArgs &A, Value *Sums, Value *S0, Value *K,
                  unsigned Steps, Value *L, Value *N) {
  SmallVector<Value *, 16> XS;
  for (unsigned G = 0; G < Kn.SG; ++G) {
    Value *Row = B.CreateGEP(Kn.AccT, A.X, xRowOffset(B, A, S0, G));
    for (unsigned U = 0; U < Steps; ++U)
      XS.push_back(B.CreateLoad(
          Kn.AccT, B.CreateGEP(Kn.AccT, Row, B.CreateAdd(K, B.getInt64(U)))));
  }
  SmallVector<Value *, 4> PRow, NextRow;
  auto RowAt = [&](unsigned Row) {
    return B.CreateGEP(
        Kn.PT, A.P,
        B.CreateAdd(B.CreateMul(B.CreateAdd(K, B.getInt64(Row)), A.PStride),
                    L));
  };
  for (unsigned U = 0; U < Steps; ++U) {
    PRow.push_back(RowAt(U));
    NextRow.push_back(RowAt(Steps + U));
  }
  auto Columns = [&](Value *Begin, Value *End, unsigned Lanes) {
    emitLoop(B, Begin, End, B.getInt64(Lanes), "stream.i",
             [&](IRBuilderBase &B, Value *I) {
               SmallVector<Value *, 4> PV;
               // The next step's rows, as far along as this one plus the
               // prefetch distance.
               if (Lanes > 1 && StreamPrefetchBytes >= 0)
                 for (unsigned U = 0; U < Steps; ++U)
                   prefetch(B, B.CreateGEP(B.getInt8Ty(),
                                           B.CreateGEP(Kn.PT, NextRow[U], I),
                                           B.getInt64(StreamPrefetchBytes)));
               for (unsigned U = 0; U < Steps; ++U)
                 PV.push_back(loadAs(B, Kn.PT, Kn.AccT,
                                     B.CreateGEP(Kn.PT, PRow[U], I),
                                     Kn.PSigned, Lanes));
               for (unsigned G = 0; G < Kn.SG; ++G) {
                 Value *Ptr = B.CreateGEP(
                     Kn.AccT, Sums,
                     B.CreateAdd(B.getInt64(G * Kn.LC), I));
                 Value *Y = loadAs(B, Kn.AccT, Kn.AccT, Ptr, true, Lanes);
                 for (unsigned U = 0; U < Steps; ++U)
                   Y = multiplyAdd(B, Y, PV[U],
                                   splat(B, XS[G * Steps + U], Lanes));
                 B.CreateAlignedStore(Y, Ptr, elementAlign(Kn.AccT));
               }
             });
  };
  Value *Vec = B.CreateSub(N, B.CreateURem(N, B.getInt64(Kn.W)));
  Columns(B.getInt64(0), Vec, Kn.W);
  Columns(Vec, N, 1);
}

// for each group of SG rows of X, for l in [L0, L1) in blocks of LC:
//   Sums = 0; for k < K (KU rows at a time, then one): emitAxpyStep
//   C(l, s) = (Init +) Sums
void emitAxpyKernel(IRBuilderBase &B, const StreamKernel &Kn,
                    const StreamArgs &A) {
  int64_t AccBytes = Kn.AccT->getPrimitiveSizeInBits() / 8;
  Value *Sums = emitScratch(B, ScratchSlot::CStage, Kn.SG * Kn.LC * AccBytes);
  Value *Zero = B.getInt64(0), *One = B.getInt64(1);
  emitLoop(B, Zero, A.S, B.getInt64(Kn.SG), "stream.s",
           [&](IRBuilderBase &B, Value *S0) {
    emitLoop(B, A.L0, A.L1, B.getInt64(Kn.LC), "stream.l",
             [&](IRBuilderBase &B, Value *L) {
      Value *N = B.CreateIntrinsic(Intrinsic::smin, {B.getInt64Ty()},
                                   {B.getInt64(Kn.LC), B.CreateSub(A.L1, L)});
      B.CreateMemSet(Sums, B.getInt8(0), Kn.SG * Kn.LC * AccBytes, Align(64));
      Value *KWide =
          B.CreateSub(A.K, B.CreateURem(A.K, B.getInt64(Kn.KU)));
      emitLoop(B, Zero, KWide, B.getInt64(Kn.KU), "stream.k",
               [&](IRBuilderBase &B, Value *K) {
                 emitAxpyStep(B, Kn, A, Sums, S0, K, Kn.KU, L, N);
               });
      emitLoop(B, KWide, A.K, One, "stream.k.tail",
               [&](IRBuilderBase &B, Value *K) {
                 emitAxpyStep(B, Kn, A, Sums, S0, K, 1, L, N);
               });
      for (unsigned G = 0; G < Kn.SG; ++G) {
        Value *S = B.CreateAdd(S0, B.getInt64(G));
        emitIfFolded(B, G == 0 ? B.getTrue() : B.CreateICmpSLT(S, A.S), [&] {
          emitLoop(B, Zero, N, One, "stream.out",
                   [&](IRBuilderBase &B, Value *I) {
                     Value *Sum = B.CreateLoad(
                         Kn.AccT,
                         B.CreateGEP(Kn.AccT, Sums,
                                     B.CreateAdd(B.getInt64(G * Kn.LC), I)));
                     storeSum(B, Kn, A, B.CreateAdd(L, I), S, Sum);
                   });
        });
      }
    });
  });
}

/// The module's kernel \p Kn for \p Caller's target, built on first use.
Function *getStreamKernel(Function &Caller, const StreamKernel &Kn,
                          unsigned VectorBits) {
  Module &M = *Caller.getParent();
  LLVMContext &Ctx = M.getContext();
  std::string Base = Kn.name();
  // One per target: dispatch versions of one product have their own.
  if (Function *F = findSharedKernel(Caller, Base))
    return F;
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  SmallVector<Type *, NumStreamArgs> Params{Ptr, I64, Ptr, I64, I64, Ptr,
                                            I64, I64, Ptr, I64, I64, I64,
                                            I64, I64, I64, I64};
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), Params, false);
  Function *F = createKernelFunction(Caller, FT, Base, "");
  markSharedKernel(*F, Caller, Base);
  // The kernel never forks: the same function serves the calling thread
  // and the threads' shares.
  F->removeFnAttr(ParallelRegionAttr);
  requireVectorWidth(*F, VectorBits);
  static const char *const Names[NumStreamArgs] = {
      "p",      "p.stride", "x",       "k",     "s",     "c",
      "c.l",    "c.s",      "init",    "init.l", "init.s", "l.begin",
      "l.end",  "seg",      "c.seg",   "init.seg"};
  for (unsigned I = 0; I < NumStreamArgs; ++I)
    F->getArg(I)->setName(Names[I]);
  // (nocapture is inferred by the optimizer: its spelling differs between
  // LLVM 19 and 22.)
  F->addParamAttr(0, Attribute::ReadOnly);
  F->addParamAttr(2, Attribute::ReadOnly);
  F->addParamAttr(2, Attribute::NoAlias);
  StreamArgs A{F->getArg(0),  F->getArg(1),  F->getArg(2),  F->getArg(3),
               F->getArg(4),  F->getArg(5),  F->getArg(6),  F->getArg(7),
               F->getArg(8),  F->getArg(9),  F->getArg(10), F->getArg(11),
               F->getArg(12), F->getArg(13), F->getArg(14), F->getArg(15)};
  IRBuilder<> KB(BasicBlock::Create(Ctx, "entry", F));
  if (Kn.Form == StreamForm::Dot)
    emitDotKernel(KB, Kn, A);
  else
    emitAxpyKernel(KB, Kn, A);
  KB.CreateRetVoid();
  return F;
}

/// X (S x K) converted to \p XT (C's element type, or the operand type of
/// the dot kernel's dot product: StreamKernel::XT), rows K apart, in this
/// thread's scratch.
Value *packX(IRBuilderBase &B, const StreamedProduct &SP, Type *XT) {
  Value *Bytes = B.CreateMul(B.CreateMul(SP.S, SP.K),
                             B.getInt64(XT->getPrimitiveSizeInBits() / 8));
  Value *Packed = emitScratch(B, ScratchSlot::PackedB, Bytes);
  Value *Zero = B.getInt64(0), *One = B.getInt64(1);
  emitLoop(B, Zero, SP.S, One, "stream.pack.s", [&](IRBuilderBase &B,
                                                    Value *S) {
    emitLoop(B, Zero, SP.K, One, "stream.pack.k",
             [&](IRBuilderBase &B, Value *K) {
               Value *V = B.CreateLoad(SP.X.Elem, elementPtr(B, SP.X, S, K));
               V = convertElement(B, V, XT, SP.X.IsSigned);
               B.CreateStore(V, B.CreateGEP(XT, Packed,
                                            B.CreateAdd(B.CreateMul(S, SP.K),
                                                        K)));
             });
  });
  return Packed;
}

/// The rows of X up to which the axpy kernel streams: its sums go through
/// L1 once per row of X and step, which beyond 8 rows costs more than the
/// blocked GEMM's packing (Zen 3, x W with W 4096 x 4096 f32: M = 8 6.4
/// against 6.1 GB/s, M = 16 3.5 against 4.9).
constexpr int64_t AxpyMaxRows = 8;

/// The rows of X up to which \p Form streams.
int64_t maxRows(StreamForm Form) {
  return Form == StreamForm::Axpy ? AxpyMaxRows : MaxStreamedRows;
}

/// Rows of X per group of the kernel for \p S rows: up to 4 for dot (a
/// group re-reads its rows of P from cache; -tlx-stream-dot-group), all
/// of them for axpy, whose groups would each stream P again.
unsigned groupRowsFor(int64_t S, StreamForm Form) {
  return Form == StreamForm::Dot ? std::min<int64_t>(S, DotMaxGroup) : S;
}

/// "streamed dot bf16->f32, A in place, 4 rows of it x 1 column of B per
/// step": P's side, X's.
std::string describe(const StreamKernel &Kn, bool SmallM) {
  auto Name = [](const Type *T) { return elemName(T, "i"); };
  auto Count = [](unsigned N, const char *What) {
    return std::to_string(N) + " " + What + (N == 1 ? "" : "s");
  };
  bool Dot = Kn.Form == StreamForm::Dot;
  // P's l indexes A's rows or B's columns (its k the other side); X's
  // rows are A's rows or B's columns.
  bool PRows = Dot != SmallM;
  return std::string("streamed ") + (Dot ? "dot " : "axpy ") +
         (Name(Kn.PT) == Name(Kn.AccT) ? Name(Kn.AccT)
                                       : Name(Kn.PT) + "->" + Name(Kn.AccT)) +
         ", " + (SmallM ? "B" : "A") + " in place, " +
         Count(Dot ? Kn.R : Kn.KU, PRows ? "row" : "column") + " of it x " +
         Count(Kn.SG, SmallM ? "row" : "column") + " of " +
         (SmallM ? "A" : "B") + " per step";
}

/// One share of a streamed product (all of it on one thread): packs X,
/// runs the kernel for \p Form on its rows of P, applies the epilogue.
void emitStreamedShare(IRBuilderBase &B, const GemmDesc &Share, bool SmallM,
                       StreamForm Form, const TargetTransformInfo &TTI,
                       GemmPlan &Plan) {
  GemmDesc G = shareAsGemm(B, Share);
  StreamedProduct SP = normalize(B, G, SmallM);
  Function &Caller = *B.GetInsertBlock()->getParent();
  unsigned Bits = streamVectorBits(Caller, TTI);
  // (The packed type is the same for every group: the target's.)
  Value *Packed =
      packX(B, SP, chooseStreamKernel(Caller, TTI, SP, G, Form, 1).packedX());
  auto Call = [&](unsigned SG) {
    StreamKernel Kn = chooseStreamKernel(Caller, TTI, SP, G, Form, SG);
    // The first kernel describes the plan (with run-time sizes or strides
    // the remark names none of them: emitRuntimeStreamedGemmOr).
    if (!Plan.Streamed) {
      Plan.Streamed = true;
      Plan.Kernel = describe(Kn, SmallM);
      Plan.MR = Form == StreamForm::Dot ? Kn.R : Kn.KU;
      Plan.NR = SG;
    }
    Function *F = getStreamKernel(Caller, Kn, Bits);
    Value *PStride =
        Form == StreamForm::Dot ? SP.P.RowStride : SP.P.ColStride;
    B.CreateCall(F, {SP.P.Ptr, PStride, Packed, SP.K, SP.S, SP.C.Ptr,
                     SP.C.RowStride, SP.C.ColStride, SP.Init.Ptr,
                     SP.Init.RowStride, SP.Init.ColStride, B.getInt64(0),
                     SP.L, SP.Seg, SP.CSeg, SP.ISeg});
  };
  // S known only at run time: one row, up to four (the rows past S
  // recomputed from the last one, their sums not stored), or more.
  if (auto *S = dyn_cast<ConstantInt>(SP.S)) {
    Call(groupRowsFor(S->getSExtValue(), Form));
  } else {
    emitIf(
        B, B.CreateICmpEQ(SP.S, B.getInt64(1)), [&] { Call(1); },
        [&] {
          emitIf(
              B, B.CreateICmpSLE(SP.S, B.getInt64(4)),
              [&] { Call(groupRowsFor(4, Form)); },
              [&] { Call(groupRowsFor(maxRows(Form), Form)); });
        });
  }
  if (G.Epilogue)
    emitEpiloguePass(B, G, G.C, B.getInt64(0), G.extentM(B), B.getInt64(0),
                     G.extentN(B));
}

/// Whether the vector kernels can stream \p G on \p F: C's type
/// accumulates in vectors and the target has them.
bool canStreamTypes(const GemmDesc &G, const Function &F,
                    const TargetTransformInfo &TTI) {
  Type *CT = G.C.Elem;
  if (!CT->isFloatTy() && !CT->isDoubleTy() && !CT->isIntegerTy(32) &&
      !CT->isIntegerTy(64))
    return false;
  return streamVectorBits(F, TTI) >= 2 * CT->getPrimitiveSizeInBits();
}

/// The form that streams \p P in place: dot when its k is contiguous, axpy
/// when its l is; None when neither is known to be at compile time.
std::optional<StreamForm> staticForm(const GemmOperand &P) {
  if (isConstOne(P.ColStride))
    return StreamForm::Dot;
  if (isConstOne(P.RowStride))
    return StreamForm::Axpy;
  return std::nullopt;
}

/// The streamed product of \p G with its small side \p SmallM, threads
/// splitting l; \p Form null: chosen at run time from P's strides (the
/// caller checked one of them is 1).
void emitStreamedProduct(IRBuilderBase &B, const GemmDesc &G, bool SmallM,
                         const TargetTransformInfo &TTI, GemmPlan &Plan) {
  const GemmOperand &Big = SmallM ? G.B : G.A;
  GemmOperand P = SmallM ? transposed(Big) : Big;
  // Shares of l: whole blocks of every kernel's rows and vectors. Each
  // multiply-add reads an element of P from memory: a fork pays at 1/16
  // of a blocked GEMM's work, so that a decode step's 1024 x 1024
  // projections are split too (Zen 3, 2 threads, samples/transformer.c's
  // f32 model: 101 -> 114 tokens/s; its C twin splits every one: 97).
  constexpr int64_t Unit = 64, WorkPerMAC = 16;
  // A batch whose k runs on across it is one product of the batch's k.
  GemmDesc Whole = G;
  if (G.Segments.Count)
    Whole.RuntimeK = B.CreateMul(G.extentK(B), G.Segments.Count);
  emitThreadedGemm(B, Whole, Unit, Unit, Plan,
                   [&](IRBuilderBase &SB, const GemmDesc &WholeShare) {
                     GemmDesc Share = WholeShare;
                     Share.RuntimeK = G.RuntimeK;
                     if (std::optional<StreamForm> Form = staticForm(P)) {
                       emitStreamedShare(SB, Share, SmallM, *Form, TTI, Plan);
                       return;
                     }
                     emitIf(
                         SB, SB.CreateICmpEQ(P.ColStride, SB.getInt64(1)),
                         [&] {
                           emitStreamedShare(SB, Share, SmallM,
                                             StreamForm::Dot, TTI, Plan);
                         },
                         [&] {
                           emitStreamedShare(SB, Share, SmallM,
                                             StreamForm::Axpy, TTI, Plan);
                         });
                   },
                   WorkPerMAC);
}

/// Whether one of \p P's strides is 1 (at run time where they are values).
Value *streamsInPlace(IRBuilderBase &B, GemmOperand P) {
  Value *One = B.getInt64(1);
  return B.CreateOr(B.CreateICmpEQ(P.RowStride, One),
                    B.CreateICmpEQ(P.ColStride, One));
}

} // namespace

bool emitStreamedGemm(IRBuilderBase &B, const GemmDesc &G,
                      const TargetTransformInfo &TTI, GemmPlan &Plan) {
  Function &F = *B.GetInsertBlock()->getParent();
  if (G.isRuntimeSized() || G.K <= 0 || G.M <= 0 || G.N <= 0 ||
      !canStreamTypes(G, F, TTI))
    return false;
  // The small side is X: N (B's columns) unless M is smaller.
  bool SmallM = G.M < G.N;
  std::optional<StreamForm> Form = staticForm(SmallM ? transposed(G.B) : G.A);
  if (!Form || std::min(G.M, G.N) > maxRows(*Form))
    return false;
  Plan = GemmPlan();
  emitStreamedProduct(B, G, SmallM, TTI, Plan);
  return true;
}

bool canStreamSegments(const GemmDesc &G, const Function &F,
                       const TargetTransformInfo &TTI) {
  return streamedRowsLimit() > 0 && isConstOne(G.A.ColStride) &&
         canStreamTypes(G, F, TTI);
}

void emitSegmentedStreamedGemm(IRBuilderBase &B, const GemmDesc &G,
                               const TargetTransformInfo &TTI,
                               GemmPlan &Plan) {
  assert(G.Segments.Count && !G.Epilogue && isConstOne(G.A.ColStride) &&
         "a batch whose k runs on across it, A's rows contiguous");
  Plan = GemmPlan();
  emitStreamedProduct(B, G, /*SmallM=*/false, TTI, Plan);
  Plan.Kernel += ", one pass over A for the batch's segments of k";
}

void emitRuntimeStreamedGemmOr(IRBuilderBase &B, const GemmDesc &G,
                               int64_t MaxRows, const TargetTransformInfo &TTI,
                               GemmPlan &Plan,
                               function_ref<void()> EmitOther) {
  Function &F = *B.GetInsertBlock()->getParent();
  if (!canStreamTypes(G, F, TTI)) {
    EmitOther();
    return;
  }
  Value *M = G.extentM(B), *N = G.extentN(B), *K = G.extentK(B);
  Value *Zero = B.getInt64(0);
  Value *Work = B.CreateAnd(
      B.CreateICmpSGT(K, Zero),
      B.CreateAnd(B.CreateICmpSGT(M, Zero), B.CreateICmpSGT(N, Zero)));
  // N (B's columns) is X's side unless M is smaller, as for static sizes.
  // A form known only at run time (both of P's strides values) streams
  // as far as both forms do.
  auto Limit = [&](const GemmOperand &P) {
    std::optional<StreamForm> Form = staticForm(P);
    int64_t Rows = std::min(MaxRows, Form ? maxRows(*Form) : AxpyMaxRows);
    return B.getInt64(Rows);
  };
  Value *SmallN = B.CreateAnd(
      Work, B.CreateAnd(B.CreateICmpSLE(N, Limit(G.A)), B.CreateICmpSGE(M, N)));
  Value *SmallM = B.CreateAnd(
      Work, B.CreateAnd(B.CreateICmpSLE(M, Limit(transposed(G.B))),
                        B.CreateICmpSLT(M, N)));
  SmallN = B.CreateAnd(SmallN, streamsInPlace(B, G.A));
  SmallM = B.CreateAnd(SmallM, streamsInPlace(B, G.B));
  GemmPlan Streamed;
  emitIfFolded(
      B, SmallN, [&] { emitStreamedProduct(B, G, false, TTI, Streamed); },
      [&] {
        emitIfFolded(
            B, SmallM, [&] { emitStreamedProduct(B, G, true, TTI, Streamed); },
            EmitOther);
      });
  // Which form and group a streamed product takes is decided at run time.
  if (Streamed.Streamed)
    Plan.RuntimeAlternative =
        "streamed (dot or axpy by the large operand's layout) when M or N "
        "<= " +
        std::to_string(MaxRows) + " at run time";
}

} // namespace gemm
} // namespace tlx
