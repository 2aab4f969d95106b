//===- MMAKernels.cpp - Power10 MMA in the vector GEMM driver -------------===//
//
// Power10's matrix-multiply assist as a matrix-accumulator kernel of the
// vector GEMM driver (lib/Gemm/GemmVector.cpp, which packs,
// blocks, handles edges, epilogues, threads and run-time extents): the
// eight 512-bit accumulators hold the register block, each 4 rows of C by
// one 16-byte vector of columns, fed by outer products of a packed A
// operand (4 rows of KG k values) and a packed B vector:
//
//   A x B -> C                                 instruction   KG  block
//   f32 x f32 -> f32                           xvf32gerpp     1  8 x 16
//   f64 x f64 -> f64 (A: a 32-byte pair)       xvf64gerpp     1  8 x 8
//   s8/u8 x s8/u8 -> i32                       xvi8ger4pp     4  8 x 16
//   s16 x s8/u8/s16, s8/u8 x s16 -> i32        xvi16ger2pp    2  8 x 16
//     (packed as i16)
//
// xvi8ger4 multiplies signed bytes of its first operand by unsigned bytes
// of its second (wrapping, not the saturating xvi8ger4spp). The other
// byte signednesses flip sign bits while the panels are packed - unsigned
// A as A - 128, signed B as B + 128 - and the driver corrects the sums
// with row sums of the packed A (-128 each), column sums of the packed B
// (+128 each) and -16384 x K when both are flipped, computed with vmsum
// (AccumulatorKernel::FlipA/FlipB): exact in wrapping i32, and 4 k per
// instruction where i16 operands take 2 (256^3 s8 x s8 under qemu:
// docs/pipeline.md). i16 operands take the wrapping xvi16ger2pp, not the
// saturating xvi16ger2spp. Little-endian needs
// nothing special: panels packed in memory order give rows and columns in
// that order (the backend swaps what the ISA numbers big-endian; the f64
// pair is loaded whole - assemble.pair of two vectors would reverse it).
// LLVM 19 compiles a module with accumulators without subregister liveness
// tracking (compat::PPCSubRegLivenessBreaksAccumulators).
//
// The kernel is chosen inside the vector driver wherever the function's
// target has MMA (-mcpu=power10, or the run-time dispatch's Power10
// version); -fplugin-arg-tlx-target=mma (emitMMATargetGemm) asks for it on
// any ppc64le target: the GEMM goes into a kernel function with MMA's
// features, called after tlxrt_mma_require() (libtlxrt), which stops a
// CPU without MMA with a message instead of SIGILL.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Gemm/GemmEmitterImpl.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicsPowerPC.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

/// Rows of C per accumulator; accumulators per register block.
constexpr unsigned AccRows = 4, Accumulators = 8;

cl::opt<bool> MMASignBias(
    "tlx-mma-sign-bias", cl::init(true), cl::Hidden,
    cl::desc("int8 GEMMs on Power10 MMA other than s8 x u8: xvi8ger4pp on "
             "operands with flipped sign bits and corrected sums, rather "
             "than xvi16ger2pp on operands widened to i16"));

/// Sums += the four bytes of each 32-bit lane of Packed: vmsummbm
/// multiplies signed bytes by unsigned ones, vmsumubm unsigned by unsigned;
/// by ones here.
Value *sumByteGroups(IRBuilderBase &B, Value *Sums, Value *Packed,
                     bool Signed) {
  Value *Ones = ConstantInt::get(Packed->getType(), 1);
  return B.CreateIntrinsic(Signed ? Intrinsic::ppc_altivec_vmsummbm
                                  : Intrinsic::ppc_altivec_vmsumubm,
                           {}, {Packed, Ones, Sums});
}

/// xvi8ger4pp for bytes of any signedness: s8 x u8 as they are, the others
/// with flipped sign bits (AccumulatorKernel::FlipA/FlipB).
std::string useBytesWithBias(const GemmDesc &G, AccumulatorKernel &K) {
  K.FlipA = !G.A.IsSigned;
  K.FlipB = G.B.IsSigned;
  K.SumGroups = sumByteGroups;
  if (!K.flipsSigns())
    return "xvi8ger4pp";
  return std::string("xvi8ger4pp(") + (K.FlipA ? "A-128" : "") +
         (K.FlipA && K.FlipB ? " " : "") + (K.FlipB ? "B+128" : "") + ")";
}

/// The outer product for \p G's element types, or false.
bool chooseInstruction(const GemmDesc &G, AccumulatorKernel &K) {
  Type *AT = G.A.Elem, *BT = G.B.Elem, *CT = G.C.Elem;
  auto Use = [&](Intrinsic::ID ID, StringRef Name, Type *PackT, unsigned KG) {
    K.ID = ID;
    K.Name = (CT->isIntegerTy() ? intTypesName(G)
              : CT->isFloatTy() ? "f32"
                                : "f64") +
             " mma " + Name.str();
    K.PackT = PackT;
    K.KG = KG;
    return true;
  };
  if (AT == CT && BT == CT && CT->isFloatTy())
    return Use(Intrinsic::ppc_mma_xvf32gerpp, "xvf32gerpp", CT, 1);
  if (AT == CT && BT == CT && CT->isDoubleTy())
    return Use(Intrinsic::ppc_mma_xvf64gerpp, "xvf64gerpp", CT, 1);
  if (!CT->isIntegerTy(32))
    return false;
  bool Bytes = AT->isIntegerTy(8) && BT->isIntegerTy(8);
  if (Bytes && ((G.A.IsSigned && !G.B.IsSigned) || MMASignBias))
    return Use(Intrinsic::ppc_mma_xvi8ger4pp, useBytesWithBias(G, K), AT, 4);
  if (fitsI16(G.A) && fitsI16(G.B))
    return Use(Intrinsic::ppc_mma_xvi16ger2pp, "xvi16ger2pp",
               Type::getInt16Ty(CT->getContext()), 2);
  return false;
}

} // namespace

const char *mmaTargetFeatures() {
  return "+power9-vector,+power9-altivec,+isa-v30-instructions,"
         "+power10-vector,+isa-v31-instructions,+mma,+paired-vector-memops";
}

bool hasMMAKernel(const GemmDesc &G) {
  AccumulatorKernel K;
  return chooseInstruction(G, K);
}

bool chooseMMAKernel(const GemmDesc &G, const Function &F,
                     AccumulatorKernel &K) {
  // Little-endian only: the element order of panels and accumulators was
  // checked there; big-endian Power (no Debian sysroot) is untested.
  if (Triple(F.getParent()->getTargetTriple()).getArch() != Triple::ppc64le ||
      !hasTargetFeature(F, "mma") || !chooseInstruction(G, K))
    return false;
  // Two 4-row A operands by four B vectors: all eight accumulators, 6 of
  // the 64 VSX registers for operands.
  K.MR = 2 * AccRows;
  K.NV = Accumulators / 2;
  return true;
}

// Per k group, MR/4 A operands (16 bytes, or a 32-byte pair of f64) and NV
// B vectors, one outer product into each accumulator:
//   acc[a][v] = ger(acc[a][v], A[kq][4a..4a+3][..], B[kq][vW..vW+W-1][..])
// then each accumulator disassembled into its 4 rows.
SmallVector<Value *, 32> emitMMAKLoop(IRBuilderBase &B,
                                      const AccumulatorKernel &K,
                                      FixedVectorType *AccVecT, Value *APanel,
                                      Value *BPanel, Value *BStride,
                                      Value *Kcp) {
  unsigned MR = K.MR, NV = K.NV, KG = K.KG;
  unsigned W = AccVecT->getNumElements(), ARows = MR / AccRows;
  LLVMContext &Ctx = B.getContext();
  auto *Bytes = FixedVectorType::get(B.getInt8Ty(), 16);
  unsigned AOperandBytes = AccRows * KG * K.PackT->getPrimitiveSizeInBits() / 8;
  Type *AOperandT =
      AOperandBytes == 32
          ? (Type *)FixedVectorType::get(Type::getInt1Ty(Ctx), 256)
          : Bytes;
  Module *M = B.GetInsertBlock()->getModule();
  auto Call = [&](Intrinsic::ID ID, ArrayRef<Value *> Args) {
    return B.CreateCall(Intrinsic::getOrInsertDeclaration(M, ID), Args);
  };
  auto Elements = [&](Value *Base, Value *N) {
    return B.CreateGEP(K.PackT, Base, N);
  };
  SmallVector<Value *, 8> Init;
  for (unsigned I = 0; I < ARows * NV; ++I)
    Init.push_back(Call(Intrinsic::ppc_mma_xxsetaccz, {}));
  auto Accs = emitLoop(
      B, B.getInt64(0), B.CreateUDiv(Kcp, B.getInt64(KG)), B.getInt64(1),
      "gemm.k", Init, [&](IRBuilderBase &, Value *Kq, ArrayRef<Value *> Cur) {
        SmallVector<Value *, 8> Next(Cur.begin(), Cur.end());
        Value *ARow = B.CreateMul(Kq, B.getInt64(MR * KG));
        Value *BRow = B.CreateMul(Kq, BStride);
        SmallVector<Value *, 4> BVecs;
        for (unsigned V = 0; V < NV; ++V)
          BVecs.push_back(B.CreateAlignedLoad(
              Bytes,
              Elements(BPanel, B.CreateAdd(BRow, B.getInt64(V * W * KG))),
              Align(16)));
        for (unsigned A = 0; A < ARows; ++A) {
          Value *AOperand = B.CreateAlignedLoad(
              AOperandT,
              Elements(APanel, B.CreateAdd(ARow, B.getInt64(A * AccRows * KG))),
              Align(16));
          for (unsigned V = 0; V < NV; ++V)
            Next[A * NV + V] =
                Call(K.ID, {Next[A * NV + V], AOperand, BVecs[V]});
        }
        return Next;
      });
  SmallVector<Value *, 32> Acc(MR * NV);
  for (unsigned A = 0; A < ARows; ++A)
    for (unsigned V = 0; V < NV; ++V) {
      Value *Rows =
          Call(Intrinsic::ppc_mma_disassemble_acc, {Accs[A * NV + V]});
      for (unsigned R = 0; R < AccRows; ++R)
        Acc[V * MR + A * AccRows + R] =
            B.CreateBitCast(B.CreateExtractValue(Rows, R), AccVecT);
    }
  return Acc;
}

bool emitMMATargetGemm(IRBuilderBase &B, const GemmDesc &G,
                       const TargetTransformInfo &TTI, GemmPlan &Plan,
                       std::string &Why) {
  Function &Caller = *B.GetInsertBlock()->getParent();
  if (Triple(Caller.getParent()->getTargetTriple()).getArch() !=
      Triple::ppc64le) {
    Why = "MMA needs a powerpc64le target";
    return false;
  }
  if (!hasMMAKernel(G)) {
    Why = "no outer-product instruction for these element types";
    return false;
  }
  if (hasTargetFeature(Caller, "mma"))
    return emitVectorGemm(B, G, TTI, Plan, Why);
  Function *Kernel =
      createEnvKernel(Caller, "tlx.mma.gemm", mmaTargetFeatures());
  IRBuilder<> KB(Kernel->getEntryBlock().getTerminator());
  if (!emitVectorGemm(KB, G, TTI, Plan, Why)) {
    Kernel->eraseFromParent();
    return false;
  }
  Value *Env = passCallerValues(*Kernel, 0, B);
  Module *M = Caller.getParent();
  FunctionCallee Require =
      M->getOrInsertFunction("tlxrt_mma_require", B.getVoidTy());
  if (auto *Decl = dyn_cast<Function>(Require.getCallee()))
    Decl->setDoesNotThrow();
  B.CreateCall(Require);
  B.CreateCall(Kernel, {Env});
  return true;
}

} // namespace gemm
} // namespace tlx
