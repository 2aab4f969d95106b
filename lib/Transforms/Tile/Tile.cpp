//===- Tile.cpp - 2-D contractions -> tiled GEMM code ---------------------===//
//
// tlx-tile is stage 2 of the RFC's lowering: every 2-D contraction left by
// tlx-nd-to-2d (matmul and the mma family, in destination-passing form) is
// handed to the GEMM emitter (GemmEmitter.h), which blocks it into cache
// blocks and register or AMX tiles for the function's target.
//
// Algorithm:
//  1. Find each tensor.store whose token types a 2-D matmul / mma result.
//  2. Describe the GEMM through element strides: operands and destination
//     are strided views (IndexMap.h), so row-major, column-major and
//     sub-tensors need no copies. mma accumulates into its destination; when
//     the accumulator is not the destination itself it is copied there
//     first.
//  3. Pick the target: AMX for -tlx-target=amx|amx-emulate, or auto on a
//     function with AMX tiles and this GEMM's tile product (AMX-FP16 is not
//     implied by AMX-TILE); Arm SME for -tlx-target=sme, or auto on a
//     function with +sme and element types SME multiplies; otherwise (or
//     when the emitter says AMX or SME cannot do this GEMM - a missed
//     remark says why) portable vectors.
//  4. Fuse the epilogue (the TPP paper's fused matmul + bias + relu): when
//     everything reading the result is elementwise (C operators, relu,
//     tanh, ...; their other operands anything fusible: a broadcast bias, a
//     splat) and ends in one store, the GEMM computes straight
//     into that store's destination and applies the chain to each C block
//     in registers as the last K block writes it back; the temporary and
//     the second pass over memory disappear. The destination holds partial
//     sums before, so it must not overlap what the GEMM or the chain reads:
//     alias analysis proves it, or a run-time range check picks the
//     temporary (then copied) instead. AMX kernels store C tiles with
//     tilestored and apply the chain to each block right after, from L1.
//     -fplugin-arg-tlx-fuse-epilogues=off turns it off.
//
//===----------------------------------------------------------------------===//

#include "IR/Diagnostics.h"
#include "IR/ShapeInference.h"
#include "IR/TLXOps.h"
#include "Plugin/Options.h"
#include "Codegen/Epilogue.h"
#include "Gemm/GemmEmitter.h"
#include "Gemm/GemmEmitterImpl.h"
#include "Codegen/IndexMap.h"
#include "Codegen/KernelFunctions.h"
#include "Codegen/KernelOutliner.h"
#include "Transforms/Passes.h"
#include "Codegen/RuntimeShapes.h"
#include "Codegen/Threads.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Local.h"
#include <functional>

using namespace llvm;

#define DEBUG_TYPE "tlx-tile"

namespace tlx {
namespace {

/// What the Tiler knows of the module's GEMMs before it lowers any
/// (surveyModuleGemms).
struct ModuleGemms {
  /// The GEMMs of constant extents by what share-kernels=auto tells their
  /// shared kernels apart by (sharingKind): it lets a GEMM call its shared
  /// kernel for code size when ShareMinSiblings of them would
  /// (sharingPays).
  StringMap<unsigned> SharingKinds;
  /// Whether a call of a shared kernel may be skinny (M or N up to the
  /// streamed limit; run-time extents may be anything): if none can, the
  /// shared kernels leave out the streamed products (GemmDesc::MayStream),
  /// a third of a network's code with dispatch.
  bool SharedMayBeSkinny = false;
};

/// share-kernels=auto's thresholds (sharingPays). Below ShareMinRows, code
/// of its own computes a partial last register block of rows as just those
/// rows where the shared kernel, its M known at run time, computes up to
/// half a block more (f32 256^3, 256 = 18 x 14 + 4: 0.94 shared, 512^3
/// 0.99-1.01, Zen 5). ShareMinSiblings: a shared kernel (two blockings,
/// its x86 versions with dispatch) is about as big as three GEMMs' code of
/// their own with dispatch, half as big as three without.
constexpr int64_t ShareMinWork = int64_t(1) << 24; // 256^3
constexpr int64_t ShareMinExtent = 64;
constexpr int64_t ShareMinRows = 512;
constexpr unsigned ShareMinSiblings = 3;

/// A 2-D contraction's operand views and destination (lowerContraction).
struct ContractionOperands {
  StridedView A, Bv, C;
  bool IsMMA = false; ///< mma: accumulates into C, operand 0 its start
};

class Tiler {
public:
  Tiler(Function &F, FunctionAnalysisManager &FAM, const ModuleGemms &Gemms)
      : F(F), FAM(FAM), TTI(FAM.getResult<TargetIRAnalysis>(F)),
        AA(FAM.getResult<AAManager>(F)), Gemms(Gemms) {}
  bool run();

private:
  void lowerContraction(CallBase &Store, CallBase &Op);
  bool describeContraction(CallBase &Store, CallBase &Op, StringRef Name,
                           GemmDesc &G, ContractionOperands &V);
  void checkFusedOverlap(IRBuilderBase &B, CallBase &Store, CallBase &Op,
                         const ContractionOperands &V, Type *AccElem,
                         struct GemmResult &R, std::string &WhyNot);
  StridedView setGemmDestination(IRBuilderBase &B, GemmDesc &G, StridedView &C,
                                 const struct GemmResult &R, Type *AccElem,
                                 bool Narrow);
  bool emitContractionGemm(
      IRBuilderBase &B, CallBase &Op, StringRef Name, const GemmDesc &G,
      const std::optional<SmallVector<OpKind, 4>> &SharedEpilogue,
      GemmTarget &Target, GemmPlan &Plan,
      SmallVectorImpl<std::string> &Versions, bool &Shared);
  void emitFusedEpilogueRemark(StringRef Name, const struct GemmResult &R,
                               const GemmDesc &G, GemmTarget Target,
                               const GemmPlan &Plan, Type *AccElem);
  void lowerRuntimeContraction(CallBase &Store, CallBase &Op,
                               ArrayRef<CallBase *> Chain);
  void emitRuntimeGemmChecks(IRBuilderBase &B, CallBase &Op,
                             ArrayRef<CallBase *> Chain,
                             const struct RuntimeGemmViews &V);
  Function *getSharedRuntimeGemm(const GemmDesc &G,
                                 ArrayRef<OpKind> Epilogue, CallBase &Op,
                                 bool &Created, bool Segmented = false);
  bool emitSegmentedBatch(IRBuilderBase &B, const GemmDesc &G,
                          const struct RuntimeGemmViews &V, CallBase &Op,
                          function_ref<void()> EmitBatches);
  std::optional<SmallVector<OpKind, 4>>
  getSharedKernelEpilogue(const GemmDesc &G, GemmTarget Target,
                          const struct GemmResult &R, bool HasSiblings) const;
  bool emitSharedStaticGemm(IRBuilderBase &B, GemmDesc G,
                            ArrayRef<OpKind> Epilogue, CallBase &Op);
  void emitGemmRemarks(CallBase &Op, const GemmDesc &G, GemmTarget Target,
                       const GemmPlan &Plan, ArrayRef<std::string> Versions,
                       const Twine &Types, const Twine &AccNote);
  GemmTarget chooseTarget(const GemmDesc &G, CallBase &Op) const;
  std::string setInitialSums(IRBuilderBase &B, GemmDesc &G, Value *Acc,
                             const StridedView &C, Buffer &Copy);

  bool emitGemmFor(IRBuilderBase &B, const GemmDesc &G, GemmTarget Target,
                   GemmPlan &Plan, std::string &Why,
                   SmallVectorImpl<std::string> &Versions);

  Function &F;
  FunctionAnalysisManager &FAM;
  const TargetTransformInfo &TTI;
  AAResults &AA;
  TensorValues Values;
  const ModuleGemms &Gemms;
};

/// emitGemm in the function \p B inserts into, for vector code with
/// run-time dispatch (GemmDispatch.cpp).
bool Tiler::emitGemmFor(IRBuilderBase &B, const GemmDesc &G,
                        GemmTarget Target, GemmPlan &Plan, std::string &Why,
                        SmallVectorImpl<std::string> &Versions) {
  if (Target != GemmTarget::Vector)
    return emitGemm(B, G, Target,
                    FAM.getResult<TargetIRAnalysis>(
                        *B.GetInsertBlock()->getParent()),
                    Plan, Why);
  return emitDispatchedGemm(
      B, G,
      [&](Function &Fn) -> const TargetTransformInfo & {
        return FAM.getResult<TargetIRAnalysis>(Fn);
      },
      Plan, Why, Versions);
}

/// The op's name in remarks and errors. tlx-nd-to-2d accumulates float
/// GEMMs (a convolution's kernel taps) with tensor.smma, the RFC's
/// accumulating form, which users write for integers only: "matmul" there.
static StringRef contractionName(const CallBase &Op) {
  OpKind Kind = *getOpKind(Op);
  if (Kind != OpKind::MatMul &&
      !cast<VectorType>(Op.getType())->getElementType()->isIntegerTy())
    return getOpDesc(OpKind::MatMul).shortName();
  return getOpDesc(Kind).shortName();
}

GemmTarget Tiler::chooseTarget(const GemmDesc &G, CallBase &Op) const {
  switch (pipelineOptions().Target) {
  case TargetKind::AMX:
  case TargetKind::AMXEmulate:
    return GemmTarget::AMX;
  case TargetKind::Vector:
    return GemmTarget::Vector;
  case TargetKind::SME:
    return GemmTarget::SME;
  case TargetKind::MMA:
    return GemmTarget::MMA;
  case TargetKind::Auto:
    break;
  }
  if (gemm::hasTargetFeature(F, "sme") && canUseSME(G))
    return GemmTarget::SME;
  if (!gemm::hasTargetFeature(F, "amx-tile"))
    return GemmTarget::Vector;
  // Tiles do not imply every tile product: Sapphire Rapids has AMX-INT8 and
  // AMX-BF16 but no AMX-FP16, and its tdpfp16ps would fault.
  StringRef Product = getAMXFeature(G);
  if (!Product.empty() && !gemm::hasTargetFeature(F, Product)) {
    emitMissedRemark(DEBUG_TYPE, "NoAMXProduct", Op,
                     contractionName(Op) +
                         ": the function's target has AMX tiles but no " +
                         Product + "; using vector code");
    return GemmTarget::Vector;
  }
  return GemmTarget::AMX;
}

/// What share-kernels=auto counts a contraction of constant extents as
/// (surveyModuleGemms; A, B and the stored C its 2-D views, E its fused
/// epilogue if any): about the shared kernel it would call - the op, the
/// operands' and the destination's element types and the epilogue's ops;
/// nullopt for one that calls none (N or K below ShareMinExtent, an
/// epilogue that reads more than the GEMM's result).
static std::optional<std::string>
sharingKind(CallBase &Op, const StridedView &A, const StridedView &Bv,
            const StridedView &C, const Epilogue *E) {
  if (C.Shape[1] < ShareMinExtent || A.Shape[1] < ShareMinExtent)
    return std::nullopt;
  std::string Key;
  raw_string_ostream OS(Key);
  OS << unsigned(*getOpKind(Op)) << ' ' << *A.Elem << ' ' << *Bv.Elem;
  if (!E) {
    OS << ' ' << *C.Elem;
    return Key;
  }
  if (!E->Reads.empty())
    return std::nullopt;
  OS << ' ' << *getStoreView(*E->Store).Elem;
  for (CallBase *Step : E->Chain) {
    OpKind K = *getOpKind(*Step);
    if (!isUnaryElementwise(K))
      return std::nullopt;
    OS << ' ' << unsigned(K);
  }
  return Key;
}

static GemmOperand operandOf(const StridedView &V, bool IsSigned) {
  GemmOperand O;
  O.Ptr = V.Ptr;
  O.Elem = V.Elem;
  Type *I64 = Type::getInt64Ty(V.Ptr->getContext());
  O.RowStride = ConstantInt::get(I64, V.Strides[0]);
  O.ColStride = ConstantInt::get(I64, V.Strides[1]);
  O.IsSigned = IsSigned;
  return O;
}

static bool sameView(const StridedView &X, const StridedView &Y,
                     AAResults &AA) {
  return isSamePointer(X.Ptr, Y.Ptr, AA) && X.Elem == Y.Elem &&
         X.Shape == Y.Shape && X.Strides == Y.Strides;
}

/// Whether every element read through \p Ptr is zero: it points into a
/// constant global whose initializer is all zeros - the accumulator of
/// u8s8s32 written as tensor_usmma over a broadcast `static const int32_t
/// zero[1] = {0}`. Such sums start from zero without reading it (AMX would
/// first copy it into all of C).
static bool readsOnlyZeros(const Value *Ptr) {
  auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr));
  return GV && GV->isConstant() && GV->hasDefinitiveInitializer() &&
         GV->getInitializer()->isNullValue();
}

/// Where mma's sums start (\p Acc, the accumulator token) for a GEMM
/// computing into \p C: C itself when Acc is C's memory; else G.Init reads
/// Acc's memory through its strides on the first K block (a broadcast bias
/// has stride 0: no copy at all) when it cannot overlap C; else Acc is
/// copied first - into C when tlx-bufferize gave it a buffer of its own,
/// else (an unbuffered broadcast of memory C may share) into \p Copy.
/// Returns the remark's note.
std::string Tiler::setInitialSums(IRBuilderBase &B, GemmDesc &G, Value *Acc,
                                  const StridedView &C, Buffer &Copy) {
  std::optional<StridedView> View = getViewThroughIndexMaps(Acc);
  if (View && sameView(*View, C, AA))
    return ", accumulating in place";
  if (View && readsOnlyZeros(View->Ptr)) {
    G.Accumulate = false;
    return ", initial sums zero (a constant zero accumulator, not read)";
  }
  ElementCount Lanes = getElementwiseWidth(TTI, F, C.Elem);
  if (View && View->rank() == 2 && View->Shape == C.Shape &&
      View->Elem == C.Elem) {
    Value *Disjoint = emitDisjointCheck(B, AA, C, {*View});
    if (auto *K = dyn_cast<ConstantInt>(Disjoint); K && K->isOne()) {
      G.Init = operandOf(*View, true);
      return ", initial sums read through the accumulator's strides";
    }
    RecursivelyDeleteTriviallyDeadInstructions(Disjoint);
  }
  if (getMemoryView(Acc)) {
    emitMaterialize(B, Values, Acc, C, Lanes);
    return ", accumulator copied into the destination first";
  }
  Copy = emitAllocBuffer(B, C.Elem, G.M * G.N, "tlx.acc");
  StridedView CopyView{Copy.Ptr, C.Elem, {G.M, G.N}, {G.N, 1}};
  emitMaterialize(B, Values, Acc, CopyView, Lanes);
  G.Init = operandOf(CopyView, true);
  return ", accumulator copied first";
}

/// The elementwise chain of \p Epi as a GEMM epilogue: the GEMM's finished
/// accumulator (its compute type) stands in for the chain's reader - first
/// rounded to the reader's element type, as the unfused code stores it -
/// and the result is converted to \p DstElem. \p Values must outlive the
/// GEMM's emission.
static GemmEpilogue makeEpilogue(const Epilogue &Epi, Type *ReaderElem,
                                 Type *DstElem, TensorValues &Values) {
  const Value *Result = Epi.Store->getArgOperand(1);
  const Value *Reader = Epi.Reader;
  return [Result, Reader, ReaderElem, DstElem,
          &Values](IRBuilderBase &B, Value *Acc, Value *Row, Value *Col) {
    auto *VT = dyn_cast<FixedVectorType>(Acc->getType());
    unsigned Lanes = VT ? VT->getNumElements() : 1;
    ElementEmitter EE(B, Values);
    EE.substitute(Reader, [Acc, ReaderElem](IRBuilderBase &B, ArrayRef<Value *>,
                                            unsigned, int) {
      return convertToCompute(B, convertFromCompute(B, Acc, ReaderElem));
    });
    Value *V = EE.emit(Result, {Row, Col}, Lanes, Lanes > 1 ? 1 : -1);
    return convertFromCompute(B, V, DstElem);
  };
}

/// Rounds the finished f32 sums of an f16/bf16 result into \p Elem.
static GemmEpilogue makeRounding(Type *Elem) {
  return [Elem](IRBuilderBase &B, Value *Acc, Value *, Value *) {
    return convertFromCompute(B, Acc, Elem);
  };
}

/// Where a GEMM's finished values go and what it needs on the way.
struct GemmResult {
  StridedView Dst;           ///< the finished values (store destination)
  Value *Disjoint = nullptr; ///< Dst overlaps no operand (i1), when fused
  std::optional<Epilogue> Epi;
};

/// "AMX", "SME", "MMA", "vectors": what a GEMM runs on, in remarks.
static const char *targetISAName(GemmTarget Target) {
  switch (Target) {
  case GemmTarget::AMX:
    return "AMX";
  case GemmTarget::SME:
    return "SME";
  case GemmTarget::MMA:
    return "MMA";
  case GemmTarget::Vector:
    break;
  }
  return "vectors";
}

/// The missed remark when \p Target (AMX, SME or MMA) cannot compute a
/// GEMM (\p Why) and vector code does.
static void emitTargetFallbackRemark(CallBase &Op, GemmTarget Target,
                                     const std::string &Why) {
  std::string ISA = targetISAName(Target);
  emitMissedRemark(DEBUG_TYPE, "No" + ISA, Op,
                   contractionName(Op) + ": " + ISA + " cannot do this GEMM (" +
                       Why + "); using vector code");
}

/// Describes \p Op as the GEMM \p G over views \p V; false after an error.
bool Tiler::describeContraction(CallBase &Store, CallBase &Op, StringRef Name,
                                GemmDesc &G, ContractionOperands &V) {
  OpKind Kind = *getOpKind(Op);
  bool IsMMA = Kind != OpKind::MatMul;
  unsigned First = IsMMA ? 1 : 0;
  std::optional<StridedView> A =
      getViewThroughIndexMaps(Op.getArgOperand(First));
  std::optional<StridedView> Bv =
      getViewThroughIndexMaps(Op.getArgOperand(First + 1));
  StridedView C = getStoreView(Store);
  if (!A || !Bv || A->rank() != 2 || Bv->rank() != 2 || C.rank() != 2) {
    emitError(Op, "TLX op '" + Name +
                      "' reached tlx-tile in an unexpected form (operands "
                      "must be 2-D tensors in memory)");
    return false;
  }
  bool ASigned = true, BSigned = true;
  if (IsMMA) {
    MMASignedness S = *getMMASignedness(Kind);
    ASigned = S.Op1Signed;
    BSigned = S.Op2Signed;
  }
  G.M = C.Shape[0];
  G.N = C.Shape[1];
  G.K = A->Shape[1];
  G.A = operandOf(*A, ASigned);
  G.B = operandOf(*Bv, BSigned);
  G.C = operandOf(C, true);
  V = ContractionOperands{*A, *Bv, C, IsMMA};
  return true;
}

/// Whether the fused epilogue \p R keeps its destination: checked at run
/// time, or dropped (\p WhyNot) where the check has no fallback.
void Tiler::checkFusedOverlap(IRBuilderBase &B, CallBase &Store, CallBase &Op,
                              const ContractionOperands &V, Type *AccElem,
                              GemmResult &R, std::string &WhyNot) {
  R.Dst = getStoreView(*R.Epi->Store);
  SmallVector<StridedView, 6> Reads(R.Epi->Reads.begin(), R.Epi->Reads.end());
  Reads.append({V.A, V.Bv});
  std::optional<StridedView> Acc =
      V.IsMMA ? getMemoryView(Op.getArgOperand(0)) : std::nullopt;
  if (V.IsMMA && !(Acc && sameView(*Acc, R.Dst, AA)))
    collectReadViews(Op.getArgOperand(0), nullptr, Reads);
  R.Disjoint = emitDisjointCheck(B, AA, R.Dst, Reads);
  // The run-time fallback computes into the temporary and copies: not
  // possible when the accumulator is copied into C first, nor when C
  // and the destination differ in type.
  bool SameType = R.Dst.Elem == AccElem;
  if (!isa<Constant>(R.Disjoint) && (V.IsMMA || !SameType)) {
    RecursivelyDeleteTriviallyDeadInstructions(R.Disjoint);
    WhyNot = V.IsMMA ? "the destination may overlap the accumulator or operands"
                     : "the destination may overlap an operand and holds " +
                           elementTypeName(R.Dst.Elem) + ", not the " +
                           elementTypeName(AccElem) + " sums";
    R = GemmResult{V.C, nullptr, std::nullopt};
    B.SetInsertPoint(&Store);
  }
}

/// Where \p G computes (\p C) and its epilogue; returns the temporary C.
StridedView Tiler::setGemmDestination(IRBuilderBase &B, GemmDesc &G,
                                      StridedView &C, const GemmResult &R,
                                      Type *AccElem, bool Narrow) {
  StridedView Tmp = C;
  if (R.Epi && R.Dst.Elem == AccElem) {
    // C is the destination (partial sums there), or the temporary when the
    // run-time check finds an overlap (copied afterwards).
    C = R.Dst;
    G.C = operandOf(C, true);
    if (!isa<Constant>(R.Disjoint)) {
      GemmOperand T = operandOf(Tmp, true);
      G.C.Ptr = B.CreateSelect(R.Disjoint, G.C.Ptr, T.Ptr, "gemm.c");
      G.C.RowStride = B.CreateSelect(R.Disjoint, G.C.RowStride, T.RowStride);
      if (G.C.ColStride != T.ColStride)
        G.C.ColStride = B.CreateSelect(R.Disjoint, G.C.ColStride, T.ColStride);
    }
  } else if (R.Epi || Narrow) {
    G.Out = operandOf(R.Dst, true);
  }
  if (R.Epi)
    G.Epilogue = makeEpilogue(*R.Epi, Tmp.Elem, R.Dst.Elem, Values);
  else if (Narrow)
    G.Epilogue = makeRounding(C.Elem);
  G.LanewiseEpilogue = !R.Epi;
  return Tmp;
}

/// Which code computes \p G: shared, \p Target's or vector; false if none.
bool Tiler::emitContractionGemm(
    IRBuilderBase &B, CallBase &Op, StringRef Name, const GemmDesc &G,
    const std::optional<SmallVector<OpKind, 4>> &SharedEpilogue,
    GemmTarget &Target, GemmPlan &Plan, SmallVectorImpl<std::string> &Versions,
    bool &Shared) {
  std::string Why;
  Shared = SharedEpilogue && emitSharedStaticGemm(B, G, *SharedEpilogue, Op);
  bool Done = Shared || emitGemmFor(B, G, Target, Plan, Why, Versions);
  if (!Done && Target != GemmTarget::Vector) {
    emitTargetFallbackRemark(Op, Target, Why);
    Target = GemmTarget::Vector;
    Done = emitGemmFor(B, G, Target, Plan, Why, Versions);
  }
  if (!Done) {
    emitError(Op, "TLX op '" + Name + "' cannot be lowered for target '" +
                      (Target == GemmTarget::Vector
                           ? std::string("vector")
                           : StringRef(targetISAName(Target)).lower()) +
                      "': " + Why);
    return false;
  }
  return true;
}

/// The remark on a fused epilogue: where it is applied, what temporary.
void Tiler::emitFusedEpilogueRemark(StringRef Name, const GemmResult &R,
                                    const GemmDesc &G, GemmTarget Target,
                                    const GemmPlan &Plan, Type *AccElem) {
  emitRemark(
      DEBUG_TYPE, "FusedEpilogue", *R.Epi->Store,
      Name + ": fused epilogue (" + describeChain(R.Epi->Chain) +
          (Target == GemmTarget::AMX
               ? ") applied to each C block as the AMX kernel "
                 "stores it (read back from L1); "
           : Target == GemmTarget::SME
               ? ") applied to C after the SME kernel stores it "
                 "(one pass, outside streaming mode); "
           : Plan.ScalableNR
               ? ") applied to each C block as the scalable-vector kernel "
                 "stores it (read back from L1); "
               : ") applied to C in registers as the GEMM writes "
                 "it; ") +
          (G.Out.Ptr && (Target == GemmTarget::AMX || Plan.ScalableNR)
               ? "the sums pass block by block through an " +
                     elementTypeName(AccElem) + " temporary"
           : G.Out.Ptr ? "only partial sums between K blocks go to "
                         "an " +
                             elementTypeName(AccElem) + " temporary"
           : isa<Constant>(R.Disjoint)
               ? "no temporary"
               : "no temporary unless the destination overlaps an "
                 "operand (checked at run time)"));
}

// %c = matmul(token %a, token %b)          C = A x B through strides:
// %t = typeinfo(%c, <M,N>, ...)      -->   emitGemm(M, N, K, A, B, C = %dst)
// store(%dst, %t, ld)
// (mma: %c = OP(token %acc, %a, %b) accumulates into %dst, holding %acc.)
// With a fused epilogue (step 4) the GEMM is emitted at the epilogue's
// store and writes its destination: C itself when the element types agree
// (partial sums live there), else through GemmDesc::Out, with C the
// accumulator-typed temporary. f16/bf16 results accumulate in an f32 C and
// are rounded into the destination the same way.
void Tiler::lowerContraction(CallBase &Store, CallBase &Op) {
  StringRef Name = contractionName(Op);
  GemmDesc G;
  ContractionOperands V;
  if (!describeContraction(Store, Op, Name, G, V))
    return;
  GemmTarget Target = chooseTarget(G, Op);
  // f16/bf16 results accumulate in float (as the reference does) and are
  // rounded once, into the destination, as the last K block finishes.
  bool Narrow = V.C.Elem->isHalfTy() || V.C.Elem->isBFloatTy();
  Type *AccElem = Narrow ? Type::getFloatTy(Op.getContext()) : V.C.Elem;

  GemmResult R{V.C, nullptr, std::nullopt};
  std::string WhyNot;
  if (pipelineOptions().FuseEpilogues)
    R.Epi = findEpilogue(Store, Op, AA, WhyNot);
  // Others of its kind: share-kernels=auto's count (surveyModuleGemms),
  // with the epilogue as found (the overlap check below may drop it).
  bool HasSiblings = false;
  if (pipelineOptions().ShareKernels == KernelSharing::Auto)
    if (std::optional<std::string> Kind =
            sharingKind(Op, V.A, V.Bv, V.C, R.Epi ? &*R.Epi : nullptr))
      HasSiblings = Gemms.SharingKinds.lookup(*Kind) >= ShareMinSiblings;
  IRBuilder<> B(R.Epi ? R.Epi->Store : &Store);
  if (R.Epi)
    checkFusedOverlap(B, Store, Op, V, AccElem, R, WhyNot);
  StridedView Tmp = setGemmDestination(B, G, V.C, R, AccElem, Narrow);

  // Decided outside the kernel region, which lifts optnone.
  std::optional<SmallVector<OpKind, 4>> SharedEpilogue =
      getSharedKernelEpilogue(G, Target, R, HasSiblings);

  // At -O0 the GEMM's code goes into a kernel function of its own, which
  // is optimized (KernelOutliner.h).
  KernelRegion Kernel(B, "gemm");
  std::string AccNote;
  Buffer AccCopy;
  if (V.IsMMA) {
    G.Accumulate = true;
    AccNote = setInitialSums(B, G, Op.getArgOperand(0), V.C, AccCopy);
  }

  Buffer Acc32Buf;
  if (Narrow && G.Out.Ptr) {
    // Partial sums between K blocks (untouched when K fits one block).
    Acc32Buf = emitAllocBuffer(B, AccElem, G.M * G.N, "tlx.acc32");
    StridedView Acc32{Acc32Buf.Ptr, AccElem, {G.M, G.N}, {G.N, 1}};
    G.C = operandOf(Acc32, true);
    AccNote = ", accumulated in f32";
  }

  GemmPlan Plan;
  SmallVector<std::string, 4> Versions;
  bool Shared = false;
  if (!emitContractionGemm(B, Op, Name, G, SharedEpilogue, Target, Plan,
                           Versions, Shared))
    return;
  for (const Buffer &Buf : {Acc32Buf, AccCopy})
    if (Buf.IsHeap)
      emitFree(B, Buf.Ptr);
  if (R.Epi && !isa<Constant>(R.Disjoint))
    emitIf(B, B.CreateNot(R.Disjoint), [&] {
      emitMaterialize(B, Values, R.Epi->Reader, V.C,
                      getElementwiseWidth(TTI, F, V.C.Elem));
    });
  Kernel.finish(B);
  if (!Shared)
    emitGemmRemarks(Op, G, Target, Plan, Versions,
                    elementTypeName(V.A.Elem) + " x " +
                        elementTypeName(V.Bv.Elem) + " -> " +
                        elementTypeName(Tmp.Elem),
                    AccNote);
  if (R.Epi) {
    emitFusedEpilogueRemark(Name, R, G, Target, Plan, AccElem);
    eraseFusedEpilogue(Store, *R.Epi);
  } else {
    if (!WhyNot.empty())
      emitMissedRemark(DEBUG_TYPE, "EpilogueNotFused", Op,
                       Name + ": its elementwise consumer is not fused: " +
                           WhyNot);
    Store.eraseFromParent();
  }
}

/// ", blocks MC=.. NC=.. KC=.., tile MRxNR": the plan's cache and register
/// blocks; nothing for a streamed product, which has none.
static std::string describeBlocks(GemmTarget Target, const GemmPlan &Plan) {
  if (Plan.Streamed)
    return "";
  std::string Alternative =
      Plan.RuntimeAlternative.empty() ? "" : "; " + Plan.RuntimeAlternative;
  return (", blocks MC=" + Twine(Plan.MC) + " NC=" + Twine(Plan.NC) +
          " KC=" + Twine(Plan.KC) +
          // SME tiles are SVL/32 x SVL/32: known at run time only.
          (Target == GemmTarget::SME
               ? Twine(", ZA tiles of SVL/32 x SVL/32")
               : ", tile " + Twine(Plan.MR) + "x" +
                     (Plan.ScalableNR ? "(" + Twine(Plan.NR) + " x vscale)"
                                      : Twine(Plan.NR))) +
          Alternative)
      .str();
}

/// The remarks on a GEMM the emitter made: its plan, threads, versions.
void Tiler::emitGemmRemarks(CallBase &Op, const GemmDesc &G, GemmTarget Target,
                            const GemmPlan &Plan, ArrayRef<std::string> Versions,
                            const Twine &Types, const Twine &AccNote) {
  StringRef Name = contractionName(Op);
  std::string Size = G.isRuntimeSized()
                         ? std::string("MxKxN known at run time")
                         : (Twine(G.M) + "x" + Twine(G.K) + "x" + Twine(G.N) +
                            " (MxKxN)")
                               .str();
  emitRemark(
      DEBUG_TYPE, "Gemm", Op,
      Name + ": " + Size + " " + Types + " GEMM on " + targetISAName(Target) +
          ", kernel " + Plan.Kernel + describeBlocks(Target, Plan) + AccNote);
  if (!Plan.Split.empty())
    emitRemark(DEBUG_TYPE, "Threads", Op,
               Name + ": split over the OpenMP threads by " + Plan.Split +
                   " (__kmpc_fork_call, static schedule)");
  if (!Versions.empty())
    emitRemark(DEBUG_TYPE, "Dispatch", Op,
               Name +
                   ": one version per ISA level, chosen at run time by "
                   "tlxrt_isa_level() (" +
                   join(Versions, "; ") + ")");
}

/// Whether \p X and \p Y certainly compute the same value: one value, or
/// side-effect-free instructions of one kind on such operands (run-time
/// extents are read anew at each use).
static bool isSameComputation(const Value *X, const Value *Y,
                              unsigned Depth = 0) {
  if (X == Y)
    return true;
  const auto *IX = dyn_cast<Instruction>(X);
  const auto *IY = dyn_cast<Instruction>(Y);
  if (!IX || !IY || Depth > 6 || !IX->isSameOperationAs(IY) ||
      IX->mayReadOrWriteMemory() || isa<PHINode>(IX))
    return false;
  for (unsigned I = 0; I < IX->getNumOperands(); ++I)
    if (!isSameComputation(IX->getOperand(I), IY->getOperand(I), Depth + 1))
      return false;
  return true;
}

static GemmOperand operandOf(const RuntimeMatrix &M, bool IsSigned) {
  GemmOperand O;
  O.Ptr = M.Ptr;
  O.Elem = M.Elem;
  O.RowStride = M.RowStride;
  O.ColStride = M.ColStride;
  O.IsSigned = IsSigned;
  return O;
}

/// The operands and destination of a run-time-sized contraction.
struct RuntimeGemmViews {
  RuntimeView A, B, C;
  std::optional<RuntimeView> Acc; ///< mma only
  /// The accumulator is certainly the destination itself (no Init).
  bool AccIsC = false;
};

/// Checks at \p B what the verifier could not compare for the contraction
/// \p Op and the unary ops \p Chain on its result: valid views, inner
/// and batch dims, every typeinfo on the way, the accumulator's shape, and
/// a destination sharing no byte with what the GEMM reads.
void Tiler::emitRuntimeGemmChecks(IRBuilderBase &B, CallBase &Op,
                                  ArrayRef<CallBase *> Chain,
                                  const RuntimeGemmViews &V) {
  RuntimeMatrix A = asMatrix(V.A), Bm = asMatrix(V.B), C = asMatrix(V.C);
  unsigned Rank = V.C.rank();
  RuntimeChecker Check(B, Op);
  // (Views through a transpose or broadcast have constant sizes the
  // verifier checked; a broadcast repeats elements on purpose.)
  auto RequireValid = [&](const RuntimeView &View, unsigned Arg,
                          StringRef What) {
    if (getTensorValue(Op.getArgOperand(Arg))->isMemory())
      Check.requireValidView(View, What);
  };
  unsigned First = V.Acc ? 1 : 0;
  RequireValid(V.A, First, "op1");
  RequireValid(V.B, First + 1, "op2");
  Check.requireValidView(V.C, "the result");
  Check.requireEqual(A.Cols, Bm.Rows,
                     "inner dimensions differ at run time: op1 is %lldx%lld "
                     "(M=%lld, K=%lld), op2 is %lldx%lld (K=%lld, N=%lld)",
                     {A.Rows, A.Cols, A.Rows, A.Cols, Bm.Rows, Bm.Cols,
                      Bm.Rows, Bm.Cols});
  // Batch dims agree with op1's; every typeinfo on the way (the result's,
  // each fused op's) names batch x M x N.
  auto SameBatch = [&](ArrayRef<Value *> Extents, const Twine &What) {
    for (unsigned D = 0; D + 2 < Rank; ++D)
      Check.requireEqual(Extents[D], V.A.Extents[D],
                         "batch dimension %lld differs at run time: " + What +
                             " has %lld, op1 %lld",
                         {B.getInt64(D), Extents[D], V.A.Extents[D]});
  };
  SameBatch(V.B.Extents, "op2");
  SmallVector<const CallBase *, 4> TypeInfos{getResultTypeInfo(Op)};
  for (CallBase *E : Chain)
    TypeInfos.push_back(getResultTypeInfo(*E));
  for (const CallBase *TI : TypeInfos) {
    SmallVector<Value *, 4> Ext =
        emitLogicalExtents(B, getTensorValue(TI)->Type);
    Check.require(B.CreateAnd(B.CreateICmpEQ(Ext[Rank - 2], A.Rows),
                              B.CreateICmpEQ(Ext[Rank - 1], Bm.Cols)),
                  "the result's typeinfo is %lldx%lld at run time, but op1 x "
                  "op2 is %lldx%lld",
                  {Ext[Rank - 2], Ext[Rank - 1], A.Rows, Bm.Cols});
    SameBatch(Ext, "the result's typeinfo");
  }
  if (V.Acc) {
    RuntimeMatrix Acc = asMatrix(*V.Acc);
    RequireValid(*V.Acc, 0, "acc");
    SameBatch(V.Acc->Extents, "acc");
    Check.require(B.CreateAnd(B.CreateICmpEQ(Acc.Rows, A.Rows),
                              B.CreateICmpEQ(Acc.Cols, Bm.Cols)),
                  "the accumulator is %lldx%lld at run time, but op1 x op2 "
                  "is %lldx%lld",
                  {Acc.Rows, Acc.Cols, A.Rows, Bm.Cols});
  }
  // C holds partial sums while the GEMM still reads A, B and the initial
  // sums: they must not share bytes with it. The accumulator may be the
  // destination itself (each element's initial sum is read right before
  // the element is written), known here or at run time.
  auto Overlaps = [&](const RuntimeView &Read, StringRef What,
                      Value *Allowed) {
    Value *OK = emitRuntimeDisjoint(B, V.C, Read, AA);
    if (Allowed)
      OK = B.CreateOr(OK, Allowed);
    Check.require(OK,
                  "the destination of tensor_store overlaps " + What +
                      " at run time; with extents computed at run time the "
                      "result is written in place, so it must not",
                  {});
  };
  Overlaps(V.A, "op1", nullptr);
  Overlaps(V.B, "op2", nullptr);
  if (V.Acc && !V.AccIsC) {
    RuntimeMatrix Acc = asMatrix(*V.Acc);
    Overlaps(*V.Acc, "acc (other than as the destination itself)",
             B.CreateAnd(B.CreateICmpEQ(Acc.Ptr, C.Ptr),
                         B.CreateAnd(B.CreateICmpEQ(Acc.RowStride, C.RowStride),
                                     B.CreateICmpEQ(Acc.ColStride,
                                                    C.ColStride))));
  }
}

/// The epilogue of a shared GEMM kernel: \p Kinds, unary elementwise ops,
/// applied in turn (none: no epilogue).
static GemmEpilogue makeUnaryEpilogue(ArrayRef<OpKind> Kinds) {
  if (Kinds.empty())
    return nullptr;
  return [Kinds = SmallVector<OpKind, 4>(Kinds)](IRBuilderBase &EB, Value *X,
                                                 Value *, Value *) {
    for (OpKind K : Kinds)
      X = emitUnaryElementwise(EB, K, X);
    return X;
  };
}

/// Calls \p Kernel (getSharedRuntimeGemm) for \p G with the addresses
/// \p Ptrs of A, B, C and Init (null where G has no such operand), then
/// \p Extra (a segmented kernel's batch: getSharedRuntimeGemm).
static void emitKernelCall(IRBuilderBase &B, Function &Kernel,
                           const GemmDesc &G, ArrayRef<Value *> Ptrs,
                           ArrayRef<Value *> Extra = {}) {
  const GemmOperand *Ops[] = {&G.A, &G.B, &G.C, &G.Init};
  SmallVector<Value *, 18> Args;
  for (unsigned I = 0; I < 4; ++I) {
    if (!Ops[I]->Ptr) {
      Args.append({ConstantPointerNull::get(B.getPtrTy()), B.getInt64(0),
                   B.getInt64(0)});
      continue;
    }
    Args.append({Ptrs[I], Ops[I]->RowStride, Ops[I]->ColStride});
  }
  Args.append({G.RuntimeM, G.RuntimeN, G.RuntimeK});
  Args.append(Extra.begin(), Extra.end());
  B.CreateCall(&Kernel, Args);
}

/// Calls \p Kernel (getSharedRuntimeGemm) at \p B for \p G, once per
/// matrix of the batch \p V spans: run-time loops over the batch dims,
/// each operand's pointer moved to its matrix.
static void emitKernelCalls(IRBuilderBase &B, Function &Kernel,
                            const GemmDesc &G, const RuntimeGemmViews &V) {
  unsigned Rank = V.C.rank();
  const RuntimeView *Views[] = {&V.A, &V.B, &V.C,
                                G.Init.Ptr ? &*V.Acc : nullptr};
  const GemmOperand *Ops[] = {&G.A, &G.B, &G.C, &G.Init};
  SmallVector<Value *, 4> Idx;
  std::function<void(unsigned)> Batch = [&](unsigned D) {
    if (D + 2 < Rank) {
      emitLoop(B, B.getInt64(0), V.C.Extents[D], B.getInt64(1),
                     "tlx.batch", [&](IRBuilderBase &, Value *I) {
                       Idx.push_back(I);
                       Batch(D + 1);
                       Idx.pop_back();
                     });
      return;
    }
    Value *Ptrs[4] = {};
    for (unsigned I = 0; I < 4; ++I)
      if (Ops[I]->Ptr)
        Ptrs[I] = emitViewAddress(B, *Views[I], Idx);
    emitKernelCall(B, Kernel, G, Ptrs);
  };
  Batch(0);
}

/// A batch of matmuls or mmas whose k runs on across the batch - A's
/// matrix i from i K along its contiguous rows, B's from i K rows on: the
/// group sums of group-quantized weights (docs/pipeline.md, "Quantized
/// weights") - with N small: one pass over A for the whole batch
/// (GemmDesc::Segments) when the strides say so at run time, else
/// \p EmitBatches' loop. Returns false, emitting nothing, when the batch
/// cannot be one at all (its rank, A's layout, the types).
bool Tiler::emitSegmentedBatch(IRBuilderBase &B, const GemmDesc &G,
                               const RuntimeGemmViews &V, CallBase &Op,
                               function_ref<void()> EmitBatches) {
  if (V.C.rank() != 3 || !gemm::canStreamSegments(G, F, TTI))
    return false;
  bool Created = false;
  Function *Kernel = getSharedRuntimeGemm(G, {}, Op, Created, true);
  if (!Kernel)
    return true; // (the error is reported)
  Value *Count = V.C.Extents[0], *K = G.RuntimeK, *Zero = B.getInt64(0);
  auto Positive = [&](Value *X) { return B.CreateICmpSGT(X, Zero); };
  Value *Cond = B.CreateAnd(
      {Positive(Count), Positive(G.RuntimeM), Positive(G.RuntimeN),
       Positive(K),
       B.CreateICmpSLE(G.RuntimeN, B.getInt64(gemm::streamedRowsLimit())),
       B.CreateICmpEQ(V.A.Strides[0], K),
       B.CreateICmpEQ(V.B.Strides[0], B.CreateMul(K, G.B.RowStride))});
  emitIfFolded(
      B, Cond,
      [&] {
        Value *Ptrs[4] = {G.A.Ptr, G.B.Ptr, G.C.Ptr, G.Init.Ptr};
        emitKernelCall(B, *Kernel, G, Ptrs,
                       {Count, V.C.Strides[0],
                        G.Init.Ptr ? V.Acc->Strides[0] : Zero});
      },
      EmitBatches);
  if (!Created)
    emitRemark(DEBUG_TYPE, "SharedGemm", Op,
               contractionName(Op) + ": calls " + Kernel->getName() +
                   " for a batch whose k runs on across it, the kernel it "
                   "shares with an earlier call site");
  return true;
}

/// A matmul or mma whose extents the program computes (batched or not),
/// and the unary elementwise ops \p Chain applied to its result in turn (a
/// fused epilogue) before \p Store writes it: operands and destination
/// are read as run-time views and checked (emitRuntimeGemmChecks), then
/// each matrix of the batch goes through a kernel shared by the module's
/// GEMMs of its kind (getSharedRuntimeGemm), which runs to the run-time
/// extents.
void Tiler::lowerRuntimeContraction(CallBase &Store, CallBase &Op,
                                    ArrayRef<CallBase *> Chain) {
  OpKind Kind = *getOpKind(Op);
  StringRef Name = getOpDesc(Kind).shortName();
  bool IsMMA = Kind != OpKind::MatMul;
  unsigned First = IsMMA ? 1 : 0;
  IRBuilder<> B(&Store);
  std::optional<RuntimeView> AV =
      emitViewThroughIndexMaps(B, Op.getArgOperand(First));
  std::optional<RuntimeView> BV =
      emitViewThroughIndexMaps(B, Op.getArgOperand(First + 1));
  std::optional<RuntimeView> AccV =
      IsMMA ? emitViewThroughIndexMaps(B, Op.getArgOperand(0)) : std::nullopt;
  if (!AV || !BV || (IsMMA && !AccV))
    return emitError(Op, "with sizes computed at run time, the operands "
                         "of " +
                             getOpDesc(Kind).CName +
                             " must be tensors in memory (tensor_load or "
                             "tensor_typeinfo_mem of a pointer) in this "
                             "version");
  RuntimeGemmViews V{*AV, *BV, emitStoreView(B, Store), AccV};
  if (V.C.Elem->isHalfTy() || V.C.Elem->isBFloatTy())
    return emitError(Op, "a " + userTypeName(V.C.Elem) +
                             " result with sizes computed at run time is "
                             "not supported yet (sums are kept in float "
                             "between K blocks, which needs a buffer)");
  RuntimeMatrix A = asMatrix(V.A), Bm = asMatrix(V.B), C = asMatrix(V.C);
  if (IsMMA) {
    RuntimeMatrix Acc = asMatrix(*V.Acc);
    V.AccIsC = isSamePointer(Acc.Ptr, C.Ptr, AA) &&
               isSameComputation(Acc.RowStride, C.RowStride) &&
               isSameComputation(Acc.ColStride, C.ColStride);
  }
  emitRuntimeGemmChecks(B, Op, Chain, V);

  GemmDesc G;
  G.M = G.N = G.K = PlanningExtent;
  G.RuntimeM = C.Rows;
  G.RuntimeN = C.Cols;
  G.RuntimeK = A.Cols;
  bool ASigned = true, BSigned = true;
  if (IsMMA) {
    MMASignedness S = *getMMASignedness(Kind);
    ASigned = S.Op1Signed;
    BSigned = S.Op2Signed;
    RuntimeMatrix Acc = asMatrix(*V.Acc);
    G.Accumulate = !readsOnlyZeros(Acc.Ptr);
    if (!V.AccIsC && G.Accumulate)
      G.Init = operandOf(Acc, true);
  }
  G.A = operandOf(A, ASigned);
  G.B = operandOf(Bm, BSigned);
  G.C = operandOf(C, true);
  SmallVector<OpKind, 4> Epilogue;
  for (CallBase *E : Chain)
    Epilogue.push_back(*getOpKind(*E));
  G.Epilogue = makeUnaryEpilogue(Epilogue);
  G.LanewiseEpilogue = true;

  // One kernel per kind of GEMM in the module, called from every site.
  bool Created = false;
  Function *Kernel = getSharedRuntimeGemm(G, Epilogue, Op, Created);
  if (!Kernel)
    return;
  auto EmitBatches = [&] { emitKernelCalls(B, *Kernel, G, V); };
  if (!Epilogue.empty() || !emitSegmentedBatch(B, G, V, Op, EmitBatches))
    EmitBatches();
  if (!Created)
    emitRemark(DEBUG_TYPE, "SharedGemm", Op,
               Name + ": calls " + Kernel->getName() +
                   ", the run-time-sized GEMM kernel it shares with an "
                   "earlier call site");
  Store.eraseFromParent();
}

/// The internal function computing run-time-sized GEMMs of \p G's kind
/// (element types, signedness, accumulation) for functions with the
/// target of \p Op's: found in the module, or created and emitted (its
/// remarks at \p Op; \p Created then true). Its parameters: A, B, C and
/// Init as (pointer, row stride, column stride), then M, N, K; when
/// \p Segmented, the kernel of a batch whose k runs on across it
/// (GemmDesc::Segments), then the batch's count and C's and Init's batch
/// strides. Null after an error.
Function *Tiler::getSharedRuntimeGemm(const GemmDesc &G,
                                      ArrayRef<OpKind> Epilogue, CallBase &Op,
                                      bool &Created, bool Segmented) {
  // A unit stride is part of the kind: the packing and the kernels read
  // contiguous rows or columns with vector loads only when they know it.
  auto Layout = [](const GemmOperand &O) {
    return gemm::isConstOne(O.ColStride)   ? "r"
           : gemm::isConstOne(O.RowStride) ? "c"
                                           : "s";
  };
  std::string Kind = elementTypeName(G.A.Elem) + (G.A.IsSigned ? "s" : "u") +
                     Layout(G.A) + "." + elementTypeName(G.B.Elem) +
                     (G.B.IsSigned ? "s" : "u") + Layout(G.B) + "." +
                     elementTypeName(G.C.Elem) + Layout(G.C) +
                     (G.Accumulate ? ".acc" : "") +
                     (G.Init.Ptr ? std::string(".init") + Layout(G.Init) : "");
  for (OpKind K : Epilogue)
    Kind += "." + getOpDesc(K).shortName().str();
  // (Asked before the kernel exists: its AMX code is outside any kernel
  // until marked below.)
  bool Outline = outlinesKernels(F);
  if (Segmented)
    Kind = "seg." + Kind;
  std::string Key =
      Kind + "|" + (Outline ? "O0" : "") + (isParallelRegion(F) ? "par" : "");
  if (Function *Shared = findSharedKernel(F, Key))
    return Shared;

  LLVMContext &Ctx = F.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  SmallVector<Type *, 18> Params;
  for (unsigned I = 0; I < 4; ++I)
    Params.append({Ptr, I64, I64});
  Params.append({I64, I64, I64});
  if (Segmented)
    Params.append({I64, I64, I64});
  Function *Kernel = createKernelFunction(
      F, FunctionType::get(Type::getVoidTy(Ctx), Params, false),
      "tlx.gemm.rt." + Kind, "");
  markSharedKernel(*Kernel, F, Key);
  auto *Entry = BasicBlock::Create(Ctx, "entry", Kernel);
  IRBuilder<> KB(Entry);
  KB.SetCurrentDebugLocation(Op.getDebugLoc());
  GemmDesc KG = G;
  GemmOperand *Ops[] = {&KG.A, &KG.B, &KG.C, &KG.Init};
  for (unsigned I = 0; I < 4; ++I) {
    if (!Ops[I]->Ptr)
      continue;
    // The unit stride the kind names stays a constant; every other stride
    // is the caller's (a row stride of 1 at one site - a K x 1 operand -
    // is not one at the next).
    StringRef L = Layout(*Ops[I]);
    Ops[I]->Ptr = Kernel->getArg(3 * I);
    if (L != "c")
      Ops[I]->RowStride = Kernel->getArg(3 * I + 1);
    if (L != "r")
      Ops[I]->ColStride = Kernel->getArg(3 * I + 2);
  }
  KG.RuntimeM = Kernel->getArg(12);
  KG.RuntimeN = Kernel->getArg(13);
  KG.RuntimeK = Kernel->getArg(14);
  KG.MayStream = Gemms.SharedMayBeSkinny;
  Kernel->getArg(12)->setName("m");
  Kernel->getArg(13)->setName("n");
  Kernel->getArg(14)->setName("k");
  if (Segmented) {
    KG.Segments = {Kernel->getArg(15), Kernel->getArg(16), Kernel->getArg(17)};
    Kernel->getArg(15)->setName("batch");
    Kernel->getArg(16)->setName("c.batch");
    Kernel->getArg(17)->setName("init.batch");
  }
  ReturnInst *Ret = KB.CreateRetVoid();
  KB.SetInsertPoint(Ret);

  StringRef Name = contractionName(Op);
  // A segmented batch streams on vectors (emitSegmentedStreamedGemm).
  GemmTarget Target = Segmented ? GemmTarget::Vector : chooseTarget(KG, Op);
  GemmPlan Plan;
  std::string Why;
  SmallVector<std::string, 4> Versions;
  auto Emit = [&](GemmTarget T) {
    return emitGemmFor(KB, KG, T, Plan, Why, Versions);
  };
  bool NativeAMX = Target == GemmTarget::AMX &&
                   pipelineOptions().Target != TargetKind::AMXEmulate;
  bool Done = false;
  if (NativeAMX && compat::AMXRuntimeShapesExhaustTileRegAlloc)
    Why = "LLVM " + std::to_string(LLVM_VERSION_MAJOR) +
          " cannot allocate the tile registers of AMX kernels whose tile "
          "shapes are computed at run time";
  else if (NativeAMX && codeGenStaysAtO0(F))
    Why = "AMX kernels whose tile shapes are computed at run time need "
          "code generation above -O0, and this module's stays at -O0";
  else
    Done = Emit(Target);
  if (!Done && Target != GemmTarget::Vector) {
    emitTargetFallbackRemark(Op, Target, Why);
    Target = GemmTarget::Vector;
    Done = Emit(Target);
  }
  if (!Done) {
    Kernel->eraseFromParent();
    emitError(Op, "TLX op '" + Name +
                      "' cannot be lowered with extents computed at run "
                      "time: " + Why);
    return nullptr;
  }
  // At -O0 the kernel, and the functions it calls that the emitter made
  // (AMX tile kernels, dispatch versions), are optimized like outlined
  // kernels (tlx-optimize-kernels).
  if (Outline)
    markKernelsCreatedAfter(*std::prev(Kernel->getIterator()));
  Created = true;
  emitGemmRemarks(Op, KG, Target, Plan, Versions,
                  elementTypeName(G.A.Elem) + " x " +
                      elementTypeName(G.B.Elem) + " -> " +
                      elementTypeName(G.C.Elem),
                  ", in " + Kernel->getName() + ", shared by every call "
                  "site of this kind" +
                      (G.Init.Ptr ? "; initial sums from acc" : "") +
                      (Epilogue.empty() ? "" : "; fused epilogue"));
  return Kernel;
}

/// Whether a GEMM of constant extents calls its shared kernel under
/// share-kernels=auto (docs/pipeline.md, "Shared kernels"): N and K at
/// least ShareMinExtent, and either the shared kernel is about as fast as
/// code of its own (M at least ShareMinRows and M*N*K at least
/// ShareMinWork) or, for code size, \p HasSiblings (ShareMinSiblings
/// GEMMs of its kind in the module, surveyModuleGemms).
static bool sharingPays(const GemmDesc &G, bool HasSiblings) {
  if (G.N < ShareMinExtent || G.K < ShareMinExtent)
    return false;
  return (G.M >= ShareMinRows && G.M * G.N * G.K >= ShareMinWork) ||
         HasSiblings;
}

/// The module's GEMMs: those of constant extents by sharingKind, and
/// whether a skinny one may call a shared kernel.
static ModuleGemms surveyModuleGemms(Module &M, ModuleAnalysisManager &MAM) {
  ModuleGemms Gemms;
  KernelSharing Mode = pipelineOptions().ShareKernels;
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    AAResults &AA = FAM.getResult<AAManager>(F);
    for (auto [S, Op] :
         collectStoredContractions(F, [](OpKind, unsigned) { return true; })) {
      // Run-time sizes (lowered apart, always shared, of any size), and
      // what is not a 2-D matmul or mma here (batches, contractions and
      // convolutions, which may call shared kernels too): may be skinny.
      std::optional<TensorValue> Stored = getTensorValue(S->getArgOperand(1));
      OpKind Kind = *getOpKind(*Op);
      if (Kind == OpKind::Contract || Kind == OpKind::Convolution || !Stored ||
          Stored->Type.isDynamic() || readsRuntimeSizes(*Op) ||
          storesThroughRuntimeStrides(*S)) {
        Gemms.SharedMayBeSkinny = true;
        continue;
      }
      unsigned First = Kind != OpKind::MatMul ? 1 : 0;
      std::optional<StridedView> A =
          getViewThroughIndexMaps(Op->getArgOperand(First));
      std::optional<StridedView> Bv =
          getViewThroughIndexMaps(Op->getArgOperand(First + 1));
      StridedView C = getStoreView(*S);
      if (!A || !Bv || A->rank() != 2 || C.rank() != 2) {
        Gemms.SharedMayBeSkinny = true;
        continue;
      }
      std::string WhyNot;
      std::optional<Epilogue> E;
      if (pipelineOptions().FuseEpilogues)
        E = findEpilogue(*S, *Op, AA, WhyNot);
      std::optional<std::string> SharedAs =
          sharingKind(*Op, *A, *Bv, C, E ? &*E : nullptr);
      if (SharedAs)
        ++Gemms.SharingKinds[*SharedAs];
      // (auto shares none below ShareMinExtent; never shares none.)
      bool MayShare = Mode == KernelSharing::Always ||
                      (Mode == KernelSharing::Auto && SharedAs);
      if (MayShare &&
          std::min(C.Shape[0], C.Shape[1]) <= gemm::streamedRowsLimit())
        Gemms.SharedMayBeSkinny = true;
    }
  }
  return Gemms;
}

/// The unary ops a GEMM of constant extents applies as it writes C, when
/// it calls the module's shared kernel of its kind instead of code of its
/// own (share-kernels, docs/pipeline.md "Shared kernels"); nullopt when it
/// does not: the option, a size sharing would slow down (auto), another
/// target than vector code, an optnone function (the kernels of -O0 are
/// outlined per call site), a result in a narrower type, or an epilogue
/// that reads more than the GEMM's result.
std::optional<SmallVector<OpKind, 4>>
Tiler::getSharedKernelEpilogue(const GemmDesc &G, GemmTarget Target,
                               const GemmResult &R, bool HasSiblings) const {
  KernelSharing Mode = pipelineOptions().ShareKernels;
  if (Mode == KernelSharing::Never ||
      (Mode == KernelSharing::Auto && !sharingPays(G, HasSiblings)) ||
      Target != GemmTarget::Vector || F.hasOptNone() || G.Out.Ptr)
    return std::nullopt;
  SmallVector<OpKind, 4> Kinds;
  if (!R.Epi)
    return Kinds;
  if (!R.Epi->Reads.empty())
    return std::nullopt;
  // A chain: each op reads the one before it (through typeinfos), the
  // first the GEMM's result, and the store the last.
  auto Source = [](Value *Token) {
    for (auto *CB = dyn_cast<CallBase>(Token);
         CB && getOpKind(*CB) == OpKind::TypeInfo;
         CB = dyn_cast<CallBase>(Token))
      Token = CB->getArgOperand(0);
    return Token;
  };
  Value *Prev = R.Epi->Reader;
  for (CallBase *E : R.Epi->Chain) {
    OpKind K = *getOpKind(*E);
    if (!isUnaryElementwise(K) || Source(E->getArgOperand(0)) != Prev)
      return std::nullopt;
    Kinds.push_back(K);
    Prev = E;
  }
  if (Source(R.Epi->Store->getArgOperand(1)) != Prev)
    return std::nullopt;
  return Kinds;
}

/// \p G, a GEMM of constant extents, as a call of the module's shared
/// kernel of its kind, with \p Epilogue (getSharedKernelEpilogue) applied
/// as it writes C. False after an error.
bool Tiler::emitSharedStaticGemm(IRBuilderBase &B, GemmDesc G,
                                 ArrayRef<OpKind> Epilogue, CallBase &Op) {
  G.RuntimeM = B.getInt64(G.M);
  G.RuntimeN = B.getInt64(G.N);
  G.RuntimeK = B.getInt64(G.K);
  std::string Size =
      (Twine(G.M) + "x" + Twine(G.K) + "x" + Twine(G.N) + " (MxKxN)").str();
  G.M = G.N = G.K = PlanningExtent;
  G.Epilogue = makeUnaryEpilogue(Epilogue);
  G.LanewiseEpilogue = true;
  bool Created = false;
  Function *Kernel = getSharedRuntimeGemm(G, Epilogue, Op, Created);
  if (!Kernel)
    return false;
  emitKernelCall(B, *Kernel, G, {G.A.Ptr, G.B.Ptr, G.C.Ptr, G.Init.Ptr});
  emitRemark(DEBUG_TYPE, "SharedGemm", Op,
             contractionName(Op) + ": " + Size + " calls " + Kernel->getName() +
                 ", the module's shared GEMM kernel of its kind "
                 "(share-kernels)");
  return true;
}

/// A store of a run-time-sized contraction's result, through unary
/// elementwise ops (the fused epilogue, in the order they apply): run-time
/// extents, or operands or a destination with run-time strides.
struct RuntimeGemmWork {
  CallBase *Store, *Op;
  SmallVector<CallBase *, 4> Chain;
};

static SmallVector<RuntimeGemmWork, 4> collectRuntimeGemms(Function &F) {
  SmallVector<RuntimeGemmWork, 4> Work;
  for (Instruction &I : instructions(F)) {
    auto *S = dyn_cast<CallBase>(&I);
    if (!S || getOpKind(*S) != OpKind::Store)
      continue;
    UnaryChain Chain = walkUnaryChain(S->getArgOperand(1));
    CallBase *Op = Chain.rootOp();
    if (Op && isContraction(*getOpKind(*Op)) &&
        (Chain.Dynamic || storesThroughRuntimeStrides(*S)))
      Work.push_back(
          {S, Op, SmallVector<CallBase *, 4>(reverse(Chain.Ops))});
  }
  return Work;
}

/// Erases \p Op once it is lowered, and its token operands nothing else
/// reads.
static void eraseLowered(CallBase &Op) {
  // (Handles: lowering may erase operands, and one may appear twice.)
  SmallVector<WeakTrackingVH, 3> Operands;
  for (Value *Arg : Op.args())
    if (auto *I = dyn_cast<Instruction>(Arg); I && getOpKind(I))
      Operands.emplace_back(I);
  eraseOpIfDead(Op);
  // Transposes read through strides have no other reader.
  for (WeakTrackingVH &V : Operands)
    if (auto *I = dyn_cast_or_null<Instruction>(V); I && I->use_empty())
      eraseWithDeadOperands(I);
}

bool Tiler::run() {
  // Run-time sizes (their stores erased once lowered), then static 2-D
  // matmul/mma: nd-to-2d has lowered contract, convolution and batches.
  auto Runtime = collectRuntimeGemms(F);
  for (RuntimeGemmWork &W : Runtime) {
    lowerRuntimeContraction(*W.Store, *W.Op, W.Chain);
    for (CallBase *E : reverse(W.Chain))
      eraseOpIfDead(*E);
    eraseLowered(*W.Op);
  }
  auto Work = collectStoredContractions(F, [](OpKind K, unsigned) {
    return K != OpKind::Contract && K != OpKind::Convolution;
  });
  for (auto [S, Op] : Work) {
    lowerContraction(*S, *Op);
    eraseLowered(*Op);
  }
  return !Work.empty() || !Runtime.empty();
}

} // namespace

PreservedAnalyses TilePass::run(Module &M, ModuleAnalysisManager &MAM) {
  ModuleGemms Gemms = surveyModuleGemms(M, MAM);
  return runLoweringStage(M, MAM, "tile",
                          [&](Function &F, FunctionAnalysisManager &FAM) {
                            return Tiler(F, FAM, Gemms).run();
                          });
}

} // namespace tlx
