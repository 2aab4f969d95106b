//===- Diagnostics.h - Errors and remarks with source locations -*- C++ -*-===//
//
// TLX errors are LLVM diagnostics of error severity: clang prints them as
// "file:line:col: error: ..." (the plugin turns on location tracking when the
// user gave no -g) and fails the compile; opt prints them and exits non-zero.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_IR_DIAGNOSTICS_H
#define TLX_IR_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include <string>

namespace llvm {
class Function;
class Instruction;
class Module;
class Type;
} // namespace llvm

namespace tlx {

/// Reports \p Msg as an error at \p I's debug location.
void emitError(const llvm::Instruction &I, const llvm::Twine &Msg);
/// Reports \p Msg as an error about \p F (no better location known).
void emitError(const llvm::Function &F, const llvm::Twine &Msg);

/// Reports an optimization remark of pass \p PassName ("tlx-lower", ...)
/// at \p I; shown with -Rpass=tlx (clang) or -pass-remarks=tlx (opt).
void emitRemark(const char *PassName, llvm::StringRef RemarkName,
                const llvm::Instruction &I, const llvm::Twine &Msg);
/// Same, as a "missed" remark (-Rpass-missed=tlx): a choice not taken.
void emitMissedRemark(const char *PassName, llvm::StringRef RemarkName,
                      const llvm::Instruction &I, const llvm::Twine &Msg);

/// Number of TLX errors reported so far in this process; passes that must
/// stop after errors (the pipeline does) compare it before and after.
unsigned errorCount();

/// Called by the clang plugin: clang fails the compile on error diagnostics.
void setHostIsClang();
/// True inside clang with the plugin's action: messages name C functions.
bool hostIsClang();
/// An element type as messages show it: inside clang, in C's words
/// (float, double, _Float16, __bf16; integers as int8_t..int64_t, since IR
/// integers carry no signedness); elsewhere (opt) in IR's (f32, i32).
std::string userTypeName(const llvm::Type *Ty);

/// opt keeps going after error diagnostics and exits 0; when the host is not
/// clang, this ends the process with exit code 1 if errors were reported.
void exitIfErrorsOutsideClang();

} // namespace tlx

#endif // TLX_IR_DIAGNOSTICS_H
