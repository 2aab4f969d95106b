//===- Epilogue.h - Elementwise chains fused into contractions -*- C++ -*-===//
//
// The TPP paper's fused matmul + bias + relu: the elementwise ops that read
// a contraction's result and end in one store (its "epilogue") are
// computed where the contraction finishes its values - in registers as a
// GEMM writes C (tlx-tile), or over each output row of a convolution while
// it is in L1 (tlx-nd-to-2d) - and the contraction's temporary and the
// second pass over memory disappear. docs/pipeline.md, "Fused epilogues".
//
//===----------------------------------------------------------------------===//

#ifndef TLX_CODEGEN_EPILOGUE_H
#define TLX_CODEGEN_EPILOGUE_H

#include "Analysis/TensorMemory.h"
#include "Analysis/TensorValues.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include <optional>
#include <string>

namespace llvm {
class AAResults;
} // namespace llvm

namespace tlx {

/// The elementwise ops that consume a contraction's result (read through
/// Reader) and whose result Store writes: fused into the contraction.
struct Epilogue {
  llvm::CallBase *Store = nullptr;
  llvm::CallBase *Reader = nullptr;
  llvm::SmallVector<llvm::CallBase *, 4> Chain; ///< the ops, in program order
  llvm::SmallVector<StridedView, 4> Reads; ///< memory their other operands read
};

/// The epilogue of the contraction \p Op whose result \p Store writes into
/// a TLX temporary: one token reads the temporary as it was written, and
/// everything reading that token, transitively, is elementwise (values may
/// be read several times: `t * t + t`) and ends in one store of the same
/// shape, in \p Store's block, with nothing in between writing what \p Op
/// reads. nullopt otherwise (\p WhyNot says why, where a remark helps).
/// Buffers TLX frees between the two stores move after the second.
std::optional<Epilogue> findEpilogue(llvm::CallBase &Store, llvm::CallBase &Op,
                                     llvm::AAResults &AA, std::string &WhyNot);

/// The memory views \p Token reads (its own, or its fused producers'
/// operands'), skipping \p Skip.
void collectReadViews(const llvm::Value *Token, const llvm::Value *Skip,
                      llvm::SmallVectorImpl<StridedView> &Views);

/// An i1 that is true when \p Dst's bytes overlap none of \p Reads': a
/// constant where alias analysis decides, else address range compares.
llvm::Value *emitDisjointCheck(llvm::IRBuilderBase &B, llvm::AAResults &AA,
                               const StridedView &Dst,
                               llvm::ArrayRef<StridedView> Reads);

/// Writes the part \p Part of the epilogue's destination (a view of the
/// destination with every logical dim, its element 0 at logical index
/// \p Origin of the whole): each element the chain's value, the
/// contraction's result read from \p Sums (the part's values, same logical
/// dims, indices relative to \p Origin) - one loop nest, \p VF lanes.
void emitEpilogueOn(llvm::IRBuilderBase &B, TensorValues &Values,
                    const Epilogue &E, const StridedView &Part,
                    llvm::ArrayRef<llvm::Value *> Origin,
                    const StridedView &Sums, llvm::ElementCount Lanes);

/// Once the fused contraction is emitted: erases its store into the
/// temporary (\p ContractionStore), the epilogue's store and the chain,
/// then the temporary when nothing uses it any more.
void eraseFusedEpilogue(llvm::CallBase &ContractionStore, const Epilogue &E);

/// Erases \p I and then the TLX ops and typeinfos only it used.
void eraseWithDeadOperands(llvm::Instruction *I);
/// Erases TLX's temporary \p Ptr (allocation, frees, lifetime markers) once
/// nothing reads or writes it.
void eraseTemporaryIfUnused(llvm::Value *Ptr);

/// The chain's ops, for remarks: "fmul, fadd, relu".
std::string describeChain(llvm::ArrayRef<llvm::CallBase *> Chain);

} // namespace tlx

#endif // TLX_CODEGEN_EPILOGUE_H
