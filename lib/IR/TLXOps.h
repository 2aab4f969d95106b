//===- TLXOps.h - The TLX vocabulary: names, signatures, builder -*- C++
//-*-===//
//
// One description per llvm.tensor.* op (from TLXOps.def), the matchers that
// find ops by IR or C name, and the builder that emits correctly mangled
// calls with the op's attributes.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_IR_TLXOPS_H
#define TLX_IR_TLXOPS_H

#include "../Compat.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"
#include <optional>
#include <string>

namespace llvm {
class CallBase;
class Function;
class FunctionType;
class Module;
class Type;
class Value;
} // namespace llvm

namespace tlx {

enum class OpKind {
#define TLX_OP(Enum, ...) Enum,
#include "TLXOps.def"
};

enum class ResultKind { Token, Data, Void };
enum class MemoryKind { None, ReadArg, WriteArg };
enum class ElementClass { Any, Float, Int };

struct OpDesc {
  OpKind Kind;
  llvm::StringRef IRName;
  llvm::StringRef CName;
  unsigned MinArgs;
  unsigned MaxArgs;
  ResultKind Result;
  MemoryKind Memory;
  ElementClass Elements;
  /// One letter per operand, see TLXOps.def.
  llvm::StringRef Signature;

  /// Short name used in diagnostics and remarks: "matmul", "reduce.max".
  llvm::StringRef shortName() const;
};

/// All ops, in TLXOps.def order.
llvm::ArrayRef<OpDesc> allOps();
const OpDesc &getOpDesc(OpKind Kind);

/// The op an intrinsic name denotes: the op's IR name, alone or followed by
/// an LLVM-style mangling suffix ("llvm.tensor.matmul.v9f32").
std::optional<OpKind> matchIntrinsicName(llvm::StringRef Name);

/// The op a C dummy-function name denotes: "tensor_<op>" exactly or followed
/// by a suffix that starts with a digit or '_' ("tensor_typeinfo10000",
/// "tensor_matmul_3"); the longest op name wins ("tensor_exp2" is exp2).
std::optional<OpKind> matchCName(llvm::StringRef Name);
/// The op a call to one of tlx.h's dummy functions (a declaration named as
/// matchCName reads) denotes.
std::optional<OpKind> getDummyKind(const llvm::CallBase &CB);

/// The op a call invokes, if its callee is a TLX intrinsic.
std::optional<OpKind> getOpKind(const llvm::CallBase &Call);
std::optional<OpKind> getOpKind(const llvm::Value *V);
bool isTLXIntrinsic(const llvm::Function &F);

/// The LLVM instruction opcode (Instruction::FAdd, ...) an op made from a
/// C vector operator applies element by element, and back.
std::optional<unsigned> getInstructionOpcode(OpKind Kind);
std::optional<OpKind> getInstructionOp(unsigned Opcode);
/// The op of a vector intrinsic C code calls (clang's a * b + c is
/// llvm.fmuladd, made fmul then fadd; __builtin_elementwise_* are the math
/// intrinsics).
std::optional<OpKind> getVectorIntrinsicOp(const llvm::Instruction &I);
/// Whether \p I is a C operator on vectors that tlx-vector-ops makes a TLX
/// op of, applied element by element: a binary operator, fneg, a compare,
/// a select, a conversion or a math intrinsic (not insertelement, a C
/// element write).
bool isCVectorOperator(const llvm::Instruction &I);
/// Whether \p V is computed, through C vector operators (isCVectorOperator),
/// from a value \p IsSource accepts: IsSource decides the values it knows
/// (true or false) and gives nullopt for the others, which are looked
/// through when they are such operators.
bool isComputedThroughOperators(
    const llvm::Value *V,
    llvm::function_ref<std::optional<bool>(const llvm::Value *)> IsSource);
/// How a diagnostic names op \p Kind to a C programmer: its C function
/// quoted ('tensor_matmul'), or for an op made from a C operator, that
/// operator (operator '+', a comparison, __builtin_convertvector).
std::string getUserOpName(OpKind Kind);
/// How a diagnostic names the op call \p Op: as the program spelled it
/// where the frontend recorded that (setUserSpelling: tlx_matmul for the
/// short form), else getUserOpName of its kind.
std::string getUserOpName(const llvm::CallBase &Op);
/// How a program spells the TLX dummy function \p Callee: tlx.h's short
/// form tensor_<op>_tlx_inferred as tlx_<op>, its macros' functions
/// tensor_<op>_TLX_<MACRO> as TLX_<MACRO> (TLX_LOAD, TLX_STORE), any other
/// as itself.
std::string getSpelledName(llvm::StringRef Callee);
/// Records that the program spelled the op \p Op as the C function
/// \p Name (metadata "tlx.spelling", which diagnostics and run-time
/// checks name it by).
void setUserSpelling(llvm::CallBase &Op, llvm::StringRef Name);
/// The ops C vector operators become, element by element (add .. select,
/// the conversions; not insertelement).
bool isCOperatorOp(OpKind Kind);
/// The C object a load's, store's or typeinfo_mem's pointer certainly
/// points into, as the frontend found it (clang-plugin/ObjectBounds.h), for
/// the run-time bounds check of an access whose extent is known only when
/// it runs. The frontend passes it wrapped around the pointer argument,
/// `tlx__known_object(ptr, size, offset, at_least, "name", "origin")`
/// (tlx.h declares the function); tlx-recognize unwraps it into metadata
/// "tlx.object" on the op.
struct ObjectBound {
  int64_t SizeBytes = 0;
  int64_t OffsetBytes = 0; ///< of the op's pointer from the object's start
  bool AtLeast = false;    ///< a [static N] parameter: N is a lower bound
  std::string Name;        ///< the C variable: "d"
  std::string Origin;      ///< its C type or allocation: "float[2][2]"
};
/// The C function tlx.h declares to carry an ObjectBound to the IR.
constexpr const char *KnownObjectFunction = "tlx__known_object";
/// The bound a call of KnownObjectFunction carries, if \p V is one.
std::optional<ObjectBound> readKnownObjectCall(const llvm::Value *V);
void setObjectBound(llvm::CallBase &Op, const ObjectBound &Obj);
std::optional<ObjectBound> getObjectBound(const llvm::CallBase &Op);


/// LLVM-style type mangling ("v9f32", "p0", "i32", "bf16").
std::string mangleType(llvm::Type *Ty);

/// The intrinsic name for a call of \p Kind with type \p FTy: the IR name
/// followed by the mangled return type (unless token or void) and the
/// mangled types of all non-token parameters.
std::string getMangledName(OpKind Kind, llvm::FunctionType *FTy);

/// Declares (or finds) the intrinsic and gives it the op's attributes.
llvm::Function *getOrInsertOpDecl(llvm::Module &M, OpKind Kind,
                                  llvm::FunctionType *FTy);

/// Emits a call of \p Kind. \p ElementType, when given, is attached as the
/// elementtype() attribute of the pointer operand (load, store, memory-form
/// typeinfo).
llvm::CallInst *createOpCall(llvm::IRBuilderBase &B, OpKind Kind,
                             llvm::Type *RetTy,
                             llvm::ArrayRef<llvm::Value *> Args,
                             llvm::Type *ElementType = nullptr,
                             const llvm::Twine &Name = "");

/// The longest constant vector getConstantIntVector reads: far above any
/// dimension list (MaxRank entries), far below what would take long.
constexpr unsigned MaxConstantIntVectorElements = 1024;

/// A constant <n x i32> vector (or zeroinitializer) as integers; nullopt
/// for anything else, and for vectors of more than
/// MaxConstantIntVectorElements elements.
std::optional<llvm::SmallVector<int64_t, 4>>
getConstantIntVector(const llvm::Value *V);
/// reduce.max, .min, .add, .mul, .and, .or, .xor.
bool isReduce(OpKind Kind);
/// umma, smma, usmma, summa.
bool isMMA(OpKind Kind);
/// The short form's elementwise arithmetic (tlx_add .. tlx_min), which
/// tlx-recognize makes of C operator ops (IR/Elementwise.h).
bool isShortElementwise(OpKind Kind);
/// The one-operand elementwise ops: tanh, sigmoid, relu, sin .. ceil.
bool isUnaryElementwise(OpKind Kind);

/// Whether operand \p ArgNo of op \p Kind may be computed at run time
/// (docs/ops.md, "Run-time sizes"): the shape of typeinfo and load, the
/// strides of load and store, pad's low and high, reduce.*'s window and
/// strides. Everything else is a constant.
bool mayBeRuntimeOperand(OpKind Kind, unsigned ArgNo);
/// `broadcast(typeinfo(<1 x T> S, [1]))` of result type \p VecTy: the
/// scalar \p S in every element of a tensor that the broadcast's typeinfo
/// names, without a tensor-sized constant (a splat with no tensor of its
/// shape beside it, a scalar mma accumulator).
llvm::CallInst *createScalarBroadcast(llvm::IRBuilderBase &B, llvm::Value *S,
                                      llvm::Type *VecTy);
/// The scalar \p V (after C's default argument promotions) converted to the
/// element type \p Elem as C converts it: integers sign-extended or
/// truncated, integers to floating point signed, floating point rounded or
/// widened, or truncated to an integer.
llvm::Value *convertScalarToElement(llvm::IRBuilderBase &B, llvm::Value *V,
                                    llvm::Type *Elem);

/// Builds the <n x i32> constant for \p Values.
llvm::Constant *getI32Vector(llvm::LLVMContext &Ctx,
                             llvm::ArrayRef<int64_t> Values);

/// True for the element types TLX supports: i8, i16, i32, i64, half,
/// bfloat, float, double.
bool isSupportedElementType(const llvm::Type *Ty);
bool isAllowedElementType(ElementClass Class, const llvm::Type *Ty);
/// "i8".."f64", "bf16", "f16" for diagnostics and runtime names.
std::string elementTypeName(const llvm::Type *Ty);

} // namespace tlx

#endif // TLX_IR_TLXOPS_H
