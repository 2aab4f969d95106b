//===- Verifier.h - Every rule a TLX call must follow -----------*- C++ -*-===//
//
// The checks behind tlx-verify, usable on any IR: the pass reports each
// broken rule as an error at the call; the clang plugin runs the same
// checks on IR it builds from the constant arguments of C calls, so that
// -fsyntax-only reports them in the user's terms. docs/verifier.md lists
// the rules and their messages.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_IR_VERIFIER_H
#define TLX_IR_VERIFIER_H

#include "ShapeInference.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace tlx {

/// Receives one broken rule of \p Call: the message names the operands but
/// not the op ("inner dimensions differ: op1 is 3x4 (M=3, K=4), ...").
using VerifierReport =
    llvm::function_ref<void(const llvm::CallBase &Call, const llvm::Twine &)>;
/// Receives each compute op that passed every check, with its result.
using VerifierOnValid =
    llvm::function_ref<void(const llvm::CallBase &Call, const OpResult &)>;

/// True for a callee name in the TLX namespace (llvm.tensor.*,
/// llvm.vector.totensor), known op or not.
bool isTLXName(llvm::StringRef Name);

/// Checks every call of \p F whose callee has a TLX name, reporting every
/// rule each breaks (an unknown op name is one).
void verifyTLXCalls(const llvm::Function &F, VerifierReport Report,
                    VerifierOnValid OnValid = nullptr);

/// Checks the one call \p Call, as verifyTLXCalls does.
void verifyTLXCall(const llvm::CallBase &Call, VerifierReport Report,
                   VerifierOnValid OnValid = nullptr);

} // namespace tlx

#endif // TLX_IR_VERIFIER_H
