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
//     implied by AMX-TILE); otherwise (or when the emitter says AMX
//     cannot do this GEMM - a missed remark says why) portable vectors.
//
//===----------------------------------------------------------------------===//

#include "../IR/Diagnostics.h"
#include "../IR/ShapeInference.h"
#include "../IR/TLXOps.h"
#include "../Plugin/Options.h"
#include "GemmEmitter.h"
#include "IndexMap.h"
#include "Passes.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

#define DEBUG_TYPE "tlx-tile"

namespace tlx {
namespace {

class Tiler {
public:
  Tiler(Function &F, const TargetTransformInfo &TTI, AAResults &AA)
      : F(F), TTI(TTI), AA(AA) {}
  bool run();

private:
  void lowerContraction(CallBase &Store, CallBase &Op);
  GemmTarget chooseTarget(const GemmDesc &G, CallBase &Op) const;

  Function &F;
  const TargetTransformInfo &TTI;
  AAResults &AA;
};

GemmTarget Tiler::chooseTarget(const GemmDesc &G, CallBase &Op) const {
  switch (pipelineOptions().Target) {
  case TargetKind::AMX:
  case TargetKind::AMXEmulate:
    return GemmTarget::AMX;
  case TargetKind::Vector:
    return GemmTarget::Vector;
  case TargetKind::Auto:
    break;
  }
  if (!gemm::hasTargetFeature(F, "amx-tile"))
    return GemmTarget::Vector;
  // Tiles do not imply every tile product: Sapphire Rapids has AMX-INT8 and
  // AMX-BF16 but no AMX-FP16, and its tdpfp16ps would fault.
  StringRef Product = getAMXFeature(G);
  if (!Product.empty() && !gemm::hasTargetFeature(F, Product)) {
    emitMissedRemark(DEBUG_TYPE, "NoAMXProduct", Op,
                     getOpDesc(*getOpKind(Op)).shortName() +
                         ": the function's target has AMX tiles but no " +
                         Product + "; using vector code");
    return GemmTarget::Vector;
  }
  return GemmTarget::AMX;
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

// %c = matmul(token %a, token %b)          C = A x B through strides:
// %t = typeinfo(%c, <M,N>, ...)      -->   emitGemm(M, N, K, A, B, C = %dst)
// store(%dst, %t, ld)
// (mma: %c = OP(token %acc, %a, %b) accumulates into %dst, holding %acc.)
void Tiler::lowerContraction(CallBase &Store, CallBase &Op) {
  OpKind Kind = *getOpKind(Op);
  StringRef Name = getOpDesc(Kind).shortName();
  bool IsMMA = Kind != OpKind::MatMul;
  unsigned First = IsMMA ? 1 : 0;
  std::optional<StridedView> A = getMemoryView(Op.getArgOperand(First));
  std::optional<StridedView> Bv = getMemoryView(Op.getArgOperand(First + 1));
  StridedView C = getStoreView(Store);
  if (!A || !Bv || A->rank() != 2 || Bv->rank() != 2 || C.rank() != 2) {
    emitError(Op, "TLX op '" + Name +
                      "' reached tlx-tile in an unexpected form (operands "
                      "must be 2-D tensors in memory)");
    return;
  }
  bool ASigned = true, BSigned = true;
  if (IsMMA) {
    MMASignedness S = *getMMASignedness(Kind);
    ASigned = S.Op1Signed;
    BSigned = S.Op2Signed;
  }
  IRBuilder<> B(&Store);
  GemmDesc G;
  G.M = C.Shape[0];
  G.N = C.Shape[1];
  G.K = A->Shape[1];
  G.A = operandOf(*A, ASigned);
  G.B = operandOf(*Bv, BSigned);
  G.C = operandOf(C, true);
  std::string AccNote;
  if (IsMMA) {
    G.Accumulate = true;
    std::optional<StridedView> Acc = getMemoryView(Op.getArgOperand(0));
    if (!Acc || !sameView(*Acc, C, AA)) {
      emitMaterialize(B, Op.getArgOperand(0), C, getVectorWidth(TTI, C.Elem));
      AccNote = ", accumulator copied into the destination first";
    } else {
      AccNote = ", accumulating in place";
    }
  }

  // f16/bf16 results accumulate in float (as the reference does) and are
  // rounded once, into the destination, afterwards.
  StridedView Acc32;
  Buffer Acc32Buf;
  bool Narrow = C.Elem->isHalfTy() || C.Elem->isBFloatTy();
  if (Narrow) {
    Type *F32 = B.getFloatTy();
    Acc32Buf = emitAllocBuffer(B, F32, G.M * G.N, "tlx.acc32");
    Acc32.Ptr = Acc32Buf.Ptr;
    Acc32.Elem = F32;
    Acc32.Shape = {G.M, G.N};
    Acc32.Strides = {G.N, 1};
    G.C = operandOf(Acc32, true);
    AccNote = ", accumulated in f32";
  }

  GemmTarget Target = chooseTarget(G, Op);
  GemmPlan Plan;
  std::string Why;
  bool Done = emitGemm(B, G, Target, TTI, Plan, Why);
  if (!Done && Target == GemmTarget::AMX) {
    emitMissedRemark(DEBUG_TYPE, "NoAMX", Op,
                     Name + ": AMX cannot do this GEMM (" + Why +
                         "); using vector code");
    Target = GemmTarget::Vector;
    Done = emitGemm(B, G, Target, TTI, Plan, Why);
  }
  if (!Done) {
    emitError(Op, "TLX op '" + Name + "' cannot be lowered for target '" +
                      (Target == GemmTarget::AMX ? "amx" : "vector") +
                      "': " + Why);
    return;
  }
  if (Narrow) {
    emitWriteLoop(B, C, getVectorWidth(TTI, C.Elem),
                  [&](IRBuilderBase &B, ArrayRef<Value *> Idx, unsigned Lanes,
                      int LaneDim) {
                    return emitLoadLanes(
                        B, emitAddress(B, Acc32, Idx), Acc32.Elem, Lanes,
                        LaneDim >= 0 ? Acc32.Strides[LaneDim] : 0);
                  });
    if (Acc32Buf.IsHeap)
      emitFree(B, Acc32Buf.Ptr);
  }
  emitRemark(DEBUG_TYPE, "Gemm", Op,
             Name + ": " + Twine(G.M) + "x" + Twine(G.K) + "x" + Twine(G.N) +
                 " (MxKxN) " + elementTypeName(A->Elem) + " x " +
                 elementTypeName(Bv->Elem) + " -> " + elementTypeName(C.Elem) +
                 " GEMM on " + (Target == GemmTarget::AMX ? "AMX" : "vectors") +
                 ", kernel " + Plan.Kernel + ", blocks MC=" + Twine(Plan.MC) +
                 " NC=" + Twine(Plan.NC) + " KC=" + Twine(Plan.KC) + ", tile " +
                 Twine(Plan.MR) + "x" + Twine(Plan.NR) + AccNote);
  Store.eraseFromParent();
}

bool Tiler::run() {
  // 2-D matmul/mma: nd-to-2d has lowered contract, convolution and batches.
  auto Work = collectStoredContractions(F, [](OpKind K, unsigned) {
    return K != OpKind::Contract && K != OpKind::Convolution;
  });
  for (auto [S, Op] : Work) {
    lowerContraction(*S, *Op);
    eraseOpIfDead(*Op);
  }
  return !Work.empty();
}

} // namespace

PreservedAnalyses TilePass::run(Module &M, ModuleAnalysisManager &MAM) {
  return runLoweringStage(M, MAM, "tile",
                          [](Function &F, FunctionAnalysisManager &FAM) {
                            return Tiler(F, FAM.getResult<TargetIRAnalysis>(F),
                                         FAM.getResult<AAManager>(F))
                                .run();
                          });
}

} // namespace tlx
