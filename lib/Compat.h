//===- Compat.h - Differences between the LLVM versions TLX builds with --===//
//
// TLX builds with LLVM/Clang 19 and 22 (CMake: -DTLX_LLVM_VERSION=19|22).
// Every difference between their APIs that TLX meets is bridged here, and
// only here. IR/TLXOps.h includes this header, so every TLX source sees the
// LLVM part; the parts that need heavier headers are opt-in, defined before
// including this file (each part is included once, whenever asked for):
//   #define TLX_COMPAT_CLANG   the clang AST (the plugin's checks)
//   #define TLX_COMPAT_TARGET  the target registry
//
//===----------------------------------------------------------------------===//

#ifndef TLX_COMPAT_H
#define TLX_COMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Intrinsics.h"

// LLVM 22 moved the pass-plugin interface (llvmGetPassPluginInfo) to
// llvm/Plugins.
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

// LLVM 20 renamed Intrinsic::getDeclaration to getOrInsertDeclaration and
// LLVM 22 removed the old name. Both names exist here with both versions,
// so code written against either compiles (lib/Codegen/IndexMap.cpp
// still uses the old one).
namespace llvm {
namespace Intrinsic {
#if LLVM_VERSION_MAJOR >= 22
inline Function *getDeclaration(Module *M, ID IID, ArrayRef<Type *> Tys = {}) {
  return getOrInsertDeclaration(M, IID, Tys);
}
#elif LLVM_VERSION_MAJOR < 20
inline Function *getOrInsertDeclaration(Module *M, ID IID,
                                        ArrayRef<Type *> Tys = {}) {
  return getDeclaration(M, IID, Tys);
}
#endif
} // namespace Intrinsic
} // namespace llvm

namespace tlx {
namespace compat {

/// PassBuilder::registerOptimizerLastEPCallback for a callback that takes
/// the pass manager and the -O level (LLVM 20 added the LTO phase).
template <typename PassBuilderT, typename CallbackT>
void registerOptimizerLastEPCallback(PassBuilderT &PB, CallbackT Callback) {
#if LLVM_VERSION_MAJOR >= 20
  PB.registerOptimizerLastEPCallback(
      [Callback](auto &MPM, auto Level, auto /*LTOPhase*/) {
        Callback(MPM, Level);
      });
#else
  PB.registerOptimizerLastEPCallback(Callback);
#endif
}

/// Whether \p TTI's target loads and stores vectors of type \p Ty under a
/// mask (LLVM 22 added the address space).
template <typename TTIType>
bool isLegalMaskedLoadAndStore(const TTIType &TTI, llvm::Type *Ty,
                               llvm::Align A) {
#if LLVM_VERSION_MAJOR >= 22
  return TTI.isLegalMaskedLoad(Ty, A, 0) && TTI.isLegalMaskedStore(Ty, A, 0);
#else
  return TTI.isLegalMaskedLoad(Ty, A) && TTI.isLegalMaskedStore(Ty, A);
#endif
}

/// Moves \p I before \p Pos (LLVM 22 deprecates positions given as
/// instructions in favour of iterators).
inline void moveBefore(llvm::Instruction *I, llvm::Instruction *Pos) {
#if LLVM_VERSION_MAJOR >= 20
  I->moveBefore(Pos->getIterator());
#else
  I->moveBefore(Pos);
#endif
}

/// The AArch64 SME function attributes of a kernel that runs in streaming
/// mode inside a non-streaming interface (ACLE __arm_locally_streaming) and
/// owns a fresh ZA (__arm_new("za")). LLVM 18 renamed "aarch64_pstate_za_new"
/// to "aarch64_new_za"; 19 and 22 both spell them so (llc-19 and llc-22
/// checked: test/Transforms/Tile/sme-kernel.ll).
inline constexpr const char *SMELocallyStreamingAttr = "aarch64_pstate_sm_body";
inline constexpr const char *SMENewZAAttr = "aarch64_new_za";

/// LLVM 19's x86 backend crashes (LiveVariables::HandleVirtRegUse) when an
/// optnone function passes or returns a vector of more than four bfloat
/// in a call and the module is code-generated above -O0 (found by the
/// program-level differential run: a bf16 result returned by value from a
/// helper in a -O0 module whose kernels tlx-optimize-kernels raised);
/// LLVM 22 compiles it. Where this is true, such -O0 modules keep -O0 code
/// generation (kernelsKeepO0CodeGen), and GemmAMX's tile kernels in them
/// take the -O0 tile form: LLVM's -O0 tile code crashes on optimized AMX
/// kernels (undef tiles and phis of phis reaching x86_amx phis, tile
/// shapes from kernel arguments; progs.py seed 4, cases 61 and 199).
inline constexpr bool OptNoneBF16VectorCallsCrashRaisedCodeGen =
    LLVM_VERSION_MAJOR < 22;

/// LLVM 19's x86 FastISel (the instruction selector at -O0, and for
/// optnone functions) loses a call's bfloat vector result unless a store in
/// the call's block is all that reads it: used in another block, the
/// registers it is returned in are reloaded from a stack slot they were
/// never spilled to (progs.py seed 600, case 713); passed straight to
/// another call, the callee gets garbage (seed 700, case 887). LLVM 22 is
/// right. Clang's own -O0 code stores every call result at once, TLX's
/// passes need not; where this is true, tlx-backend-workarounds passes
/// such results through a stack slot written right after the call.
inline constexpr bool FastISelLosesBF16VectorCallResults =
    LLVM_VERSION_MAJOR < 22;

/// LLVM 19's x86 FastISel (-O0, optnone functions), under +avx512bf16: a
/// call passing a bfloat vector wider than 128 bits gets a vzeroupper
/// between the load of its argument register and the call, so only the
/// low 8 elements arrive (plain C too: a `__bf16` vector of 32 passed by
/// value; progs.py seed 601, case 32). LLVM 22 is right. Where this is
/// true, tlx-backend-workarounds passes such vectors as i16 vectors of the
/// same size (the same registers in the x86-64 ABI).
inline constexpr bool FastISelClobbersBF16VectorArguments =
    LLVM_VERSION_MAJOR < 22;

/// LLVM 19 and 22 on x86 with +avx512bf16: a load or store of a bfloat
/// vector whose length is not a power of two (a C `__bf16` ext_vector_type
/// of 33 elements) aborts type legalization ("Do not know how to soft
/// promote this operator's operand"; progs.py seed 602, cases 43 and 95).
/// The same access as an i16 vector is selected fine, so
/// tlx-backend-workarounds makes it one (a bitcast either side).
inline constexpr bool X86AbortsOnOddBF16VectorAccesses = true;

/// LLVM 19 and 22, x86, -O1 and up: tuned for a CPU whose scheduling model
/// runs the post-RA scheduler (znver3/4/5), its anti-dependence breaker
/// renames AMX tile registers after X86TileConfig wrote the tile
/// configuration (SIGILL: a tile used that ldtilecfg left unconfigured).
/// tlx-backend-workarounds tunes functions computing on tiles otherwise.
inline constexpr bool X86RenamesConfiguredTiles = true;

/// LLVM 19, PowerPC at -O1 and up: with the subregister liveness tracking
/// PowerPC enables, register coalescing miscompiles functions whose MMA
/// accumulators are disassembled (xxmfacc): a row's register is reused
/// while the row is still to be read - seen first where other rows were
/// dead, though keeping every row live there does not cure it
/// (samples/matmul_layouts.c lost C[4..5][4..5] when its 6-row GEMMs
/// ran on MMA; a program-level differential case, seed 7 case 15, lost two
/// elements of a 4x4 contraction; docs/testing.md has the reproduction).
/// llc-19 compiles the same IR right with
/// -enable-subreg-liveness=false, -join-liveintervals=false or
/// -regalloc=basic, and llc-22 with subregister liveness on. Where this is
/// true, tlx-backend-workarounds turns the tracking off for modules that
/// use accumulators.
inline constexpr bool PPCSubRegLivenessBreaksAccumulators =
    LLVM_VERSION_MAJOR < 22;

/// LLVM 19 and 22, PowerPC at -O1 and up: stack slot coloring, once it has
/// merged spill slots, deletes a store of a register that was just
/// reloaded from the merged slot (RemoveDeadStores) without comparing the
/// two accesses' sizes, which PowerPC does not report: a double reloaded
/// (lfd) and stored back as a float (stfs, narrowing) to another spill
/// slot now sharing its address loses the store, and the float's reload
/// reads half of the double - progs.py seed 31 case 316, a value merged
/// across an if, 2 of 141 elements 0 for 1.375 (docs/testing.md). Fixed
/// upstream for LLVM 23 (llvm/llvm-project#182673: no dead-store removal
/// when a size is unknown). Where this is true, tlx-backend-workarounds
/// compiles PowerPC modules without stack slot sharing.
inline constexpr bool PPCStackSlotColoringDropsNarrowingSpills =
    LLVM_VERSION_MAJOR < 23;

/// LLVM 19's AArch64 GlobalISel (the instruction selector at -O0) selects
/// `fptrunc <N x float> to <N x half>` as BFCVTN - a conversion to bf16 -
/// when the target has +bf16 (armv9-a+sme has it), also where it narrows
/// f16 vector arithmetic it computes in f32 (without +fullfp16); LLVM 22
/// selects FCVTN. Where this is true, tlx-backend-workarounds makes such
/// ops one per lane in -O0 modules.
inline constexpr bool GlobalISelMiscompilesVectorHalfTrunc =
    LLVM_VERSION_MAJOR < 22;

/// LLVM 19's AArch64 backend cannot select fptrunc to and fpext from
/// scalable bf16 vectors ("Cannot select: nxv4bf16 = fp_round"), with or
/// without +bf16; LLVM 22 can, except from f64 ("Possible incorrect use of
/// EVT::getVectorNumElements() for scalable vector"). The loop vectorizer
/// makes them of plain C conversion loops under +sve;
/// tlx-backend-workarounds rewrites them as integer operations.
inline constexpr bool SVEBF16ConversionsUnselectable = LLVM_VERSION_MAJOR < 22;
inline constexpr bool SVEF64ToBF16Unselectable = true;

/// LLVM 19's AArch64 SelectionDAG forms pre-indexed stores of scalar bf16
/// values it then cannot select ("Cannot select: store<(store (s16)),
/// <pre-inc>>"; a bf16 zero, or a bf16 just loaded), with any features;
/// LLVM 22 selects them. tlx-backend-workarounds loads and stores scalar
/// bf16 as i16.
inline constexpr bool BF16PreIndexedStoreUnselectable = LLVM_VERSION_MAJOR < 22;

/// LLVM 22's x86 tile register allocation fails ("ran out of registers
/// during register allocation") on the AMX kernels of run-time-sized GEMMs
/// - tail tiles whose shapes are kernel arguments, after the optimizer has
/// duplicated the k loop (test/AMX/runtime-sizes.c, bf16); LLVM 19
/// compiles them. With native AMX such GEMMs then use vector code (a
/// missed remark says why); the emulator, which replaces the tiles before
/// the backend, keeps them.
inline constexpr bool AMXRuntimeShapesExhaustTileRegAlloc =
    LLVM_VERSION_MAJOR >= 22;

} // namespace compat
} // namespace tlx

#endif // TLX_COMPAT_H

#if defined(TLX_COMPAT_TARGET) && !defined(TLX_COMPAT_TARGET_INCLUDED)
#define TLX_COMPAT_TARGET_INCLUDED
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

namespace tlx {
namespace compat {

/// The target of \p TheTriple (LLVM 22 deprecates looking it up by name).
inline const llvm::Target *lookupTarget(const llvm::Triple &TheTriple,
                                        std::string &Error) {
#if LLVM_VERSION_MAJOR >= 22
  return llvm::TargetRegistry::lookupTarget(TheTriple, Error);
#else
  return llvm::TargetRegistry::lookupTarget(TheTriple.str(), Error);
#endif
}

/// Target::createMCSubtargetInfo (LLVM 22 deprecates the triple by name).
inline llvm::MCSubtargetInfo *
createMCSubtargetInfo(const llvm::Target &T, const llvm::Triple &TheTriple,
                      llvm::StringRef CPU, llvm::StringRef Features) {
#if LLVM_VERSION_MAJOR >= 22
  return T.createMCSubtargetInfo(TheTriple, CPU, Features);
#else
  return T.createMCSubtargetInfo(TheTriple.str(), CPU, Features);
#endif
}

} // namespace compat
} // namespace tlx
#endif

#if defined(TLX_COMPAT_CLANG) && !defined(TLX_COMPAT_CLANG_INCLUDED)
#define TLX_COMPAT_CLANG_INCLUDED
#include "clang/AST/Expr.h"

namespace tlx {
namespace compat {

/// After the callee's location changed: clang 21+ caches a CallExpr's begin
/// location; recompute it (setUsesMemberSyntax refreshes the cache).
inline void refreshCallBeginLoc(clang::CallExpr *CE) {
#if LLVM_VERSION_MAJOR >= 21
  CE->setUsesMemberSyntax(CE->usesMemberSyntax());
#else
  (void)CE;
#endif
}

} // namespace compat
} // namespace tlx
#endif
