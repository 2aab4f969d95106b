//===- AMXEmulate.cpp - AMX intrinsics -> calls into the AMX emulator -----===//
//
// tlx-amx-emulate replaces every Intel AMX intrinsic in the module - TLX's own
// AMX lowering or the user's immintrin.h code - with calls into libtlxrt's
// AMX emulator (lib/Runtime/amx_emu.c, headers/tlxrt_amx.h), and strips the
// AMX target features, so the backend never sees AMX and the program runs on
// any CPU. It runs when the target is amx-emulate, at the end of the
// optimizer (after always_inline has inlined clang's __tile_* wrappers).
//
// Algorithm:
//  1. Find the functions that use AMX: calls to AMX intrinsics or to
//     tlxrt_amx_init, or instructions of type x86_amx.
//  2. Split the critical edges into blocks with x86_amx phis.
//  3. Give every x86_amx value a tile buffer: an entry-block alloca of the
//     runtime's tlxrt_amx_tile (shape header + 16 x 64 bytes, align 64).
//     SSA values are never overwritten while live, so each buffer is written
//     only by the value's own definition; undef tiles share one buffer.
//  4. Rewrite each AMX instruction into an emulator call that writes the
//     buffer of its result and reads those of its operands:
//       - shape-carrying intrinsics (*.internal): tile buffers;
//       - register-number intrinsics (ldtilecfg, tileloadd64(i8 0, ...)):
//         the runtime's per-thread tile registers;
//       - cast.vector.to.tile / cast.tile.to.vector and loads, stores and
//         bitcasts of x86_amx: through the 1024-byte register image;
//       - select: a copy from the selected buffer;
//       - phi: a copy into the phi's buffer at the end of each incoming
//         block (a parallel copy: through temporaries where a source is a
//         phi of the same block).
//     Calls to tlxrt_amx_init (native-AMX enablement) are dropped.
//  5. Erase the AMX instructions and unused intrinsic declarations, and
//     drop +amx-* from every function's "target-features".
//
// Anything else that handles x86_amx (function arguments, calls to other
// functions, AMX-COMPLEX) is reported as an error at its source location.
//
//===----------------------------------------------------------------------===//

#include "Codegen/KernelOutliner.h"
#include "IR/Diagnostics.h"
#include "Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsX86.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "tlx-amx-emulate"

using namespace llvm;
using tlx::emitError;

namespace {

// Must match tlxrt_amx_tile and tlxrt_amx_dp in headers/tlxrt_amx.h.
constexpr uint64_t TileBufferSize = 1088;
constexpr uint64_t TileImageSize = 1024;
constexpr uint64_t TileAlignment = 64;
enum DotProductKind : unsigned {
  DPBSSD,
  DPBSUD,
  DPBUSD,
  DPBUUD,
  DPBF16PS,
  DPFP16PS
};

/// The dot-product kind of \p ID, if it is an AMX dot-product intrinsic.
std::optional<DotProductKind> getDotProductKind(Intrinsic::ID ID,
                                                bool &IsInternal) {
  IsInternal = true;
  switch (ID) {
  case Intrinsic::x86_tdpbssd_internal:
    return DPBSSD;
  case Intrinsic::x86_tdpbsud_internal:
    return DPBSUD;
  case Intrinsic::x86_tdpbusd_internal:
    return DPBUSD;
  case Intrinsic::x86_tdpbuud_internal:
    return DPBUUD;
  case Intrinsic::x86_tdpbf16ps_internal:
    return DPBF16PS;
  case Intrinsic::x86_tdpfp16ps_internal:
    return DPFP16PS;
  default:
    break;
  }
  IsInternal = false;
  switch (ID) {
  case Intrinsic::x86_tdpbssd:
    return DPBSSD;
  case Intrinsic::x86_tdpbsud:
    return DPBSUD;
  case Intrinsic::x86_tdpbusd:
    return DPBUSD;
  case Intrinsic::x86_tdpbuud:
    return DPBUUD;
  case Intrinsic::x86_tdpbf16ps:
    return DPBF16PS;
  case Intrinsic::x86_tdpfp16ps:
    return DPFP16PS;
  default:
    return std::nullopt;
  }
}

/// True for every x86 intrinsic that touches AMX state.
bool isAMXIntrinsic(Intrinsic::ID ID) {
  bool IsInternal;
  if (getDotProductKind(ID, IsInternal))
    return true;
  switch (ID) {
  case Intrinsic::x86_ldtilecfg:
  case Intrinsic::x86_ldtilecfg_internal:
  case Intrinsic::x86_sttilecfg:
  case Intrinsic::x86_tilerelease:
  case Intrinsic::x86_tileloadd64:
  case Intrinsic::x86_tileloaddt164:
  case Intrinsic::x86_tilestored64:
  case Intrinsic::x86_tilezero:
  case Intrinsic::x86_tileloadd64_internal:
  case Intrinsic::x86_tileloaddt164_internal:
  case Intrinsic::x86_tilestored64_internal:
  case Intrinsic::x86_tilezero_internal:
  case Intrinsic::x86_cast_vector_to_tile:
  case Intrinsic::x86_cast_tile_to_vector:
  case Intrinsic::x86_tcmmimfp16ps:
  case Intrinsic::x86_tcmmrlfp16ps:
  case Intrinsic::x86_tcmmimfp16ps_internal:
  case Intrinsic::x86_tcmmrlfp16ps_internal:
    return true;
  default:
    return false;
  }
}

bool isAMXIntrinsicCall(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && isAMXIntrinsic(II->getIntrinsicID());
}

/// A call of the runtime's native-AMX enablement, tlxrt_amx_init() or
/// tlxrt_amx_require(products) (TLX's AMX code calls the latter before the
/// first tile instruction).
bool isAMXInitCall(const Instruction &I) {
  const auto *CI = dyn_cast<CallInst>(&I);
  const Function *Callee = CI ? CI->getCalledFunction() : nullptr;
  if (!Callee || !CI->use_empty())
    return false;
  StringRef Name = Callee->getName();
  return (Name == "tlxrt_amx_init" && CI->arg_empty()) ||
         (Name == "tlxrt_amx_require" && CI->arg_size() == 1);
}

class AMXEmulator {
public:
  explicit AMXEmulator(Module &M)
      : M(M), Ctx(M.getContext()), I8(Type::getInt8Ty(Ctx)),
        I32(Type::getInt32Ty(Ctx)), I64(Type::getInt64Ty(Ctx)),
        Ptr(PointerType::getUnqual(Ctx)), Void(Type::getVoidTy(Ctx)) {}

  bool run();

private:
  bool emulateFunction(Function &F);
  void remarkEmulated(Function &F, const Instruction &First,
                      unsigned NumTileInsts);
  void splitCriticalEdgesIntoAMXPhis(Function &F);
  AllocaInst *createEntryAlloca(uint64_t Size, const Twine &Name);
  Value *getBuffer(Value *V, Instruction &User);
  Value *getVectorScratch();
  FunctionCallee runtime(StringRef Name, ArrayRef<Type *> Params);

  bool lowerIntrinsic(IntrinsicInst &II);
  void lowerDotProduct(IntrinsicInst &II, DotProductKind Kind, bool IsInternal);
  void lowerVectorToTile(Instruction &I, Value *Vec);
  void lowerTileToVector(Instruction &I, Value *Tile);
  void lowerPhis();
  bool stripAMXFeatures(Function &F);

  Value *shapeArg(IRBuilder<> &B, Value *V) { return B.CreateSExt(V, I32); }
  Value *tileNumber(IRBuilder<> &B, Value *V) { return B.CreateZExt(V, I32); }
  Value *strideArg(IRBuilder<> &B, Value *V) {
    return B.CreateSExtOrTrunc(V, I64);
  }

  Module &M;
  LLVMContext &Ctx;
  Type *I8, *I32, *I64, *Ptr, *Void;

  // Per-function state.
  Function *CurF = nullptr;
  AllocaInst *LastAlloca = nullptr;
  DenseMap<Value *, Value *> Buffers;
  Value *UndefTile = nullptr;
  Value *VectorScratch = nullptr;
  SmallVector<PHINode *, 4> Phis;
  bool HadError = false;
};

FunctionCallee AMXEmulator::runtime(StringRef Name, ArrayRef<Type *> Params) {
  FunctionCallee Callee =
      M.getOrInsertFunction(Name, FunctionType::get(Void, Params, false));
  if (auto *Fn = dyn_cast<Function>(Callee.getCallee()))
    Fn->addFnAttr(Attribute::NoUnwind);
  return Callee;
}

AllocaInst *AMXEmulator::createEntryAlloca(uint64_t Size, const Twine &Name) {
  // Allocas go to the top of the entry block, in creation order.
  BasicBlock &Entry = CurF->getEntryBlock();
  IRBuilder<> B(Ctx);
  if (LastAlloca)
    B.SetInsertPoint(LastAlloca->getNextNode());
  else
    B.SetInsertPoint(&Entry, Entry.getFirstInsertionPt());
  AllocaInst *A = B.CreateAlloca(ArrayType::get(I8, Size), nullptr, Name);
  A->setAlignment(Align(TileAlignment));
  LastAlloca = A;
  return A;
}

Value *AMXEmulator::getVectorScratch() {
  if (!VectorScratch)
    VectorScratch = createEntryAlloca(TileImageSize, "amx.vec");
  return VectorScratch;
}

/// The tile buffer holding x86_amx value \p V, used by \p User.
Value *AMXEmulator::getBuffer(Value *V, Instruction &User) {
  if (Value *Buf = Buffers.lookup(V))
    return Buf;
  if (!isa<Constant>(V)) {
    emitError(User, "tlx-amx-emulate: cannot emulate an x86_amx value that "
                    "is not defined by an instruction (function argument?)");
    HadError = true;
  }
  // undef/poison tiles (and the error case): zeros of unknown shape.
  if (!UndefTile) {
    AllocaInst *A = createEntryAlloca(TileBufferSize, "amx.undef");
    IRBuilder<> B(A->getNextNode());
    B.CreateCall(runtime("tlxrt_amx_emu_tile_undef", {Ptr}), {A});
    UndefTile = A;
  }
  return UndefTile;
}

/// Splits every critical edge into a block with an x86_amx phi, so the
/// phi copies placed at the end of the predecessor run only on that edge.
void AMXEmulator::splitCriticalEdgesIntoAMXPhis(Function &F) {
  SmallVector<std::pair<Instruction *, unsigned>, 4> Edges;
  for (BasicBlock &BB : F) {
    if (none_of(BB.phis(),
                [](PHINode &P) { return P.getType()->isX86_AMXTy(); }))
      continue;
    for (BasicBlock *Pred : predecessors(&BB)) {
      Instruction *TI = Pred->getTerminator();
      for (unsigned S = 0, E = TI->getNumSuccessors(); S != E; ++S)
        if (TI->getSuccessor(S) == &BB && isCriticalEdge(TI, S))
          Edges.push_back({TI, S});
    }
  }
  for (auto [TI, S] : Edges) {
    // A merged duplicate edge is no longer critical; splitting again is a
    // no-op then.
    if (!isCriticalEdge(TI, S))
      continue;
    if (!SplitCriticalEdge(
            TI, S, CriticalEdgeSplittingOptions().setMergeIdenticalEdges())) {
      emitError(*TI, "tlx-amx-emulate: cannot split the critical edge into a "
                     "block with an x86_amx phi");
      HadError = true;
    }
  }
}

// %v = call <256 x i32> ...          store <256 x i32> %v, ptr %amx.vec
// %t = call x86_amx                  -->
//   @llvm.x86.cast.vector.to.tile(%v)  call @tlxrt_amx_emu_tile_from_vector(
//                                         ptr %buf.t, ptr %amx.vec)
void AMXEmulator::lowerVectorToTile(Instruction &I, Value *Vec) {
  const DataLayout &DL = M.getDataLayout();
  if (DL.getTypeStoreSize(Vec->getType()) != TileImageSize) {
    emitError(I, "tlx-amx-emulate: a vector cast to x86_amx must have 1024 "
                 "bytes");
    HadError = true;
    return;
  }
  IRBuilder<> B(&I);
  Value *Scratch = getVectorScratch();
  B.CreateAlignedStore(Vec, Scratch, Align(TileAlignment));
  B.CreateCall(runtime("tlxrt_amx_emu_tile_from_vector", {Ptr, Ptr}),
               {Buffers.lookup(&I), Scratch});
}

// %v = call <256 x i32>              call @tlxrt_amx_emu_tile_to_vector(
//   @llvm.x86.cast.tile.to.vector(%t)  -->   ptr %amx.vec, ptr %buf.t)
//                                    %v = load <256 x i32>, ptr %amx.vec
void AMXEmulator::lowerTileToVector(Instruction &I, Value *Tile) {
  const DataLayout &DL = M.getDataLayout();
  if (DL.getTypeStoreSize(I.getType()) != TileImageSize) {
    emitError(I, "tlx-amx-emulate: an x86_amx cast to a vector must give "
                 "1024 bytes");
    HadError = true;
    return;
  }
  IRBuilder<> B(&I);
  Value *Scratch = getVectorScratch();
  B.CreateCall(runtime("tlxrt_amx_emu_tile_to_vector", {Ptr, Ptr}),
               {Scratch, getBuffer(Tile, I)});
  Value *Vec = B.CreateAlignedLoad(I.getType(), Scratch, Align(TileAlignment));
  Vec->takeName(&I);
  I.replaceAllUsesWith(Vec);
}

// %c = call x86_amx @llvm.x86.tdpbssd.internal(i16 %m, i16 %n, i16 %k,
//                                              x86_amx %acc, %a, %b)
//   -->
// call @tlxrt_amx_emu_tdp_internal(i32 0, i32 %m, i32 %n, i32 %k,
//                                  ptr %buf.c, ptr %buf.acc, %buf.a, %buf.b)
//
// call @llvm.x86.tdpbssd(i8 0, i8 1, i8 2)
//   --> call @tlxrt_amx_emu_tdp(i32 0, i32 0, i32 1, i32 2)
void AMXEmulator::lowerDotProduct(IntrinsicInst &II, DotProductKind Kind,
                                  bool IsInternal) {
  IRBuilder<> B(&II);
  Value *KindArg = ConstantInt::get(I32, Kind);
  if (!IsInternal) {
    B.CreateCall(runtime("tlxrt_amx_emu_tdp", {I32, I32, I32, I32}),
                 {KindArg, tileNumber(B, II.getArgOperand(0)),
                  tileNumber(B, II.getArgOperand(1)),
                  tileNumber(B, II.getArgOperand(2))});
    return;
  }
  B.CreateCall(
      runtime("tlxrt_amx_emu_tdp_internal",
              {I32, I32, I32, I32, Ptr, Ptr, Ptr, Ptr}),
      {KindArg, shapeArg(B, II.getArgOperand(0)),
       shapeArg(B, II.getArgOperand(1)), shapeArg(B, II.getArgOperand(2)),
       Buffers.lookup(&II), getBuffer(II.getArgOperand(3), II),
       getBuffer(II.getArgOperand(4), II), getBuffer(II.getArgOperand(5), II)});
}

/// Rewrites one AMX intrinsic call; false if it cannot be emulated.
bool AMXEmulator::lowerIntrinsic(IntrinsicInst &II) {
  Intrinsic::ID ID = II.getIntrinsicID();
  bool IsInternal;
  if (std::optional<DotProductKind> Kind = getDotProductKind(ID, IsInternal)) {
    lowerDotProduct(II, *Kind, IsInternal);
    return true;
  }
  IRBuilder<> B(&II);
  auto Arg = [&](unsigned N) { return II.getArgOperand(N); };
  switch (ID) {
  // Register-number intrinsics: the runtime's per-thread tile registers.
  case Intrinsic::x86_ldtilecfg:
    B.CreateCall(runtime("tlxrt_amx_emu_ldtilecfg", {Ptr}), {Arg(0)});
    return true;
  case Intrinsic::x86_sttilecfg:
    B.CreateCall(runtime("tlxrt_amx_emu_sttilecfg", {Ptr}), {Arg(0)});
    return true;
  case Intrinsic::x86_tilerelease:
    B.CreateCall(runtime("tlxrt_amx_emu_tilerelease", {}), {});
    return true;
  case Intrinsic::x86_tileloadd64:
  case Intrinsic::x86_tileloaddt164:
    B.CreateCall(runtime("tlxrt_amx_emu_tileloadd", {I32, Ptr, I64}),
                 {tileNumber(B, Arg(0)), Arg(1), strideArg(B, Arg(2))});
    return true;
  case Intrinsic::x86_tilestored64:
    B.CreateCall(runtime("tlxrt_amx_emu_tilestored", {I32, Ptr, I64}),
                 {tileNumber(B, Arg(0)), Arg(1), strideArg(B, Arg(2))});
    return true;
  case Intrinsic::x86_tilezero:
    B.CreateCall(runtime("tlxrt_amx_emu_tilezero", {I32}),
                 {tileNumber(B, Arg(0))});
    return true;

  // Shape-carrying intrinsics: tile buffers.
  case Intrinsic::x86_tileloadd64_internal:
  case Intrinsic::x86_tileloaddt164_internal:
    B.CreateCall(
        runtime("tlxrt_amx_emu_tileloadd_internal", {Ptr, I32, I32, Ptr, I64}),
        {Buffers.lookup(&II), shapeArg(B, Arg(0)), shapeArg(B, Arg(1)), Arg(2),
         strideArg(B, Arg(3))});
    return true;
  case Intrinsic::x86_tilezero_internal:
    B.CreateCall(
        runtime("tlxrt_amx_emu_tilezero_internal", {Ptr, I32, I32}),
        {Buffers.lookup(&II), shapeArg(B, Arg(0)), shapeArg(B, Arg(1))});
    return true;
  case Intrinsic::x86_tilestored64_internal:
    B.CreateCall(
        runtime("tlxrt_amx_emu_tilestored_internal", {Ptr, I32, I32, Ptr, I64}),
        {getBuffer(Arg(4), II), shapeArg(B, Arg(0)), shapeArg(B, Arg(1)),
         Arg(2), strideArg(B, Arg(3))});
    return true;
  case Intrinsic::x86_cast_vector_to_tile:
    lowerVectorToTile(II, Arg(0));
    return true;
  case Intrinsic::x86_cast_tile_to_vector:
    lowerTileToVector(II, Arg(0));
    return true;
  default:
    break;
  }
  emitError(II, "tlx-amx-emulate: the AMX emulator does not support '" +
                    II.getCalledFunction()->getName() + "'");
  HadError = true;
  return false;
}

// bb:                                      pred:
//   %p = phi x86_amx [%a, %pred], ...  -->   memcpy(%buf.p, %buf.a, 1088)
//                                            br label %bb
void AMXEmulator::lowerPhis() {
  // (predecessor, block) -> (destination, source) copies, in phi order.
  MapVector<std::pair<BasicBlock *, BasicBlock *>,
            SmallVector<std::pair<Value *, Value *>, 2>>
      Copies;
  for (PHINode *P : Phis)
    for (unsigned I = 0, E = P->getNumIncomingValues(); I != E; ++I) {
      auto &List = Copies[{P->getIncomingBlock(I), P->getParent()}];
      std::pair<Value *, Value *> Copy{Buffers.lookup(P),
                                       getBuffer(P->getIncomingValue(I), *P)};
      // A switch with several cases to one block lists it more than once.
      if (!is_contained(List, Copy))
        List.push_back(Copy);
    }
  auto EmitCopy = [&](IRBuilder<> &B, Value *Dst, Value *Src) {
    if (Dst != Src)
      B.CreateMemCpy(Dst, Align(TileAlignment), Src, Align(TileAlignment),
                     TileBufferSize);
  };
  for (auto &[Edge, List] : Copies) {
    IRBuilder<> B(Edge.first->getTerminator());
    // Copies are parallel: if a source is also a destination (a phi of
    // the same block), read every source before writing any destination.
    bool Overlap = any_of(List, [&](auto &C) {
      return any_of(List, [&](auto &D) {
        return C.second == D.first && C.second != C.first;
      });
    });
    if (!Overlap) {
      for (auto [Dst, Src] : List)
        EmitCopy(B, Dst, Src);
      continue;
    }
    SmallVector<Value *, 4> Temps;
    for (auto [Dst, Src] : List) {
      Temps.push_back(createEntryAlloca(TileBufferSize, "amx.phi.tmp"));
      EmitCopy(B, Temps.back(), Src);
    }
    for (auto [Idx, C] : enumerate(List))
      EmitCopy(B, C.first, Temps[Idx]);
  }
}

bool AMXEmulator::stripAMXFeatures(Function &F) {
  Attribute Attr = F.getFnAttribute("target-features");
  if (!Attr.isValid())
    return false;
  SmallVector<StringRef, 32> Features, Kept;
  SplitString(Attr.getValueAsString(), Features, ",");
  for (StringRef Feature : Features)
    if (!Feature.starts_with("+amx-"))
      Kept.push_back(Feature);
  if (Kept.size() == Features.size())
    return false;
  F.addFnAttr("target-features", join(Kept, ","));
  return true;
}

/// Folds tile -> vector -> tile round trips (clang's __tile1024i API makes
/// one for every use of a tile), so the tile keeps its buffer and its shape:
///   %v = call <256 x i32> @llvm.x86.cast.tile.to.vector(x86_amx %t)
///   %u = call x86_amx @llvm.x86.cast.vector.to.tile(<256 x i32> %v)
///     --> uses of %u use %t
static void foldCastRoundTrips(Function &F) {
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *ToTile = dyn_cast<IntrinsicInst>(&I);
    if (!ToTile ||
        ToTile->getIntrinsicID() != Intrinsic::x86_cast_vector_to_tile)
      continue;
    auto *ToVector = dyn_cast<IntrinsicInst>(ToTile->getArgOperand(0));
    if (!ToVector ||
        ToVector->getIntrinsicID() != Intrinsic::x86_cast_tile_to_vector)
      continue;
    ToTile->replaceAllUsesWith(ToVector->getArgOperand(0));
    ToTile->eraseFromParent();
  }
  for (Instruction &I : make_early_inc_range(instructions(F)))
    if (auto *II = dyn_cast<IntrinsicInst>(&I);
        II && II->getIntrinsicID() == Intrinsic::x86_cast_tile_to_vector &&
        II->use_empty())
      II->eraseFromParent();
}

/// Where a remark about \p F should point: \p First's location, else the
/// first located instruction of \p F, else - for the GEMM kernels the
/// lowering outlines into functions of their own, without debug info - the
/// first located call of \p F (the user's op it implements).
static DebugLoc getRemarkLocation(const Function &F, const Instruction &First) {
  if (First.getDebugLoc())
    return First.getDebugLoc();
  for (const Instruction &I : instructions(F))
    if (I.getDebugLoc() && I.getDebugLoc().getLine())
      return I.getDebugLoc();
  for (const User *U : F.users())
    if (const auto *Call = dyn_cast<CallBase>(U);
        Call && Call->getCalledFunction() == &F && Call->getDebugLoc())
      return Call->getDebugLoc();
  return DebugLoc();
}

void AMXEmulator::remarkEmulated(Function &F, const Instruction &First,
                                 unsigned NumTileInsts) {
  OptimizationRemarkEmitter ORE(&F);
  ORE.emit([&] {
    return OptimizationRemark(DEBUG_TYPE, "Emulated",
                              getRemarkLocation(F, First), First.getParent())
           << ("AMX emulated: " + Twine(NumTileInsts) +
               " AMX intrinsic call(s) in '" + F.getName() +
               "' replaced by calls into libtlxrt's AMX emulator")
                  .str();
  });
}

bool AMXEmulator::emulateFunction(Function &F) {
  foldCastRoundTrips(F);
  SmallVector<Instruction *, 16> Work;
  for (Instruction &I : instructions(F)) {
    if (isAMXIntrinsicCall(I) || isAMXInitCall(I) || tlx::usesX86AMX(I))
      Work.push_back(&I);
  }
  if (Work.empty())
    return false;

  CurF = &F;
  Buffers.clear();
  Phis.clear();
  UndefTile = VectorScratch = nullptr;
  HadError = false;
  LastAlloca = nullptr;

  splitCriticalEdgesIntoAMXPhis(F);
  for (Instruction *I : Work)
    if (I->getType()->isX86_AMXTy())
      Buffers[I] = createEntryAlloca(TileBufferSize, I->getName() + ".tile");

  for (Instruction *I : Work) {
    if (isAMXIntrinsicCall(*I)) {
      lowerIntrinsic(*cast<IntrinsicInst>(I));
      continue;
    }
    if (isAMXInitCall(*I))
      continue; // Emulated AMX needs no enabling: the call is erased.
    if (auto *P = dyn_cast<PHINode>(I)) {
      Phis.push_back(P);
      continue;
    }
    IRBuilder<> B(I);
    if (auto *S = dyn_cast<SelectInst>(I)) {
      // %s = select i1 %c, x86_amx %a, x86_amx %b
      //   --> memcpy(%buf.s, select i1 %c, ptr %buf.a, ptr %buf.b)
      Value *Src =
          B.CreateSelect(S->getCondition(), getBuffer(S->getTrueValue(), *S),
                         getBuffer(S->getFalseValue(), *S));
      B.CreateMemCpy(Buffers.lookup(S), Align(TileAlignment), Src,
                     Align(TileAlignment), TileBufferSize);
      continue;
    }
    if (auto *Fr = dyn_cast<FreezeInst>(I)) {
      // A tile in memory is never poison: freeze is a copy.
      B.CreateMemCpy(Buffers.lookup(Fr), Align(TileAlignment),
                     getBuffer(Fr->getOperand(0), *Fr), Align(TileAlignment),
                     TileBufferSize);
      continue;
    }
    if (auto *L = dyn_cast<LoadInst>(I)) {
      // %t = load x86_amx, ptr %p --> tile_from_vector(%buf.t, %p)
      B.CreateCall(runtime("tlxrt_amx_emu_tile_from_vector", {Ptr, Ptr}),
                   {Buffers.lookup(L), L->getPointerOperand()});
      continue;
    }
    if (auto *St = dyn_cast<StoreInst>(I)) {
      // store x86_amx %t, ptr %p --> tile_to_vector(%p, %buf.t)
      B.CreateCall(
          runtime("tlxrt_amx_emu_tile_to_vector", {Ptr, Ptr}),
          {St->getPointerOperand(), getBuffer(St->getValueOperand(), *St)});
      continue;
    }
    if (auto *BC = dyn_cast<BitCastInst>(I)) {
      if (BC->getType()->isX86_AMXTy())
        lowerVectorToTile(*BC, BC->getOperand(0));
      else
        lowerTileToVector(*BC, BC->getOperand(0));
      continue;
    }
    emitError(*I,
              "tlx-amx-emulate: cannot emulate this use of an x86_amx "
              "value (only AMX intrinsics, phi, select, freeze, load, store "
              "and bitcast are supported)");
    HadError = true;
  }
  lowerPhis();
  if (HadError)
    return true; // Leave the function as it is: the compile fails anyway.

  unsigned NumTileInsts =
      count_if(Work, [](Instruction *I) { return isAMXIntrinsicCall(*I); });
  if (NumTileInsts) {
    Instruction *First = *find_if(
        Work, [](Instruction *I) { return isAMXIntrinsicCall(*I); });
    remarkEmulated(F, *First, NumTileInsts);
  }

  for (Instruction *I : Work)
    if (!I->getType()->isVoidTy())
      I->replaceAllUsesWith(PoisonValue::get(I->getType()));
  for (Instruction *I : Work)
    I->eraseFromParent();
  return true;
}

bool AMXEmulator::run() {
  bool Changed = false;
  for (Function &F : M)
    if (!F.isDeclaration())
      Changed |= emulateFunction(F);
  // The intrinsic declarations are dead now; drop them so no AMX remains.
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && isAMXIntrinsic(F.getIntrinsicID()) &&
        F.use_empty()) {
      F.eraseFromParent();
      Changed = true;
    }
  for (Function &F : M)
    Changed |= stripAMXFeatures(F);
  return Changed;
}

} // namespace

namespace tlx {

PreservedAnalyses AMXEmulatePass::run(Module &M, ModuleAnalysisManager &) {
  if (!AMXEmulator(M).run())
    return PreservedAnalyses::all();
  exitIfErrorsOutsideClang();
  return PreservedAnalyses::none();
}

} // namespace tlx
