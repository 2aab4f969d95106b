//===- Legalize.cpp - Remaining TLX ops -> LLVM vector loops --------------===//
//
// tlx-legalize is the last lowering stage. It takes the destination-passing
// form that tlx-bufferize produced (contractions already lowered by
// tlx-tile) and turns every remaining TLX op into loop nests of LLVM
// vector IR sized for the function's target:
//
// Algorithm:
//  1. Each tensor.store writes its destination with one loop nest in the
//     destination's storage order (IndexMap.h: emitWriteLoop). The
//     innermost loop is vectorized explicitly, VF = vector register width
//     over the element width (so -O0 code is vectorized too), with an exact
//     scalar tail - except on RISC-V V, where it is left scalar for LLVM's
//     loop vectorizer, which makes it vector-length agnostic
//     (getElementwiseWidth). The stored token decides the elements:
//       - memory (load / memory typeinfo): a strided copy;
//       - an elementwise or index-map op: the ElementEmitter evaluates the
//         whole fused chain per element (no intermediate buffers);
//       - reduce.*: a window loop per output element or per vector of
//         outputs, or the window walked outermost (ReduceWindow.h).
//  2. tovector: the tensor is written row-major into a buffer, which is
//     then loaded as the result vector (the only tensor-sized vector this
//     stage creates, because the program asked for it).
//  3. Token producers left without users (loads, typeinfos, fused ops) are
//     erased; anything left is reported as an op the target cannot lower.
//
//===----------------------------------------------------------------------===//

#include "IR/Diagnostics.h"
#include "IR/ShapeInference.h"
#include "IR/TLXOps.h"
#include "Plugin/Options.h"
#include "Gemm/GemmEmitterImpl.h"
#include "Codegen/IndexMap.h"
#include "Codegen/KernelOutliner.h"
#include "Transforms/Passes.h"
#include "Codegen/ReduceWindow.h"
#include "Transforms/Legalize/RuntimeFusion.h"
#include "Codegen/RuntimeShapes.h"
#include "Codegen/Threads.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

#define DEBUG_TYPE "tlx-legalize"

namespace tlx {
namespace {

class Legalizer {
public:
  Legalizer(Function &F, const TargetTransformInfo &TTI, AAResults &AA)
      : F(F), TTI(TTI), AA(AA) {}
  bool run();

private:
  void lowerStore(CallBase &Store);
  void lowerRuntimeStore(CallBase &Store, const FusedTree &Tree);
  void lowerToVector(CallBase &Op);
  bool storeElementInPlace(const CallBase &Op, const StridedView &Dst,
                           Instruction &At);
  bool eraseDeadTLX();

  Function &F;
  const TargetTransformInfo &TTI;
  AAResults &AA;
  TensorValues Values;
};

// t[i] = x written over t itself (tlx-bufferize placed it in place):
//   store(%dst, typeinfo(insertelement(load(%dst), %x, %i)))
// --> store %x, ptr (address of flat position %i in %dst)
bool Legalizer::storeElementInPlace(const CallBase &Op, const StridedView &Dst,
                                    Instruction &At) {
  std::optional<StridedView> In = getMemoryView(Op.getArgOperand(0));
  if (!In || In->Ptr != Dst.Ptr || In->Strides != Dst.Strides ||
      In->Shape != Dst.Shape || In->Elem != Dst.Elem)
    return false;
  std::string Why;
  TensorType Ty = *getResultTensorType(Op, Why);
  IRBuilder<> B(&At);
  // Flat storage position -> storage index per dim -> element offset.
  Value *Pos = B.CreateSExtOrTrunc(Op.getArgOperand(2), B.getInt64Ty());
  Value *Offset = B.getInt64(0);
  for (int D = (int)Ty.rank() - 1; D >= 0; --D) {
    Value *Ext = B.getInt64(Ty.Shape[D]);
    Value *Index = D ? B.CreateURem(Pos, Ext) : Pos;
    Offset = B.CreateAdd(
        Offset, B.CreateMul(Index, B.getInt64(Dst.Strides[Ty.Layout[D]])));
    Pos = B.CreateUDiv(Pos, Ext);
  }
  B.CreateStore(Op.getArgOperand(1),
                B.CreateGEP(Dst.Elem, Dst.Ptr, Offset, "tlx.elem"));
  emitRemark(DEBUG_TYPE, "InsertElement", Op,
             "insertelement: one element stored in place");
  return true;
}


/// Loop nests shared out over the OpenMP threads in a -fopenmp module
/// (Threads.h): those doing at least this many element steps. A fork and
/// join costs a few microseconds, 64K steps of the cheapest nest (a copy)
/// about 20.
static cl::opt<int64_t> ThreadsMinSteps(
    "tlx-threads-min-steps", cl::Hidden, cl::init(1 << 16),
    cl::desc("Element steps below which a loop nest stays on the calling "
             "thread"));

/// The element steps of the loop nest writing \p Dst: its outputs, times
/// the window for reduce.*.
static int64_t loopSteps(const StridedView &Dst, const CallBase *Op) {
  int64_t Steps = 1;
  for (int64_t E : Dst.Shape)
    Steps *= E;
  std::string Why;
  if (Op && getOpKind(*Op) && !isFusibleProducer(*getOpKind(*Op)))
    if (std::optional<ReduceWindow> W = getReduceWindow(*Op, Why))
      for (int64_t E : W->Window)
        Steps *= E;
  return Steps;
}

/// The remarks' words for an innermost loop left to the loop vectorizer
/// in vectors of \p Lanes (scalable; getElementwiseWidth).
static std::string describeScalableLanes(ElementCount Lanes) {
  return ("its innermost loop scalar for LLVM's loop vectorizer, in vectors "
          "of vscale x " +
          Twine(Lanes.getKnownMinValue()) + " (any vector length)")
      .str();
}

/// Says that the loop nest of \p What at \p At was shared out over
/// \p Trips iterations of its outermost loop (none when 0).
static void remarkShared(const Instruction &At, const Twine &What,
                         int64_t Trips) {
  if (Trips)
    emitRemark(DEBUG_TYPE, "Threads", At,
               What + ": outermost loop (" + Twine(Trips) +
                   " iterations) split over the OpenMP threads "
                   "(__kmpc_fork_call, static schedule)");
}

// store(%dst, token %t, ld) --> a loop nest writing %dst (see algorithm 1).
/// Emits at \p B, in \p Dst's storage order, loops over every logical
/// index of \p Dst (run-time extents; empty ones run no iteration), the
/// innermost \p Lanes at a time with a scalar tail (scalable: a scalar
/// loop for the loop vectorizer, LoopHint::ScalableVF), the outermost over
/// \p Outermost only when given; \p Body gets the index (i64 values) and
/// the lane count.
static void emitRuntimeLoops(
    IRBuilderBase &B, const RuntimeView &Dst, ElementCount Lanes,
    function_ref<void(IRBuilderBase &, ArrayRef<Value *>, unsigned)> Body,
    const LoopRange *Outermost = nullptr) {
  SmallVector<Value *, 8> Idx(Dst.rank());
  std::function<void(unsigned)> Level = [&](unsigned Depth) {
    unsigned D = Dst.StorageOrder[Depth];
    Value *Begin = Depth == 0 && Outermost ? Outermost->Begin : B.getInt64(0);
    Value *End = Depth == 0 && Outermost ? Outermost->End : Dst.Extents[D];
    auto Loop = [&](Value *Begin, Value *End, unsigned Step,
                    LoopHint Hint = {}) {
      emitLoop(
          B, Begin, End, B.getInt64(Step), "tlx.rt",
          [&](IRBuilderBase &, Value *IV) {
            Idx[D] = IV;
            if (Depth + 1 < Dst.rank())
              Level(Depth + 1);
            else
              Body(B, Idx, Step);
          },
          Hint);
    };
    if (Depth + 1 < Dst.rank())
      return Loop(Begin, End, 1);
    unsigned VF = Lanes.getKnownMinValue();
    if (Lanes.isScalable())
      return Loop(Begin, End, 1, LoopHint::scalable(VF));
    if (VF == 1)
      return Loop(Begin, End, 1);
    Value *VecEnd =
        B.CreateSub(End, B.CreateSRem(B.CreateSub(End, Begin), B.getInt64(VF)));
    Loop(Begin, VecEnd, VF);
    Loop(VecEnd, End, 1);
  };
  Level(0);
}

/// Emits \p Nest (a loop nest writing \p Dst, its outermost loop over a
/// given range, or all of it for null) at \p B: with -fopenmp, shared out
/// over the threads by its outermost loop when it has two or more
/// iterations and ThreadsMinSteps element steps at run time (\p Dst's
/// elements times \p Window, the window each folds). Returns whether it
/// may fork.
static bool emitRuntimeSharedLoops(
    IRBuilderBase &B, const RuntimeView &Dst, Value *Window,
    function_ref<void(IRBuilderBase &, const LoopRange *)> Nest) {
  const Function &F = *B.GetInsertBlock()->getParent();
  if (!threadsEnabled(*F.getParent()) || isParallelRegion(F)) {
    Nest(B, nullptr);
    return false;
  }
  Value *Steps = Window;
  for (Value *E : Dst.Extents)
    Steps = B.CreateMul(Steps, E);
  Value *Outer = Dst.Extents[Dst.StorageOrder.front()];
  Value *Fork = B.CreateAnd(B.CreateICmpSGE(Steps, B.getInt64(ThreadsMinSteps)),
                            B.CreateICmpSGE(Outer, B.getInt64(2)), "par.fork");
  emitIf(
      B, Fork,
      [&] {
        emitParallelRegion(B, "tlx.par.loop", Outer, B.getInt64(1), Outer,
                           [&](IRBuilderBase &TB, const ThreadShare &Share) {
                             LoopRange Range{Share.Begin, Share.End};
                             Nest(TB, &Range);
                           });
      },
      [&] { Nest(B, nullptr); });
  return true;
}

/// A store of a tensor with run-time extents (docs/ops.md, "Run-time
/// sizes"): a copy from memory, or ops computed element by element
/// (FusedTree). Checked at run time, then one loop nest in the
/// destination's storage order, its innermost dim vectorized.
void Legalizer::lowerRuntimeStore(CallBase &Store, const FusedTree &Tree) {
  for (const Value *Leaf : Tree.Leaves)
    if (std::optional<TensorValue> TV = getTensorValue(Leaf);
        !TV || !TV->isMemory())
      return emitError(Store, "this tensor.store of a tensor with run-time "
                              "extents cannot be lowered: a contraction's "
                              "result is read by ops other than unary "
                              "elementwise ones");
  const CallBase *Outer = Tree.Ops.empty() ? nullptr : Tree.Ops.front();
  IRBuilder<> B(&Store);
  RuntimeTokens Prepared = prepareRuntimeTree(B, Tree);
  RuntimeView Dst = emitStoreView(B, Store);
  RuntimeChecker Check(B, Outer ? *Outer : Store);
  Check.requireValidView(Dst, "the destination");
  // Ops read elements other than the one they write: the destination must
  // be apart from what they read; element by element in place is fine.
  for (const Value *Leaf : Tree.Leaves) {
    RuntimeView Src = *emitTokenView(B, Leaf);
    Value *Apart = emitRuntimeDisjoint(B, Dst, Src, AA);
    if (Tree.readsInPlace(Leaf) && Src.Elem == Dst.Elem &&
        Src.rank() == Dst.rank()) {
      Value *Identical = B.CreateICmpEQ(Src.Ptr, Dst.Ptr);
      for (unsigned D = 0; D < Dst.rank(); ++D)
        Identical = B.CreateAnd(Identical,
                                B.CreateICmpEQ(Src.Strides[D], Dst.Strides[D]));
      Apart = B.CreateOr(Apart, Identical);
    }
    Check.require(Apart,
                  "the destination of tensor_store overlaps a tensor it "
                  "reads at run time",
                  {});
  }

  KernelRegion Kernel(B, "loop");
  const Value *Token = Store.getArgOperand(1);
  int Lane = Dst.StorageOrder.back();
  // reduce.* folds a window per output element: an inner loop, which the
  // loop vectorizer would not vectorize around.
  Value *Window = B.getInt64(1);
  bool Reduces = false;
  for (const CallBase *Op : Tree.Ops)
    if (auto It = Prepared.find(Op);
        It != Prepared.end() && isReduce(*getOpKind(*Op))) {
      Reduces = true;
      for (Value *W : It->second.Param1)
        Window = B.CreateMul(Window, W);
    }
  ElementCount Lanes =
      Reduces ? ElementCount::getFixed(getVectorWidth(TTI, Dst.Elem))
              : getElementwiseWidth(TTI, F, Dst.Elem);
  bool MayFork = emitRuntimeSharedLoops(
      B, Dst, Window, [&](IRBuilderBase &B, const LoopRange *Range) {
        emitRuntimeLoops(
            B, Dst, Lanes,
            [&](IRBuilderBase &B, ArrayRef<Value *> Idx, unsigned N) {
              ElementEmitter Elements(B, Values, &Prepared);
              Value *V = Elements.emit(Token, Idx, N, N > 1 ? Lane : -1);
              emitStoreLanes(B, V, emitViewAddress(B, Dst, Idx), Dst.Elem, 1);
            },
            Range);
      });
  Kernel.finish(B);
  std::string Ops;
  for (const CallBase *Op : reverse(Tree.Ops))
    Ops += (Ops.empty() ? "" : ", ") +
           getOpDesc(*getOpKind(*Op)).shortName().str();
  emitRemark(DEBUG_TYPE, "RuntimeStore", Outer ? *Outer : Store,
             (Ops.empty() ? Twine("a copy") : Twine(Ops)) +
                 " with run-time extents, in one loop nest, " +
                 (Lanes.isScalable()
                      ? describeScalableLanes(Lanes)
                      : std::to_string(Lanes.getFixedValue()) +
                            " lanes wide") +
                 (MayFork ? ", its outermost loop split over the OpenMP "
                            "threads when it writes at least " +
                                Twine(ThreadsMinSteps) + " elements at run time"
                          : ""));
  Store.eraseFromParent();
}

/// Whether \p Store writes extents, or reads or writes through strides,
/// that the program computes.
static bool isRuntimeStore(const CallBase &Store, const FusedTree &Tree) {
  return Tree.Dynamic || storesThroughRuntimeStrides(Store);
}

void Legalizer::lowerStore(CallBase &Store) {
  Value *Tok = Store.getArgOperand(1);
  if (FusedTree Tree = walkFusedTree(Tok); isRuntimeStore(Store, Tree))
    return lowerRuntimeStore(Store, Tree);
  StridedView Dst = getStoreView(Store);
  std::optional<TensorValue> TV = getTensorValue(Tok);
  if (!TV) {
    emitError(Store, "tensor.store of a token that is not a tensor");
    return;
  }
  // The op whose result is stored, or null for a copy between memories.
  const CallBase *Op = nullptr;
  OpKind Kind = OpKind::Load;
  if (!TV->isMemory()) {
    Op = dyn_cast<CallBase>(TV->Data);
    std::optional<OpKind> K = Op ? getOpKind(*Op) : std::nullopt;
    if (!K) {
      emitError(Store, "tensor.store of vector data that tlx-bufferize did "
                       "not place in memory");
      return;
    }
    Kind = *K;
  }
  if (Op && isContraction(Kind)) {
    emitError(*Op, "TLX op '" + getOpDesc(Kind).shortName() +
                       "' reached tlx-legalize: contractions are lowered by "
                       "tlx-tile");
    return;
  }
  if (Op && Kind == OpKind::InsertElement && storeElementInPlace(*Op, Dst, Store)) {
    Store.eraseFromParent();
    return;
  }
  // At -O0 a large loop nest goes into a kernel function of its own, which
  // is optimized (KernelOutliner.h).
  IRBuilder<> B(&Store);
  int64_t Steps = loopSteps(Dst, Op);
  std::optional<KernelRegion> Kernel;
  if (Steps >= minKernelSteps())
    Kernel.emplace(B, "loop");
  // A big nest's outermost loop is shared out over the OpenMP threads.
  int64_t SharedTrips = 0;
  auto Fork = [&](IRBuilderBase &B, int64_t Trips,
                  function_ref<void(IRBuilderBase &, const LoopRange &)>
                      EmitRange) {
    emitParallelRegion(B, "tlx.par.loop", Trips, 1, Trips,
                       [&](IRBuilderBase &TB, const ThreadShare &Share) {
                         EmitRange(TB, {Share.Begin, Share.End});
                       });
    SharedTrips = Trips;
  };
  LoopSharer Share;
  if (Steps >= ThreadsMinSteps && threadsEnabled(*F.getParent()) &&
      !isParallelRegion(F))
    Share = Fork;
  if (Op && !isFusibleProducer(Kind)) {
    // reduce.*: the only op with a loop inside each element.
    emitReduceWindow(B, Values, TTI, *Op, Dst, Share);
    if (Kernel) {
      B.SetInsertPoint(&Store);
      Kernel->finish(B);
    }
    remarkShared(*Op, getOpDesc(Kind).shortName(), SharedTrips);
    Store.eraseFromParent();
    return;
  }
  ElementCount Lanes = getElementwiseWidth(TTI, F, Dst.Elem);
  unsigned Used = emitMaterialize(B, Values, Tok, Dst, Lanes, Share);
  if (Kernel) {
    B.SetInsertPoint(&Store);
    Kernel->finish(B);
  }
  const Instruction &At = Op ? static_cast<const Instruction &>(*Op) : Store;
  std::string What = Op ? getOpDesc(Kind).shortName().str() : "copy";
  std::string Fused;
  if (Op)
    for (const Value *Arg : Op->args())
      if (auto A = getTensorValue(Arg); A && !A->isMemory())
        if (auto *P = dyn_cast<CallBase>(A->Data); P && getOpKind(*P))
          Fused += (Fused.empty() ? "" : ", ") +
                   getOpDesc(*getOpKind(*P)).shortName().str();
  // How the innermost loop is vectorized, and the target's width after the
  // fused ops for fixed lanes.
  std::string Vectors, TargetWidth;
  if (Lanes.isScalable()) {
    Vectors = describeScalableLanes(Lanes);
  } else {
    Vectors = std::to_string(Used) + "-lane vectors along the innermost dim";
    TargetWidth = " (target vector width " +
                  std::to_string(Lanes.getFixedValue()) + " lanes)";
  }
  emitRemark(DEBUG_TYPE, "LoopNest", At,
             What + ": " + formatShape(Dst.Shape) + " " +
                 elementTypeName(Dst.Elem) + " loop nest, " + Vectors +
                 (Fused.empty() ? "" : ", fused with " + Fused) + TargetWidth);
  remarkShared(At, What, SharedTrips);
  Store.eraseFromParent();
}

// %v = tovector(token %t) --> write %t row-major into %buf; %v = load %buf
void Legalizer::lowerToVector(CallBase &Op) {
  const Value *Tok = Op.getArgOperand(0);
  std::optional<TensorValue> TV = getTensorValue(Tok);
  if (!TV) {
    emitError(Op, "tovector of a token that is not a tensor");
    return;
  }
  Dims Logical = TV->Type.logicalShape();
  IRBuilder<> B(&Op);
  Type *Elem = TV->Type.Elem;
  Buffer Buf = emitAllocBuffer(B, Elem, TV->Type.numElements(), "tlx.vec");
  StridedView Dst;
  Dst.Ptr = Buf.Ptr;
  Dst.Elem = Elem;
  Dst.Shape = Logical;
  Dst.Strides = packedStrides(Logical);
  emitMaterialize(B, Values, Tok, Dst, getElementwiseWidth(TTI, F, Elem));
  Value *V = B.CreateAlignedLoad(Op.getType(), Buf.Ptr, Align(1));
  if (Buf.IsHeap)
    emitFree(B, Buf.Ptr);
  Op.replaceAllUsesWith(V);
  emitRemark(DEBUG_TYPE, "ToVector", Op,
             "tovector: " + formatShape(Logical) + " " + elementTypeName(Elem) +
                 " flattened row-major into a vector through a " +
                 (Buf.IsHeap ? "heap" : "stack") + " buffer");
  Op.eraseFromParent();
}

bool Legalizer::eraseDeadTLX() {
  bool Erased = true, Any = false;
  while (Erased) {
    Erased = false;
    SmallVector<Instruction *, 16> Dead;
    for (Instruction &I : instructions(F))
      if (auto K = getOpKind(&I); K && *K != OpKind::Store && I.use_empty())
        Dead.push_back(&I);
    for (Instruction *I : Dead)
      I->eraseFromParent();
    Erased = !Dead.empty();
    Any |= Erased;
  }
  return Any;
}

bool Legalizer::run() {
  SmallVector<CallBase *, 32> Stores, ToVectors;
  bool Any = false;
  for (Instruction &I : instructions(F))
    if (auto K = getOpKind(&I)) {
      Any = true;
      if (*K == OpKind::Store)
        Stores.push_back(cast<CallBase>(&I));
      else if (*K == OpKind::ToVector)
        ToVectors.push_back(cast<CallBase>(&I));
    }
  if (!Any)
    return false;
  for (CallBase *S : Stores)
    lowerStore(*S);
  for (CallBase *T : ToVectors)
    lowerToVector(*T);
  eraseDeadTLX();
  return true;
}

} // namespace

PreservedAnalyses LegalizePass::run(Module &M, ModuleAnalysisManager &MAM) {
  return runLoweringStage(
      M, MAM, "legalize", [](Function &F, FunctionAnalysisManager &FAM) {
        return Legalizer(F, FAM.getResult<TargetIRAnalysis>(F),
                         FAM.getResult<AAManager>(F))
            .run();
      });
}

} // namespace tlx
