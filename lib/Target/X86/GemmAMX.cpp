//===- GemmAMX.cpp - GEMM on Intel AMX tiles ------------------------------===//
//
// The GemmTarget::AMX kernels of the GEMM emitter: int8 x int8 -> i32
// (tdpbssd / tdpbsud / tdpbusd / tdpbuud by operand signedness),
// bf16 x bf16 -> f32 (tdpbf16ps) and f16 x f16 -> f32 (tdpfp16ps).
//
// Algorithm:
//  1. Tile geometry: a tile row holds 64 bytes, i.e. TK = 64 / sizeof(elem)
//     k values of A; B tiles hold the same k range as TK / KG rows of 16
//     columns x KG k values (VNNI layout, KG = 4 for int8, 2 for 16-bit).
//     Accumulators are up to 16 rows x 16 columns of i32/f32.
//  2. Pack B once per GEMM into VNNI column blocks of 16 columns:
//     [N/16][Kp/KG][16][KG], K zero-padded to Kp = a multiple of TK, so every
//     k step of B is a full 16 x 64-byte tile (only the byte width shrinks
//     for the last, narrower column block).
//  3. A is read in place (row-major A) for the whole k steps; the last,
//     partial k step reads a zero-padded copy of A's last K % TK columns
//     (the "A edge"), so every A tile is r x 64 bytes and nothing beyond A
//     is read. A that is not row-major is packed whole (M x Kp).
//  4. C is read (Accumulate) and written in place when row-major; else it is
//     staged through a row-major buffer.
//  5. 2 x 2 blocking: a 32 x 32 block of C lives in four accumulator tiles
//     across the k loop, fed by two A and two B tiles per k step. M and N
//     tails use blocks with fewer/shorter tiles. Each block shape (full or
//     tail rows x full or tail columns) becomes its own internal function
//     with constant tile shapes, so LLVM's tile configuration sees every
//     shape up front (one ldtilecfg per function) and never has to mix
//     shapes on one physical tile.
//  6. Extents computed at run time (docs/ops.md, "Run-time sizes") use the
//     same kernels with their tile configurations computed at run time: a
//     kernel's region, k steps and tail tile shapes are arguments, so the
//     M and N tails are tiles of M % 16 rows or N % 16 columns, configured
//     by the ldtilecfg LLVM emits from those values on the kernel's entry.
//     There is one kernel per block shape (full, one tail tile, a full and
//     a tail tile, in each dimension), chosen by branches on the tails. A
//     is read in place when row-major and K is whole tile steps, else
//     packed whole (M x Kp); B is packed whole, or in 64-column panels when
//     M <= 64 at run time (as emitStreamingB does for static shapes).
//  7. The GEMM first calls tlxrt_amx_require(<its tile product>)
//     (lib/Runtime/amx_init.c), which asks Linux for the tile state once per
//     process and stops with a message on machines without AMX or without
//     that product (AMX-FP16 is newer than AMX-INT8/BF16).
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Gemm/GemmEmitterImpl.h"
#include "Codegen/KernelOutliner.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/Module.h"

#include <map>

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

constexpr int64_t TileRows = 16;     ///< max rows of any tile
constexpr int64_t TileRowBytes = 64; ///< max bytes per tile row
constexpr int64_t BlockRows = 2 * TileRows;
constexpr int64_t BlockCols = 2 * TileRows; ///< i32/f32 accumulator columns

/// Tile-product bits of tlxrt_amx_require (TLXRT_AMX_* in tlxrt_amx.h).
enum RuntimeProduct : unsigned {
  RuntimeInt8 = 1,
  RuntimeBF16 = 2,
  RuntimeFP16 = 4
};

/// The AMX flavour of one GEMM.
struct AMXKernel {
  Intrinsic::ID Dot = Intrinsic::not_intrinsic;
  int64_t ElemBytes = 0; ///< A and B element size
  int64_t KG = 0;        ///< k values per 32-bit B lane (VNNI group)
  int64_t TK = 0;        ///< k values per tile step
  const char *Name = "";
  /// The CPU feature of the tile product: its LLVM name and its bit for
  /// tlxrt_amx_require (TLXRT_AMX_INT8/BF16/FP16 in tlxrt_amx.h).
  const char *Feature = "";
  unsigned RuntimeBit = 0;
};

bool chooseAMXKernel(const GemmDesc &G, AMXKernel &Kern, std::string &Why) {
  Type *AT = G.A.Elem, *BT = G.B.Elem, *CT = G.C.Elem;
  if (AT->isIntegerTy(8) && BT->isIntegerTy(8) && CT->isIntegerTy(32)) {
    bool SA = G.A.IsSigned, SB = G.B.IsSigned;
    Kern.Dot = SA ? (SB ? Intrinsic::x86_tdpbssd_internal
                        : Intrinsic::x86_tdpbsud_internal)
                  : (SB ? Intrinsic::x86_tdpbusd_internal
                        : Intrinsic::x86_tdpbuud_internal);
    Kern.Name =
        SA ? (SB ? "tdpbssd" : "tdpbsud") : (SB ? "tdpbusd" : "tdpbuud");
    Kern.ElemBytes = 1;
    Kern.KG = 4;
    Kern.Feature = "amx-int8";
    Kern.RuntimeBit = RuntimeInt8;
  } else if (AT->isBFloatTy() && BT->isBFloatTy() && CT->isFloatTy()) {
    Kern.Dot = Intrinsic::x86_tdpbf16ps_internal;
    Kern.Name = "tdpbf16ps";
    Kern.ElemBytes = 2;
    Kern.KG = 2;
    Kern.Feature = "amx-bf16";
    Kern.RuntimeBit = RuntimeBF16;
  } else if (AT->isHalfTy() && BT->isHalfTy() && CT->isFloatTy()) {
    Kern.Dot = Intrinsic::x86_tdpfp16ps_internal;
    Kern.Name = "tdpfp16ps";
    Kern.ElemBytes = 2;
    Kern.KG = 2;
    Kern.Feature = "amx-fp16";
    Kern.RuntimeBit = RuntimeFP16;
  } else {
    Why = "AMX multiplies only i8 x i8 -> i32, bf16 x bf16 -> f32 and "
          "f16 x f16 -> f32";
    return false;
  }
  Kern.TK = TileRowBytes / Kern.ElemBytes;
  return true;
}

/// The tiles along one dimension of a block: one or two tiles of up to 16.
SmallVector<int64_t, 2> splitBlock(int64_t Extent) {
  SmallVector<int64_t, 2> Tiles{std::min(Extent, TileRows)};
  if (Extent > TileRows)
    Tiles.push_back(Extent - TileRows);
  return Tiles;
}

/// A tile extent that only the run-time tail knows (BlockRegion).
constexpr int64_t RuntimeTail = 0;

/// One rectangle of C computed by one outlined kernel: rows [Row0, Row1)
/// in blocks of RowTiles, columns likewise. A run-time-sized GEMM's
/// kernel receives its rectangle as arguments (Runtime; Row0.. unused),
/// and a tile of RuntimeTail rows or columns has the tail extent it is
/// passed.
struct BlockRegion {
  int64_t Row0, Row1, Col0, Col1;
  SmallVector<int64_t, 2> RowTiles, ColTiles; ///< rows / columns per tile
  bool Runtime = false;
};

/// What a kernel's loops and tiles use, as values inside the kernel:
/// constants of its BlockRegion, or its arguments.
struct KernelShape {
  Value *Row0, *Row1, *Col0, *Col1; ///< i64
  Value *Steps;                     ///< whole k steps read from the A main
  Value *BColBlock; ///< bytes from a 16-column block of packed B to the next
  SmallVector<Value *, 2> Rows, Cols; ///< i16, per row / column tile
  SmallVector<int64_t, 2> ConstCols;  ///< columns per tile, 0 if run-time
};

/// Where the kernels find their operands (values in the caller).
struct AMXOperands {
  Value *AMain = nullptr;       ///< row-major A (or its packed copy)
  Value *AMainStride = nullptr; ///< bytes
  Value *MainSteps = nullptr;   ///< k steps read from AMain (i64)
  Value *AEdge = nullptr;       ///< zero-padded last k step, or null
  Value *BPacked = nullptr;
  Value *C = nullptr;       ///< row-major C (or the staging buffer)
  Value *CStride = nullptr; ///< bytes
};

/// What one kernel's 32 x 32 blocks use (createKernel): its arguments, its
/// shape and the tiles' bytes per row. Accumulators are numbered row tile
/// major: T = r * NC + c.
struct AMXKernelValues {
  Value *AMain, *AStride, *AEdge, *BPacked, *C, *CStride, *CCol0;
  KernelShape S;
  SmallVector<Value *, 2> CT;     ///< bytes per row of each column tile
  unsigned NR = 0, NC = 0;        ///< row / column tiles
  bool Volatile = false;          ///< the -O0 tile form (optnone kernel)
  AllocaInst *AccSlots = nullptr; ///< the -O0 form's accumulator slots
  bool HasAEdge = false;          ///< a last k step from the A edge
};

/// One 32 x 32 block of a kernel: its first row and column, and the
/// 16-column block of packed B at that column (i64).
struct AMXBlock {
  Value *I, *J, *JBlock;
};

class AMXGemmEmitter {
public:
  AMXGemmEmitter(IRBuilderBase &B, const GemmDesc &G, const AMXKernel &Kern)
      : B(B), G(G), Kern(Kern), ExtM(G.extentM(B)), ExtN(G.extentN(B)),
        ExtK(G.extentK(B)), Kp(roundUpTo(ExtK, Kern.TK)) {}

  void emit();
  void emitRuntimeSized();

private:
  Value *c64(int64_t V) { return B.getInt64(V); }
  /// \p X rounded down / up to a multiple of \p Multiple (constants fold).
  Value *roundDownTo(Value *X, int64_t Multiple) {
    return B.CreateMul(B.CreateUDiv(X, c64(Multiple)), c64(Multiple));
  }
  Value *roundUpTo(Value *X, int64_t Multiple) {
    return roundDownTo(B.CreateAdd(X, c64(Multiple - 1)), Multiple);
  }
  Value *kGroups() { return B.CreateUDiv(Kp, c64(Kern.KG)); }
  Value *packedBBytes(Value *Cols) {
    return B.CreateMul(B.CreateUDiv(roundUpTo(Cols, TileRows), c64(TileRows)),
                       B.CreateMul(kGroups(), c64(TileRowBytes)));
  }
  void emitRequire();
  void packB(const GemmOperand &Src, Value *Cols, Value *Bp);
  void packBVectors(const GemmOperand &Src, Value *Bp, Value *KVec, Value *N0,
                    Value *NEnd, int64_t Width);
  void packBElements(const GemmOperand &Src, Value *Bp, Value *K0, Value *K1,
                     Value *N0, Value *N1);
  void emitStreamingB(const AMXOperands &Ops);
  Value *packAWhole();
  Value *packedABytes() {
    return B.CreateMul(B.CreateMul(ExtM, Kp), c64(Kern.ElemBytes));
  }
  void fillPackedA(Value *Ap);
  Value *copyAEdge(Value *K0);
  void placeC(AMXOperands &Ops, Value *&Stage);
  Value *stageC();
  void unstageC(Value *Stage);
  void emitRegionCall(const BlockRegion &Region, const AMXOperands &Ops);
  void emitRuntimeRegions(const AMXOperands &Ops, Value *Cols, Value *CCol0);
  void emitRuntimeRegion(Value *Row0, Value *Row1, bool RowTail, Value *Col0,
                         Value *Col1, bool ColTail, const AMXOperands &Ops,
                         Value *CCol0);
  void emitRuntimeStreamingB(const AMXOperands &Ops);
  Function *createKernel(const BlockRegion &Region, const AMXOperands &Ops);
  Function *declareKernel(const BlockRegion &Region);
  AMXKernelValues emitKernelEntry(IRBuilderBase &KB, Function &F,
                                  const BlockRegion &Region,
                                  const AMXOperands &Ops);
  void emitKernelBlock(IRBuilderBase &KB, const AMXKernelValues &K, Value *I,
                       Value *J);
  SmallVector<Value *, 8> initAccumulators(IRBuilderBase &KB,
                                           const AMXKernelValues &K,
                                           const AMXBlock &Blk);
  void emitRegisterKLoop(IRBuilderBase &KB, const AMXKernelValues &K,
                         const AMXBlock &Blk, ArrayRef<Value *> Init);
  void emitVolatileKLoop(IRBuilderBase &KB, const AMXKernelValues &K,
                         const AMXBlock &Blk);
  SmallVector<Value *, 8> emitKStep(IRBuilderBase &KB, const AMXKernelValues &K,
                                    const AMXBlock &Blk, ArrayRef<Value *> Acc,
                                    Value *ABase, Value *AStrideV,
                                    Value *AColByte, Value *Kt);
  void emitVolatileKStep(IRBuilderBase &KB, const AMXKernelValues &K,
                         const AMXBlock &Blk, Value *ABase, Value *AStrideV,
                         Value *AColByte, Value *Kt);
  /// Emits \p Off bytes past \p Base.
  Value *byteGEP(IRBuilderBase &KB, Value *Base, Value *Off) {
    return KB.CreateGEP(KB.getInt8Ty(), Base, Off);
  }
  /// Emits a tileloadd of \p Rows x \p ColBytes from \p P.
  Value *loadTile(IRBuilderBase &KB, Value *Rows, Value *ColBytes, Value *P,
                  Value *Stride) {
    return KB.CreateIntrinsic(Type::getX86_AMXTy(KB.getContext()),
                              Intrinsic::x86_tileloadd64_internal,
                              {Rows, ColBytes, P, Stride});
  }
  Value *cTilePtr(IRBuilderBase &KB, const AMXKernelValues &K,
                  const AMXBlock &Blk, unsigned R, unsigned Cc);
  void storeCTile(IRBuilderBase &KB, const AMXKernelValues &K,
                  const AMXBlock &Blk, unsigned T, Value *Tile);
  void spillAcc(IRBuilderBase &KB, const AMXKernelValues &K, unsigned T,
                Value *Tile);
  Value *reloadAcc(IRBuilderBase &KB, const AMXKernelValues &K, unsigned T);
  Value *loadATile(IRBuilderBase &KB, const AMXKernelValues &K,
                   const AMXBlock &Blk, unsigned R, Value *ABase,
                   Value *AStrideV, Value *AColByte);
  Value *loadBTile(IRBuilderBase &KB, const AMXKernelValues &K,
                   const AMXBlock &Blk, unsigned Cc, Value *Kt);
  Value *dotTile(IRBuilderBase &KB, const AMXKernelValues &K, unsigned T,
                 Value *Acc, Value *A, Value *BT);
  KernelShape getKernelShape(IRBuilderBase &KB, Function &F,
                             const BlockRegion &Region, const AMXOperands &Ops);
  void emitBlockEpilogue(IRBuilderBase &KB, const KernelShape &S, Value *C,
                         Value *CStride, Value *CCol0, Value *I, Value *J);
  void callKernel(Function *Kernel, ArrayRef<Value *> Args, Value *CCol0,
                  ArrayRef<Value *> RuntimeArgs = {});

  IRBuilderBase &B;
  const GemmDesc &G;
  const AMXKernel &Kern;
  /// The extents (i64): constants unless the GEMM is run-time sized.
  Value *ExtM, *ExtN, *ExtK;
  Value *Kp; ///< K padded to whole tile steps
  /// int8 B rows are interleaved with vpermt2b (the caller has VBMI).
  bool PermuteInt8 = false;
  /// The kernels take the -O0 tile form (optnone, each tile through the
  /// stack) because the backend runs at -O0: for an optnone caller, and in
  /// a module whose code generation stays at -O0 although its kernels are
  /// outlined (kernelsKeepO0CodeGen; natively, run-time tile shapes never
  /// get here then: Tile.cpp gives such GEMMs vector code). Decided once
  /// per GEMM (emitRequire), not per kernel: the check scans the module.
  bool O0TileForm = false;
  /// The caller's values each kernel's epilogue uses, stored in one
  /// struct per kernel (its last argument).
  DenseMap<Function *, Value *> Env;
  /// A run-time-sized GEMM's kernels by their row and column tiles, for
  /// the regions that call the same one (kernels that read no caller
  /// values only).
  std::map<std::pair<SmallVector<int64_t, 2>, SmallVector<int64_t, 2>>,
           Function *>
      RuntimeKernels;
};

// Bp[jb][kq][c][g] = B[kq*KG + g][jb*16 + c], zero where k >= K or
// column >= N. Row-major B is packed with vectors: KG rows of 16 elements
// are interleaved into one 64-byte tile row; the k and column tails (and
// other layouts) are copied element by element.
/// Whether the loop from \p Begin to \p End is known to run no iteration.
static bool isKnownEmpty(Value *Begin, Value *End) {
  auto *Lo = dyn_cast<ConstantInt>(Begin), *Hi = dyn_cast<ConstantInt>(End);
  return Lo && Hi && Lo->getSExtValue() >= Hi->getSExtValue();
}

void AMXGemmEmitter::packB(const GemmOperand &Src, Value *Cols, Value *Bp) {
  Value *Bytes = packedBBytes(Cols);
  Value *Zero = c64(0);
  emitIfFolded(
      B,
      B.CreateOr(B.CreateICmpNE(B.CreateURem(Cols, c64(TileRows)), Zero),
                 B.CreateICmpNE(B.CreateURem(ExtK, c64(Kern.TK)), Zero)),
      [&] { B.CreateMemSet(Bp, B.getInt8(0), Bytes, Align(64)); });
  if (!isConstOne(Src.ColStride)) {
    packBElements(Src, Bp, Zero, ExtK, Zero, Cols);
    return;
  }
  Value *KVec = roundDownTo(ExtK, Kern.KG);
  Value *NVec = roundDownTo(Cols, TileRows);
  int64_t Wide = TileRowBytes / Kern.ElemBytes;
  Value *NWide = roundDownTo(Cols, Wide);
  packBVectors(Src, Bp, KVec, Zero, NWide, Wide);
  packBVectors(Src, Bp, KVec, NWide, NVec, TileRows);
  packBElements(Src, Bp, Zero, ExtK, NVec, Cols);
  packBElements(Src, Bp, KVec, ExtK, Zero, NVec);
}

//   for columns [N0, NEnd) step Width, kq < KVec/KG:
//     rows[g] = load <Width x T> B[kq*KG + g][j ...]
//     for each 16-column block b of the Width columns:
//       store shuffle(rows, [c*KG + g] = g*Width + b*16 + c) -> its tile row
// Width is 64 bytes of columns (one zmm load per row) for the bulk, 16
// elements for the rest.
void AMXGemmEmitter::packBVectors(const GemmOperand &Src, Value *Bp,
                                  Value *KVec, Value *N0, Value *NEnd,
                                  int64_t Width) {
  if (isKnownEmpty(N0, NEnd) || isKnownEmpty(c64(0), KVec))
    return;
  // Pure data movement: shuffle integers (x86 selects no bf16 shuffles).
  Type *T = B.getIntNTy(Kern.ElemBytes * 8);
  int64_t KG = Kern.KG;
  auto *RowT = FixedVectorType::get(T, Width);
  SmallVector<int, 256> Concat;
  for (int64_t I = 0; I < 2 * Width; ++I)
    Concat.push_back(I);
  // int8 rows of 64 bytes on a CPU with VBMI: the two byte-interleave
  // masks of the vpermt2b form (see below), loaded from a module global
  // that is externally_initialized. That keeps them opaque to the
  // optimizer: with constant masks InstCombine turns vpermt2b back into a
  // shufflevector and the backend merges the two shuffle levels into one
  // four-source shuffle, which it lowers as 16 xmm unpacks and 12 inserts
  // per 256 bytes (64 x 1024 x 1024 int8 spent 60% of its time packing).
  // This way: 2 lane shuffles, 2 inserts and 4 vpermt2b per 256 bytes.
  Module *M = B.GetInsertBlock()->getModule();
  Value *PermMasks[2] = {};
  bool Permute = PermuteInt8 && Width * Kern.ElemBytes == TileRowBytes;
  if (Permute) {
    auto *MaskT = FixedVectorType::get(B.getInt8Ty(), 64);
    auto *TableT = ArrayType::get(MaskT, 2);
    auto *Table = M->getNamedGlobal("tlx.amx.vnni4.perm");
    if (!Table) {
      SmallVector<Constant *, 2> Masks;
      for (int64_t Half = 0; Half < 2; ++Half) {
        SmallVector<Constant *, 64> Idx;
        for (int64_t C = 0; C < TileRows; ++C)
          for (int64_t Gi = 0; Gi < KG; ++Gi)
            Idx.push_back(B.getInt8((Gi / 2) * Width + (Gi % 2) * 2 * TileRows +
                                    Half * TileRows + C));
        Masks.push_back(ConstantVector::get(Idx));
      }
      Table = new GlobalVariable(
          *M, TableT, /*isConstant=*/false, GlobalValue::InternalLinkage,
          ConstantArray::get(TableT, Masks), "tlx.amx.vnni4.perm", nullptr,
          GlobalValue::NotThreadLocal,
          /*AddressSpace=*/0,
          /*isExternallyInitialized=*/true);
      Table->setAlignment(Align(64));
    }
    for (int64_t Half = 0; Half < 2; ++Half)
      PermMasks[Half] = B.CreateAlignedLoad(
          MaskT, B.CreateConstGEP2_64(TableT, Table, 0, Half), Align(64));
  }
  emitLoop(
      B, c64(0), B.CreateUDiv(KVec, c64(KG)), c64(1), "amx.packb.kq",
      [&](IRBuilderBase &, Value *Kq) {
        emitLoop(
            B, N0, NEnd, c64(Width), "amx.packb.j",
            [&](IRBuilderBase &, Value *J) {
              SmallVector<Value *, 4> Rows;
              for (int64_t Gi = 0; Gi < KG; ++Gi) {
                Value *K = B.CreateAdd(B.CreateMul(Kq, c64(KG)), c64(Gi));
                Rows.push_back(B.CreateAlignedLoad(
                    RowT, elementPtr(B, Src, K, J), Align(Kern.ElemBytes)));
              }
              Value *Jb0 = B.CreateUDiv(J, c64(TileRows));
              // int8 with VBMI (PermMasks): Pair[h][p] = [row 2p group 2h, row
              // 2p group 2h+1, row 2p+1 group 2h, row 2p+1 group 2h+1]
              // (16-column groups; one 128-bit lane shuffle each), then each
              // tile row is one two-source byte permute (vpermt2b) of
              // Pair[blk/2][0..1].
              Value *Pair[2][2] = {};
              if (Permute)
                for (int64_t H = 0; H < 2; ++H)
                  for (int64_t P = 0; P < 2; ++P) {
                    SmallVector<int, 64> Lanes;
                    for (int64_t Q = 0; Q < 4; ++Q)
                      for (int64_t C = 0; C < TileRows; ++C)
                        Lanes.push_back((Q / 2) * Width +
                                        (2 * H + Q % 2) * TileRows + C);
                    Pair[H][P] = B.CreateShuffleVector(Rows[2 * P],
                                                       Rows[2 * P + 1], Lanes);
                  }
              // Otherwise rows 0..KG/2-1 and KG/2..KG-1 side by side, then one
              // shuffle per 16-column block picks its interleave.
              Value *Lo = nullptr, *Hi = nullptr;
              if (!Permute) {
                Lo = KG == 4 ? B.CreateShuffleVector(Rows[0], Rows[1], Concat)
                             : Rows[0];
                Hi = KG == 4 ? B.CreateShuffleVector(Rows[2], Rows[3], Concat)
                             : Rows[1];
              }
              for (int64_t Blk = 0; Blk < Width / TileRows; ++Blk) {
                Value *Packed;
                if (Permute) {
                  Packed = B.CreateCall(
                      Intrinsic::getOrInsertDeclaration(
                          M, Intrinsic::x86_avx512_vpermi2var_qi_512),
                      {Pair[Blk / 2][0], PermMasks[Blk % 2], Pair[Blk / 2][1]});
                } else {
                  SmallVector<int, 64> Interleave;
                  for (int64_t C = 0; C < TileRows; ++C)
                    for (int64_t Gi = 0; Gi < KG; ++Gi)
                      Interleave.push_back(Gi * Width + Blk * TileRows + C);
                  Packed = B.CreateShuffleVector(Lo, Hi, Interleave);
                }
                Value *Jb = B.CreateAdd(Jb0, c64(Blk));
                Value *Dst = B.CreateGEP(
                    B.getInt8Ty(), Bp,
                    B.CreateMul(B.CreateAdd(B.CreateMul(Jb, kGroups()), Kq),
                                c64(TileRowBytes)));
                B.CreateAlignedStore(Packed, Dst, Align(64));
              }
            });
      });
}

// The element-by-element copy of B[K0:K1][N0:N1] into Bp.
void AMXGemmEmitter::packBElements(const GemmOperand &Src, Value *Bp, Value *K0,
                                   Value *K1, Value *N0, Value *N1) {
  if (isKnownEmpty(K0, K1) || isKnownEmpty(N0, N1))
    return;
  Type *PackT = Src.Elem;
  int64_t KG = Kern.KG;
  emitLoop(B, K0, K1, c64(1), "amx.packb.k", [&](IRBuilderBase &, Value *K) {
    Value *Kq = B.CreateUDiv(K, c64(KG));
    Value *G4 = B.CreateURem(K, c64(KG));
    emitLoop(B, N0, N1, c64(1), "amx.packb.n", [&](IRBuilderBase &, Value *N) {
      Value *V = B.CreateLoad(PackT, elementPtr(B, Src, K, N));
      Value *Jb = B.CreateUDiv(N, c64(TileRows));
      Value *Col = B.CreateURem(N, c64(TileRows));
      Value *Idx =
          B.CreateAdd(B.CreateMul(B.CreateAdd(B.CreateMul(Jb, kGroups()), Kq),
                                  c64(TileRows * KG)),
                      B.CreateAdd(B.CreateMul(Col, c64(KG)), G4));
      B.CreateStore(V, B.CreateGEP(PackT, Bp, Idx));
    });
  });
}

// A as a row-major M x Kp copy, zero-padded (A not row-major).
Value *AMXGemmEmitter::packAWhole() {
  Value *Ap = emitScratch(B, ScratchSlot::PackedA, packedABytes());
  fillPackedA(Ap);
  return Ap;
}

void AMXGemmEmitter::fillPackedA(Value *Ap) {
  emitIfFolded(B, B.CreateICmpNE(Kp, ExtK), [&] {
    B.CreateMemSet(Ap, B.getInt8(0), packedABytes(), Align(64));
  });
  Type *T = G.A.Elem;
  emitLoop(
      B, c64(0), ExtK, c64(1), "amx.packa.k", [&](IRBuilderBase &, Value *K) {
        emitLoop(B, c64(0), ExtM, c64(1), "amx.packa.m",
                 [&](IRBuilderBase &, Value *M) {
                   Value *V = B.CreateLoad(T, elementPtr(B, G.A, M, K));
                   B.CreateStore(
                       V,
                       B.CreateGEP(T, Ap, B.CreateAdd(B.CreateMul(M, Kp), K)));
                 });
      });
}

// AEdge[m][k] = A[m][K0 + k] for k < K - K0, zero up to TK.
Value *AMXGemmEmitter::copyAEdge(Value *K0) {
  Value *Bytes = B.CreateMul(ExtM, c64(Kern.TK * Kern.ElemBytes));
  Value *Edge = emitScratch(B, ScratchSlot::AEdge, Bytes);
  B.CreateMemSet(Edge, B.getInt8(0), Bytes, Align(64));
  Type *T = G.A.Elem;
  emitLoop(
      B, c64(0), ExtM, c64(1), "amx.aedge.m", [&](IRBuilderBase &, Value *M) {
        emitLoop(
            B, c64(0), B.CreateSub(ExtK, K0), c64(1), "amx.aedge.k",
            [&](IRBuilderBase &, Value *K) {
              Value *V =
                  B.CreateLoad(T, elementPtr(B, G.A, M, B.CreateAdd(K, K0)));
              B.CreateStore(
                  V, B.CreateGEP(T, Edge,
                                 B.CreateAdd(B.CreateMul(M, c64(Kern.TK)), K)));
            });
      });
  return Edge;
}

// C in place when row-major, else a row-major staging copy (Stage).
void AMXGemmEmitter::placeC(AMXOperands &Ops, Value *&Stage) {
  if (isConstOne(G.C.ColStride)) {
    Ops.C = G.C.Ptr;
    Ops.CStride = B.CreateMul(G.C.RowStride, c64(4));
    return;
  }
  Stage = stageC();
  Ops.C = Stage;
  Ops.CStride = B.CreateMul(ExtN, c64(4));
}

// A row-major M x N copy of C (its values when accumulating).
Value *AMXGemmEmitter::stageC() {
  Type *T = G.C.Elem;
  Value *Stage = emitScratch(B, ScratchSlot::CStage,
                             B.CreateMul(B.CreateMul(ExtM, ExtN), c64(4)));
  if (!G.Accumulate)
    return Stage;
  emitLoop(
      B, c64(0), ExtM, c64(1), "amx.cin.m", [&](IRBuilderBase &, Value *M) {
        emitLoop(B, c64(0), ExtN, c64(1), "amx.cin.n",
                 [&](IRBuilderBase &, Value *N) {
                   Value *V = B.CreateLoad(T, elementPtr(B, G.C, M, N));
                   B.CreateStore(
                       V, B.CreateGEP(T, Stage,
                                      B.CreateAdd(B.CreateMul(M, ExtN), N)));
                 });
      });
  return Stage;
}

void AMXGemmEmitter::unstageC(Value *Stage) {
  Type *T = G.C.Elem;
  emitLoop(
      B, c64(0), ExtN, c64(1), "amx.cout.n", [&](IRBuilderBase &, Value *N) {
        emitLoop(B, c64(0), ExtM, c64(1), "amx.cout.m",
                 [&](IRBuilderBase &, Value *M) {
                   Value *V = B.CreateLoad(
                       T, B.CreateGEP(T, Stage,
                                      B.CreateAdd(B.CreateMul(M, ExtN), N)));
                   B.CreateStore(V, elementPtr(B, G.C, M, N));
                 });
      });
}

// The kernel for one region:
//   define internal void @tlx.amx.gemm(ptr %a, i64 %a.stride, ptr %a.edge,
//                                      ptr %b.packed, ptr %c, i64 %c.stride,
//                                      i64 %c.col0, ptr %env)
//   for i in region rows step 32, j in region columns step 32:
//     acc[r][c] = Accumulate ? tileloadd(C block) : tilezero
//     for kt < MainSteps: a[r] = tileloadd(A), b[c] = tileloadd(Bp),
//                         acc[r][c] = tdp(acc[r][c], a[r], b[c])
//     (A edge) one more step with a[r] from the edge copy
//     tilestored(acc[r][c])
//     (epilogue) C or Out [block rows][block cols] = epilogue(C block),
//                read back while the block is in L1
// %c points at column %c.col0 of C (streaming B panels); %env holds the
// caller's values the epilogue reads (bias pointers, scalars). A run-time
// region's kernel takes (i64 %row0, %row1, %col0, %col1, %steps,
// %b.block, i16 %row.tail, %col.tail) after %env (getKernelShape).
Function *AMXGemmEmitter::createKernel(const BlockRegion &Region,
                                       const AMXOperands &Ops) {
  Function *F = declareKernel(Region);
  IRBuilder<> KB(BasicBlock::Create(F->getContext(), "entry", F));
  AMXKernelValues K = emitKernelEntry(KB, *F, Region, Ops);
  auto C64 = [&](int64_t V) { return KB.getInt64(V); };
  // Each block uses all eight tiles: unrolled blocks (trip counts IPSCCP
  // made constant) would run the register allocator out of tiles.
  emitLoop(
      KB, K.S.Row0, K.S.Row1, C64(BlockRows), "amx.i",
      [&](IRBuilderBase &, Value *I) {
        emitLoop(
            KB, K.S.Col0, K.S.Col1, C64(BlockCols), "amx.j",
            [&](IRBuilderBase &, Value *J) { emitKernelBlock(KB, K, I, J); },
            LoopHint::noUnroll());
      },
      LoopHint::noUnroll());
  // The epilogue used the caller's values (the bias's pointer, a scale).
  Env[F] = passCallerValues(*F, /*EnvArg=*/7, B);
  return F;
}

/// Declares the kernel of \p Region: its signature, attributes, arg names.
Function *AMXGemmEmitter::declareKernel(const BlockRegion &Region) {
  Function *Caller = B.GetInsertBlock()->getParent();
  Module *M = Caller->getParent();
  LLVMContext &Ctx = M->getContext();
  Type *Ptr = PointerType::getUnqual(Ctx), *I64 = Type::getInt64Ty(Ctx);
  SmallVector<Type *, 16> Params{Ptr, I64, Ptr, Ptr, Ptr, I64, I64, Ptr};
  if (Region.Runtime)
    Params.append({I64, I64, I64, I64, I64, I64, Type::getInt16Ty(Ctx),
                   Type::getInt16Ty(Ctx)});
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), Params, false);
  // Same CPU and features as the caller, plus the AMX ones the user did not
  // have to ask for with -march.
  Function *F = createKernelFunction(*Caller, FT, "tlx.amx.gemm",
                                     "+amx-tile,+amx-int8,+amx-bf16,+amx-fp16");
  if (O0TileForm)
    F->addFnAttr(Attribute::OptimizeNone);
  static const char *const Names[] = {"a", "a.stride", "a.edge", "b.packed",
                                      "c", "c.stride", "c.col0", "env"};
  for (unsigned I = 0; I < 8; ++I)
    F->getArg(I)->setName(Names[I]);
  return F;
}

/// Emits the kernel's entry block up to its return, before which it leaves
/// \p KB, and returns what the kernel's blocks use.
AMXKernelValues AMXGemmEmitter::emitKernelEntry(IRBuilderBase &KB, Function &F,
                                                const BlockRegion &Region,
                                                const AMXOperands &Ops) {
  AMXKernelValues K;
  K.AMain = F.getArg(0);
  K.AStride = F.getArg(1);
  K.AEdge = F.getArg(2);
  K.BPacked = F.getArg(3);
  K.C = F.getArg(4);
  K.CStride = F.getArg(5);
  K.CCol0 = F.getArg(6);
  K.Volatile = F.hasFnAttribute(Attribute::OptimizeNone);
  // Stack slots for the accumulators of the -O0 form (64-byte rows).
  if (K.Volatile) {
    K.AccSlots = KB.CreateAlloca(ArrayType::get(KB.getInt8Ty(), 4 * 1024),
                                 nullptr, "amx.acc.slots");
    K.AccSlots->setAlignment(Align(64));
  }
  KB.CreateRetVoid();
  KB.SetInsertPoint(KB.GetInsertBlock()->getTerminator());
  K.S = getKernelShape(KB, F, Region, Ops);
  for (Value *Cols : K.S.Cols)
    K.CT.push_back(KB.CreateMul(Cols, KB.getInt16(4)));
  K.NR = K.S.Rows.size();
  K.NC = K.CT.size();
  K.HasAEdge = Ops.AEdge != nullptr;
  return K;
}

/// Emits the 32 x 32 block at row \p I, column \p J: accumulators, k loop,
/// stores to C and the epilogue.
void AMXGemmEmitter::emitKernelBlock(IRBuilderBase &KB,
                                     const AMXKernelValues &K, Value *I,
                                     Value *J) {
  AMXBlock Blk{I, J, KB.CreateUDiv(J, KB.getInt64(TileRows))};
  SmallVector<Value *, 8> Init = initAccumulators(KB, K, Blk);
  if (!K.Volatile)
    emitRegisterKLoop(KB, K, Blk, Init);
  else
    emitVolatileKLoop(KB, K, Blk);
  emitBlockEpilogue(KB, K.S, K.C, K.CStride, K.CCol0, I, J);
}

/// Emits the accumulators' first values (spilled to their slots at -O0).
SmallVector<Value *, 8>
AMXGemmEmitter::initAccumulators(IRBuilderBase &KB, const AMXKernelValues &K,
                                 const AMXBlock &Blk) {
  const auto &RT = K.S.Rows;
  const auto &CT = K.CT;
  // Accumulators start as C (Accumulate) or zero.
  SmallVector<Value *, 8> Init;
  for (unsigned R = 0; R < K.NR; ++R)
    for (unsigned Cc = 0; Cc < K.NC; ++Cc) {
      Init.push_back(
          G.Accumulate ? loadTile(KB, RT[R], CT[Cc],
                                  cTilePtr(KB, K, Blk, R, Cc), K.CStride)
                       : KB.CreateIntrinsic(Type::getX86_AMXTy(KB.getContext()),
                                            Intrinsic::x86_tilezero_internal,
                                            {RT[R], CT[Cc]}));
      if (K.Volatile)
        spillAcc(KB, K, R * K.NC + Cc, Init.back());
    }
  return Init;
}

/// Emits the k loop with the accumulators in tile registers, and C's store.
void AMXGemmEmitter::emitRegisterKLoop(IRBuilderBase &KB,
                                       const AMXKernelValues &K,
                                       const AMXBlock &Blk,
                                       ArrayRef<Value *> Init) {
  auto C64 = [&](int64_t V) { return KB.getInt64(V); };
  // Accumulators stay in tile registers: loop phis.
  auto Acc =
      emitLoop(KB, C64(0), K.S.Steps, C64(1), "amx.k", Init,
               [&](IRBuilderBase &, Value *Kt, ArrayRef<Value *> Cur) {
                 return emitKStep(KB, K, Blk, Cur, K.AMain, K.AStride,
                                  KB.CreateMul(Kt, C64(TileRowBytes)), Kt);
               });
  if (K.HasAEdge)
    Acc = emitKStep(KB, K, Blk, Acc, K.AEdge, C64(TileRowBytes), C64(0),
                    K.S.Steps);
  for (unsigned T = 0; T < K.NR * K.NC; ++T)
    storeCTile(KB, K, Blk, T, Acc[T]);
}

/// Emits the -O0 form's k loop on the accumulator slots, and C's store.
void AMXGemmEmitter::emitVolatileKLoop(IRBuilderBase &KB,
                                       const AMXKernelValues &K,
                                       const AMXBlock &Blk) {
  auto C64 = [&](int64_t V) { return KB.getInt64(V); };
  // -O0: LLVM's fast tile configuration wants every tile value used in the
  // block that defines it, so accumulators round-trip through stack slots
  // (what clang's -O0 AMX intrinsics do).
  emitLoop(KB, C64(0), K.S.Steps, C64(1), "amx.k",
           [&](IRBuilderBase &, Value *Kt) {
             emitVolatileKStep(KB, K, Blk, K.AMain, K.AStride,
                               KB.CreateMul(Kt, C64(TileRowBytes)), Kt);
           });
  if (K.HasAEdge)
    emitVolatileKStep(KB, K, Blk, K.AEdge, C64(TileRowBytes), C64(0),
                      K.S.Steps);
  for (unsigned T = 0; T < K.NR * K.NC; ++T)
    storeCTile(KB, K, Blk, T, reloadAcc(KB, K, T));
}

/// Emits one k step and returns the accumulators after it.
SmallVector<Value *, 8> AMXGemmEmitter::emitKStep(IRBuilderBase &KB,
                                                  const AMXKernelValues &K,
                                                  const AMXBlock &Blk,
                                                  ArrayRef<Value *> Acc,
                                                  Value *ABase, Value *AStrideV,
                                                  Value *AColByte, Value *Kt) {
  // One k step: two A and two B tiles feed the four accumulators.
  SmallVector<Value *, 2> ATiles, BTiles;
  for (unsigned R = 0; R < K.NR; ++R)
    ATiles.push_back(loadATile(KB, K, Blk, R, ABase, AStrideV, AColByte));
  for (unsigned Cc = 0; Cc < K.NC; ++Cc)
    BTiles.push_back(loadBTile(KB, K, Blk, Cc, Kt));
  SmallVector<Value *, 8> Next;
  for (unsigned T = 0; T < K.NR * K.NC; ++T)
    Next.push_back(
        dotTile(KB, K, T, Acc[T], ATiles[T / K.NC], BTiles[T % K.NC]));
  return Next;
}

/// Emits one k step of the -O0 form, accumulator by accumulator.
void AMXGemmEmitter::emitVolatileKStep(IRBuilderBase &KB,
                                       const AMXKernelValues &K,
                                       const AMXBlock &Blk, Value *ABase,
                                       Value *AStrideV, Value *AColByte,
                                       Value *Kt) {
  // The -O0 form of a k step: LLVM's fast tile register allocator copes
  // with few live tiles only, so each accumulator is reloaded, updated from
  // freshly loaded A and B tiles and spilled again.
  for (unsigned T = 0; T < K.NR * K.NC; ++T) {
    Value *A = loadATile(KB, K, Blk, T / K.NC, ABase, AStrideV, AColByte);
    Value *BT = loadBTile(KB, K, Blk, T % K.NC, Kt);
    spillAcc(KB, K, T, dotTile(KB, K, T, reloadAcc(KB, K, T), A, BT));
  }
}

/// Emits the address in C of accumulator tile (\p R, \p Cc) of a block.
Value *AMXGemmEmitter::cTilePtr(IRBuilderBase &KB, const AMXKernelValues &K,
                                const AMXBlock &Blk, unsigned R, unsigned Cc) {
  auto C64 = [&](int64_t V) { return KB.getInt64(V); };
  Value *Row = KB.CreateAdd(Blk.I, C64(R * TileRows));
  Value *Col = KB.CreateAdd(Blk.J, C64(Cc * TileRows));
  return byteGEP(
      KB, K.C,
      KB.CreateAdd(KB.CreateMul(Row, K.CStride), KB.CreateMul(Col, C64(4))));
}

/// Emits the tilestored of accumulator \p T (\p Tile) to its tile of C.
void AMXGemmEmitter::storeCTile(IRBuilderBase &KB, const AMXKernelValues &K,
                                const AMXBlock &Blk, unsigned T, Value *Tile) {
  unsigned R = T / K.NC, Cc = T % K.NC;
  KB.CreateIntrinsic(
      KB.getVoidTy(), Intrinsic::x86_tilestored64_internal,
      {K.S.Rows[R], K.CT[Cc], cTilePtr(KB, K, Blk, R, Cc), K.CStride, Tile});
}

/// Emits the spill of accumulator \p T to its -O0 slot (1 KiB each).
void AMXGemmEmitter::spillAcc(IRBuilderBase &KB, const AMXKernelValues &K,
                              unsigned T, Value *Tile) {
  KB.CreateIntrinsic(
      KB.getVoidTy(), Intrinsic::x86_tilestored64_internal,
      {K.S.Rows[T / K.NC], K.CT[T % K.NC],
       KB.CreateConstGEP1_64(KB.getInt8Ty(), K.AccSlots, T * 1024),
       KB.getInt64(TileRowBytes), Tile});
}

/// Emits the reload of accumulator \p T from its -O0 slot (64-byte rows).
Value *AMXGemmEmitter::reloadAcc(IRBuilderBase &KB, const AMXKernelValues &K,
                                 unsigned T) {
  return loadTile(KB, K.S.Rows[T / K.NC], K.CT[T % K.NC],
                  KB.CreateConstGEP1_64(KB.getInt8Ty(), K.AccSlots, T * 1024),
                  KB.getInt64(TileRowBytes));
}

/// Emits the load of row tile \p R of A at byte column \p AColByte.
Value *AMXGemmEmitter::loadATile(IRBuilderBase &KB, const AMXKernelValues &K,
                                 const AMXBlock &Blk, unsigned R, Value *ABase,
                                 Value *AStrideV, Value *AColByte) {
  Value *Row = KB.CreateAdd(Blk.I, KB.getInt64(R * TileRows));
  Value *P =
      byteGEP(KB, ABase, KB.CreateAdd(KB.CreateMul(Row, AStrideV), AColByte));
  return loadTile(KB, K.S.Rows[R], KB.getInt16(TileRowBytes), P, AStrideV);
}

/// Emits the load of column tile \p Cc of packed B at k step \p Kt.
Value *AMXGemmEmitter::loadBTile(IRBuilderBase &KB, const AMXKernelValues &K,
                                 const AMXBlock &Blk, unsigned Cc, Value *Kt) {
  Value *BStep = KB.getInt64(TileRows * TileRowBytes); // bytes per k step of Bp
  Value *Block = KB.CreateAdd(Blk.JBlock, KB.getInt64(Cc));
  Value *P = byteGEP(KB, K.BPacked,
                     KB.CreateAdd(KB.CreateMul(Block, K.S.BColBlock),
                                  KB.CreateMul(Kt, BStep)));
  return loadTile(KB, KB.getInt16(TileRows), K.CT[Cc], P,
                  KB.getInt64(TileRowBytes));
}

/// Emits the tile product of accumulator \p T: Acc + A x BT.
Value *AMXGemmEmitter::dotTile(IRBuilderBase &KB, const AMXKernelValues &K,
                               unsigned T, Value *Acc, Value *A, Value *BT) {
  return KB.CreateIntrinsic(Type::getX86_AMXTy(KB.getContext()), Kern.Dot,
                            {K.S.Rows[T / K.NC], K.CT[T % K.NC],
                             KB.getInt16(TileRowBytes), Acc, A, BT});
}

// The kernel's region, k steps and tile shapes: constants of a static
// region; arguments 8.. of a run-time one, where a RuntimeTail tile has the
// tail extent passed for its dimension.
KernelShape AMXGemmEmitter::getKernelShape(IRBuilderBase &KB, Function &F,
                                           const BlockRegion &Region,
                                           const AMXOperands &Ops) {
  KernelShape S;
  Value *RowTail = nullptr, *ColTail = nullptr;
  if (Region.Runtime) {
    static const char *const Names[] = {"row0",     "row1",    "col0",
                                        "col1",     "steps",   "b.block",
                                        "row.tail", "col.tail"};
    for (unsigned I = 0; I < 8; ++I)
      F.getArg(8 + I)->setName(Names[I]);
    S.Row0 = F.getArg(8);
    S.Row1 = F.getArg(9);
    S.Col0 = F.getArg(10);
    S.Col1 = F.getArg(11);
    S.Steps = F.getArg(12);
    S.BColBlock = F.getArg(13);
    RowTail = F.getArg(14);
    ColTail = F.getArg(15);
  } else {
    S.Row0 = KB.getInt64(Region.Row0);
    S.Row1 = KB.getInt64(Region.Row1);
    S.Col0 = KB.getInt64(Region.Col0);
    S.Col1 = KB.getInt64(Region.Col1);
    S.Steps = KB.getInt64(cast<ConstantInt>(Ops.MainSteps)->getSExtValue());
    S.BColBlock = KB.getInt64(cast<ConstantInt>(kGroups())->getSExtValue() *
                              TileRowBytes);
  }
  for (int64_t Rows : Region.RowTiles)
    S.Rows.push_back(Rows == RuntimeTail ? RowTail : KB.getInt16(Rows));
  for (int64_t Cols : Region.ColTiles) {
    S.Cols.push_back(Cols == RuntimeTail ? ColTail : KB.getInt16(Cols));
    S.ConstCols.push_back(Cols);
  }
  return S;
}

// for each tile (r, c) of the block, row i of it:
//   v = load <cols x T> C[i][j ..]             (just stored: in L1)
//   Out[i][j ..] = epilogue(v), or C itself when there is no Out
// Rows and columns are C's (global) ones: the tile's plus %c.col0.
void AMXGemmEmitter::emitBlockEpilogue(IRBuilderBase &KB, const KernelShape &S,
                                       Value *C, Value *CStride, Value *CCol0,
                                       Value *I, Value *J) {
  if (!G.Epilogue)
    return;
  Type *T = G.C.Elem;
  Type *OutElem = G.result().Elem;
  Type *I64 = KB.getInt64Ty();
  for (unsigned R = 0; R < S.Rows.size(); ++R)
    for (unsigned Cc = 0; Cc < S.Cols.size(); ++Cc) {
      // Full 16-column tiles a vector per row (when Out's rows are
      // contiguous too), narrower ones an element at a time.
      bool OutRows = !G.Out.Ptr || isConstOne(G.Out.ColStride);
      int64_t Lanes = S.ConstCols[Cc] == TileRows && OutRows ? TileRows : 1;
      Type *VT = Lanes > 1 ? FixedVectorType::get(T, Lanes) : T;
      emitLoop(
          KB, KB.getInt64(0), KB.CreateZExt(S.Rows[R], I64), KB.getInt64(1),
          "amx.epi.r", [&](IRBuilderBase &, Value *Rr) {
            emitLoop(
                KB, KB.getInt64(0), KB.CreateZExt(S.Cols[Cc], I64),
                KB.getInt64(Lanes), "amx.epi.c",
                [&](IRBuilderBase &, Value *Cl) {
                  Value *Row = KB.CreateAdd(
                      I, KB.CreateAdd(KB.getInt64(R * TileRows), Rr));
                  Value *Local = KB.CreateAdd(
                      J, KB.CreateAdd(KB.getInt64(Cc * TileRows), Cl));
                  Value *Src = KB.CreateGEP(
                      KB.getInt8Ty(), C,
                      KB.CreateAdd(KB.CreateMul(Row, CStride),
                                   KB.CreateMul(Local, KB.getInt64(4))));
                  Value *Sums = KB.CreateAlignedLoad(VT, Src, Align(4));
                  Value *Col = KB.CreateAdd(Local, CCol0);
                  Value *V = G.Epilogue(KB, Sums, Row, Col);
                  // Without Out the finished values replace the sums in
                  // place (in C, or in its staging buffer, copied to C
                  // later).
                  Value *Dst =
                      G.Out.Ptr ? elementPtr(KB, G.Out, Row, Col) : Src;
                  KB.CreateAlignedStore(V, Dst, elementAlign(OutElem));
                });
          });
    }
}

void AMXGemmEmitter::callKernel(Function *Kernel, ArrayRef<Value *> Args,
                                Value *CCol0, ArrayRef<Value *> RuntimeArgs) {
  SmallVector<Value *, 16> All(Args.begin(), Args.end());
  Value *EnvPtr = Env.lookup(Kernel);
  All.append({CCol0, EnvPtr ? EnvPtr : ConstantPointerNull::get(B.getPtrTy())});
  All.append(RuntimeArgs.begin(), RuntimeArgs.end());
  B.CreateCall(Kernel, All);
}

void AMXGemmEmitter::emitRegionCall(const BlockRegion &Region,
                                    const AMXOperands &Ops) {
  if (Region.Row0 >= Region.Row1 || Region.Col0 >= Region.Col1)
    return;
  Function *Kernel = createKernel(Region, Ops);
  Value *Null = ConstantPointerNull::get(B.getPtrTy());
  callKernel(Kernel,
             {Ops.AMain, Ops.AMainStride, Ops.AEdge ? Ops.AEdge : Null,
              Ops.BPacked, Ops.C, Ops.CStride},
             c64(0));
}

// For small M (at most two 32-row blocks):
//   for jc < N step 64:
//     pack B[:, jc:jc+64] into one 64-column panel (hot in L1/L2)
//     kernel(rows 0..M, columns 0..64 of the panel, C + jc)
// (the column tail the same with a narrower kernel). Each B element is
// still packed once, but the packed panel is consumed while it is in cache
// and the next panel's B reads overlap the tile products.
void AMXGemmEmitter::emitStreamingB(const AMXOperands &Ops) {
  // 64-column panels (two 32-column blocks; 64 x 1024 x 1024, measured
  // interleaved: bf16 +23% over 32-column panels, int8 128- and 256-column
  // panels 1-8% slower, 32-column ones 12% slower).
  const int64_t PanelCols = 2 * BlockCols;
  int64_t MFull = G.M / BlockRows * BlockRows;
  int64_t NFull = G.N / PanelCols * PanelCols;
  auto Full = splitBlock(BlockRows);
  auto RowTail = splitBlock(G.M - MFull);
  Value *Panel =
      emitScratch(B, ScratchSlot::PackedB, packedBBytes(c64(PanelCols)));
  Value *Null = ConstantPointerNull::get(B.getPtrTy());
  // Kernels over one panel of Cols columns: full and tail rows x full
  // 32-column blocks and the column tail.
  auto PanelKernels = [&](int64_t Cols) {
    SmallVector<Function *, 4> Kernels;
    int64_t Cols32 = Cols / BlockCols * BlockCols;
    for (bool TailRows : {false, true}) {
      int64_t Row0 = TailRows ? MFull : 0, Row1 = TailRows ? G.M : MFull;
      const auto &RT = TailRows ? RowTail : Full;
      if (Row0 < Row1 && Cols32 > 0)
        Kernels.push_back(createKernel({Row0, Row1, 0, Cols32, RT, Full}, Ops));
      if (Row0 < Row1 && Cols > Cols32)
        Kernels.push_back(createKernel(
            {Row0, Row1, Cols32, Cols, RT, splitBlock(Cols - Cols32)}, Ops));
    }
    return Kernels;
  };
  auto RunPanel = [&](Value *Jc, int64_t Cols, ArrayRef<Function *> Kernels) {
    GemmOperand Src = G.B;
    Src.Ptr = elementPtr(B, G.B, c64(0), Jc);
    packB(Src, c64(Cols), Panel);
    Value *C = B.CreateGEP(B.getInt8Ty(), Ops.C, B.CreateMul(Jc, c64(4)));
    for (Function *Kernel : Kernels)
      callKernel(Kernel,
                 {Ops.AMain, Ops.AMainStride, Ops.AEdge ? Ops.AEdge : Null,
                  Panel, C, Ops.CStride},
                 Jc);
  };
  if (NFull > 0) {
    auto Kernels = PanelKernels(PanelCols);
    emitLoop(
        B, c64(0), c64(NFull), c64(PanelCols), "amx.panel",
        [&](IRBuilderBase &, Value *Jc) { RunPanel(Jc, PanelCols, Kernels); });
  }
  if (G.N > NFull)
    RunPanel(c64(NFull), G.N - NFull, PanelKernels(G.N - NFull));
}

void AMXGemmEmitter::emitRequire() {
  Module *M = B.GetInsertBlock()->getModule();
  FunctionCallee Require = M->getOrInsertFunction(
      "tlxrt_amx_require", B.getVoidTy(), B.getInt32Ty());
  B.CreateCall(Require, B.getInt32(Kern.RuntimeBit));
  // The packing moves 64-byte rows; keep them whole where AVX-512 exists.
  Function *Caller = B.GetInsertBlock()->getParent();
  if (hasTargetFeature(*Caller, "avx512bw"))
    requireVectorWidth(*Caller, 512);
  PermuteInt8 = Kern.KG == 4 && hasTargetFeature(*Caller, "avx512vbmi");
  O0TileForm = Caller->hasFnAttribute(Attribute::OptimizeNone) ||
               kernelsKeepO0CodeGen(*Caller->getParent());
}

void AMXGemmEmitter::emit() {
  emitRequire();
  AMXOperands Ops;
  // Few row blocks use each B column: pack B panel by panel right before
  // its use (emitStreamingB) instead of all of it up front, so B, the
  // panel and C stay in L2 from one GEMM to the next (whole-B packing
  // adds a 1 MiB packed copy at 64 x 1024 x 1024, and B then comes from
  // L3 every time). Measured at 64 x 1024 x 1024: bf16 +9% (32-column
  // panels), +23% more with 64-column ones; int8 +27% with the vpermt2b
  // packing, but -6% with the unpack trees, so int8 needs VBMI.
  bool StreamB = G.M <= 2 * BlockRows && G.N > BlockCols &&
                 (Kern.ElemBytes == 2 || PermuteInt8);
  if (!StreamB) {
    Ops.BPacked = emitScratch(B, ScratchSlot::PackedB, packedBBytes(ExtN));
    packB(G.B, ExtN, Ops.BPacked);
  }
  int64_t PaddedK = cast<ConstantInt>(Kp)->getSExtValue();
  if (isConstOne(G.A.ColStride)) {
    Ops.AMain = G.A.Ptr;
    Ops.AMainStride = B.CreateMul(G.A.RowStride, c64(Kern.ElemBytes));
    Ops.MainSteps = c64(G.K / Kern.TK);
    if (G.K % Kern.TK)
      Ops.AEdge = copyAEdge(c64(G.K / Kern.TK * Kern.TK));
  } else {
    Ops.AMain = packAWhole();
    Ops.AMainStride = c64(PaddedK * Kern.ElemBytes);
    Ops.MainSteps = c64(PaddedK / Kern.TK);
  }
  Value *Stage = nullptr;
  placeC(Ops, Stage);

  int64_t MFull = G.M / BlockRows * BlockRows;
  int64_t NFull = G.N / BlockCols * BlockCols;
  auto Full = splitBlock(BlockRows);
  auto RowTail = splitBlock(G.M - MFull), ColTail = splitBlock(G.N - NFull);
  if (StreamB) {
    emitStreamingB(Ops);
  } else {
    emitRegionCall({0, MFull, 0, NFull, Full, Full}, Ops);
    emitRegionCall({0, MFull, NFull, G.N, Full, ColTail}, Ops);
    emitRegionCall({MFull, G.M, 0, NFull, RowTail, Full}, Ops);
    emitRegionCall({MFull, G.M, NFull, G.N, RowTail, ColTail}, Ops);
  }
  if (Stage)
    unstageC(Stage);
}

// M, N, K > 0 known at run time only (the caller checked them):
//   pack B whole; A in place if row-major with K % TK == 0, else packed
//   MFull = M - M % 32, NFull likewise
//   kernel(rows [0, MFull), columns [0, NFull)) - 32 x 32 blocks
//   and the column tail, the row tail and the corner with tail tiles
void AMXGemmEmitter::emitRuntimeSized() {
  emitRequire();
  AMXOperands Ops;
  Value *PaddedStride = B.CreateMul(Kp, c64(Kern.ElemBytes));
  Ops.MainSteps = B.CreateUDiv(Kp, c64(Kern.TK));
  if (isConstOne(G.A.ColStride)) {
    // Whole k steps are read in place; otherwise the copy pads them (one
    // copy of A, where the static GEMM copies only its last k step).
    Value *Pack = B.CreateICmpNE(Kp, ExtK, "amx.pack.a");
    Value *Ap = emitScratch(B, ScratchSlot::PackedA,
                            B.CreateSelect(Pack, packedABytes(), c64(0)));
    emitIf(B, Pack, [&] { fillPackedA(Ap); });
    Ops.AMain = B.CreateSelect(Pack, Ap, G.A.Ptr);
    Ops.AMainStride = B.CreateSelect(
        Pack, PaddedStride, B.CreateMul(G.A.RowStride, c64(Kern.ElemBytes)));
  } else {
    Ops.AMain = packAWhole();
    Ops.AMainStride = PaddedStride;
  }
  Value *Stage = nullptr;
  placeC(Ops, Stage);
  auto WholeB = [&] {
    AMXOperands Whole = Ops;
    Whole.BPacked = emitScratch(B, ScratchSlot::PackedB, packedBBytes(ExtN));
    packB(G.B, ExtN, Whole.BPacked);
    emitRuntimeRegions(Whole, ExtN, c64(0));
  };
  // Few rows: B panel by panel, as emit() decides for static shapes.
  if (Kern.ElemBytes == 2 || PermuteInt8)
    emitIf(
        B,
        B.CreateAnd(B.CreateICmpSLE(ExtM, c64(2 * BlockRows)),
                    B.CreateICmpSGT(ExtN, c64(BlockCols)), "amx.stream.b"),
        [&] { emitRuntimeStreamingB(Ops); }, WholeB);
  else
    WholeB();
  if (Stage)
    unstageC(Stage);
}

// For the M <= 64 of emit()'s streaming (emitStreamingB):
//   for jc < N - N % 64 step 64: pack B[:, jc:jc+64], its regions
//   then the last N % 64 columns alike
void AMXGemmEmitter::emitRuntimeStreamingB(const AMXOperands &Ops) {
  const int64_t PanelCols = 2 * BlockCols;
  Value *Panel =
      emitScratch(B, ScratchSlot::PackedB, packedBBytes(c64(PanelCols)));
  Value *NFull = roundDownTo(ExtN, PanelCols);
  auto RunPanel = [&](Value *Jc, Value *Cols) {
    GemmOperand Src = G.B;
    Src.Ptr = elementPtr(B, G.B, c64(0), Jc);
    packB(Src, Cols, Panel);
    AMXOperands P = Ops;
    P.BPacked = Panel;
    P.C = B.CreateGEP(B.getInt8Ty(), Ops.C, B.CreateMul(Jc, c64(4)));
    emitRuntimeRegions(P, Cols, Jc);
  };
  emitLoop(B, c64(0), NFull, c64(PanelCols), "amx.panel",
           [&](IRBuilderBase &, Value *Jc) { RunPanel(Jc, c64(PanelCols)); });
  emitIf(B, B.CreateICmpSGT(ExtN, NFull),
         [&] { RunPanel(NFull, B.CreateSub(ExtN, NFull)); });
}

// The M x Cols of C that Ops.C points at, its columns numbered from CCol0
// for the epilogue:
//   kernel(rows [0, MFull), columns [0, NFull)) - 32 x 32 blocks
//   and the column tail, the row tail and the corner with tail tiles
void AMXGemmEmitter::emitRuntimeRegions(const AMXOperands &Ops, Value *Cols,
                                        Value *CCol0) {
  Value *MFull = roundDownTo(ExtM, BlockRows);
  Value *NFull = roundDownTo(Cols, BlockCols);
  Value *Zero = c64(0);
  emitRuntimeRegion(Zero, MFull, false, Zero, NFull, false, Ops, CCol0);
  emitRuntimeRegion(Zero, MFull, false, NFull, Cols, true, Ops, CCol0);
  emitRuntimeRegion(MFull, ExtM, true, Zero, NFull, false, Ops, CCol0);
  emitRuntimeRegion(MFull, ExtM, true, NFull, Cols, true, Ops, CCol0);
}

// A region of whole 32-row (32-column) blocks, or a tail of fewer: one
// tile of the tail's extent up to 16, else a full tile and one of the rest.
// Each tail case calls its own kernel:
//   if (tail > 16) kernel{16, tail - 16}(...) else if (tail > 0) kernel{tail}
void AMXGemmEmitter::emitRuntimeRegion(Value *Row0, Value *Row1, bool RowTail,
                                       Value *Col0, Value *Col1, bool ColTail,
                                       const AMXOperands &Ops, Value *CCol0) {
  using Tiles = SmallVector<int64_t, 2>;
  Value *Null = ConstantPointerNull::get(B.getPtrTy());
  Value *BColBlock = B.CreateMul(kGroups(), c64(TileRowBytes));
  auto Call = [&](const Tiles &RT, Value *RowExtent, const Tiles &CT,
                  Value *ColExtent) {
    Function *&Kernel = RuntimeKernels[{RT, CT}];
    if (!Kernel || Env.lookup(Kernel))
      Kernel = createKernel({0, 0, 0, 0, RT, CT, /*Runtime=*/true}, Ops);
    callKernel(
        Kernel,
        {Ops.AMain, Ops.AMainStride, Null, Ops.BPacked, Ops.C, Ops.CStride},
        CCol0,
        {Row0, Row1, Col0, Col1, Ops.MainSteps, BColBlock,
         B.CreateTrunc(RowExtent, B.getInt16Ty()),
         B.CreateTrunc(ColExtent, B.getInt16Ty())});
  };
  // The tiles of one dimension for each case of its extent, then \p Emit
  // for each (tiles, the RuntimeTail tile's extent).
  auto ForEachCase = [&](bool Tail, Value *Extent,
                         function_ref<void(const Tiles &, Value *)> Emit) {
    Value *One = B.getInt64(1);
    if (!Tail) {
      emitIfFolded(B, B.CreateICmpSGT(Extent, c64(0)), [&] {
        Emit({TileRows, TileRows}, One);
      });
      return;
    }
    emitIfFolded(
        B, B.CreateICmpSGT(Extent, c64(TileRows)),
        [&] {
          Emit({TileRows, RuntimeTail}, B.CreateSub(Extent, c64(TileRows)));
        },
        [&] {
          emitIfFolded(B, B.CreateICmpSGT(Extent, c64(0)),
                       [&] { Emit({RuntimeTail}, Extent); });
        });
  };
  ForEachCase(RowTail, B.CreateSub(Row1, Row0),
              [&](const Tiles &RT, Value *RowExtent) {
                ForEachCase(ColTail, B.CreateSub(Col1, Col0),
                            [&](const Tiles &CT, Value *ColExtent) {
                              Call(RT, RowExtent, CT, ColExtent);
                            });
              });
}

} // namespace

bool emitAMXGemm(IRBuilderBase &B, const GemmDesc &G, GemmPlan &Plan,
                 std::string &Why) {
  AMXKernel Kern;
  if (!chooseAMXKernel(G, Kern, Why))
    return false;
  if (G.isRuntimeSized()) {
    AMXGemmEmitter(B, G, Kern).emitRuntimeSized();
  } else if (G.K <= 0) {
    Why = "K is 0";
    return false;
  } else {
    AMXGemmEmitter(B, G, Kern).emit();
  }
  Plan.Kernel = std::string("amx ") + Kern.Name + " 2x2 tiles";
  Plan.MR = BlockRows;
  Plan.NR = BlockCols;
  Plan.KC = Kern.TK;
  // No cache blocks: one pass over C in 32 x 32 blocks (the whole of C,
  // a run-time-sized one too).
  Plan.MC = G.isRuntimeSized() ? BlockRows : G.M;
  Plan.NC = G.isRuntimeSized() ? BlockCols : G.N;
  Plan.PackedB = true;
  Plan.PackedA = !isConstOne(G.A.ColStride);
  return true;
}

} // namespace gemm

StringRef getAMXFeature(const GemmDesc &G) {
  gemm::AMXKernel Kern;
  std::string Why;
  return gemm::chooseAMXKernel(G, Kern, Why) ? Kern.Feature : StringRef();
}

} // namespace tlx
