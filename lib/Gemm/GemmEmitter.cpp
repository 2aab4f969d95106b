//===- GemmEmitter.cpp - Blocked GEMM code generation in LLVM IR ----------===//
//
// Emits C (+)= A x B for every contraction TLX lowers.
//
// Algorithm:
//  1. Pick a kernel from the target and the element types:
//       AMX:    int8 x int8 -> i32 (tdpb{s,u}{s,u}d), bf16/f16 -> f32.
//       Vector: f32/f64/int FMA microkernel on <W x T> (W from the vector
//               register width), u8/s8 x s8 -> i32 with vpdpbusd when the
//               function has avx512vnni (zmm) or avxvnni (ymm), the other
//               int8 (and s16) -> i32 cases exactly with vpmaddwd (sse2,
//               avx2, avx512bw) or vpdpwssd (VNNI) on operands widened to
//               i16, bf16 -> f32 with vdpbf16ps when it has avx512bf16.
//       Scalar: everything else (and the reference for the others): a
//               plain triple loop through the operand strides.
//  2. (Vector) BLIS blocking: NC x KC panels of B and MC x KC blocks of A
//     are packed into per-thread runtime scratch buffers, converted to the
//     kernel's compute type and zero-padded to whole MR / NR micro-panels,
//     so the microkernel never needs a tail of its own.
//  3. The microkernel keeps an MR x NR block of C in vector registers across
//     the K loop (explicit vector IR, so even -O0 code is vectorized) and
//     writes it through C's strides; edge blocks go through a small stack
//     buffer so nothing outside C is touched.
//
//  4. (AMX) B packed once into VNNI tile rows, A and C in place, 2 x 2 tiles
//     of accumulators across the k loop, one outlined kernel per tile-shape
//     combination (docs/amx.md).
//
//  5. (SME) A and B packed into k-major panels, 2 x 2 ZA tiles per block of
//     C, FMOPA / BFMOPA / SMOPA ... in a locally streaming kernel with
//     its own ZA (docs/pipeline.md, "Targets").
//
// This file: the driver (emitGemm: AMX or SME, else vector, else scalar), the
// loop / if / addressing helpers every kernel uses, and the scalar kernel.
// GemmVector.cpp, GemmAMX.cpp and GemmSME.cpp hold the fast kernels.
//
// All loops are emitted as plain counted loops with explicit phis; every
// trip count is a compile-time constant or a min() of constants and the
// induction variable, so LLVM can reason about them at -O2.
//
//===----------------------------------------------------------------------===//

#include "Gemm/GemmEmitter.h"
#include "Gemm/GemmEmitterImpl.h"
#include "Codegen/Threads.h"

#define TLX_COMPAT_TARGET
#include "Compat.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"

using namespace llvm;

namespace tlx {
namespace gemm {

//===----------------------------------------------------------------------===//
// Loops and addressing
//===----------------------------------------------------------------------===//

bool hasTargetFeature(const Function &F, StringRef Feature) {
  // Ask the target's own CPU + feature tables, so "target-cpu"="znver4"
  // alone (no "target-features") also counts; later features override.
  Triple TT(F.getParent()->getTargetTriple());
  std::string Error;
  const Target *T = compat::lookupTarget(TT, Error);
  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  StringRef Features = F.getFnAttribute("target-features").getValueAsString();
  if (T) {
    std::unique_ptr<MCSubtargetInfo> STI(
        compat::createMCSubtargetInfo(*T, TT, CPU, Features));
    // checkFeatures ignores names the target does not know (avx512f on
    // AArch64), so look the name up first.
    if (STI)
      return any_of(STI->getAllProcessorFeatures(),
                    [&](const SubtargetFeatureKV &KV) {
                      return Feature == KV.Key;
                    }) &&
             STI->checkFeatures(("+" + Feature).str());
  }
  // No registered target: the attribute string is all there is.
  SmallVector<StringRef, 64> List;
  Features.split(List, ',');
  bool On = false;
  for (StringRef Entry : List)
    if (Entry.size() > 1 && Entry.drop_front() == Feature)
      On = Entry.front() == '+';
  return On;
}

void requireVectorWidth(Function &F, unsigned Bits) {
  // X86 treats vectors wider than prefer-vector-width as illegal (and splits
  // them) unless the function says it needs them, as clang does for code
  // that uses 512-bit intrinsics; vpdpbusd.512 cannot even be split.
  unsigned Current = 0;
  Attribute Attr = F.getFnAttribute("min-legal-vector-width");
  if (Attr.isStringAttribute())
    Attr.getValueAsString().getAsInteger(10, Current);
  if (Current < Bits)
    F.addFnAttr("min-legal-vector-width", std::to_string(Bits));
}

Value *emitScratch(IRBuilderBase &B, ScratchSlot Slot, int64_t Bytes) {
  return emitScratch(B, Slot, B.getInt64(Bytes));
}

Value *emitScratch(IRBuilderBase &B, ScratchSlot Slot, Value *Bytes) {
  Module *M = B.GetInsertBlock()->getModule();
  FunctionCallee Fn = M->getOrInsertFunction("tlxrt_scratch", B.getPtrTy(),
                                             B.getInt32Ty(), B.getInt64Ty());
  if (auto *Decl = dyn_cast<Function>(Fn.getCallee())) {
    Decl->setDoesNotThrow();
    Decl->addRetAttr(Attribute::NoAlias);
    Decl->addRetAttr(Attribute::getWithAlignment(M->getContext(), Align(64)));
  }
  return B.CreateCall(Fn, {B.getInt32(static_cast<int>(Slot)), Bytes},
                      "gemm.scratch");
}

Value *elementPtr(IRBuilderBase &B, const GemmOperand &Op, Value *Row,
                  Value *Col) {
  Value *Offset = B.CreateAdd(B.CreateMul(Row, Op.RowStride),
                              B.CreateMul(Col, Op.ColStride));
  return B.CreateGEP(Op.Elem, Op.Ptr, Offset);
}

Value *convertElement(IRBuilderBase &B, Value *V, Type *To, bool IsSigned) {
  Type *From = V->getType()->getScalarType();
  if (From == To)
    return V;
  // A vector converts lane by lane into a vector of as many \p To.
  Type *ToV = To;
  if (auto *VT = dyn_cast<VectorType>(V->getType()))
    ToV = VectorType::get(To, VT->getElementCount());
  if (From->isIntegerTy() && To->isIntegerTy())
    return B.CreateIntCast(V, ToV, IsSigned);
  if (From->isIntegerTy())
    return IsSigned ? B.CreateSIToFP(V, ToV) : B.CreateUIToFP(V, ToV);
  if (To->isIntegerTy())
    return IsSigned ? B.CreateFPToSI(V, ToV) : B.CreateFPToUI(V, ToV);
  // bf16 <-> f16 have the same width: go through float.
  if (From->getPrimitiveSizeInBits() == To->getPrimitiveSizeInBits())
    return convertElement(B, convertElement(B, V, B.getFloatTy(), IsSigned),
                          To, IsSigned);
  return B.CreateFPCast(V, ToV);
}

Value *multiplyAdd(IRBuilderBase &B, Value *Acc, Value *X, Value *Y) {
  if (Acc->getType()->isFPOrFPVectorTy())
    return B.CreateIntrinsic(Intrinsic::fmuladd, {Acc->getType()}, {X, Y, Acc});
  return B.CreateAdd(Acc, B.CreateMul(X, Y));
}

//===----------------------------------------------------------------------===//
// Scalar kernel: the fallback for every type and target
//===----------------------------------------------------------------------===//

// for i < M, j < N:
//   acc = Accumulate ? (Init or C)[i][j] : 0
//   for k < K: acc += widen(A[i][k]) * widen(B[k][j])
//   C[i][j] = acc, or Out-or-C[i][j] = epilogue(acc)
void emitScalarGemm(IRBuilderBase &B, const GemmDesc &G) {
  Type *CT = G.C.Elem;
  Value *Zero = B.getInt64(0), *One = B.getInt64(1);
  emitLoop(
      B, Zero, G.extentM(B), One, "gemm.i", [&](IRBuilderBase &B, Value *I) {
        emitLoop(
            B, Zero, G.extentN(B), One, "gemm.j",
            [&](IRBuilderBase &B, Value *J) {
              Value *CPtr = elementPtr(B, G.C, I, J);
              Value *InitPtr =
                  G.Init.Ptr ? elementPtr(B, G.Init, I, J) : CPtr;
              Value *Init = G.Accumulate
                                ? static_cast<Value *>(B.CreateLoad(CT, InitPtr))
                                : Constant::getNullValue(CT);
              auto Sum = emitLoop(
                  B, Zero, G.extentK(B), One, "gemm.k", {Init},
                  [&](IRBuilderBase &B, Value *K, ArrayRef<Value *> Acc) {
                    Value *X = B.CreateLoad(G.A.Elem, elementPtr(B, G.A, I, K));
                    Value *Y = B.CreateLoad(G.B.Elem, elementPtr(B, G.B, K, J));
                    X = convertElement(B, X, CT, G.A.IsSigned);
                    Y = convertElement(B, Y, CT, G.B.IsSigned);
                    return SmallVector<Value *, 8>{
                        multiplyAdd(B, Acc[0], X, Y)};
                  });
              if (G.Epilogue)
                B.CreateStore(G.Epilogue(B, Sum[0], I, J),
                              elementPtr(B, G.result(), I, J));
              else
                B.CreateStore(Sum[0], CPtr);
            });
      });
}

bool isConstOne(const Value *V) {
  const auto *C = dyn_cast<ConstantInt>(V);
  return C && C->isOne();
}

Align elementAlign(const Type *T) {
  return Align(T->getPrimitiveSizeInBits() / 8);
}

void emitInitCopy(IRBuilderBase &B, const GemmDesc &G) {
  Value *Zero = B.getInt64(0), *One = B.getInt64(1);
  emitLoop(B, Zero, G.extentM(B), One, "gemm.init.i",
           [&](IRBuilderBase &B, Value *I) {
             emitLoop(B, Zero, G.extentN(B), One, "gemm.init.j",
                      [&](IRBuilderBase &, Value *J) {
                        B.CreateStore(B.CreateLoad(G.C.Elem,
                                                   elementPtr(B, G.Init, I, J)),
                                      elementPtr(B, G.C, I, J));
                      });
           });
}

Value *addOrKeep(IRBuilderBase &B, Value *AddC, Value *Old, Value *Acc) {
  Value *Sum = Acc->getType()->isFPOrFPVectorTy() ? B.CreateFAdd(Old, Acc)
                                                  : B.CreateAdd(Old, Acc);
  return B.CreateSelect(AddC, Sum, Acc);
}

Value *isPartialPanel(IRBuilderBase &B, Value *Extent, Value *Width,
                      Value *Kc, Value *Kcp) {
  return B.CreateOr(B.CreateICmpSLT(Extent, Width), B.CreateICmpSLT(Kc, Kcp),
                    "gemm.partial");
}

void emitZeroPanelIf(IRBuilderBase &B, Value *Partial, Value *Panel,
                     Value *Width, Value *Kcp, Type *PackT) {
  emitIf(B, Partial, [&] {
    Value *Bytes = B.CreateMul(
        B.CreateMul(Kcp, Width),
        B.getInt64(PackT->getPrimitiveSizeInBits() / 8));
    B.CreateMemSet(Panel, B.getInt8(0), Bytes, elementAlign(PackT));
  });
}

// k outside, the panel index inside: the stores run along the packed
// panel. (Following the source's contiguous index instead made LLVM
// vectorize A's copy with scatters: 1024^3 f32 was 10-30% slower.)
void emitPanelCopy(IRBuilderBase &B, const PanelSource &Src, Type *PackT,
                   unsigned KG, Value *Panel, Value *PanelWidth,
                   bool FlipSign) {
  Type *I64 = B.getInt64Ty();
  Value *GroupElems = B.CreateMul(PanelWidth, ConstantInt::get(I64, KG));
  auto CopyOne = [&](Value *R, Value *K) {
    Value *Row = B.CreateAdd(Src.Row0, Src.KIsRow ? K : R);
    Value *Col = B.CreateAdd(Src.Col0, Src.KIsRow ? R : K);
    Value *V = B.CreateLoad(Src.Op.Elem, elementPtr(B, Src.Op, Row, Col));
    V = convertElement(B, V, PackT, Src.Op.IsSigned);
    if (FlipSign)
      V = B.CreateXor(V, ConstantInt::get(PackT, 0x80));
    Value *Group = B.CreateLShr(K, Log2_32(KG));
    Value *InGroup = B.CreateAnd(K, ConstantInt::get(I64, KG - 1));
    Value *Dst = B.CreateAdd(
        B.CreateMul(Group, GroupElems),
        B.CreateAdd(B.CreateMul(R, ConstantInt::get(I64, KG)), InGroup));
    B.CreateStore(V, B.CreateGEP(PackT, Panel, Dst));
  };
  Value *Zero = ConstantInt::get(I64, 0), *One = ConstantInt::get(I64, 1);
  emitLoop(B, Zero, Src.Kc, One, "gemm.pack.k",
           [&](IRBuilderBase &, Value *K) {
             emitLoop(B, Zero, Src.Extent, One, "gemm.pack.r",
                      [&](IRBuilderBase &, Value *R) { CopyOne(R, K); });
           });
}

// for i < Rows:
//   for j < Cols - Cols % 4 step 4 (rows of Sums and the result contiguous):
//     result[Row0 + i][Col0 + j ..] = epilogue(<4 x T> Sums[..][..])
//   the last columns (all of them otherwise) one at a time
void emitEpiloguePass(IRBuilderBase &B, const GemmDesc &G,
                      const GemmOperand &Sums, Value *Row0, Value *Rows,
                      Value *Col0, Value *Cols) {
  const GemmOperand &Dst = G.result();
  Type *T = G.C.Elem;
  int64_t Lanes =
      isConstOne(Dst.ColStride) && isConstOne(Sums.ColStride) ? 4 : 1;
  Type *I64 = B.getInt64Ty();
  Value *Zero = ConstantInt::get(I64, 0), *One = ConstantInt::get(I64, 1);
  Value *VecCols =
      Lanes > 1 ? B.CreateAnd(Cols, ConstantInt::get(I64, -Lanes)) : Zero;
  auto Columns = [&](Value *I, Value *J0, Value *J1, int64_t Width) {
    Type *VT = Width > 1 ? FixedVectorType::get(T, Width) : T;
    emitLoop(B, J0, J1, ConstantInt::get(I64, Width), "gemm.epi.j",
             [&](IRBuilderBase &, Value *J) {
               Value *Row = B.CreateAdd(Row0, I), *Col = B.CreateAdd(Col0, J);
               Value *Acc = B.CreateAlignedLoad(
                   VT, elementPtr(B, Sums, Row, Col), elementAlign(T));
               B.CreateAlignedStore(G.Epilogue(B, Acc, Row, Col),
                                    elementPtr(B, Dst, Row, Col),
                                    elementAlign(Dst.Elem));
             });
  };
  emitLoop(B, Zero, Rows, One, "gemm.epi.i", [&](IRBuilderBase &, Value *I) {
    if (Lanes > 1)
      Columns(I, Zero, VecCols, Lanes);
    Columns(I, VecCols, Cols, 1);
  });
}

} // namespace gemm

/// A run-time-sized GEMM on AMX or SME tiles when M, N and K are all
/// positive at run time (AMX: tile configurations computed then; SME:
/// predicates and row counts), else the scalar loops (they clear or keep
/// C). For AMX an initial accumulator is copied into C first (its kernels
/// load C tiles straight from memory), and with threads the larger of M
/// and N is shared out in 64s (two 32 x 32 tile blocks) when the work
/// reaches the threads' minimum at run time, each share an AMX GEMM of its
/// own. A GEMM the target cannot compute emits nothing and says why.
static bool emitRuntimeSizedTileGemm(IRBuilderBase &B, const GemmDesc &G,
                                     GemmTarget Target, GemmPlan &Plan,
                                     std::string &Why) {
  bool AMX = Target == GemmTarget::AMX;
  GemmDesc Tiled = G;
  if (AMX)
    Tiled.Init = GemmOperand();
  auto Emit = [&](IRBuilderBase &EB, const GemmDesc &D) {
    return AMX ? gemm::emitAMXGemm(EB, D, Plan, Why)
               : gemm::emitSMEGemm(EB, D, Plan, Why);
  };
  bool CanDo = AMX ? !getAMXFeature(Tiled).empty()
                   : gemm::canEmitSMEGemm(*B.GetInsertBlock()->getModule(), G);
  if (!CanDo)
    return Emit(B, Tiled);
  Value *Zero = B.getInt64(0);
  Value *Work = B.CreateAnd(B.CreateAnd(B.CreateICmpSGT(G.extentM(B), Zero),
                                        B.CreateICmpSGT(G.extentN(B), Zero)),
                            B.CreateICmpSGT(G.extentK(B), Zero));
  auto EmitShare = [&](IRBuilderBase &SB, const GemmDesc &Share) {
    Emit(SB, gemm::shareAsGemm(SB, Share));
  };
  constexpr int64_t ShareUnit = 64;
  emitIf(
      B, Work,
      [&] {
        if (!AMX) {
          Emit(B, G);
          return;
        }
        if (G.Init.Ptr)
          gemm::emitInitCopy(B, G);
        if (!gemm::emitRuntimeForkedGemm(B, Tiled, ShareUnit, ShareUnit, Plan,
                                         EmitShare))
          EmitShare(B, Tiled);
      },
      [&] { gemm::emitScalarGemm(B, G); });
  return true;
}

/// A GEMM with run-time extents: the vector kernels, or the scalar loops
/// when K is 0 at run time (they clear or keep C); AMX or SME tiles
/// (emitRuntimeSizedTileGemm).
static bool emitRuntimeSizedVectorGemm(IRBuilderBase &B, const GemmDesc &G,
                                       const TargetTransformInfo &TTI,
                                       GemmPlan &Plan, std::string &Why) {
  bool Done = false;
  // Few rows (M <= SmallRuntimeM) get a register block that pads such an
  // M least, as a static M would choose, where it pays
  // (chooseSmallRowsBlocking): for every M when it costs larger ones
  // nothing (AVX-512's f32 13 x 32 for 14 x 32), else in a second loop
  // nest. AVX2's 5 x 16 for 6 x 16 pays neither: the 12-layer MLP's
  // shared kernel with dispatch compiled 0.2 s faster and 12 KB smaller
  // without its second nest (57.0 -> 44.9 KB), and it lost 5-8% at larger M.
  GemmDesc Small = G, Blocked = G;
  Small.M = SmallRuntimeM;
  gemm::SmallRowsBlocking SmallRows =
      gemm::chooseSmallRowsBlocking(G, TTI, *B.GetInsertBlock()->getParent());
  if (SmallRows == gemm::SmallRowsBlocking::ForEveryM)
    Blocked.BlockRowsFor = SmallRuntimeM;
  emitIf(
      B, B.CreateICmpSGT(G.extentK(B), B.getInt64(0)),
      [&] {
        if (SmallRows != gemm::SmallRowsBlocking::SecondNest) {
          Done = gemm::emitVectorGemm(B, Blocked, TTI, Plan, Why);
          return;
        }
        emitIf(
            B, B.CreateICmpSLE(G.extentM(B), B.getInt64(SmallRuntimeM)),
            [&] {
              GemmPlan SmallPlan;
              gemm::emitVectorGemm(B, Small, TTI, SmallPlan, Why);
            },
            [&] { Done = gemm::emitVectorGemm(B, G, TTI, Plan, Why); });
      },
      [&] { gemm::emitScalarGemm(B, G); });
  if (!Done) {
    // No vector kernel for these types: the vector branch holds nothing.
    gemm::emitScalarGemm(B, G);
    Plan = GemmPlan();
    Plan.Kernel = "scalar (" + Why + ")";
  }
  return true;
}

/// The rows of A or columns of B up to which a skinny product is streamed
/// on \p Target rather than given to its tiles: MaxStreamedRows on vector
/// targets; 4 on AMX, where a 16-row tile would be mostly padding and B
/// would be packed for a single pass (a batched smma with N = 1 ran 15x
/// slower on AMX than on vectors); none on SME and MMA.
static int64_t maxStreamedRows(GemmTarget Target) {
  int64_t Limit = gemm::streamedRowsLimit();
  return Target == GemmTarget::Vector ? Limit
         : Target == GemmTarget::AMX  ? std::min<int64_t>(Limit, 4)
                                      : 0;
}

/// A GEMM with run-time extents: streamed when skinny at run time, else
/// the vector kernels or AMX / SME tiles.
static bool emitRuntimeSizedGemm(IRBuilderBase &B, const GemmDesc &G,
                                 GemmTarget Target,
                                 const TargetTransformInfo &TTI,
                                 GemmPlan &Plan, std::string &Why) {
  auto Emit = [&] {
    return Target == GemmTarget::Vector
               ? emitRuntimeSizedVectorGemm(B, G, TTI, Plan, Why)
               : emitRuntimeSizedTileGemm(B, G, Target, Plan, Why);
  };
  if (G.Segments.Count) {
    // The caller chose this form at run time (Tiler::emitSegmentedBatch
    // checks the batch's strides and N).
    gemm::emitSegmentedStreamedGemm(B, G, TTI, Plan);
    return true;
  }
  int64_t MaxRows = G.MayStream ? maxStreamedRows(Target) : 0;
  if (!MaxRows)
    return Emit();
  // The streamed branch always emits; when the extents fold it in, the
  // other is never built.
  bool Done = true;
  gemm::emitRuntimeStreamedGemmOr(B, G, MaxRows, TTI, Plan,
                                  [&] { Done = Emit(); });
  return Done;
}

bool emitGemm(IRBuilderBase &B, const GemmDesc &G, GemmTarget Target,
              const TargetTransformInfo &TTI, GemmPlan &Plan,
              std::string &Why) {
  assert((!G.Out.Ptr || G.Epilogue) && "Out takes the epilogue's values");
  Plan = GemmPlan();
  if (G.isRuntimeSized())
    return emitRuntimeSizedGemm(B, G, Target, TTI, Plan, Why);
  if (G.M <= 0 || G.N <= 0)
    return true; // an empty C: nothing to compute
  if (std::min(G.M, G.N) <= maxStreamedRows(Target) &&
      gemm::emitStreamedGemm(B, G, TTI, Plan))
    return true;
  if (Target == GemmTarget::AMX) {
    // AMX loads C tiles straight from memory: a separate initial
    // accumulator is copied into C first.
    GemmDesc FromC = G;
    FromC.Init = GemmOperand();
    bool CanDo = !getAMXFeature(FromC).empty() && G.K > 0;
    if (G.Init.Ptr && CanDo)
      gemm::emitInitCopy(B, G);
    Function &F = *B.GetInsertBlock()->getParent();
    int64_t Chunk = gemm::amxThreadChunk(FromC);
    gemm::GemmSplit Split = CanDo ? gemm::chooseGemmSplit(F, FromC, Chunk, Chunk)
                                  : gemm::GemmSplit::None;
    if (Split == gemm::GemmSplit::None)
      return gemm::emitAMXGemm(B, FromC, Plan, Why);
    // AMX kernels are built for static shapes: each thread runs whole
    // chunks of C through them. Columns where there are enough: a chunk
    // packs only its columns of B and reads A in place, where a chunk of
    // rows would pack all of B.
    if (FromC.N >= 2 * Chunk)
      Split = gemm::GemmSplit::Cols;
    GemmPlan ChunkPlan;
    gemm::emitForkedChunks(B, FromC, Split, Chunk, Plan,
                           [&](IRBuilderBase &TB, const GemmDesc &Part) {
                             std::string Unused;
                             GemmPlan P;
                             gemm::emitAMXGemm(TB, Part, P, Unused);
                             if (ChunkPlan.Kernel.empty()) // a whole chunk's
                               ChunkPlan = P;
                           });
    ChunkPlan.Split = Plan.Split;
    Plan = ChunkPlan;
    return true;
  }
  if (Target == GemmTarget::SME)
    return gemm::emitSMEGemm(B, G, Plan, Why);
  if (Target == GemmTarget::MMA)
    return gemm::emitMMATargetGemm(B, G, TTI, Plan, Why);
  // K = 0 only clears (or keeps) C: the scalar loops do exactly that.
  std::string VectorWhy = "K is 0";
  if (G.K > 0 && gemm::emitVectorGemm(B, G, TTI, Plan, VectorWhy))
    return true;
  gemm::emitScalarGemm(B, G);
  Plan = GemmPlan();
  Plan.Kernel = "scalar (" + VectorWhy + ")";
  return true;
}

} // namespace tlx
