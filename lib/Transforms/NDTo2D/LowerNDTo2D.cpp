//===- LowerNDTo2D.cpp - N-D contractions -> loops of 2-D ones ------------===//
//
// tlx-nd-to-2d is stage 1 of the RFC's lowering. On the destination-passing
// form of tlx-bufferize it rewrites every contraction that is not already a
// plain 2-D matmul/mma into loops around 2-D matmul/mma ops on sub-tensors
// (2-D loads through leading dimensions, stores into 2-D slices of the
// destination) - the IR of the RFC's LOWERING EXAMPLE. Elementwise, index
// map and reduce ops stay N-D: tlx-legalize emits their loop nests directly.
//
// Algorithm:
//  1. matmul / mma of rank > 2: a loop per batch dim; in the body, 2-D
//     tokens on the batch slices of each operand and a 2-D op storing into
//     the destination's slice.
//  2. contract: operands viewed as [free dims, contracted dims] (op1) and
//     [contracted, free] (op2) collapsed to 2-D, the result as
//     [op1 free, op2 free] collapsed to 2-D: one 2-D matmul.
//  3. convolution (input [N,C,spatial..], kernel [O,C,kspatial..]):
//     - a 1x1 kernel with unit strides: per image one 2-D matmul
//       kernel[O, C] x in[n] as [C, pixels] -> out[n] as [O, pixels];
//     - channels-last data whose receptive-field rows are contiguous runs
//       (kernel width x channels >= 16): per output row one GEMM per
//       kernel row, [OW, KW*C] read in place x kernel[(kw, C), O], summed
//       into the output row ("row-tap GEMMs");
//     - else input pixels evenly spaced (no input dilation; each outer
//       dim's input step a multiple of the last's) and >= 16 channels: per
//       image one GEMM per kernel tap reading the input in place ("shifted
//       GEMMs"), output pixels as one strided dim of rows padded to the
//       input's pitch, accumulated in a wide buffer, copied out at the end;
//     - otherwise per image and output row, im2col of the input row's
//       receptive fields (strides, input and kernel dilations applied
//       while gathering) into a [C*prod(kspatial), OW] buffer, then the
//       2-D matmul kernel[O, C*prod(kspatial)] x col -> out[n, :, row..];
//       channels-last data transposed: col [OW, (kspatial.., C)] x kernel
//       as [(kspatial.., C), O].
//  A 2-D token needs a unit-stride dim (BLAS leading dimension form). An
//  operand whose slice or collapse has none is first copied packed by a
//  transpose (a layout change); a destination that has none is computed in
//  a packed temporary and copied over by a transpose afterwards.
//
//===----------------------------------------------------------------------===//

#include "IR/Diagnostics.h"
#include "IR/ShapeInference.h"
#include "IR/TLXOps.h"
#include "Plugin/Options.h"
#include "Codegen/Epilogue.h"
#include "Codegen/IndexMap.h"
#include "Codegen/KernelOutliner.h"
#include "Transforms/Passes.h"
#include "Codegen/RuntimeShapes.h"
#include "Codegen/Threads.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

#define DEBUG_TYPE "tlx-nd-to-2d"

namespace tlx {
namespace {

/// A 2-D strided operand: element (r, c) at Ptr + r*RowStride + c*ColStride.
struct View2D {
  Value *Ptr = nullptr;
  Type *Elem = nullptr;
  int64_t Rows = 1, Cols = 1;
  int64_t RowStride = 1, ColStride = 1;
};

/// An image's output pixels as one strided dim of "wide" pixels: output
/// pixel (p_0, .., p_last) is wide pixel sum(p_d * Pitch[d]), and wide
/// pixel q of a kernel tap reads input pixel q * Step (elements) from the
/// tap's first. Outer dims are padded to the input's row pitch, so wide
/// pixels between two output rows are computed and dropped.
struct WidePixels {
  Dims Pitch;
  int64_t Count = 0; ///< wide pixels of one image
  int64_t Step = 0;  ///< input elements from one wide pixel to the next
};

/// How lowerShiftedConvolution computes one convolution: the 2-D views of
/// a chunk's operands (pointers set per tap), its taps and its chunks.
struct ShiftedConvPlan {
  bool PixelsAsRows = false; ///< channels last: wide = pixels x kernel^T
  WidePixels Wide;
  View2D Pixels, Tap, Sums; ///< input chunk, kernel tap, wide-buffer chunk
  StridedView WideBuf;      ///< one image's sums, [Q, O] or [O, Q]
  Dims Taps, InTapStrides, KerTapStrides;
  int64_t NumTaps = 1, Chunk = 0, NumChunks = 1;
  bool Threaded = false;
  std::string Packed; ///< remark note when the kernel was packed
};

/// A convolution's fused epilogue and where its values go: the chain's
/// destination, or - when alias analysis cannot tell that from what the
/// convolution and the chain read - a staging buffer in its layout if a
/// run-time check finds them overlapping, copied over at the end.
struct ConvEpilogue {
  Epilogue Chain;
  StridedView Dst;          ///< where emitConvolutionEpilogue writes
  Value *Overlap = nullptr; ///< i1, true when Dst is the staging buffer
  Buffer Staging;
};

/// How lowerConvolution computes a convolution one output row at a time:
/// im2col and one GEMM per row, or the row-tap GEMMs.
struct RowConvPlan {
  unsigned Rank = 0, NS = 0; ///< NS: spatial dims
  int64_t C = 0, O = 0, CK = 0, OW = 0;
  bool PixelsAsRows = false; ///< channels last: columns as [OW, (k.., C)]
  bool CopyBack = false;     ///< Out is a packed temporary, copied back
  bool RowTaps = false;      ///< row-tap GEMMs reading the input in place
  std::string Packed;        ///< remark note when the kernel was packed
  View2D K2;                 ///< the kernel matrix
  Dims OutCols, RowExtents, Outer, ColShape;
  StridedView Out;       ///< where the rows go
  Type *ResTy = nullptr; ///< one row's matmul result
};

class NDTo2DLowering {
public:
  NDTo2DLowering(Function &F, FunctionAnalysisManager &FAM)
      : F(F), Ctx(F.getContext()), AA(FAM.getResult<AAManager>(F)),
        TTI(FAM.getResult<TargetIRAnalysis>(F)) {}
  bool run();

private:
  void lowerBatched(CallBase &Store, CallBase &Op);
  void lowerContract(CallBase &Store, CallBase &Op);
  void lowerRuntimeContract(CallBase &Store, CallBase &Op);
  void lowerRuntimeConvolution(CallBase &Store, CallBase &Op);
  std::optional<RuntimeView> emitRuntimeConvolutionInput(IRBuilderBase &B,
                                                         const CallBase &Op);
  Value *emitRuntimeResultBuffer(IRBuilderBase &B, const CallBase &Op,
                                 const CallBase &Store,
                                 ArrayRef<Value *> Extents);
  void emitRuntimeCopyBack(IRBuilderBase &B, Value *Buf,
                           ArrayRef<Value *> Extents, CallBase &Store);
  Value *emitRuntimePackedCopy(IRBuilderBase &B, const CallBase &Op,
                               Value *Token, ArrayRef<Value *> Extents,
                               ArrayRef<int64_t> Perm, const Twine &Name);
  void lowerConvolution(CallBase &Store, CallBase &Op);
  RowConvPlan planRowConvolution(IRBuilderBase &B, CallBase &Op,
                                 const ConvolutionParams &P,
                                 const StridedView &In, StridedView &Ker,
                                 const StridedView &Dst,
                                 const ConvEpilogue *Epi);
  void emitConvolutionRow(IRBuilderBase &B, CallBase &Op,
                          const ConvolutionParams &P, const StridedView &In,
                          const StridedView &Ker, const RowConvPlan &S,
                          const ConvEpilogue *Epi, ArrayRef<Value *> OIdx,
                          const StridedView &Col, const StridedView &Out);
  bool emitConvolutionRows(IRBuilderBase &B, CallBase &Op,
                           const ConvolutionParams &P, const StridedView &In,
                           const StridedView &Ker, const StridedView &Dst,
                           RowConvPlan &S, const ConvEpilogue *Epi);
  void emitRowConvolutionRemark(CallBase &Op, const StridedView &In,
                                const StridedView &Ker, const StridedView &Dst,
                                const RowConvPlan &S, bool Threaded);
  bool lowerPointwiseConvolution(CallBase &Store, CallBase &Op,
                                 const StridedView &In, StridedView Ker,
                                 const StridedView &Dst);
  void emitWideCopyOut(IRBuilderBase &B, Value *N, const WidePixels &Wide,
                       const StridedView &WideBuf, bool PixelsAsRows,
                       const StridedView &Dst, const ConvEpilogue *Epi);
  bool lowerShiftedConvolution(CallBase &Store, CallBase &Op,
                               const ConvolutionParams &P,
                               const StridedView &In, StridedView Ker,
                               const StridedView &Dst, const ConvEpilogue *Epi);
  std::optional<Epilogue> findConvolutionEpilogue(CallBase &Store,
                                                  CallBase &Op);
  std::optional<ConvEpilogue>
  prepareConvolutionEpilogue(IRBuilderBase &B, std::optional<Epilogue> Chain,
                             CallBase &Op);
  void emitConvolutionEpilogue(IRBuilderBase &B, const ConvEpilogue &Epi,
                               ArrayRef<Value *> Origin,
                               ArrayRef<int64_t> Extents,
                               const StridedView &Sums);
  void finishConvolution(IRBuilderBase &B, CallBase &Store,
                         const ConvEpilogue *Epi, const Twine &Where);
  ShiftedConvPlan planShiftedConvolution(IRBuilderBase &B, CallBase &Op,
                                         const ConvolutionParams &P,
                                         const StridedView &In,
                                         StridedView &Ker,
                                         const StridedView &Dst,
                                         const WidePixels &Wide);
  void
  emitTapSum(IRBuilderBase &B, CallBase &Op, Type *ResTy, int64_t NumTaps,
             const View2D &Sums,
             function_ref<std::pair<View2D, View2D>(IRBuilderBase &, Value *)>
                 TapOperands);
  void emitShiftedChunk(IRBuilderBase &B, const ShiftedConvPlan &S,
                        CallBase &Op, Type *ResTy, Value *Image,
                        const StridedView &Ker, Value *Q0);
  View2D kernelMatrix(IRBuilderBase &B, CallBase &Op, StridedView &Ker,
                      std::string &Packed);
  View2D tapMajorKernelMatrix(IRBuilderBase &B, CallBase &Op, StridedView &Ker,
                              std::string &Packed);
  void emitRowTapGemms(IRBuilderBase &B, const ConvolutionParams &P,
                       const StridedView &In, const StridedView &Ker,
                       const View2D &K2, ArrayRef<Value *> OIdx,
                       const View2D &OutRow, Type *ResTy, CallBase &Op);
  void emitIm2colRuns(IRBuilderBase &B, const ConvolutionParams &P,
                      const StridedView &In, const StridedView &Ker,
                      ArrayRef<Value *> OIdx, const StridedView &Col);
  void emitIm2colRow(IRBuilderBase &B, const ConvolutionParams &P,
                     const StridedView &In, const StridedView &Ker,
                     ArrayRef<Value *> OIdx, const StridedView &Col,
                     bool PixelsAsRows);

  CallInst *emitToken(IRBuilderBase &B, const View2D &V);
  void emitStore2D(IRBuilderBase &B, Value *Data, const View2D &Dst);
  StridedView emitPackedCopy(IRBuilderBase &B, const Value *Token,
                             const StridedView &V, ArrayRef<int64_t> Perm);
  StridedView allocPacked(IRBuilderBase &B, Type *Elem,
                          ArrayRef<int64_t> Logical);
  void emitCopyBack(IRBuilderBase &B, const StridedView &Tmp, CallBase &Store);
  void emitFrees(IRBuilderBase &B);

  Function &F;
  LLVMContext &Ctx;
  AAResults &AA;
  TargetTransformInfo &TTI;
  TensorValues Values;
  SmallVector<Value *, 4> HeapTemps;
};

/// Whether a 2-D token (a load with leading dimension) can describe \p V:
/// one of its dims must be contiguous.
static bool isTokenExpressible(const View2D &V) {
  return V.ColStride == 1 || V.Cols == 1 || V.RowStride == 1 || V.Rows == 1;
}

/// Collapses logical dims \p Ds of \p V (outermost first) into one strided
/// dim, if their strides nest.
static std::optional<std::pair<int64_t, int64_t>>
collapse(const StridedView &V, ArrayRef<int64_t> Ds) {
  int64_t Ext = 1, Stride = 1;
  bool Started = false;
  for (int I = (int)Ds.size() - 1; I >= 0; --I) {
    int64_t D = Ds[I];
    if (V.Shape[D] == 1)
      continue;
    if (!Started) {
      Stride = V.Strides[D];
      Ext = V.Shape[D];
      Started = true;
      continue;
    }
    if (V.Strides[D] != Stride * Ext)
      return std::nullopt;
    Ext *= V.Shape[D];
  }
  return std::make_pair(Ext, Stride);
}

static std::optional<View2D> view2D(const StridedView &V,
                                    ArrayRef<int64_t> RowDims,
                                    ArrayRef<int64_t> ColDims) {
  auto R = collapse(V, RowDims), C = collapse(V, ColDims);
  if (!R || !C)
    return std::nullopt;
  View2D W;
  W.Ptr = V.Ptr;
  W.Elem = V.Elem;
  W.Rows = R->first;
  W.RowStride = R->second;
  W.Cols = C->first;
  W.ColStride = C->second;
  if (!isTokenExpressible(W))
    return std::nullopt;
  return W;
}

static Value *offsetPtr(IRBuilderBase &B, Value *Ptr, Type *Elem,
                        ArrayRef<Value *> Idx, ArrayRef<int64_t> Strides) {
  Value *Off = nullptr;
  for (unsigned I = 0; I < Idx.size(); ++I) {
    if (auto *C = dyn_cast<ConstantInt>(Idx[I]); C && C->isZero())
      continue;
    Value *T = B.CreateMul(Idx[I], B.getInt64(Strides[I]));
    Off = Off ? B.CreateAdd(Off, T) : T;
  }
  return Off ? B.CreateInBoundsGEP(Elem, Ptr, Off) : Ptr;
}

/// Storage shape, layout and leading dims of a 2-D view as a token.
static void tokenForm(const View2D &V, Dims &Shape, Dims &Layout, Dims &LD) {
  if (V.ColStride == 1 || V.Cols == 1) {
    Shape = {V.Rows, V.Cols};
    Layout = {0, 1};
    LD = {0, V.Rows == 1 ? 0 : V.RowStride};
  } else {
    Shape = {V.Cols, V.Rows};
    Layout = {1, 0};
    LD = {0, V.Cols == 1 ? 0 : V.ColStride};
  }
}

CallInst *NDTo2DLowering::emitToken(IRBuilderBase &B, const View2D &V) {
  Dims Shape, Layout, LD;
  tokenForm(V, Shape, Layout, LD);
  return createOpCall(B, OpKind::Load, Type::getTokenTy(Ctx),
                      {V.Ptr, getI32Vector(Ctx, Shape),
                       getI32Vector(Ctx, Layout), getI32Vector(Ctx, {0, 0}),
                       getI32Vector(Ctx, LD)},
                      V.Elem, "tlx.tile");
}

void NDTo2DLowering::emitStore2D(IRBuilderBase &B, Value *Data,
                                 const View2D &Dst) {
  Dims Shape, Layout, LD;
  tokenForm(Dst, Shape, Layout, LD);
  CallInst *TI =
      createOpCall(B, OpKind::TypeInfo, Type::getTokenTy(Ctx),
                   {Data, getI32Vector(Ctx, Shape), getI32Vector(Ctx, Layout),
                    getI32Vector(Ctx, {0, 0})});
  createOpCall(B, OpKind::Store, Type::getVoidTy(Ctx),
               {Dst.Ptr, TI, getI32Vector(Ctx, LD)}, Dst.Elem);
}

StridedView NDTo2DLowering::allocPacked(IRBuilderBase &B, Type *Elem,
                                        ArrayRef<int64_t> Logical) {
  int64_t N = 1;
  for (int64_t E : Logical)
    N *= E;
  Buffer Buf = emitAllocBuffer(B, Elem, N, "tlx.pack");
  if (Buf.IsHeap)
    HeapTemps.push_back(Buf.Ptr);
  StridedView V;
  V.Ptr = Buf.Ptr;
  V.Elem = Elem;
  V.Shape.assign(Logical.begin(), Logical.end());
  V.Strides = packedStrides(Logical);
  return V;
}

//   store(%ptr, typeinfo(transpose(%t, Perm), Shape, Perm, Padding), Strides)
// %t's tensor written at \p Ptr with storage order \p Perm (a layout
// change: the same logical values), Shape its extents in that order.
static void emitTransposedStore(IRBuilderBase &B, Value *Ptr, Type *Elem,
                                Value *Token, Type *VecTy,
                                ArrayRef<int64_t> Perm, Value *Shape,
                                Value *Padding, Value *Strides) {
  LLVMContext &Ctx = B.getContext();
  CallInst *Tr = createOpCall(B, OpKind::Transpose, VecTy,
                              {Token, getI32Vector(Ctx, Perm)});
  CallInst *TI = createOpCall(B, OpKind::TypeInfo, Type::getTokenTy(Ctx),
                              {Tr, Shape, getI32Vector(Ctx, Perm), Padding});
  createOpCall(B, OpKind::Store, Type::getVoidTy(Ctx), {Ptr, TI, Strides},
               Elem);
}

// %t (layout L) --> %c = transpose(%t, Perm); typeinfo(%c, ..., Perm);
//                   store(%tmp, ...): %tmp holds %t with storage order Perm.
StridedView NDTo2DLowering::emitPackedCopy(IRBuilderBase &B, const Value *Token,
                                           const StridedView &V,
                                           ArrayRef<int64_t> Perm) {
  Dims Storage;
  int64_t NumElems = 1;
  for (int64_t P : Perm) {
    Storage.push_back(V.Shape[P]);
    NumElems *= V.Shape[P];
  }
  StridedView Tmp = allocPacked(B, V.Elem, Storage);
  unsigned N = Tmp.Shape.size();
  Dims Zeros(N, 0);
  emitTransposedStore(B, Tmp.Ptr, V.Elem, const_cast<Value *>(Token),
                      FixedVectorType::get(V.Elem, NumElems), Perm,
                      getI32Vector(Ctx, Storage), getI32Vector(Ctx, Zeros),
                      getI32Vector(Ctx, Zeros));
  // The copy as a logical view: logical dim Perm[i] has storage stride i.
  StridedView Logical;
  Logical.Ptr = Tmp.Ptr;
  Logical.Elem = V.Elem;
  Logical.Shape = V.Shape;
  Logical.Strides.assign(V.rank(), 0);
  for (unsigned I = 0; I < N; ++I)
    Logical.Strides[Perm[I]] = Tmp.Strides[I];
  return Logical;
}

// Packed temporary --> transpose into the store's layout and store it.
void NDTo2DLowering::emitCopyBack(IRBuilderBase &B, const StridedView &Tmp,
                                  CallBase &Store) {
  std::optional<TensorValue> TV = getTensorValue(Store.getArgOperand(1));
  TensorType Ty = TV->Type;
  unsigned N = Ty.rank();
  Dims Identity(N), Zeros(N, 0);
  for (unsigned I = 0; I < N; ++I)
    Identity[I] = I;
  CallInst *Ld = createOpCall(
      B, OpKind::Load, Type::getTokenTy(Ctx),
      {Tmp.Ptr, getI32Vector(Ctx, Tmp.Shape), getI32Vector(Ctx, Identity),
       getI32Vector(Ctx, Zeros), getI32Vector(Ctx, Zeros)},
      Tmp.Elem);
  emitTransposedStore(B, Store.getArgOperand(0),
                      getPointerElementType(Store, 0), Ld,
                      FixedVectorType::get(Tmp.Elem, Ty.numElements()),
                      Ty.Layout, getI32Vector(Ctx, Ty.Shape),
                      getI32Vector(Ctx, Ty.Padding), Store.getArgOperand(2));
}

void NDTo2DLowering::emitFrees(IRBuilderBase &B) {
  for (Value *P : HeapTemps)
    emitFree(B, P);
  HeapTemps.clear();
}

static Dims iota(int64_t Begin, int64_t End) {
  Dims D;
  for (int64_t I = Begin; I < End; ++I)
    D.push_back(I);
  return D;
}

/// The row-major index of \p Shape whose flat position is \p Flat.
static SmallVector<Value *, 8> unflatten(IRBuilderBase &B, Value *Flat,
                                         ArrayRef<int64_t> Shape) {
  SmallVector<Value *, 8> Idx(Shape.size());
  for (unsigned D = Shape.size(); D-- > 0;) {
    Value *Ext = B.getInt64(Shape[D]);
    Idx[D] = D ? B.CreateURem(Flat, Ext) : Flat;
    Flat = B.CreateUDiv(Flat, Ext);
  }
  return Idx;
}

/// Convolutions of at least this many multiply-adds in all split their
/// output rows over the OpenMP threads in a -fopenmp module: each row is
/// an im2col and a 2-D matmul too small to split by itself (the
/// benchmark layer's: 64 x 576 x 54).
static cl::opt<int64_t> ThreadsMinConvWork(
    "tlx-threads-min-conv-work", cl::Hidden, cl::init(128 * 128 * 128),
    cl::desc("Multiply-adds below which a convolution stays on the calling "
             "thread"));

// %c = matmul(token %a, token %b)     ; [B.., M, K] x [B.., K, N]
// store(%dst, typeinfo(%c, ...), ld)
//   -->
// for b in B..:
//   %ta = load(%a + b.., <M,K>, ...); %tb = load(%b + b.., <K,N>, ...)
//   %c2 = matmul(%ta, %tb); store(%dst + b.., typeinfo(%c2, <M,N>, ...), ld)
void NDTo2DLowering::lowerBatched(CallBase &Store, CallBase &Op) {
  OpKind Kind = *getOpKind(Op);
  IRBuilder<> B(&Store);
  StridedView Dst = getStoreView(Store);
  unsigned Rank = Dst.rank();
  Dims Rows = {Rank - 2}, Cols = {Rank - 1};
  SmallVector<StridedView, 3> Ins;
  std::string Packed;
  for (unsigned I = 0; I < Op.arg_size(); ++I) {
    StridedView V = *getMemoryView(Op.getArgOperand(I));
    if (!view2D(V, Rows, Cols)) {
      V = emitPackedCopy(B, Op.getArgOperand(I), V, iota(0, Rank));
      Packed += " op" + std::to_string(I + 1);
    }
    Ins.push_back(V);
  }
  StridedView Out = Dst;
  bool CopyBack = !view2D(Dst, Rows, Cols);
  if (CopyBack)
    Out = allocPacked(B, Dst.Elem, Dst.Shape);
  Dims Batch(Dst.Shape.begin(), Dst.Shape.end() - 2);
  SmallVector<unsigned, 8> Order = inOrder(Batch.size());
  int64_t M = Dst.Shape[Rank - 2], N = Dst.Shape[Rank - 1];
  Type *ResTy = FixedVectorType::get(
      cast<VectorType>(Op.getType())->getElementType(), M * N);
  emitLoopNest(B, Batch, Order, "tlx.batch",
               [&](IRBuilderBase &B, ArrayRef<Value *> Idx) {
                 SmallVector<Value *, 3> Toks;
                 for (StridedView &V : Ins) {
                   View2D W = *view2D(V, Rows, Cols);
                   W.Ptr = offsetPtr(B, V.Ptr, V.Elem, Idx, V.Strides);
                   Toks.push_back(emitToken(B, W));
                 }
                 CallInst *C2 = createOpCall(B, Kind, ResTy, Toks);
                 C2->setDebugLoc(Op.getDebugLoc());
                 View2D W = *view2D(Out, Rows, Cols);
                 W.Ptr = offsetPtr(B, Out.Ptr, Out.Elem, Idx, Out.Strides);
                 emitStore2D(B, C2, W);
               });
  if (CopyBack)
    emitCopyBack(B, Out, Store);
  emitFrees(B);
  int64_t NumBatches = 1;
  for (int64_t E : Batch)
    NumBatches *= E;
  emitRemark(DEBUG_TYPE, "Batched", Op,
             getOpDesc(Kind).shortName() + ": " + formatShape(Dst.Shape) +
                 " -> loop over " + Twine(NumBatches) + " batch slices of " +
                 Twine(M) + "x" + Twine(N) + " 2-D " +
                 getOpDesc(Kind).shortName() +
                 (Packed.empty() ? "" : "; packed first:" + Packed) +
                 (CopyBack ? "; result via a packed temporary" : ""));
  Store.eraseFromParent();
}

// %c = contract(token %a, token %b, axes_a, axes_b)
//   --> matmul([free_a, axes_a] as 2-D, [axes_b, free_b] as 2-D)
void NDTo2DLowering::lowerContract(CallBase &Store, CallBase &Op) {
  std::string Why;
  ContractAxes Axes = *getContractAxes(Op, Why);
  IRBuilder<> B(&Store);
  StridedView A = *getMemoryView(Op.getArgOperand(0));
  StridedView Bv = *getMemoryView(Op.getArgOperand(1));
  StridedView Dst = getStoreView(Store);
  Dims FreeA = getFreeAxes(A.rank(), Axes.Op1),
       FreeB = getFreeAxes(Bv.rank(), Axes.Op2);
  std::string Packed;
  std::optional<View2D> A2 = view2D(A, FreeA, Axes.Op1);
  if (!A2) {
    Dims Perm(FreeA);
    Perm.append(Axes.Op1.begin(), Axes.Op1.end());
    A = emitPackedCopy(B, Op.getArgOperand(0), A, Perm);
    A2 = view2D(A, FreeA, Axes.Op1);
    Packed += " op1";
  }
  std::optional<View2D> B2 = view2D(Bv, Axes.Op2, FreeB);
  if (!B2) {
    Dims Perm(Axes.Op2);
    Perm.append(FreeB.begin(), FreeB.end());
    Bv = emitPackedCopy(B, Op.getArgOperand(1), Bv, Perm);
    B2 = view2D(Bv, Axes.Op2, FreeB);
    Packed += " op2";
  }
  Dims OutRows = iota(0, FreeA.size()),
       OutCols = iota(FreeA.size(), Dst.rank());
  std::optional<View2D> C2 = view2D(Dst, OutRows, OutCols);
  StridedView Out = Dst;
  bool CopyBack = !C2;
  if (CopyBack) {
    Out = allocPacked(B, Dst.Elem, Dst.Shape);
    C2 = view2D(Out, OutRows, OutCols);
  }
  Type *ResTy = FixedVectorType::get(
      cast<VectorType>(Op.getType())->getElementType(), C2->Rows * C2->Cols);
  CallInst *MM = createOpCall(B, OpKind::MatMul, ResTy,
                              {emitToken(B, *A2), emitToken(B, *B2)});
  MM->setDebugLoc(Op.getDebugLoc());
  emitStore2D(B, MM, *C2);
  if (CopyBack)
    emitCopyBack(B, Out, Store);
  emitFrees(B);
  emitRemark(DEBUG_TYPE, "Contract", Op,
             "contract: " + formatShape(A.Shape) + " x " +
                 formatShape(Bv.Shape) + " -> one " + Twine(C2->Rows) + "x" +
                 Twine(A2->Cols) + "x" + Twine(C2->Cols) +
                 " (MxKxN) 2-D matmul" +
                 (Packed.empty() ? "" : "; transposed first:" + Packed) +
                 (CopyBack ? "; result via a packed temporary" : ""));
  Store.eraseFromParent();
}

/// <n x i32> of the i64 \p Extents taken in the order \p Perm.
static Value *emitI32Vector(IRBuilderBase &B, ArrayRef<Value *> Extents,
                            ArrayRef<int64_t> Perm) {
  Value *Vec = getI32Vector(B.getContext(), Dims(Perm.size(), 0));
  for (unsigned I = 0; I < Perm.size(); ++I)
    Vec = B.CreateInsertElement(Vec,
                                B.CreateTrunc(Extents[Perm[I]], B.getInt32Ty()),
                                uint64_t(I), "tlx.shape");
  return Vec;
}

/// A token of the packed row-major tensor of \p Elem at \p Ptr with the
/// i64 logical extents \p Extents.
static CallInst *emitPackedLoad(IRBuilderBase &B, Value *Ptr, Type *Elem,
                                ArrayRef<Value *> Extents) {
  LLVMContext &Ctx = B.getContext();
  Dims Identity = iota(0, Extents.size()), Zeros(Extents.size(), 0);
  return createOpCall(B, OpKind::Load, Type::getTokenTy(Ctx),
                      {Ptr, emitI32Vector(B, Extents, Identity),
                       getI32Vector(Ctx, Identity), getI32Vector(Ctx, Zeros),
                       getI32Vector(Ctx, Zeros)},
                      Elem);
}

//   store(%c, typeinfo(matmul(load(%a, MxK), load(%b, KxN)), MxN))
// for packed row-major matrices of run-time extents, computing \p Op.
static void emitRuntimeMatMulStore(IRBuilderBase &B, const CallBase &Op,
                                   Value *C, Type *CElem, Value *A, Type *AElem,
                                   Value *Bm, Type *BElem, Value *M, Value *K,
                                   Value *N) {
  LLVMContext &Ctx = B.getContext();
  CallInst *MM = createOpCall(B, OpKind::MatMul, FixedVectorType::get(CElem, 1),
                              {emitPackedLoad(B, A, AElem, {M, K}),
                               emitPackedLoad(B, Bm, BElem, {K, N})});
  MM->setDebugLoc(Op.getDebugLoc());
  Dims Identity2{0, 1}, Zeros2{0, 0};
  CallInst *TI =
      createOpCall(B, OpKind::TypeInfo, Type::getTokenTy(Ctx),
                   {MM, emitI32Vector(B, {M, N}, Identity2),
                    getI32Vector(Ctx, Identity2), getI32Vector(Ctx, Zeros2)});
  createOpCall(B, OpKind::Store, Type::getVoidTy(Ctx),
               {C, TI, getI32Vector(Ctx, Zeros2)}, CElem);
}

/// The tensor \p Token (logical extents \p Extents) packed with its
/// logical dims in the order \p Perm into a heap buffer of its run-time
/// size: the buffer, or \p Token's own memory when that is packed so.
Value *NDTo2DLowering::emitRuntimePackedCopy(IRBuilderBase &B,
                                             const CallBase &Op, Value *Token,
                                             ArrayRef<Value *> Extents,
                                             ArrayRef<int64_t> Perm,
                                             const Twine &Name) {
  TensorValue TV = *getTensorValue(Token);
  const TensorType &Ty = TV.Type;
  if (isPackedMemory(TV) && ArrayRef<int64_t>(Ty.Layout) == Perm)
    return TV.Data;
  Value *Buf = emitRuntimeTensorAlloc(B, Op, Ty.Elem, Extents);
  Buf->setName(Name);
  Value *Zeros = getI32Vector(Ctx, Dims(Perm.size(), 0));
  emitTransposedStore(B, Buf, Ty.Elem, Token, FixedVectorType::get(Ty.Elem, 1),
                      Perm, emitI32Vector(B, Extents, Perm), Zeros, Zeros);
  HeapTemps.push_back(Buf);
  return Buf;
}

/// Where a run-time-sized contraction writes its packed row-major result
/// (logical extents \p Extents): \p Store's destination when that is
/// packed so, else a heap buffer (emitRuntimeCopyBack copies it over).
Value *NDTo2DLowering::emitRuntimeResultBuffer(IRBuilderBase &B,
                                               const CallBase &Op,
                                               const CallBase &Store,
                                               ArrayRef<Value *> Extents) {
  TensorType Ty = getTensorValue(Store.getArgOperand(1))->Type;
  std::optional<Dims> LD = getConstantIntVector(Store.getArgOperand(2));
  if (Ty.hasIdentityLayout() && LD &&
      all_of(*LD, [](int64_t S) { return S == 0; }) &&
      all_of(Ty.Padding, [](int64_t P) { return P == 0; }))
    return Store.getArgOperand(0);
  Value *Buf = emitRuntimeTensorAlloc(B, Op, Ty.Elem, Extents);
  Buf->setName("tlx.result");
  return Buf;
}

/// The packed result in \p Buf (logical extents \p Extents) into
/// \p Store's destination, in its layout, padding and strides; frees Buf
/// with the other temporaries.
void NDTo2DLowering::emitRuntimeCopyBack(IRBuilderBase &B, Value *Buf,
                                         ArrayRef<Value *> Extents,
                                         CallBase &Store) {
  TensorValue Dst = *getTensorValue(Store.getArgOperand(1));
  CallInst *Ld = emitPackedLoad(B, Buf, Dst.Type.Elem, Extents);
  emitTransposedStore(B, Store.getArgOperand(0), Dst.Type.Elem, Ld,
                      FixedVectorType::get(Dst.Type.Elem, 1), Dst.Type.Layout,
                      Dst.Def->getArgOperand(1),
                      getI32Vector(Ctx, Dst.Type.Padding),
                      Store.getArgOperand(2));
  HeapTemps.push_back(Buf);
}

/// The window of \p In (a view of [N, C, s..]) that kernel tap \p Tap
/// reads for image \p N with unit strides: [C, out..] at the tap's offset,
/// with In's strides - a load token, as In's innermost storage dim is
/// contiguous (not N's: checked by the caller).
static CallInst *emitTapWindow(IRBuilderBase &B, const RuntimeView &In,
                               Value *N, ArrayRef<int64_t> Tap,
                               ArrayRef<int64_t> KernelDilations,
                               ArrayRef<Value *> Out) {
  Value *Offset = B.CreateMul(N, In.Strides[0]);
  for (unsigned J = 0; J < Tap.size(); ++J)
    Offset =
        B.CreateAdd(Offset, B.CreateMul(B.getInt64(Tap[J] * KernelDilations[J]),
                                        In.Strides[J + 2]));
  Value *Ptr = B.CreateGEP(In.Elem, In.Ptr, Offset);
  // Window dim W is In's dim W + 1; storage order as In's, N left out.
  Dims Layout;
  SmallVector<Value *, 4> Extents, Steps;
  for (unsigned L : In.StorageOrder)
    if (L != 0) {
      Layout.push_back(L - 1);
      Extents.push_back(L == 1 ? In.Extents[1] : Out[L - 2]);
      Steps.push_back(In.Strides[L]);
    }
  unsigned R = Layout.size();
  // A load's strides: lane i + 1 steps storage dim i.
  SmallVector<Value *, 4> LD{B.getInt64(0)};
  LD.append(Steps.begin(), Steps.end() - 1);
  LLVMContext &Ctx = B.getContext();
  return createOpCall(B, OpKind::Load, Type::getTokenTy(Ctx),
                      {Ptr, emitI32Vector(B, Extents, iota(0, R)),
                       getI32Vector(Ctx, Layout), getI32Vector(Ctx, Dims(R, 0)),
                       emitI32Vector(B, LD, iota(0, R))},
                      In.Elem);
}

/// The window of \p In that kernel tap \p Tap reads for image \p N when
/// the strides are not all 1 (no load token can step its innermost dim by
/// more than 1): copied element by element into \p Dst as a packed
/// [C, out..]:
///   Dst[c][o..] = In[n][c][o_j * stride_j + tap_j * dilation_j ..]
/// (\p Out: the output extents, all >= 1 after the checks).
static void emitStridedTapCopy(IRBuilderBase &B, const RuntimeView &In,
                               Value *N, ArrayRef<int64_t> Tap,
                               const ConvolutionParams &P,
                               ArrayRef<Value *> Out, Value *Dst) {
  Value *Base = B.CreateMul(N, In.Strides[0]);
  SmallVector<Value *, 4> Extents{In.Extents[1]}, Steps{In.Strides[1]};
  for (unsigned J = 0; J < Tap.size(); ++J) {
    Base =
        B.CreateAdd(Base, B.CreateMul(B.getInt64(Tap[J] * P.KernelDilations[J]),
                                      In.Strides[J + 2]));
    Extents.push_back(Out[J]);
    Steps.push_back(B.CreateMul(B.getInt64(P.Strides[J]), In.Strides[J + 2]));
  }
  std::function<void(IRBuilderBase &, unsigned, Value *, Value *)> Nest =
      [&](IRBuilderBase &B, unsigned D, Value *Src, Value *At) {
        if (D == Extents.size()) {
          Value *V = B.CreateLoad(In.Elem, B.CreateGEP(In.Elem, In.Ptr, Src));
          B.CreateStore(V, B.CreateGEP(In.Elem, Dst, At));
          return;
        }
        emitCountedLoop(B, B.getInt64(0), Extents[D], 1, "tlx.conv.gather",
                        [&](IRBuilderBase &B, Value *I) {
                          Nest(B, D + 1,
                               B.CreateAdd(Src, B.CreateMul(I, Steps[D])),
                               B.CreateAdd(B.CreateMul(At, Extents[D]), I));
                        });
      };
  // (Counted loops run at least once: no channels, nothing to copy.)
  emitIfThen(B, B.CreateICmpSGT(In.Extents[1], B.getInt64(0)),
             "tlx.conv.gather",
             [&](IRBuilderBase &B) { Nest(B, 0, Base, B.getInt64(0)); });
}

/// What the verifier could not check of a run-time-sized contract: the
/// operands' extents \p EA, \p EB >= 0 and the contracted ones equal.
static void emitRuntimeContractChecks(IRBuilderBase &B, RuntimeChecker &Check,
                                      const ContractAxes &Axes,
                                      ArrayRef<Value *> EA,
                                      ArrayRef<Value *> EB) {
  for (auto [Name, E] :
       {std::make_pair("op1", EA), std::make_pair("op2", EB)}) {
    Value *NonNegative = B.getTrue();
    for (Value *X : E)
      NonNegative = B.CreateAnd(NonNegative, B.CreateICmpSGE(X, B.getInt64(0)));
    Check.require(NonNegative,
                  Twine(Name) + " has a negative extent at run time: " +
                      shapeFormat(E.size()),
                  E);
  }
  for (auto [X, Y] : zip(Axes.Op1, Axes.Op2))
    Check.requireEqual(EA[X], EB[Y],
                       "contracted extents differ at run time: op1 axis " +
                           Twine(X) + " is %lld, op2 axis " + Twine(Y) +
                           " is %lld",
                       {EA[X], EB[Y]});
}

// %c = contract(%a, %b, axes_a, axes_b), extents computed at run time
//   --> %pa = %a packed as [free_a.., axes_a..], %pb as [axes_b.., free_b..]
//       (a heap copy through transpose, unless packed so already)
//       store(%dst, typeinfo(matmul(load(%pa, MxK), load(%pb, KxN)), MxN))
// M, K, N the products of those extents; a destination that is not packed
// row-major gets the M x N result through a packed buffer and a copy.
void NDTo2DLowering::lowerRuntimeContract(CallBase &Store, CallBase &Op) {
  std::string Why;
  ContractAxes Axes = *getContractAxes(Op, Why);
  IRBuilder<> B(&Store);
  Value *TokA = Op.getArgOperand(0), *TokB = Op.getArgOperand(1);
  TensorType TyA = getTensorValue(TokA)->Type, TyB = getTensorValue(TokB)->Type;
  SmallVector<Value *, 4> EA = emitLogicalExtents(B, TyA),
                          EB = emitLogicalExtents(B, TyB);
  RuntimeChecker Check(B, Op);
  emitRuntimeContractChecks(B, Check, Axes, EA, EB);
  Check.requireValidView(emitStoreView(B, Store), "the result");
  Dims FreeA = getFreeAxes(TyA.rank(), Axes.Op1),
       FreeB = getFreeAxes(TyB.rank(), Axes.Op2);
  // M, K, N: products that must fit the i32 extents of a 2-D token.
  auto Product = [&](ArrayRef<Value *> E, ArrayRef<int64_t> Ds,
                     const char *What) {
    Value *P = B.getInt64(1);
    for (int64_t D : Ds) {
      P = B.CreateMul(P, E[D]);
      Check.require(B.CreateICmpSLE(P, B.getInt64(INT32_MAX)),
                    Twine(What) + " (a product of extents) exceeds 2^31 - 1 "
                                  "at run time: %lld",
                    {P});
    }
    return P;
  };
  Value *M = Product(EA, FreeA, "M"), *K = Product(EA, Axes.Op1, "K"),
        *N = Product(EB, FreeB, "N");
  Dims PermA(FreeA), PermB(Axes.Op2);
  PermA.append(Axes.Op1.begin(), Axes.Op1.end());
  PermB.append(FreeB.begin(), FreeB.end());
  Value *PA = emitRuntimePackedCopy(B, Op, TokA, EA, PermA, "tlx.contract.a");
  Value *PB = emitRuntimePackedCopy(B, Op, TokB, EB, PermB, "tlx.contract.b");
  // The destination, when packed row-major, holds the M x N result as is.
  TensorType DstTy = getTensorValue(Store.getArgOperand(1))->Type;
  Type *Elem = DstTy.Elem;
  SmallVector<Value *, 4> EC = emitLogicalExtents(B, DstTy);
  Value *C = emitRuntimeResultBuffer(B, Op, Store, EC);
  bool Direct = C == Store.getArgOperand(0);
  emitRuntimeMatMulStore(B, Op, C, Elem, PA, TyA.Elem, PB, TyB.Elem, M, K, N);
  if (!Direct)
    emitRuntimeCopyBack(B, C, EC, Store);
  emitFrees(B);
  emitRemark(DEBUG_TYPE, "Contract", Op,
             "contract: " + formatShape(TyA.logicalShape()) + " x " +
                 formatShape(TyB.logicalShape()) +
                 " with extents known at run time -> one MxKxN 2-D matmul "
                 "of the products of its free and contracted extents, "
                 "operands packed first unless they are already" +
                 (Direct ? "" : "; result via a packed temporary"));
  Store.eraseFromParent();
}

/// Checks what the verifier could not of a run-time-sized convolution of
/// \p In by a kernel of extents \p EK (constant taps \p KLogical): valid
/// input, channels, windows within the input, the result typeinfo \p YTy.
/// Returns the result's extents [N, O, out..].
static SmallVector<Value *, 4> emitRuntimeConvolutionChecks(
    IRBuilderBase &B, RuntimeChecker &Check, const RuntimeView &In,
    ArrayRef<Value *> EK, ArrayRef<int64_t> KLogical,
    const ConvolutionParams &P, const TensorType &YTy) {
  Check.requireValidView(In, "the input");
  Check.requireEqual(In.Extents[1], EK[1],
                     "channels differ at run time: the input has %lld, the "
                     "kernel %lld",
                     {In.Extents[1], EK[1]});
  SmallVector<Value *, 4> EY{In.Extents[0], EK[0]};
  for (unsigned J = 0; J + 2 < In.rank(); ++J) {
    int64_t Window = (KLogical[J + 2] - 1) * P.KernelDilations[J] + 1;
    Check.require(B.CreateICmpSGE(In.Extents[J + 2], B.getInt64(Window)),
                  "kernel window " + Twine(Window) +
                      " exceeds input extent %lld in spatial dimension " +
                      Twine(J) + " at run time",
                  {In.Extents[J + 2]});
    EY.push_back(B.CreateAdd(
        B.CreateSDiv(B.CreateSub(In.Extents[J + 2], B.getInt64(Window)),
                     B.getInt64(P.Strides[J])),
        B.getInt64(1)));
  }
  SmallVector<Value *, 8> Args(EY.begin(), EY.end());
  SmallVector<Value *, 4> Declared = emitLogicalExtents(B, YTy);
  Value *Same = emitSameExtents(B, Declared, EY);
  Args.append(Declared.begin(), Declared.end());
  std::string Shape = shapeFormat(EY.size());
  Check.require(Same,
                "the result is " + Shape +
                    " at run time, but its typeinfo "
                    "says " +
                    Shape,
                Args);
  return EY;
}

/// The input of the run-time-sized convolution \p Op as a view whose
/// innermost storage dim is contiguous and not N (a tap's window is then a
/// load token): its own memory, or a packed NCHW copy.
std::optional<RuntimeView>
NDTo2DLowering::emitRuntimeConvolutionInput(IRBuilderBase &B,
                                            const CallBase &Op) {
  Value *Token = Op.getArgOperand(0);
  std::optional<RuntimeView> In = emitTokenView(B, Token);
  if (In && In->StorageOrder.back() != 0)
    return In;
  TensorType Ty = getTensorValue(Token)->Type;
  SmallVector<Value *, 4> Extents = emitLogicalExtents(B, Ty);
  Value *Packed = emitRuntimePackedCopy(B, Op, Token, Extents,
                                        iota(0, Ty.rank()), "tlx.conv.input");
  RuntimeView V;
  V.Ptr = Packed;
  V.Elem = Ty.Elem;
  V.Extents.assign(Extents.begin(), Extents.end());
  V.Strides.resize(Ty.rank());
  Value *Step = B.getInt64(1);
  for (int D = Ty.rank() - 1; D >= 0; --D) {
    V.Strides[D] = Step;
    Step = B.CreateMul(Step, Extents[D]);
  }
  for (unsigned D = 0; D < Ty.rank(); ++D)
    V.StorageOrder.push_back(D);
  return V;
}

// %y = convolution(%in [N, C, s..], %k [O, C, t..]), extents computed at
// run time (unit input dilations; constant kernel taps):
//   %in packed NCHW first when its innermost storage dim is N
//   %kp = %k packed [O, t.., C]                      (an [O, T*C] matrix)
//   for n < N:
//     for each tap t: store(%col + t*C*P, window of %in[n] at t [C, out..])
//       (a loop nest gathering the elements when a stride is not 1)
//     store(%y[n], matmul(load(%kp, O x T*C), load(%col, T*C x P)))
// P = prod(out); %y[n] is [O, P] of a packed NCHW destination, else of a
// buffer copied into it after the loop.
void NDTo2DLowering::lowerRuntimeConvolution(CallBase &Store, CallBase &Op) {
  std::string Why;
  ConvolutionParams P = *getConvolutionParams(Op, Why);
  TensorType KTy = getTensorValue(Op.getArgOperand(1))->Type;
  Dims KLogical = KTy.logicalShape();
  IRBuilder<> B(&Store);
  bool UnitStrides = all_of(P.Strides, [](int64_t S) { return S == 1; });
  if (any_of(P.InputDilations, [](int64_t D) { return D != 1; }) ||
      is_contained(ArrayRef<int64_t>(KLogical).drop_front(2), DynamicExtent))
    return emitError(Op, getUserOpName(Op) +
                             ": with sizes computed at run time, a "
                             "convolution takes input dilations of 1 and "
                             "kernel taps of constant extents in this "
                             "version");
  std::optional<RuntimeView> In = emitRuntimeConvolutionInput(B, Op);
  unsigned R = In->rank(), Spatial = R - 2;
  SmallVector<Value *, 4> EK = emitLogicalExtents(B, KTy);
  TensorType YTy = getTensorValue(Store.getArgOperand(1))->Type;
  RuntimeChecker Check(B, Op);
  SmallVector<Value *, 4> EY =
      emitRuntimeConvolutionChecks(B, Check, *In, EK, KLogical, P, YTy);
  Check.requireValidView(emitStoreView(B, Store), "the result");
  ArrayRef<Value *> Out = ArrayRef<Value *>(EY).drop_front(2);
  Value *Pixels = B.getInt64(1);
  for (Value *E : Out)
    Pixels = B.CreateMul(Pixels, E);
  // The kernel as [O, T*C], the columns [T*C, P] (taps outermost).
  Dims KPerm{0};
  for (unsigned J = 0; J < Spatial; ++J)
    KPerm.push_back(J + 2);
  KPerm.push_back(1);
  Value *KP = emitRuntimePackedCopy(B, Op, Op.getArgOperand(1), EK, KPerm,
                                    "tlx.conv.kernel");
  int64_t Taps = 1;
  for (unsigned J = 0; J < Spatial; ++J)
    Taps *= KLogical[J + 2];
  Value *C = In->Extents[1], *O = EK[0];
  Value *TC = B.CreateMul(B.getInt64(Taps), C);
  SmallVector<Value *, 4> ColExtents{TC};
  ColExtents.append(Out.begin(), Out.end());
  Value *Col = emitRuntimeTensorAlloc(B, Op, In->Elem, ColExtents);
  Col->setName("tlx.conv.col");
  HeapTemps.push_back(Col);
  Value *Y = emitRuntimeResultBuffer(B, Op, Store, EY);
  Value *CWindow = B.CreateMul(C, Pixels);
  SmallVector<Value *, 4> WindowExtents{C};
  WindowExtents.append(Out.begin(), Out.end());
  Dims WinId = iota(0, R - 1), WinZeros(R - 1, 0);
  auto Image = [&](IRBuilderBase &B, Value *N) {
    Dims Tap(Spatial, 0);
    for (int64_t T = 0; T < Taps; ++T) {
      for (int64_t J = Spatial - 1, Rest = T; J >= 0; --J) {
        Tap[J] = Rest % KLogical[J + 2];
        Rest /= KLogical[J + 2];
      }
      Value *Dst =
          B.CreateGEP(In->Elem, Col, B.CreateMul(B.getInt64(T), CWindow));
      if (!UnitStrides) {
        emitStridedTapCopy(B, *In, N, Tap, P, Out, Dst);
        continue;
      }
      CallInst *Win = emitTapWindow(B, *In, N, Tap, P.KernelDilations, Out);
      emitTransposedStore(
          B, Dst, In->Elem, Win, FixedVectorType::get(In->Elem, 1), WinId,
          emitI32Vector(B, WindowExtents, WinId), getI32Vector(Ctx, WinZeros),
          getI32Vector(Ctx, WinZeros));
    }
    Value *YN =
        B.CreateGEP(YTy.Elem, Y, B.CreateMul(N, B.CreateMul(O, Pixels)));
    emitRuntimeMatMulStore(B, Op, YN, YTy.Elem, KP, KTy.Elem, Col, In->Elem, O,
                           TC, Pixels);
  };
  emitIfThen(B, B.CreateICmpSGT(In->Extents[0], B.getInt64(0)), "tlx.conv",
             [&](IRBuilderBase &B) {
               emitCountedLoop(B, B.getInt64(0), In->Extents[0], 1,
                               "tlx.conv.n", Image);
             });
  if (Y != Store.getArgOperand(0))
    emitRuntimeCopyBack(B, Y, EY, Store);
  emitFrees(B);
  emitRemark(DEBUG_TYPE, "Convolution", Op,
             "convolution with extents known at run time: per image, " +
                 Twine(Taps) +
                 " kernel-tap windows copied into [taps*C, pixels] "
                 "columns, then one run-time GEMM by the kernel as "
                 "[O, taps*C]");
  Store.eraseFromParent();
}

/// The convolution kernel \p Ker ([O, C, k..]) as the matrix [O, C*prod(k)],
/// packed first (\p Ker then names the copy, \p Packed says so) when its
/// dims do not collapse.
View2D NDTo2DLowering::kernelMatrix(IRBuilderBase &B, CallBase &Op,
                                    StridedView &Ker, std::string &Packed) {
  unsigned Rank = Ker.rank();
  if (std::optional<View2D> K2 = view2D(Ker, {0}, iota(1, Rank)))
    return *K2;
  Ker = emitPackedCopy(B, Op.getArgOperand(1), Ker, iota(0, Rank));
  Packed = "; kernel packed first";
  return *view2D(Ker, {0}, iota(1, Rank));
}

/// \p V transposed: element (c, r) of the result is element (r, c) of V.
static View2D transposed(View2D V) {
  std::swap(V.Rows, V.Cols);
  std::swap(V.RowStride, V.ColStride);
  return V;
}

/// Whether \p P with kernel \p Ker reads exactly one input pixel per
/// output pixel (1x1 kernel, unit strides, no input dilation): a GEMM over
/// the channels of every pixel.
static bool isPointwise(const ConvolutionParams &P, const StridedView &Ker) {
  for (unsigned D = 2; D < Ker.rank(); ++D)
    if (Ker.Shape[D] != 1)
      return false;
  return all_of(P.Strides, [](int64_t S) { return S <= 1; }) &&
         all_of(P.InputDilations, [](int64_t D) { return D <= 1; });
}

// %o = convolution(token %in, token %k) with a 1x1 kernel and unit strides
//   -->
// for n:
//   %o2 = matmul(kernel as [O, C], in[n] as [C, pixels])   (no im2col)
//   store(out[n] as [O, pixels], typeinfo(%o2, ...))
// Returns false (nothing emitted) when an image's pixels do not collapse
// into one strided dim, in the input or the output.
bool NDTo2DLowering::lowerPointwiseConvolution(CallBase &Store, CallBase &Op,
                                               const StridedView &In,
                                               StridedView Ker,
                                               const StridedView &Dst) {
  unsigned Rank = In.rank();
  Dims Pixels = iota(2, Rank);
  std::optional<View2D> In2 = view2D(In, {1}, Pixels);
  std::optional<View2D> Out2 = view2D(Dst, {1}, Pixels);
  if (!In2 || !Out2)
    return false;
  IRBuilder<> B(&Store);
  std::string Packed;
  View2D K2 = kernelMatrix(B, Op, Ker, Packed);
  Type *ResTy = FixedVectorType::get(
      cast<VectorType>(Op.getType())->getElementType(),
      Out2->Rows * Out2->Cols);
  // Channels-last data (each pixel's channels contiguous): the transposed
  // product in[n] as [pixels, C] x kernel^T -> out[n] as [pixels, O], so
  // that the large operand is read along its rows.
  bool ChannelsLast = In2->RowStride == 1 && In2->Cols > 1;
  emitLoopNest(B, {Dst.Shape[0]}, {0}, "tlx.conv",
               [&](IRBuilderBase &B, ArrayRef<Value *> N) {
                 View2D Image = *In2, Result = *Out2, Kernel = K2;
                 Image.Ptr = offsetPtr(B, In.Ptr, In.Elem, N, {In.Strides[0]});
                 Result.Ptr =
                     offsetPtr(B, Dst.Ptr, Dst.Elem, N, {Dst.Strides[0]});
                 View2D Op1 = Kernel, Op2 = Image;
                 if (ChannelsLast) {
                   Op1 = transposed(Image);
                   Op2 = transposed(Kernel);
                   Result = transposed(Result);
                 }
                 CallInst *MM = createOpCall(
                     B, OpKind::MatMul, ResTy,
                     {emitToken(B, Op1), emitToken(B, Op2)});
                 MM->setDebugLoc(Op.getDebugLoc());
                 emitStore2D(B, MM, Result);
               });
  emitFrees(B);
  emitRemark(
      DEBUG_TYPE, "Convolution", Op,
      "convolution: " + formatShape(In.Shape) + " * " + formatShape(Ker.Shape) +
          " -> " + formatShape(Dst.Shape) + " (1x1, unit strides) as one " +
          (ChannelsLast
               ? Twine(Out2->Cols) + "x" + Twine(K2.Cols) + "x" + Twine(K2.Rows)
               : Twine(K2.Rows) + "x" + Twine(K2.Cols) + "x" +
                     Twine(Out2->Cols)) +
          " (MxKxN) 2-D matmul per image over its pixels" +
          (ChannelsLast ? " (channels last: pixels x channels)" : "") +
          ", no im2col" + Packed);
  Store.eraseFromParent();
  return true;
}

/// Whether every receptive field's row (the last kernel dim's taps, each
/// pixel's channels) is one contiguous run of \p In: channels-last data
/// with dense pixels, no kernel dilation along the last dim and no input
/// dilation (whose holes, in any dim, are zeros no run holds).
static bool readsRuns(const ConvolutionParams &P, const StridedView &In) {
  unsigned NS = In.rank() - 2;
  return NS && In.Strides[1] == 1 && In.Strides[1 + NS] == In.Shape[1] &&
         P.KernelDilations[NS - 1] == 1 &&
         all_of(P.InputDilations, [](int64_t D) { return D <= 1; });
}

/// Fewest channels (each tap's GEMM's K) for which a GEMM per kernel tap
/// beats im2col's one GEMM over every tap.
static cl::opt<int64_t> ShiftedConvMinChannels(
    "tlx-conv-shifted-min-channels", cl::init(16), cl::Hidden,
    cl::desc("fewest channels (K) for a convolution computed as one GEMM "
             "per kernel tap over the input in place"));

/// Shortest receptive-field row (kernel width x channels: each kernel
/// row's GEMM's K) for which a channels-last convolution reads its runs in
/// place, a GEMM per output row and kernel row, rather than taking shifted
/// GEMMs or copying the runs into im2col columns for one GEMM.
static cl::opt<int64_t> ConvRowTapsMinRun(
    "tlx-conv-row-taps-min-run", cl::init(16), cl::Hidden,
    cl::desc("shortest receptive-field row (kernel width x channels) of a "
             "channels-last convolution computed as one GEMM per kernel "
             "row reading the input in place (0: never)"));

/// Whether lowerConvolution computes \p P as row-tap GEMMs: runs in place,
/// long enough, and no f16/bf16 result (rounded after every kernel row).
static bool takesRowTaps(const ConvolutionParams &P, const StridedView &In,
                         const StridedView &Ker, const CallBase &Op) {
  unsigned NS = In.rank() - 2;
  Type *ResElem = cast<VectorType>(Op.getType())->getElementType();
  return ConvRowTapsMinRun > 0 && In.Shape[1] > 1 && readsRuns(P, In) &&
         !ResElem->isHalfTy() && !ResElem->isBFloatTy() &&
         Ker.Shape[1 + NS] * In.Shape[1] >= ConvRowTapsMinRun;
}

/// Bytes of the wide buffer one chunk of wide pixels covers: the unit of
/// work shared out over threads, and the sums kept in cache across taps.
static cl::opt<int64_t> ShiftedConvChunkBytes(
    "tlx-conv-shifted-chunk-bytes", cl::init(64 * 1024), cl::Hidden,
    cl::desc("bytes of sums a convolution computed as one GEMM per kernel "
             "tap finishes over all taps before the next"));

/// Most padding pixels (percent of the output's) such a convolution may
/// compute and drop.
static cl::opt<int64_t> ShiftedConvMaxPadding(
    "tlx-conv-shifted-max-padding", cl::init(12), cl::Hidden,
    cl::desc("most padding pixels, in percent of the output pixels, a "
             "convolution computed as one GEMM per kernel tap may compute"));

/// The wide pixels of a convolution of \p In into \p Dst, when the input's
/// pixels are evenly spaced that way (no input dilation, each outer dim's
/// input step a multiple of the last's) and few of them are padding
/// (-tlx-conv-shifted-max-padding). Every stride is positive, so a padding
/// pixel's input lies between two valid pixels' - inside the input.
static std::optional<WidePixels> getWidePixels(const ConvolutionParams &P,
                                               const StridedView &In,
                                               const StridedView &Dst) {
  unsigned NS = In.rank() - 2;
  if (NS == 0 || any_of(P.InputDilations, [](int64_t D) { return D > 1; }) ||
      any_of(ArrayRef<int64_t>(In.Strides).drop_front(),
             [](int64_t S) { return S <= 0; }))
    return std::nullopt;
  WidePixels W;
  W.Step = P.Strides[NS - 1] * In.Strides[1 + NS];
  W.Pitch.assign(NS, 1);
  int64_t Span = Dst.Shape[1 + NS], Valid = Span;
  for (int D = (int)NS - 2; D >= 0; --D) {
    int64_t InStep = P.Strides[D] * In.Strides[2 + D];
    if (InStep % W.Step || InStep / W.Step < Span)
      return std::nullopt;
    W.Pitch[D] = InStep / W.Step;
    Span += (Dst.Shape[2 + D] - 1) * W.Pitch[D];
    Valid *= Dst.Shape[2 + D];
  }
  W.Count = Span;
  if ((Span - Valid) * 100 > Valid * ShiftedConvMaxPadding)
    return std::nullopt;
  return W;
}

/// The elementwise chain after the convolution \p Op (findEpilogue), which
/// its lowering applies to each part of the result as it is finished (an
/// output row, or an image's wide buffer).
std::optional<Epilogue> NDTo2DLowering::findConvolutionEpilogue(CallBase &Store,
                                                                CallBase &Op) {
  if (!pipelineOptions().FuseEpilogues)
    return std::nullopt;
  std::string WhyNot;
  std::optional<Epilogue> Chain = findEpilogue(Store, Op, AA, WhyNot);
  if (!WhyNot.empty())
    emitMissedRemark(DEBUG_TYPE, "EpilogueNotFused", Op,
                     "convolution: its elementwise consumer is not fused: " +
                         WhyNot);
  return Chain;
}

/// Where the fused \p Chain writes (ConvEpilogue), set up at \p B: its
/// destination is written while the convolution still reads its operands
/// and the chain its own, so it must overlap none of them - proved by
/// alias analysis, or checked at run time, a staging buffer (allocated
/// only then) taking the values when it fails.
std::optional<ConvEpilogue> NDTo2DLowering::prepareConvolutionEpilogue(
    IRBuilderBase &B, std::optional<Epilogue> Chain, CallBase &Op) {
  if (!Chain)
    return std::nullopt;
  ConvEpilogue Epi{*Chain, getStoreView(*Chain->Store), nullptr, {}};
  SmallVector<StridedView, 6> Reads(Chain->Reads.begin(), Chain->Reads.end());
  for (unsigned I = 0; I < 2; ++I)
    collectReadViews(Op.getArgOperand(I), nullptr, Reads);
  Value *Disjoint = emitDisjointCheck(B, AA, Epi.Dst, Reads);
  if (auto *K = dyn_cast<ConstantInt>(Disjoint); K && K->isOne())
    return Epi;
  int64_t Span = 1;
  for (unsigned D = 0; D < Epi.Dst.rank(); ++D) {
    if (Epi.Dst.Strides[D] < 0) {
      RecursivelyDeleteTriviallyDeadInstructions(Disjoint);
      emitMissedRemark(DEBUG_TYPE, "EpilogueNotFused", Op,
                       "convolution: its elementwise consumer is not fused: "
                       "its destination may overlap what the convolution or "
                       "the consumer reads, and runs backwards");
      return std::nullopt;
    }
    Span += (Epi.Dst.Shape[D] - 1) * Epi.Dst.Strides[D];
  }
  const DataLayout &DL = F.getDataLayout();
  Epi.Overlap = B.CreateNot(Disjoint, "conv.epi.overlap");
  Value *Bytes = B.CreateSelect(
      Epi.Overlap, B.getInt64(Span * DL.getTypeAllocSize(Epi.Dst.Elem)),
      B.getInt64(0));
  Epi.Staging = emitAllocBuffer(B, Epi.Dst.Elem, Bytes, "tlx.conv.staging");
  Epi.Dst.Ptr = B.CreateSelect(Epi.Overlap, Epi.Staging.Ptr, Epi.Dst.Ptr);
  return Epi;
}

/// The epilogue's values of the part of the convolution's result at
/// \p Origin (logical indices) with \p Extents, its values read from
/// \p Sums, into the epilogue's destination; at -O0 a kernel of its own.
void NDTo2DLowering::emitConvolutionEpilogue(IRBuilderBase &B,
                                             const ConvEpilogue &Epi,
                                             ArrayRef<Value *> Origin,
                                             ArrayRef<int64_t> Extents,
                                             const StridedView &Sums) {
  StridedView Part = Epi.Dst;
  Part.Ptr = emitAddress(B, Part, Origin);
  Part.Shape.assign(Extents.begin(), Extents.end());
  int64_t Elems = 1;
  for (int64_t E : Extents)
    Elems *= E;
  std::optional<KernelRegion> Kernel;
  if (Elems >= minKernelSteps())
    Kernel.emplace(B, "conv.epilogue");
  emitEpilogueOn(B, Values, Epi.Chain, Part, Origin, Sums,
                 getElementwiseWidth(TTI, F, Sums.Elem));
  if (Kernel)
    Kernel->finish(B);
}

/// Erases the lowered convolution's \p Store - with a fused epilogue
/// (applied to \p Where) first copying the staging buffer over its
/// destination if it was used, then erasing the chain and its store.
void NDTo2DLowering::finishConvolution(IRBuilderBase &B, CallBase &Store,
                                       const ConvEpilogue *Epi,
                                       const Twine &Where) {
  if (!Epi) {
    Store.eraseFromParent();
    return;
  }
  if (Epi->Overlap) {
    StridedView Dst = getStoreView(*Epi->Chain.Store);
    StridedView Staging = Dst;
    Staging.Ptr = Epi->Staging.Ptr;
    emitIfThen(B, Epi->Overlap, "tlx.conv.staged", [&](IRBuilderBase &B) {
      emitWriteLoop(B, Dst, getElementwiseWidth(TTI, F, Dst.Elem),
                    [&](IRBuilderBase &B, ArrayRef<Value *> Idx, unsigned Lanes,
                        int LaneDim) {
                      return emitViewLanes(B, Staging, Idx, Lanes, LaneDim);
                    });
    });
    emitFree(B, Epi->Staging.Ptr);
  }
  emitRemark(DEBUG_TYPE, "FusedEpilogue", *Epi->Chain.Store,
             "convolution: fused epilogue (" + describeChain(Epi->Chain.Chain) +
                 ") applied to " + Where +
                 (Epi->Overlap ? "; no temporary unless the destination "
                                 "overlaps what the convolution or the "
                                 "consumer reads (checked at run time)"
                               : "; no temporary"));
  eraseFusedEpilogue(Store, Epi->Chain);
}

// out[n, o, p..] = wide[sum(p * pitch), o] (or wide[o, sum(p * pitch)]):
// the valid pixels of image \p N, in the destination's layout - or with an
// epilogue, its values of them into its destination.
void NDTo2DLowering::emitWideCopyOut(IRBuilderBase &B, Value *N,
                                     const WidePixels &Wide,
                                     const StridedView &WideBuf,
                                     bool PixelsAsRows, const StridedView &Dst,
                                     const ConvEpilogue *Epi) {
  unsigned NS = Dst.rank() - 2;
  int64_t O = Dst.Shape[1];
  StridedView From{
      WideBuf.Ptr, WideBuf.Elem, {O}, {PixelsAsRows ? 1 : Wide.Count}};
  for (unsigned D = 0; D < NS; ++D) {
    From.Shape.push_back(Dst.Shape[2 + D]);
    From.Strides.push_back(Wide.Pitch[D] * (PixelsAsRows ? O : 1));
  }
  if (Epi) {
    // The image as the whole's logical dims: n first (extent 1).
    From.Shape.insert(From.Shape.begin(), 1);
    From.Strides.insert(From.Strides.begin(), 0);
    SmallVector<Value *, 8> Origin(Dst.rank(), B.getInt64(0));
    Origin[0] = N;
    return emitConvolutionEpilogue(B, *Epi, Origin, From.Shape, From);
  }
  // Channels innermost when both sides hold a pixel's channels together.
  SmallVector<unsigned, 8> Order = inOrder(NS + 1);
  if (PixelsAsRows)
    std::rotate(Order.begin(), Order.begin() + 1, Order.end());
  std::optional<KernelRegion> Kernel;
  if (O * (Wide.Count) >= minKernelSteps())
    Kernel.emplace(B, "conv.out");
  Align A = F.getParent()->getDataLayout().getABITypeAlign(Dst.Elem);
  emitLoopNest(B, From.Shape, Order, "tlx.conv.out",
               [&](IRBuilderBase &B, ArrayRef<Value *> Idx) {
                 SmallVector<Value *, 8> DstIdx = {N};
                 DstIdx.append(Idx.begin(), Idx.end());
                 Value *V = B.CreateAlignedLoad(Dst.Elem,
                                                emitAddress(B, From, Idx), A);
                 B.CreateAlignedStore(V, emitAddress(B, Dst, DstIdx), A);
               });
  if (Kernel)
    Kernel->finish(B);
}

static void emitShiftedConvolutionRemark(const CallBase &Op,
                                         const ShiftedConvPlan &S,
                                         const StridedView &In,
                                         const StridedView &Ker,
                                         const StridedView &Dst) {
  int64_t O = Ker.Shape[0], Q = S.Wide.Count, Valid = 1;
  int64_t K = S.PixelsAsRows ? S.Tap.Rows : S.Tap.Cols;
  for (unsigned D = 2; D < Dst.rank(); ++D)
    Valid *= Dst.Shape[D];
  std::string Shape = S.PixelsAsRows
                          ? (Twine(Q) + "x" + Twine(K) + "x" + Twine(O)).str()
                          : (Twine(O) + "x" + Twine(K) + "x" + Twine(Q)).str();
  std::string Reads =
      S.PixelsAsRows ? " (channels last: pixels x channels)" : "";
  emitRemark(
      DEBUG_TYPE, "Convolution", Op,
      "convolution: " + formatShape(In.Shape) + " * " + formatShape(Ker.Shape) +
          " -> " + formatShape(Dst.Shape) + " as " + Twine(S.NumTaps) +
          (S.NumTaps == 1 ? " GEMM of " : " GEMMs of ") + Shape +
          " (MxKxN) per image, one per kernel tap, reading the input in place" +
          Reads + "; " + Twine(Q - Valid) + " padding pixels of " + Twine(Q) +
          (S.NumChunks > 1
               ? ", in " + Twine(S.NumChunks) + " chunks of " + Twine(S.Chunk)
               : Twine()) +
          ", no im2col" + S.Packed +
          (S.Threaded ? "; chunks split over the OpenMP threads "
                        "(__kmpc_fork_call, static schedule)"
                      : ""));
}

// %o = convolution(token %in, token %k, strides, kernel dilations) with
// evenly spaced input pixels (getWidePixels) and enough channels
//   -->
// for n:
//   for each kernel tap t (input offset off_t):
//     wide (+)= in[n] from off_t as [Q wide pixels, C] x kernel[:, :, t]^T
//              (channels last: pixels x channels; else the transposed
//               product kernel[:, :, t] x in[n] as [C, Q])
//   out[n, o, p..] = wide[sum(p * pitch), o]
// One GEMM per tap reads the input in place (no im2col); the first tap's
// is a matmul, the others accumulate into the same wide buffer (tensor.smma,
// the accumulating form of every element type inside TLX). With threads
// the wide pixels are shared out in chunks, all taps of a chunk on one
// thread.
bool NDTo2DLowering::lowerShiftedConvolution(CallBase &Store, CallBase &Op,
                                             const ConvolutionParams &P,
                                             const StridedView &In,
                                             StridedView Ker,
                                             const StridedView &Dst,
                                             const ConvEpilogue *Epi) {
  Type *ResElem = cast<VectorType>(Op.getType())->getElementType();
  std::optional<WidePixels> Wide = getWidePixels(P, In, Dst);
  // Channels last reads the input as [pixels, C]; else its pixels must be
  // contiguous. f16/bf16 results would be rounded after every tap.
  // Channels-last data whose receptive-field rows are runs goes to the
  // row-tap GEMMs per output row instead (lowerConvolution): no padding
  // pixels, no wide buffer to copy out, each kernel row's taps as one K -
  // 3x3 layers on Zen 5, 56x56x64: 211 -> 217 GFLOP/s, 28x28x128: 203 ->
  // 229, 19x19x256: 183 -> 213 (docs/pipeline.md).
  bool PixelsAsRows = In.Strides[1] == 1;
  if (!Wide || (!PixelsAsRows && Wide->Step != 1) ||
      (PixelsAsRows && takesRowTaps(P, In, Ker, Op)) ||
      In.Shape[1] < ShiftedConvMinChannels || ResElem->isHalfTy() ||
      ResElem->isBFloatTy())
    return false;
  IRBuilder<> B(Epi ? Epi->Chain.Store : &Store);
  ShiftedConvPlan S = planShiftedConvolution(B, Op, P, In, Ker, Dst, *Wide);
  Type *ResTy = FixedVectorType::get(ResElem, S.Chunk * Ker.Shape[0]);
  emitLoopNest(
      B, {Dst.Shape[0]}, {0}, "tlx.conv",
      [&](IRBuilderBase &B, ArrayRef<Value *> N) {
        Value *Image = offsetPtr(B, In.Ptr, In.Elem, N, {In.Strides[0]});
        // Chunks [Begin, End), on one thread.
        auto EmitChunks = [&](IRBuilderBase &B, Value *Begin, Value *End) {
          emitCountedLoop(B, Begin, End, 1, "tlx.conv.chunk",
                          [&](IRBuilderBase &B, Value *I) {
                            int64_t Last = S.Wide.Count - S.Chunk;
                            Value *Q0 = B.CreateMul(I, B.getInt64(S.Chunk));
                            Q0 = B.CreateSelect(
                                B.CreateICmpSGT(Q0, B.getInt64(Last)),
                                B.getInt64(Last), Q0);
                            emitShiftedChunk(B, S, Op, ResTy, Image, Ker, Q0);
                          });
        };
        if (S.Threaded)
          // The last chunk overlaps the one before: one thread does both.
          emitParallelRegion(
              B, "tlx.par.conv", S.NumChunks - 1, 1, S.NumChunks - 1,
              [&](IRBuilderBase &TB, const ThreadShare &Share) {
                Value *End = TB.CreateSelect(
                    TB.CreateICmpEQ(Share.End, TB.getInt64(S.NumChunks - 1)),
                    TB.getInt64(S.NumChunks), Share.End);
                EmitChunks(TB, Share.Begin, End);
              });
        else
          EmitChunks(B, B.getInt64(0), B.getInt64(S.NumChunks));
        emitWideCopyOut(B, N[0], S.Wide, S.WideBuf, S.PixelsAsRows, Dst, Epi);
      });
  emitFrees(B);
  emitShiftedConvolutionRemark(Op, S, In, Ker, Dst);
  finishConvolution(B, Store, Epi,
                    "each image as its wide buffer is copied out");
  return true;
}

ShiftedConvPlan NDTo2DLowering::planShiftedConvolution(
    IRBuilderBase &B, CallBase &Op, const ConvolutionParams &P,
    const StridedView &In, StridedView &Ker, const StridedView &Dst,
    const WidePixels &Wide) {
  ShiftedConvPlan S;
  S.PixelsAsRows = In.Strides[1] == 1;
  S.Wide = Wide;
  bool Rows = S.PixelsAsRows;
  unsigned Rank = In.rank(), NS = Rank - 2;
  int64_t O = Ker.Shape[0], Q = Wide.Count;
  // The kernel's taps as [C, O] (channels last) or [O, C] matrices,
  // packed first (taps outermost, then C and O as the matrix is) when
  // their dims do not collapse that way.
  Dims TapRows = {1}, TapCols = {0};
  if (!Rows)
    std::swap(TapRows, TapCols);
  std::optional<View2D> Tap = view2D(Ker, TapRows, TapCols);
  if (!Tap) {
    Dims Perm = iota(2, Rank);
    Perm.append(Rows ? Dims{1, 0} : Dims{0, 1});
    Ker = emitPackedCopy(B, Op.getArgOperand(1), Ker, Perm);
    S.Packed = "; kernel packed first";
    Tap = view2D(Ker, TapRows, TapCols);
  }
  S.Tap = *Tap;
  S.Tap.Ptr = nullptr;
  int64_t K = Rows ? S.Tap.Rows : S.Tap.Cols;
  // One GEMM per kernel tap.
  S.Taps.assign(Ker.Shape.begin() + 2, Ker.Shape.end());
  S.KerTapStrides.assign(Ker.Strides.begin() + 2, Ker.Strides.end());
  for (unsigned D = 0; D < NS; ++D) {
    S.InTapStrides.push_back(P.KernelDilations[D] * In.Strides[2 + D]);
    S.NumTaps *= S.Taps[D];
  }
  // Chunks of wide pixels, all taps of one before the next: with threads
  // the unit shared out, and for channels-last data (whose chunk of sums
  // then stays in cache across the taps) on one thread too - 3x3
  // 64x56x56: 242 -> 253 GFLOP/s on Zen 5, 128x28x28: 240 -> 246; NCHW
  // chunks are narrow GEMMs, 224 -> 204. A chunk that would pass Q ends at
  // Q instead, overlapping its predecessor (whose pixels it recomputes the
  // same way, on the same thread): one GEMM shape.
  Type *ResElem = cast<VectorType>(Op.getType())->getElementType();
  S.Chunk = Q;
  S.Threaded = threadsEnabled(*F.getParent()) && !isParallelRegion(F) &&
               Q * O * K * S.NumTaps >= ThreadsMinConvWork;
  if (S.Threaded || Rows) {
    int64_t Target = std::max<int64_t>(
        1, ShiftedConvChunkBytes / (O * ResElem->getPrimitiveSizeInBits() / 8));
    int64_t Count = (Q + Target - 1) / Target;
    S.Chunk = (Q + Count - 1) / Count;
  }
  S.NumChunks = (Q + S.Chunk - 1) / S.Chunk;
  S.Threaded &= S.NumChunks > 2;
  S.WideBuf = allocPacked(B, ResElem, Rows ? Dims{Q, O} : Dims{O, Q});
  S.Sums = {nullptr,
            ResElem,
            Rows ? S.Chunk : O,
            Rows ? O : S.Chunk,
            S.WideBuf.Strides[0],
            1};
  S.Pixels = {nullptr,
              In.Elem,
              Rows ? S.Chunk : K,
              Rows ? K : S.Chunk,
              Rows ? Wide.Step : In.Strides[1],
              Rows ? In.Strides[1] : Wide.Step};
  return S;
}

// Sums[.] = sum over taps T < NumTaps of A(T) x B(T), the two operands
// TapOperands gives: tap 0 a matmul that stores, a loop over the others
// adding to it (tensor.smma, which tlx-tile computes in place) - two GEMMs'
// code whatever the tap count.
void NDTo2DLowering::emitTapSum(
    IRBuilderBase &B, CallBase &Op, Type *ResTy, int64_t NumTaps,
    const View2D &Sums,
    function_ref<std::pair<View2D, View2D>(IRBuilderBase &, Value *)>
        TapOperands) {
  auto EmitTap = [&](IRBuilderBase &B, Value *T, bool IsFirst) {
    auto [A, Bm] = TapOperands(B, T);
    SmallVector<Value *, 3> Args;
    if (!IsFirst)
      Args.push_back(emitToken(B, Sums));
    Args.push_back(emitToken(B, A));
    Args.push_back(emitToken(B, Bm));
    CallInst *MM =
        createOpCall(B, IsFirst ? OpKind::MatMul : OpKind::SMMA, ResTy, Args);
    MM->setDebugLoc(Op.getDebugLoc());
    emitStore2D(B, MM, Sums);
  };
  EmitTap(B, B.getInt64(0), true);
  if (NumTaps > 1)
    emitCountedLoop(B, 1, NumTaps, 1, "tlx.conv.tap",
                    [&](IRBuilderBase &B, Value *T) { EmitTap(B, T, false); });
}

// One chunk of wide pixels from Q0 on, all taps (emitTapSum).
void NDTo2DLowering::emitShiftedChunk(IRBuilderBase &B,
                                      const ShiftedConvPlan &S, CallBase &Op,
                                      Type *ResTy, Value *Image,
                                      const StridedView &Ker, Value *Q0) {
  Value *First = offsetPtr(B, Image, S.Pixels.Elem, {Q0}, {S.Wide.Step});
  Value *SumsPtr = offsetPtr(B, S.WideBuf.Ptr, S.WideBuf.Elem, {Q0},
                             {S.PixelsAsRows ? S.Sums.Cols : 1});
  View2D Sums = S.Sums;
  Sums.Ptr = SumsPtr;
  emitTapSum(B, Op, ResTy, S.NumTaps, Sums,
             [&](IRBuilderBase &B, Value *T) -> std::pair<View2D, View2D> {
               SmallVector<Value *, 8> Idx = unflatten(B, T, S.Taps);
               View2D In = S.Pixels, Tap = S.Tap;
               In.Ptr = offsetPtr(B, First, In.Elem, Idx, S.InTapStrides);
               Tap.Ptr = offsetPtr(B, Ker.Ptr, Ker.Elem, Idx, S.KerTapStrides);
               if (S.PixelsAsRows)
                 return {In, Tap};
               return {Tap, In};
             });
}

/// The im2col copy's loop nest over \p Shape, filling \p Col: at -O0 a
/// kernel of its own, optimized like the GEMM.
static void
emitIm2colLoops(IRBuilderBase &B, ArrayRef<int64_t> Shape,
                const StridedView &Col,
                function_ref<void(IRBuilderBase &, ArrayRef<Value *>)> Body) {
  std::optional<KernelRegion> Kernel;
  if (Col.Shape[0] * Col.Shape[1] >= minKernelSteps())
    Kernel.emplace(B, "im2col");
  emitLoopNest(B, Shape, inOrder(Shape.size()), "tlx.im2col", Body);
  if (Kernel)
    Kernel->finish(B);
}

/// The kernel [O, C, k..] as a [(k.., C), O] matrix (taps outermost, as
/// channels-last data holds a receptive field), packed first when its
/// dims do not collapse that way.
View2D NDTo2DLowering::tapMajorKernelMatrix(IRBuilderBase &B, CallBase &Op,
                                            StridedView &Ker,
                                            std::string &Packed) {
  unsigned Rank = Ker.rank();
  Dims RowDims = iota(2, Rank);
  RowDims.push_back(1);
  if (std::optional<View2D> K2 = view2D(Ker, RowDims, {0}))
    return *K2;
  Dims Perm = RowDims;
  Perm.push_back(0);
  Ker = emitPackedCopy(B, Op.getArgOperand(1), Ker, Perm);
  Packed = "; kernel packed first";
  return *view2D(Ker, RowDims, {0});
}

// One output row of channels-last data whose receptive-field rows are runs
// of the input (readsRuns): per kernel tap t of the outer dims (for 2-D:
// per kernel row),
//   out[ow, o] (+)= in[n, (p.. * stride + t * k_dil), ow*stride + run]
//                   x kernel[(t, run), o],      run = kw*C + c
// with the input read in place as a [OW, KW*C] matrix whose rows step
// stride*C elements (and overlap when the stride is below KW): no im2col.
// The taps summed by emitTapSum.
void NDTo2DLowering::emitRowTapGemms(
    IRBuilderBase &B, const ConvolutionParams &P, const StridedView &In,
    const StridedView &Ker, const View2D &K2, ArrayRef<Value *> OIdx,
    const View2D &OutRow, Type *ResTy, CallBase &Op) {
  unsigned NS = In.rank() - 2;
  int64_t Run = Ker.Shape[1 + NS] * In.Shape[1];
  // The receptive fields' first run, of kernel tap 0.
  SmallVector<Value *, 8> InIdx = {OIdx[0], B.getInt64(0)};
  Dims Taps, InTapStrides;
  for (unsigned D = 0; D + 1 < NS; ++D) {
    InIdx.push_back(B.CreateMul(OIdx[1 + D], B.getInt64(P.Strides[D])));
    Taps.push_back(Ker.Shape[2 + D]);
    InTapStrides.push_back(P.KernelDilations[D] * In.Strides[2 + D]);
  }
  InIdx.push_back(B.getInt64(0));
  Value *First = emitAddress(B, In, InIdx);
  View2D Pixels{nullptr,
                In.Elem,
                OutRow.Rows,
                Run,
                P.Strides[NS - 1] * In.Strides[1 + NS],
                1};
  emitTapSum(B, Op, ResTy, K2.Rows / Run, OutRow,
             [&](IRBuilderBase &B, Value *T) -> std::pair<View2D, View2D> {
               View2D A = Pixels, Tap = K2;
               A.Ptr = offsetPtr(B, First, In.Elem, unflatten(B, T, Taps),
                                 InTapStrides);
               Tap.Ptr =
                   offsetPtr(B, K2.Ptr, K2.Elem, {T}, {Run * K2.RowStride});
               Tap.Rows = Run;
               return {A, Tap};
             });
}

// col[(c, k..), ow] (or col[ow, (k.., c)] for channels-last data) =
// in_dilated[n, c, p*stride + k*k_dil] for the output row OIdx (n and the
// output spatial indices but the last): im2col, input dilation's holes
// zeros.
void NDTo2DLowering::emitIm2colRow(IRBuilderBase &B, const ConvolutionParams &P,
                                   const StridedView &In,
                                   const StridedView &Ker,
                                   ArrayRef<Value *> OIdx,
                                   const StridedView &Col, bool PixelsAsRows) {
  unsigned NS = In.rank() - 2;
  int64_t C = In.Shape[1];
  // Channels last with dense pixels: a receptive field's row (the last
  // kernel dim's taps, each pixel's channels) is one contiguous run in the
  // input and in the column, copied as one loop (vectorized; C = 3 alone
  // is not worth a vector).
  if (PixelsAsRows && readsRuns(P, In))
    return emitIm2colRuns(B, P, In, Ker, OIdx, Col);
  // Loop dims: [C, k.., OW], or [OW, k.., C] with the channels innermost.
  Dims Shape = {PixelsAsRows ? Col.Shape[0] : C};
  for (unsigned D = 0; D < NS; ++D)
    Shape.push_back(Ker.Shape[2 + D]);
  Shape.push_back(PixelsAsRows ? C : Col.Shape[1]);
  emitIm2colLoops(
      B, Shape, Col, [&](IRBuilderBase &B, ArrayRef<Value *> CIdx) {
        Value *Chan = PixelsAsRows ? CIdx[1 + NS] : CIdx[0];
        Value *Pixel = PixelsAsRows ? CIdx[0] : CIdx[1 + NS];
        SmallVector<Value *, 8> InIdx = {OIdx[0], Chan};
        Value *Valid = nullptr;
        // The column's K index: (c, k..) or (k.., c), row-major.
        Value *KIdx = PixelsAsRows ? B.getInt64(0) : Chan;
        for (unsigned D = 0; D < NS; ++D) {
          Value *Pd = D + 1 < NS ? OIdx[1 + D] : Pixel;
          Value *X = B.CreateAdd(
              B.CreateMul(Pd, B.getInt64(P.Strides[D])),
              B.CreateMul(CIdx[1 + D], B.getInt64(P.KernelDilations[D])));
          int64_t ID = P.InputDilations[D];
          if (ID > 1) {
            Value *Ok =
                B.CreateICmpEQ(B.CreateURem(X, B.getInt64(ID)), B.getInt64(0));
            Valid = Valid ? B.CreateAnd(Valid, Ok) : Ok;
            X = B.CreateUDiv(X, B.getInt64(ID));
          }
          InIdx.push_back(X);
          KIdx = B.CreateAdd(B.CreateMul(KIdx, B.getInt64(Ker.Shape[2 + D])),
                             CIdx[1 + D]);
        }
        if (PixelsAsRows)
          KIdx = B.CreateAdd(B.CreateMul(KIdx, B.getInt64(C)), Chan);
        Align A = F.getParent()->getDataLayout().getABITypeAlign(In.Elem);
        Value *V = B.CreateAlignedLoad(In.Elem, emitAddress(B, In, InIdx), A);
        if (Valid)
          V = B.CreateSelect(Valid, V, Constant::getNullValue(In.Elem));
        SmallVector<Value *, 2> ColIdx = {KIdx, Pixel};
        if (PixelsAsRows)
          std::swap(ColIdx[0], ColIdx[1]);
        B.CreateAlignedStore(V, emitAddress(B, Col, ColIdx), A);
      });
}

// col[ow, (k.., run)] = in[n, (x.., ow*stride + run)] for channels-last
// data whose pixels are dense: run = kw*C + c covers a receptive field's
// row, contiguous on both sides.
void NDTo2DLowering::emitIm2colRuns(
    IRBuilderBase &B, const ConvolutionParams &P, const StridedView &In,
    const StridedView &Ker, ArrayRef<Value *> OIdx, const StridedView &Col) {
  unsigned NS = In.rank() - 2;
  int64_t Run = Ker.Shape[1 + NS] * In.Shape[1];
  Dims Shape = {Col.Shape[0]};
  for (unsigned D = 0; D + 1 < NS; ++D)
    Shape.push_back(Ker.Shape[2 + D]);
  Shape.push_back(Run);
  emitIm2colLoops(
      B, Shape, Col, [&](IRBuilderBase &B, ArrayRef<Value *> CIdx) {
        // The run's first element: channel 0 of tap (k.., 0).
        SmallVector<Value *, 8> InIdx = {OIdx[0], B.getInt64(0)};
        Value *KIdx = B.getInt64(0);
        for (unsigned D = 0; D + 1 < NS; ++D) {
          InIdx.push_back(B.CreateAdd(
              B.CreateMul(OIdx[1 + D], B.getInt64(P.Strides[D])),
              B.CreateMul(CIdx[1 + D], B.getInt64(P.KernelDilations[D]))));
          KIdx = B.CreateAdd(B.CreateMul(KIdx, B.getInt64(Ker.Shape[2 + D])),
                             CIdx[1 + D]);
        }
        InIdx.push_back(B.CreateMul(CIdx[0], B.getInt64(P.Strides[NS - 1])));
        Value *M = CIdx.back();
        Value *From =
            B.CreateInBoundsGEP(In.Elem, emitAddress(B, In, InIdx), M);
        Value *To = emitAddress(
            B, Col,
            {CIdx[0], B.CreateAdd(B.CreateMul(KIdx, B.getInt64(Run)), M)});
        Align A = F.getParent()->getDataLayout().getABITypeAlign(In.Elem);
        B.CreateAlignedStore(B.CreateAlignedLoad(In.Elem, From, A), To, A);
      });
}

/// How lowerConvolution computes each output row, for its remark: the
/// row-tap GEMMs (runs of \p Run elements) or im2col and one GEMM.
static std::string describeRowGemms(bool RowTaps, bool PixelsAsRows, int64_t OW,
                                    int64_t CK, int64_t O, int64_t Run) {
  if (RowTaps)
    return (" as " + Twine(CK / Run) + " " + Twine(OW) + "x" + Twine(Run) +
            "x" + Twine(O) +
            " (MxKxN) 2-D matmuls per output row, one per kernel row, "
            "reading the input in place (channels last), no im2col")
        .str();
  return (" as im2col + " +
          (PixelsAsRows ? Twine(OW) + "x" + Twine(CK) + "x" + Twine(O)
                        : Twine(O) + "x" + Twine(CK) + "x" + Twine(OW)) +
          " (MxKxN) 2-D matmul per output row" +
          (PixelsAsRows ? " (channels last: pixels x taps and channels)" : ""))
      .str();
}

/// How \p Op's rows are computed: layout, kernel matrix and destination.
RowConvPlan NDTo2DLowering::planRowConvolution(IRBuilderBase &B, CallBase &Op,
                                               const ConvolutionParams &P,
                                               const StridedView &In,
                                               StridedView &Ker,
                                               const StridedView &Dst,
                                               const ConvEpilogue *Epi) {
  RowConvPlan S;
  S.Rank = In.rank();
  S.NS = S.Rank - 2; // spatial dims
  S.C = In.Shape[1];
  S.O = Ker.Shape[0];
  int64_t KProd = 1;
  for (unsigned D = 0; D < S.NS; ++D)
    KProd *= Ker.Shape[2 + D];
  S.CK = S.C * KProd;
  S.OW = Dst.Shape[S.Rank - 1];
  // Channels-last data: the column matrix as [OW, (k.., C)], each pixel's
  // channels copied together, times the kernel as [(k.., C), O]; else
  // [(C, k..), OW] and the kernel as [O, (C, k..)].
  S.PixelsAsRows = In.Strides[1] == 1 && S.C > 1;
  S.K2 = S.PixelsAsRows ? tapMajorKernelMatrix(B, Op, Ker, S.Packed)
                        : kernelMatrix(B, Op, Ker, S.Packed);
  S.OutCols = {(int64_t)S.Rank - 1};
  // Where the rows go: the destination; a packed temporary copied there
  // when it has no 2-D rows; with an epilogue, a buffer of one row, whose
  // values the epilogue takes (emitConvolutionEpilogue) while in cache.
  S.RowExtents = Dims(S.Rank, 1);
  S.RowExtents[1] = S.O;
  S.RowExtents[S.Rank - 1] = S.OW;
  S.Out = Dst;
  S.CopyBack = !Epi && !view2D(Dst, {1}, S.OutCols);
  if (S.CopyBack)
    S.Out = allocPacked(B, Dst.Elem, Dst.Shape);
  // Outer loops: n and every output spatial dim but the last.
  S.Outer = {Dst.Shape[0]};
  for (unsigned D = 0; D + 1 < S.NS; ++D)
    S.Outer.push_back(Dst.Shape[2 + D]);
  S.ResTy = FixedVectorType::get(
      cast<VectorType>(Op.getType())->getElementType(), S.O * S.OW);
  S.ColShape = S.PixelsAsRows ? Dims{S.OW, S.CK} : Dims{S.CK, S.OW};
  // Channels-last runs long enough: a GEMM per kernel row reading them in
  // place, no columns.
  S.RowTaps = S.PixelsAsRows && takesRowTaps(P, In, Ker, Op);
  return S;
}

/// One output row into \p Out (im2col of its receptive fields into \p Col,
/// then the GEMM of Col and the kernel matrix, or the row-tap GEMMs), then
/// the epilogue over it.
void NDTo2DLowering::emitConvolutionRow(
    IRBuilderBase &B, CallBase &Op, const ConvolutionParams &P,
    const StridedView &In, const StridedView &Ker, const RowConvPlan &S,
    const ConvEpilogue *Epi, ArrayRef<Value *> OIdx, const StridedView &Col,
    const StridedView &Out) {
  SmallVector<Value *, 8> OutIdx = {OIdx[0], B.getInt64(0)};
  for (unsigned D = 0; D + 1 < S.NS; ++D)
    OutIdx.push_back(OIdx[1 + D]);
  OutIdx.push_back(B.getInt64(0));
  View2D W = *view2D(Out, {1}, S.OutCols);
  W.Ptr = emitAddress(B, Out, OutIdx);
  if (S.RowTaps) {
    emitRowTapGemms(B, P, In, Ker, S.K2, OIdx, transposed(W), S.ResTy, Op);
  } else {
    emitIm2colRow(B, P, In, Ker, OIdx, Col, S.PixelsAsRows);
    View2D ColV{Col.Ptr,       In.Elem,       S.ColShape[0],
                S.ColShape[1], S.ColShape[1], 1};
    CallInst *MM = createOpCall(B, OpKind::MatMul, S.ResTy,
                                {emitToken(B, S.PixelsAsRows ? ColV : S.K2),
                                 emitToken(B, S.PixelsAsRows ? S.K2 : ColV)});
    MM->setDebugLoc(Op.getDebugLoc());
    emitStore2D(B, MM, S.PixelsAsRows ? transposed(W) : W);
  }
  if (Epi)
    emitConvolutionEpilogue(B, *Epi, OutIdx, S.RowExtents, Out);
}

/// Whether the output rows are split over threads, as their loops emitted.
bool NDTo2DLowering::emitConvolutionRows(IRBuilderBase &B, CallBase &Op,
                                         const ConvolutionParams &P,
                                         const StridedView &In,
                                         const StridedView &Ker,
                                         const StridedView &Dst, RowConvPlan &S,
                                         const ConvEpilogue *Epi) {
  // A buffer of one row, in the rows' layout: where the epilogue reads.
  auto RowBuffer = [&](Value *Ptr) {
    Dims Strides(S.Rank, 0);
    Strides[1] = S.PixelsAsRows ? 1 : S.OW;
    Strides[S.Rank - 1] = S.PixelsAsRows ? S.O : 1;
    return StridedView{Ptr, Dst.Elem, S.RowExtents, Strides};
  };
  int64_t Rows = 1;
  for (int64_t E : S.Outer)
    Rows *= E;
  bool Threaded = Rows > 1 && threadsEnabled(*F.getParent()) &&
                  !isParallelRegion(F) &&
                  Rows * S.O * S.CK * S.OW >= ThreadsMinConvWork;
  if (Threaded) {
    // Each thread its own rows, im2col buffer, row buffer and 2-D matmuls
    // (which then stay on it).
    emitParallelRegion(
        B, "tlx.par.conv", Rows, 1, Rows,
        [&](IRBuilderBase &TB, const ThreadShare &Share) {
          Buffer ColBuf, RowBuf;
          if (!S.RowTaps)
            ColBuf = emitAllocBuffer(TB, In.Elem, S.CK * S.OW, "tlx.pack");
          if (Epi)
            RowBuf = emitAllocBuffer(TB, Dst.Elem, S.O * S.OW, "tlx.conv.row");
          StridedView Col{ColBuf.Ptr, In.Elem, S.ColShape, {S.ColShape[1], 1}};
          emitCountedLoop(TB, Share.Begin, Share.End, 1, "tlx.conv",
                          [&](IRBuilderBase &TB, Value *Flat) {
                            emitConvolutionRow(
                                TB, Op, P, In, Ker, S, Epi,
                                unflatten(TB, Flat, S.Outer), Col,
                                Epi ? RowBuffer(RowBuf.Ptr) : S.Out);
                          });
          for (const Buffer &Buf : {ColBuf, RowBuf})
            if (Buf.IsHeap)
              emitFree(TB, Buf.Ptr);
        });
  } else {
    StridedView Col;
    if (!S.RowTaps)
      Col = allocPacked(B, In.Elem, S.ColShape);
    if (Epi)
      S.Out = RowBuffer(allocPacked(B, Dst.Elem, {S.O * S.OW}).Ptr);
    emitLoopNest(B, S.Outer, inOrder(S.Outer.size()), "tlx.conv",
                 [&](IRBuilderBase &B, ArrayRef<Value *> OIdx) {
                   emitConvolutionRow(B, Op, P, In, Ker, S, Epi, OIdx, Col,
                                      S.Out);
                 });
  }
  return Threaded;
}

/// The remark on a convolution computed row by row: shapes and method.
void NDTo2DLowering::emitRowConvolutionRemark(
    CallBase &Op, const StridedView &In, const StridedView &Ker,
    const StridedView &Dst, const RowConvPlan &S, bool Threaded) {
  std::string Method = describeRowGemms(S.RowTaps, S.PixelsAsRows, S.OW, S.CK,
                                        S.O, Ker.Shape[1 + S.NS] * S.C);
  emitRemark(DEBUG_TYPE, "Convolution", Op,
             "convolution: " + formatShape(In.Shape) + " * " +
                 formatShape(Ker.Shape) + " -> " + formatShape(Dst.Shape) +
                 Method + S.Packed +
                 (S.CopyBack ? "; result via a packed temporary" : "") +
                 (Threaded ? "; rows split over the OpenMP threads "
                             "(__kmpc_fork_call, static schedule)"
                           : ""));
}

// %o = convolution(token %in, token %k, strides, in_dil, k_dil)
//   -->
// for n, for out rows p_0..p_{s-2}:
//   col[c,k.., q] = in_dilated[n, c, p*stride + k*k_dil]    (im2col)
//   %o2 = matmul(kernel as [O, C*prod(k)], col)
//   store(out[n, :, p.., :], typeinfo(%o2, <O, OW>, ...))
void NDTo2DLowering::lowerConvolution(CallBase &Store, CallBase &Op) {
  std::string Why;
  ConvolutionParams P = *getConvolutionParams(Op, Why);
  StridedView In = *getMemoryView(Op.getArgOperand(0));
  StridedView Ker = *getMemoryView(Op.getArgOperand(1));
  StridedView Dst = getStoreView(Store);
  std::optional<Epilogue> Chain = findConvolutionEpilogue(Store, Op);
  if (isPointwise(P, Ker) &&
      lowerPointwiseConvolution(Store, Op, In, Ker, Dst)) {
    if (Chain)
      emitMissedRemark(DEBUG_TYPE, "EpilogueNotFused", Op,
                       "convolution: its elementwise consumer is not fused: "
                       "a 1x1 convolution is one GEMM per image");
    return;
  }
  // With an epilogue, at its store: what the chain reads is defined there.
  IRBuilder<> B(Chain ? Chain->Store : &Store);
  std::optional<ConvEpilogue> Epi = prepareConvolutionEpilogue(B, Chain, Op);
  if (!Epi)
    B.SetInsertPoint(&Store);
  if (lowerShiftedConvolution(Store, Op, P, In, Ker, Dst,
                              Epi ? &*Epi : nullptr))
    return;
  RowConvPlan S =
      planRowConvolution(B, Op, P, In, Ker, Dst, Epi ? &*Epi : nullptr);
  bool Threaded =
      emitConvolutionRows(B, Op, P, In, Ker, Dst, S, Epi ? &*Epi : nullptr);
  if (S.CopyBack)
    emitCopyBack(B, S.Out, Store);
  emitFrees(B);
  emitRowConvolutionRemark(Op, In, Ker, Dst, S, Threaded);
  finishConvolution(B, Store, Epi ? &*Epi : nullptr,
                    "each output row as it is finished, from cache");
}

bool NDTo2DLowering::run() {
  // Contract and convolution always; matmul/mma only when batched.
  auto Work = collectStoredContractions(F, [](OpKind K, unsigned Rank) {
    return K == OpKind::Contract || K == OpKind::Convolution || Rank > 2;
  });
  for (auto [S, Op] : Work) {
    // Run-time sizes - extents, or strides of an operand or of the
    // destination: the run-time lowerings, which read every view as values
    // (emitTokenView). Batches of such matrices: tlx-tile loops over them
    // around its shared kernel (lowerRuntimeContraction).
    if (getTensorValue(S->getArgOperand(1))->Type.isDynamic() ||
        readsRuntimeSizes(*Op) || storesThroughRuntimeStrides(*S)) {
      if (getOpKind(*Op) == OpKind::Contract)
        lowerRuntimeContract(*S, *Op);
      else if (getOpKind(*Op) == OpKind::Convolution)
        lowerRuntimeConvolution(*S, *Op);
      eraseOpIfDead(*Op);
      continue;
    }
    switch (*getOpKind(*Op)) {
    case OpKind::Contract:
      lowerContract(*S, *Op);
      break;
    case OpKind::Convolution:
      lowerConvolution(*S, *Op);
      break;
    default:
      lowerBatched(*S, *Op);
      break;
    }
    eraseOpIfDead(*Op);
  }
  return !Work.empty();
}

} // namespace

PreservedAnalyses NDTo2DPass::run(Module &M, ModuleAnalysisManager &MAM) {
  return runLoweringStage(M, MAM, "nd-to-2d",
                          [](Function &F, FunctionAnalysisManager &FAM) {
                            return NDTo2DLowering(F, FAM).run();
                          });
}

} // namespace tlx
