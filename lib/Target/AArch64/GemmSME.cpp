//===- GemmSME.cpp - GEMM on Arm SME ZA tiles -----------------------------===//
//
// The GemmTarget::SME kernels of the GEMM emitter: ZA-tile outer products
// f32 x f32 -> f32 (FMOPA), bf16 x bf16 -> f32 (BFMOPA) and f16 x f16 -> f32
// (widening FMOPA), i8 x i8 -> i32 (SMOPA / UMOPA / SUMOPA / USMOPA by
// operand signedness).
//
// Algorithm:
//  1. Kernel from the element types: KG, the k values one 32-bit lane of
//     an outer product sums (1 for f32, 2 for 16-bit, 4 for int8). A ZA
//     tile holds TR x TR 32-bit sums, TR = SVL/32 = 4 x vscale, known only
//     at run time.
//  2. Pack A (in the caller) into k-major row panels of 128 rows:
//     Ap[p][kq][r][g] = A[128p + r][KG kq + g], zero where k >= K; the last
//     panel holds only the rows left. B alike into column panels:
//     Bp[q][kq][c][g] = B[KG kq + g][128q + c]. One k step of a tile then
//     reads one contiguous SVE vector of A and one of B. 128 is a multiple
//     of every tile height (TR <= 64), so no tile straddles two panels.
//  3. C: the kernel reads (Accumulate) and writes a row-major 32-bit
//     matrix: C itself when it is row-major, else a staging buffer (the
//     initial sums - Init or C - copied in first).
//  4. The kernel, an internal locally streaming function with a new ZA
//     ("aarch64_pstate_sm_body", "aarch64_new_za": LLVM emits the SMSTART /
//     SMSTOP and the lazy-save handshake of the SME ABI, so its caller stays
//     an ordinary function), walks C in blocks of 2 x 2 tiles:
//       zero ZA (Accumulate: load the block's rows, ld1w horizontal slices)
//       for kq < ceil(K / KG): 2 A vectors, 2 B vectors, 4 outer products
//       store the block's rows (st1w horizontal slices)
//     Tails: A and B loads are predicated (rows beyond M, columns beyond N
//     read nothing and give zero), stores take a column predicate and a
//     row count.
//     The caller first calls tlxrt_sme_require() (libtlxrt): a CPU without
//     SME gets a message and exit status 1 instead of SIGILL. M, N and the
//     k steps are the kernel's arguments, so extents computed at run time
//     (docs/ops.md, "Run-time sizes") take the same kernel: the predicates
//     and row counts are computed from them either way.
//  5. Back in the caller: the epilogue (GemmDesc::Epilogue, to Out or C)
//     on the finished C, row by row, or the staging buffer copied to C.
//     The epilogue needs no streaming mode (NEON, libm calls) this way.
//
//===----------------------------------------------------------------------===//

#include "Gemm/GemmEmitterImpl.h"
#include "Compat.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicsAArch64.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

/// Rows (of A) or columns (of B) per packed panel: a multiple of every
/// possible tile height (SVL <= 2048 bits: at most 64 f32 rows).
constexpr int64_t PanelRows = 128;

/// 32-bit ZA tiles ZA0.S to ZA3.S: the 2 x 2 block.
constexpr unsigned BlockTiles = 2;

/// The outer product of one GEMM.
struct SMEKernel {
  Intrinsic::ID Mopa = Intrinsic::not_intrinsic;
  int64_t KG = 0; ///< k values per 32-bit lane
  const char *Name = "";
};

bool chooseSMEKernel(const GemmDesc &G, SMEKernel &Kern, std::string &Why) {
  Type *AT = G.A.Elem, *BT = G.B.Elem, *CT = G.C.Elem;
  if (AT->isFloatTy() && BT->isFloatTy() && CT->isFloatTy()) {
    Kern = {Intrinsic::aarch64_sme_mopa, 1, "f32 fmopa"};
  } else if (AT->isBFloatTy() && BT->isBFloatTy() && CT->isFloatTy()) {
    Kern = {Intrinsic::aarch64_sme_mopa_wide, 2, "bf16 bfmopa"};
  } else if (AT->isHalfTy() && BT->isHalfTy() && CT->isFloatTy()) {
    Kern = {Intrinsic::aarch64_sme_mopa_wide, 2, "f16 fmopa"};
  } else if (AT->isIntegerTy(8) && BT->isIntegerTy(8) &&
             CT->isIntegerTy(32)) {
    // The first source (A, the tile's rows) gives the first letter.
    bool SA = G.A.IsSigned, SB = G.B.IsSigned;
    if (SA && SB)
      Kern = {Intrinsic::aarch64_sme_smopa_wide, 4, "s8s8s32 smopa"};
    else if (!SA && !SB)
      Kern = {Intrinsic::aarch64_sme_umopa_wide, 4, "u8u8s32 umopa"};
    else if (SA)
      Kern = {Intrinsic::aarch64_sme_sumopa_wide, 4, "s8u8s32 sumopa"};
    else
      Kern = {Intrinsic::aarch64_sme_usmopa_wide, 4, "u8s8s32 usmopa"};
  } else {
    Why = "SME multiplies only f32, bf16 and f16 -> f32 and i8 x i8 -> i32";
    return false;
  }
  return true;
}

/// One tile's operand in the packed panels: its first element, the
/// elements between k steps, and the lanes that hold rows < Extent.
struct SMEOperand {
  Value *Base, *Step, *Pred;
};

/// What one kernel's blocks use (createKernel): its arguments, the types of
/// its operand vectors, the tile size and the SME intrinsics.
struct SMEKernelValues {
  Value *Ap, *Bp, *C, *LdC, *M, *N, *Steps; ///< the kernel's arguments
  ScalableVectorType *VecTy, *PredTy, *CPredTy;
  Constant *AllLanes, *Zeros;
  Value *TR;         ///< rows (columns) of one ZA tile: 4 x vscale
  Value *BlockStep;  ///< rows (columns) of one 2 x 2 block
  Value *PanelElems; ///< elements of one packed panel
  Function *Zero, *Mopa, *LoadSlice, *StoreSlice;
};

/// The tiles of one 2 x 2 block: per tile row its first row, rows and A
/// operand; per tile column its first column, predicate and B operand.
struct SMEBlock {
  Value *Row0[BlockTiles], *Rows[BlockTiles], *Col0[BlockTiles];
  Value *ColPred[BlockTiles];
  SMEOperand A[BlockTiles], Bv[BlockTiles];
};

class SMEGemmEmitter {
public:
  SMEGemmEmitter(IRBuilderBase &B, const GemmDesc &G, const SMEKernel &Kern)
      : B(B), G(G), Kern(Kern), ExtM(G.extentM(B)), ExtN(G.extentN(B)),
        ExtK(G.extentK(B)),
        KSteps(
            B.CreateUDiv(B.CreateAdd(ExtK, c64(Kern.KG - 1)), c64(Kern.KG))) {}

  void emit();

private:
  Value *c64(int64_t V) { return B.getInt64(V); }
  int64_t elemBytes() const {
    return G.A.Elem->getPrimitiveSizeInBits() / 8;
  }
  /// Elements of one packed panel of 128 rows or columns.
  Value *panelElems(IRBuilderBase &PB, Value *Steps) {
    return PB.CreateMul(Steps, PB.getInt64(PanelRows * Kern.KG));
  }

  Value *pack(const GemmOperand &Src, Value *Extent, bool Columns,
              ScratchSlot Slot);
  void copy(const GemmOperand &From, const GemmOperand &To, Value *Rows,
            Value *Cols);
  Function *createKernel();
  Function *declareKernel();
  SMEKernelValues emitKernelSetup(IRBuilderBase &KB, Function &F);
  void emitKernelBlock(IRBuilderBase &KB, const SMEKernelValues &K, Value *I0,
                       Value *J0);
  SMEBlock emitBlockTiles(IRBuilderBase &KB, const SMEKernelValues &K,
                          Value *I0, Value *J0);
  void emitBlockProducts(IRBuilderBase &KB, const SMEKernelValues &K,
                         const SMEBlock &Blk);
  SMEOperand emitOperand(IRBuilderBase &KB, const SMEKernelValues &K,
                         Value *Panels, Value *First, Value *Extent);
  void forEachSlice(IRBuilderBase &KB, const SMEKernelValues &K, Value *Row0,
                    Value *Rows, Value *Col0,
                    function_ref<void(Value *, Value *)> Body);
  /// Emits smax(\p V, 0).
  Value *smax0(IRBuilderBase &KB, Value *V) {
    return KB.CreateBinaryIntrinsic(Intrinsic::smax, V, KB.getInt64(0));
  }
  /// Emits smin(\p X, \p Y).
  Value *smin(IRBuilderBase &KB, Value *X, Value *Y) {
    return KB.CreateBinaryIntrinsic(Intrinsic::smin, X, Y);
  }
  /// Emits the predicate \p Ty of lanes Base + i < End.
  Value *laneMask(IRBuilderBase &KB, Type *Ty, Value *Base, Value *End) {
    return KB.CreateIntrinsic(Intrinsic::get_active_lane_mask,
                              {Ty, KB.getInt64Ty()}, {Base, End});
  }
  /// The ZA tile (\p R, \p Cc) of the block: ZA<R * 2 + Cc>.S.
  Value *zaTile(IRBuilderBase &KB, unsigned R, unsigned Cc) {
    return KB.getInt32(R * BlockTiles + Cc);
  }

  IRBuilderBase &B;
  const GemmDesc &G;
  const SMEKernel &Kern;
  /// The extents (i64): constants unless the GEMM is run-time sized.
  Value *ExtM, *ExtN, *ExtK;
  Value *KSteps; ///< k steps of one outer product each: ceil(K / KG)
};

// for r < Extent, k < K (B: the columns of B, read row by row):
//   p = r / 128, H = rows of panel p
//   P[p*128*KSteps*KG + (k/KG * H + r%128) * KG + k%KG] = Src(r, k)
// zero-filled first when K is not a multiple of KG.
Value *SMEGemmEmitter::pack(const GemmOperand &Src, Value *Extent, bool Columns,
                            ScratchSlot Slot) {
  int64_t KG = Kern.KG;
  Value *PanelElems = panelElems(B, KSteps);
  Value *Panels =
      B.CreateUDiv(B.CreateAdd(Extent, c64(PanelRows - 1)), c64(PanelRows));
  Value *Bytes = B.CreateMul(B.CreateMul(Panels, PanelElems), c64(elemBytes()));
  Value *P = emitScratch(B, Slot, Bytes);
  Value *KTail = B.CreateICmpNE(B.CreateURem(ExtK, c64(KG)), c64(0));
  emitIfFolded(B, KTail,
               [&] { B.CreateMemSet(P, B.getInt8(0), Bytes, Align(64)); });
  // Pure data movement: copied as integers, since LLVM 19 cannot select
  // the scalable bf16 interleaves the loop vectorizer makes of the k-pair
  // stores.
  Type *Bits = B.getIntNTy(Src.Elem->getPrimitiveSizeInBits());
  auto Copy = [&](Value *R, Value *K) {
    Value *Panel = B.CreateUDiv(R, c64(PanelRows));
    Value *Local = B.CreateURem(R, c64(PanelRows));
    Value *H = B.CreateBinaryIntrinsic(
        Intrinsic::smin, c64(PanelRows),
        B.CreateSub(Extent, B.CreateMul(Panel, c64(PanelRows))));
    Value *Index = B.CreateAdd(
        B.CreateMul(Panel, PanelElems),
        B.CreateAdd(
            B.CreateMul(
                B.CreateAdd(B.CreateMul(B.CreateUDiv(K, c64(KG)), H), Local),
                c64(KG)),
            B.CreateURem(K, c64(KG))));
    Value *From = Columns ? elementPtr(B, Src, K, R) : elementPtr(B, Src, R, K);
    B.CreateStore(B.CreateLoad(Bits, From), B.CreateGEP(Bits, P, Index));
  };
  // Read the source along its rows: A row by row, B k row by k row.
  Value *Outer = Columns ? ExtK : Extent;
  Value *Inner = Columns ? Extent : ExtK;
  emitLoop(B, c64(0), Outer, c64(1), "sme.pack.o",
           [&](IRBuilderBase &, Value *O) {
             emitLoop(B, c64(0), Inner, c64(1), "sme.pack.i",
                      [&](IRBuilderBase &, Value *I) {
                        if (Columns)
                          Copy(I, O);
                        else
                          Copy(O, I);
                      });
           });
  return P;
}

void SMEGemmEmitter::copy(const GemmOperand &From, const GemmOperand &To,
                          Value *Rows, Value *Cols) {
  emitLoop(B, c64(0), Rows, c64(1), "sme.copy.i",
           [&](IRBuilderBase &, Value *I) {
             emitLoop(B, c64(0), Cols, c64(1), "sme.copy.j",
                      [&](IRBuilderBase &, Value *J) {
                        B.CreateStore(
                            B.CreateLoad(From.Elem, elementPtr(B, From, I, J)),
                            elementPtr(B, To, I, J));
                      });
           });
}

// define internal void @tlx.sme.gemm(ptr %a, ptr %b, ptr %c, i64 %ldc,
//                                    i64 %m, i64 %n, i64 %ksteps)
//     "aarch64_pstate_sm_body" "aarch64_new_za"
// with the blocks of step 4 of the algorithm; %a and %b are the packed
// panels, %c the row-major 32-bit C (%ldc elements per row).
Function *SMEGemmEmitter::createKernel() {
  Function *F = declareKernel();
  IRBuilder<> KB(BasicBlock::Create(F->getContext(), "entry", F));
  SMEKernelValues K = emitKernelSetup(KB, *F);
  auto C64 = [&](int64_t V) { return KB.getInt64(V); };
  emitLoop(KB, C64(0), K.M, K.BlockStep, "sme.i",
           [&](IRBuilderBase &, Value *I0) {
             emitLoop(KB, C64(0), K.N, K.BlockStep, "sme.j",
                      [&](IRBuilderBase &, Value *J0) {
                        emitKernelBlock(KB, K, I0, J0);
                      });
           });
  KB.CreateRetVoid();
  return F;
}

/// Declares the kernel: its signature, SME attributes and argument names.
Function *SMEGemmEmitter::declareKernel() {
  Function *Caller = B.GetInsertBlock()->getParent();
  LLVMContext &Ctx = Caller->getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *Ptr = PointerType::getUnqual(Ctx);
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx),
                               {Ptr, Ptr, Ptr, I64, I64, I64, I64}, false);
  Function *F = createKernelFunction(*Caller, FT, "tlx.sme.gemm", "+sme");
  F->addFnAttr(compat::SMELocallyStreamingAttr);
  F->addFnAttr(compat::SMENewZAAttr);
  // Always a frame record (x29, x30): LLVM 22 at -O0 inserts the new ZA's
  // lazy-save commit (a call of __arm_tpidr2_save) after deciding that a
  // kernel without calls need not save the link register, so the kernel
  // then returned into itself, to a ZA instruction with ZA off (SIGILL;
  // test/AArch64/sme-abi-routines.c).
  F->addFnAttr("frame-pointer", "all");
  const char *Names[] = {"a", "b", "c", "ldc", "m", "n", "ksteps"};
  for (unsigned I = 0; I < 7; ++I)
    F->getArg(I)->setName(Names[I]);
  return F;
}

/// Emits the kernel's tile size and returns what its blocks use.
SMEKernelValues SMEGemmEmitter::emitKernelSetup(IRBuilderBase &KB,
                                                Function &F) {
  SMEKernelValues K;
  K.Ap = F.getArg(0);
  K.Bp = F.getArg(1);
  K.C = F.getArg(2);
  K.LdC = F.getArg(3);
  K.M = F.getArg(4);
  K.N = F.getArg(5);
  K.Steps = F.getArg(6);
  Module *Mod = F.getParent();
  auto C64 = [&](int64_t V) { return KB.getInt64(V); };
  int64_t KG = Kern.KG;
  Type *Elem = G.A.Elem, *I64 = KB.getInt64Ty();
  K.VecTy = ScalableVectorType::get(Elem, 4 * KG);
  K.PredTy = ScalableVectorType::get(KB.getInt1Ty(), 4 * KG);
  K.CPredTy = ScalableVectorType::get(KB.getInt1Ty(), 4);
  K.AllLanes = Constant::getAllOnesValue(K.PredTy);
  K.Zeros = Constant::getNullValue(K.VecTy);

  // In streaming mode vscale is the streaming vector length's.
  K.TR = KB.CreateMul(KB.CreateIntrinsic(Intrinsic::vscale, {I64}, {}), C64(4),
                      "sme.tr");
  K.BlockStep = KB.CreateMul(K.TR, C64(BlockTiles));
  K.Zero = Intrinsic::getOrInsertDeclaration(Mod, Intrinsic::aarch64_sme_zero);
  K.Mopa = Intrinsic::getOrInsertDeclaration(Mod, Kern.Mopa, {K.VecTy});
  K.LoadSlice =
      Intrinsic::getOrInsertDeclaration(Mod, Intrinsic::aarch64_sme_ld1w_horiz);
  K.StoreSlice =
      Intrinsic::getOrInsertDeclaration(Mod, Intrinsic::aarch64_sme_st1w_horiz);
  K.PanelElems = panelElems(KB, K.Steps);
  return K;
}

/// Emits the 2 x 2 block of tiles at row \p I0, column \p J0: ZA's first
/// sums, the k loop and the stores to C.
void SMEGemmEmitter::emitKernelBlock(IRBuilderBase &KB,
                                     const SMEKernelValues &K, Value *I0,
                                     Value *J0) {
  SMEBlock Blk = emitBlockTiles(KB, K, I0, J0);
  KB.CreateCall(K.Zero, {KB.getInt32(0xff)});
  if (G.Accumulate)
    for (unsigned R = 0; R < BlockTiles; ++R)
      for (unsigned Cc = 0; Cc < BlockTiles; ++Cc)
        forEachSlice(KB, K, Blk.Row0[R], Blk.Rows[R], Blk.Col0[Cc],
                     [&](Value *S, Value *P) {
                       KB.CreateCall(K.LoadSlice, {Blk.ColPred[Cc], P,
                                                   zaTile(KB, R, Cc), S});
                     });
  emitBlockProducts(KB, K, Blk);
  for (unsigned R = 0; R < BlockTiles; ++R)
    for (unsigned Cc = 0; Cc < BlockTiles; ++Cc)
      forEachSlice(KB, K, Blk.Row0[R], Blk.Rows[R], Blk.Col0[Cc],
                   [&](Value *S, Value *P) {
                     KB.CreateCall(K.StoreSlice,
                                   {Blk.ColPred[Cc], P, zaTile(KB, R, Cc), S});
                   });
}

/// Emits the extents, column predicates and operands of a block's tiles.
SMEBlock SMEGemmEmitter::emitBlockTiles(IRBuilderBase &KB,
                                        const SMEKernelValues &K, Value *I0,
                                        Value *J0) {
  auto C64 = [&](int64_t V) { return KB.getInt64(V); };
  SMEBlock Blk;
  for (unsigned T = 0; T < BlockTiles; ++T) {
    Blk.Row0[T] = KB.CreateAdd(I0, KB.CreateMul(K.TR, C64(T)));
    Blk.Col0[T] = KB.CreateAdd(J0, KB.CreateMul(K.TR, C64(T)));
    Blk.Rows[T] = smax0(KB, smin(KB, K.TR, KB.CreateSub(K.M, Blk.Row0[T])));
    Blk.ColPred[T] = laneMask(KB, K.CPredTy, Blk.Col0[T], K.N);
    Blk.A[T] = emitOperand(KB, K, K.Ap, Blk.Row0[T], K.M);
    Blk.Bv[T] = emitOperand(KB, K, K.Bp, Blk.Col0[T], K.N);
  }
  return Blk;
}

/// Emits the block's k loop of outer products into its ZA tiles.
void SMEGemmEmitter::emitBlockProducts(IRBuilderBase &KB,
                                       const SMEKernelValues &K,
                                       const SMEBlock &Blk) {
  Type *Elem = G.A.Elem;
  // The k loop: one vector of A and of B per tile row / column, one
  // outer product per tile.
  emitLoop(KB, KB.getInt64(0), K.Steps, KB.getInt64(1), "sme.k",
           [&](IRBuilderBase &, Value *Kk) {
             auto Load = [&](const SMEOperand &Op) {
               Value *P =
                   KB.CreateGEP(Elem, Op.Base, KB.CreateMul(Kk, Op.Step));
               return KB.CreateMaskedLoad(K.VecTy, P, elementAlign(Elem),
                                          Op.Pred, K.Zeros);
             };
             Value *AV[BlockTiles], *BV[BlockTiles];
             for (unsigned T = 0; T < BlockTiles; ++T) {
               AV[T] = Load(Blk.A[T]);
               BV[T] = Load(Blk.Bv[T]);
             }
             for (unsigned R = 0; R < BlockTiles; ++R)
               for (unsigned Cc = 0; Cc < BlockTiles; ++Cc)
                 KB.CreateCall(K.Mopa, {zaTile(KB, R, Cc), K.AllLanes,
                                        K.AllLanes, AV[R], BV[Cc]});
           });
}

/// Emits the packed operand of the tile whose rows (columns) start at
/// \p First of \p Extent, in \p Panels.
SMEOperand SMEGemmEmitter::emitOperand(IRBuilderBase &KB,
                                       const SMEKernelValues &K, Value *Panels,
                                       Value *First, Value *Extent) {
  auto C64 = [&](int64_t V) { return KB.getInt64(V); };
  int64_t KG = Kern.KG;
  Value *Panel = KB.CreateUDiv(First, C64(PanelRows));
  Value *Local = KB.CreateURem(First, C64(PanelRows));
  Value *H = smin(KB, C64(PanelRows),
                  KB.CreateSub(Extent, KB.CreateMul(Panel, C64(PanelRows))));
  Value *Offset = KB.CreateAdd(KB.CreateMul(Panel, K.PanelElems),
                               KB.CreateMul(Local, C64(KG)));
  Value *Valid = smax0(KB, smin(KB, K.TR, KB.CreateSub(Extent, First)));
  return SMEOperand{
      KB.CreateGEP(G.A.Elem, Panels, Offset),
      KB.CreateMul(smax0(KB, H), C64(KG)),
      laneMask(KB, K.PredTy, C64(0), KB.CreateMul(Valid, C64(KG)))};
}

/// Emits a loop over a tile's row slices, \p Body(slice, its address in C).
void SMEGemmEmitter::forEachSlice(IRBuilderBase &KB, const SMEKernelValues &K,
                                  Value *Row0, Value *Rows, Value *Col0,
                                  function_ref<void(Value *, Value *)> Body) {
  // The row slices s < Rows of tile T: C[Row0 + s][Col0 ..], Pred's lanes.
  emitLoop(KB, KB.getInt64(0), Rows, KB.getInt64(1), "sme.slice",
           [&](IRBuilderBase &, Value *S) {
             Value *Row = KB.CreateAdd(Row0, S);
             Value *P = KB.CreateGEP(
                 G.C.Elem, K.C, KB.CreateAdd(KB.CreateMul(Row, K.LdC), Col0));
             Body(KB.CreateTrunc(S, KB.getInt32Ty()), P);
           });
}

void SMEGemmEmitter::emit() {
  Value *Ap = pack(G.A, ExtM, /*Columns=*/false, ScratchSlot::PackedA);
  Value *Bp = pack(G.B, ExtN, /*Columns=*/true, ScratchSlot::PackedB);
  // The kernel's C: row-major, 32-bit (C's own type).
  GemmOperand Sums = G.C;
  bool InPlace = isConstOne(G.C.ColStride);
  if (!InPlace) {
    Sums.Ptr = emitScratch(B, ScratchSlot::CStage,
                           B.CreateMul(B.CreateMul(ExtM, ExtN), c64(4)));
    Sums.RowStride = ExtN;
    Sums.ColStride = c64(1);
  }
  if (G.Accumulate && (G.Init.Ptr || !InPlace))
    copy(G.Init.Ptr ? G.Init : G.C, Sums, ExtM, ExtN);
  // A CPU without SME gets a message rather than SIGILL (libtlxrt).
  Module *M = B.GetInsertBlock()->getModule();
  FunctionCallee Require =
      M->getOrInsertFunction("tlxrt_sme_require", B.getVoidTy());
  if (auto *Decl = dyn_cast<Function>(Require.getCallee()))
    Decl->setDoesNotThrow();
  B.CreateCall(Require);
  B.CreateCall(createKernel(),
               {Ap, Bp, Sums.Ptr, Sums.RowStride, ExtM, ExtN, KSteps});
  if (G.Epilogue)
    emitEpiloguePass(B, G, Sums, c64(0), ExtM, c64(0), ExtN);
  else if (!InPlace)
    copy(Sums, G.C, ExtM, ExtN);
}

} // namespace

bool emitSMEGemm(IRBuilderBase &B, const GemmDesc &G, GemmPlan &Plan,
                 std::string &Why) {
  Triple TT(B.GetInsertBlock()->getModule()->getTargetTriple());
  if (!TT.isAArch64()) {
    Why = "SME needs an AArch64 target";
    return false;
  }
  SMEKernel Kern;
  if (!chooseSMEKernel(G, Kern, Why))
    return false;
  if (!G.isRuntimeSized() && G.K <= 0) {
    Why = "K is 0";
    return false;
  }
  SMEGemmEmitter(B, G, Kern).emit();
  Plan.Kernel = std::string("sme ") + Kern.Name + " 2x2 tiles";
  Plan.MC = G.M;
  Plan.NC = G.N;
  Plan.KC = G.K;
  Plan.PackedA = Plan.PackedB = true;
  return true;
}

bool canEmitSMEGemm(const Module &M, const GemmDesc &G) {
  SMEKernel Kern;
  std::string Why;
  return Triple(M.getTargetTriple()).isAArch64() &&
         chooseSMEKernel(G, Kern, Why);
}

} // namespace gemm

bool canUseSME(const GemmDesc &G) {
  // A 16-bit float result is summed in an f32 C (tlx-tile).
  GemmDesc Summed = G;
  Type *CT = G.C.Elem;
  if (CT->isHalfTy() || CT->isBFloatTy())
    Summed.C.Elem = Type::getFloatTy(CT->getContext());
  gemm::SMEKernel Kern;
  std::string Why;
  return gemm::chooseSMEKernel(Summed, Kern, Why);
}

} // namespace tlx
