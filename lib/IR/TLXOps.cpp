//===- TLXOps.cpp - The TLX vocabulary: names, signatures, builder --------===//

#include "TLXOps.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

static const OpDesc OpTable[] = {
#define TLX_OP(Enum, IRName, CName, MinArgs, MaxArgs, Result, Memory,          \
               Elements, Signature)                                            \
  {OpKind::Enum,                                                               \
   IRName,                                                                     \
   CName,                                                                      \
   MinArgs,                                                                    \
   MaxArgs,                                                                    \
   ResultKind::Result,                                                         \
   MemoryKind::Memory,                                                         \
   ElementClass::Elements,                                                     \
   Signature},
#include "TLXOps.def"
};

ArrayRef<OpDesc> allOps() { return OpTable; }

const OpDesc &getOpDesc(OpKind Kind) {
  return OpTable[static_cast<unsigned>(Kind)];
}

StringRef OpDesc::shortName() const {
  if (IRName.empty()) // the short form's own: tensor_add_tlx_inferred
    return CName.drop_front(sizeof("tensor_") - 1)
        .drop_back(sizeof("_tlx_inferred") - 1);
  StringRef Name = IRName;
  if (!Name.consume_front("llvm.tensor."))
    Name.consume_front("llvm.");
  return Name;
}

std::optional<OpKind> matchIntrinsicName(StringRef Name) {
  const OpDesc *Best = nullptr;
  for (const OpDesc &D : OpTable) {
    if (D.IRName.empty() || !Name.starts_with(D.IRName))
      continue;
    StringRef Rest = Name.drop_front(D.IRName.size());
    if (!Rest.empty() && Rest.front() != '.')
      continue;
    if (!Best || D.IRName.size() > Best->IRName.size())
      Best = &D;
  }
  if (!Best)
    return std::nullopt;
  return Best->Kind;
}

std::optional<OpKind> matchCName(StringRef Name) {
  const OpDesc *Best = nullptr;
  for (const OpDesc &D : OpTable) {
    if (D.CName.empty() || !Name.starts_with(D.CName))
      continue;
    StringRef Rest = Name.drop_front(D.CName.size());
    if (!Rest.empty() && Rest.front() != '_' && !isDigit(Rest.front()))
      continue;
    if (!Best || D.CName.size() > Best->CName.size())
      Best = &D;
  }
  if (!Best)
    return std::nullopt;
  return Best->Kind;
}

std::optional<OpKind> getDummyKind(const CallBase &CB) {
  const auto *F =
      dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
  if (!F || !F->isDeclaration() || F->isIntrinsic())
    return std::nullopt;
  return matchCName(F->getName());
}

/// The ops that are LLVM instructions applied element by element.
static const std::pair<OpKind, unsigned> InstructionOps[] = {
    {OpKind::Add, Instruction::Add},         {OpKind::Sub, Instruction::Sub},
    {OpKind::Mul, Instruction::Mul},         {OpKind::SDiv, Instruction::SDiv},
    {OpKind::UDiv, Instruction::UDiv},       {OpKind::SRem, Instruction::SRem},
    {OpKind::URem, Instruction::URem},       {OpKind::Shl, Instruction::Shl},
    {OpKind::LShr, Instruction::LShr},       {OpKind::AShr, Instruction::AShr},
    {OpKind::And, Instruction::And},         {OpKind::Or, Instruction::Or},
    {OpKind::Xor, Instruction::Xor},         {OpKind::FAdd, Instruction::FAdd},
    {OpKind::FSub, Instruction::FSub},       {OpKind::FMul, Instruction::FMul},
    {OpKind::FDiv, Instruction::FDiv},       {OpKind::FRem, Instruction::FRem},
    {OpKind::FNeg, Instruction::FNeg},       {OpKind::ICmp, Instruction::ICmp},
    {OpKind::FCmp, Instruction::FCmp},       {OpKind::Select, Instruction::Select},
    {OpKind::Trunc, Instruction::Trunc},     {OpKind::ZExt, Instruction::ZExt},
    {OpKind::SExt, Instruction::SExt},       {OpKind::FPTrunc, Instruction::FPTrunc},
    {OpKind::FPExt, Instruction::FPExt},     {OpKind::FPToUI, Instruction::FPToUI},
    {OpKind::FPToSI, Instruction::FPToSI},   {OpKind::UIToFP, Instruction::UIToFP},
    {OpKind::SIToFP, Instruction::SIToFP},   {OpKind::BitCast, Instruction::BitCast},
    {OpKind::InsertElement, Instruction::InsertElement},
};

std::optional<unsigned> getInstructionOpcode(OpKind Kind) {
  for (auto [K, Opcode] : InstructionOps)
    if (K == Kind)
      return Opcode;
  return std::nullopt;
}

std::optional<OpKind> getInstructionOp(unsigned Opcode) {
  for (auto [K, Op] : InstructionOps)
    if (Op == Opcode)
      return K;
  return std::nullopt;
}

std::optional<OpKind> getVectorIntrinsicOp(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return std::nullopt;
  switch (II->getIntrinsicID()) {
  case Intrinsic::fmuladd: // expanded to fmul + fadd first
    return OpKind::FAdd;
  case Intrinsic::fabs:
    return OpKind::Fabs;
  case Intrinsic::sqrt:
    return OpKind::Sqrt;
  case Intrinsic::floor:
    return OpKind::Floor;
  case Intrinsic::ceil:
    return OpKind::Ceil;
  case Intrinsic::sin:
    return OpKind::Sin;
  case Intrinsic::cos:
    return OpKind::Cos;
  case Intrinsic::exp:
    return OpKind::Exp;
  case Intrinsic::exp2:
    return OpKind::Exp2;
  case Intrinsic::log:
    return OpKind::Log;
  case Intrinsic::log2:
    return OpKind::Log2;
  case Intrinsic::log10:
    return OpKind::Log10;
  default:
    return std::nullopt;
  }
}

bool isCVectorOperator(const Instruction &I) {
  if (!isa<FixedVectorType>(I.getType()))
    return false;
  if (getVectorIntrinsicOp(I))
    return true;
  std::optional<OpKind> K = getInstructionOp(I.getOpcode());
  return K && isCOperatorOp(*K);
}

static bool isComputedThroughOperators(
    const Value *V, function_ref<std::optional<bool>(const Value *)> IsSource,
    SmallPtrSetImpl<const Value *> &Visited) {
  if (!Visited.insert(V).second)
    return false;
  if (std::optional<bool> Decided = IsSource(V))
    return *Decided;
  const auto *I = dyn_cast<Instruction>(V);
  return I && isCVectorOperator(*I) &&
         any_of(I->operands(), [&](const Value *Op) {
           return isComputedThroughOperators(Op, IsSource, Visited);
         });
}

bool isComputedThroughOperators(
    const Value *V, function_ref<std::optional<bool>(const Value *)> IsSource) {
  SmallPtrSet<const Value *, 8> Visited;
  return isComputedThroughOperators(V, IsSource, Visited);
}

/// The C spelling of the operator an op is made from.
static StringRef getOperatorSpelling(OpKind Kind) {
  switch (Kind) {
  case OpKind::Add:
  case OpKind::FAdd:
    return "+";
  case OpKind::Sub:
  case OpKind::FSub:
  case OpKind::FNeg:
    return "-";
  case OpKind::Mul:
  case OpKind::FMul:
    return "*";
  case OpKind::SDiv:
  case OpKind::UDiv:
  case OpKind::FDiv:
    return "/";
  case OpKind::SRem:
  case OpKind::URem:
  case OpKind::FRem:
    return "%";
  case OpKind::Shl:
    return "<<";
  case OpKind::LShr:
  case OpKind::AShr:
    return ">>";
  case OpKind::And:
    return "&";
  case OpKind::Or:
    return "|";
  case OpKind::Xor:
    return "^";
  case OpKind::Select:
    return "?:";
  case OpKind::InsertElement:
    return "[]=";
  default:
    return "";
  }
}

std::string getUserOpName(OpKind Kind) {
  const OpDesc &D = getOpDesc(Kind);
  if (!D.CName.empty())
    return ("'" + D.CName + "'").str();
  if (Kind == OpKind::ICmp || Kind == OpKind::FCmp)
    return "a comparison";
  StringRef Op = getOperatorSpelling(Kind);
  if (!Op.empty())
    return ("operator '" + Op + "'").str();
  return "__builtin_convertvector"; // the conversions
}

std::string getSpelledName(StringRef Callee) {
  StringRef Name = Callee;
  if (Name.consume_back("_tlx_inferred") && Name.consume_front("tensor_"))
    return ("tlx_" + Name).str();
  size_t Macro = Callee.find("_TLX_");
  if (Callee.starts_with("tensor_") && Macro != StringRef::npos)
    return Callee.drop_front(Macro + 1).str();
  return Callee.str();
}

static constexpr const char *SpellingKind = "tlx.spelling";

std::string getUserOpName(const CallBase &Op) {
  if (MDNode *N = Op.getMetadata(SpellingKind))
    if (auto *S = dyn_cast<MDString>(N->getOperand(0)))
      return ("'" + S->getString() + "'").str();
  std::optional<OpKind> Kind = getOpKind(Op);
  return Kind ? getUserOpName(*Kind)
              : ("'" + Op.getCalledOperand()->stripPointerCasts()->getName() +
                 "'")
                    .str();
}

void setUserSpelling(CallBase &Op, StringRef Name) {
  LLVMContext &Ctx = Op.getContext();
  Op.setMetadata(SpellingKind, MDNode::get(Ctx, MDString::get(Ctx, Name)));
}

static constexpr const char *ObjectKind = "tlx.object";

/// A string constant's text: a global of a C string, as clang emits
/// literals.
static std::optional<StringRef> readCString(const Value *V) {
  auto *GV = dyn_cast<GlobalVariable>(V->stripPointerCasts());
  auto *Data = GV && GV->hasDefinitiveInitializer()
                   ? dyn_cast<ConstantDataSequential>(GV->getInitializer())
                   : nullptr;
  if (!Data || !Data->isCString())
    return std::nullopt;
  return Data->getAsCString();
}

std::optional<ObjectBound> readKnownObjectCall(const Value *V) {
  const auto *CB = dyn_cast<CallBase>(V);
  // (Called through tlx.h's unprototyped declaration: the call's type is
  // not the function's, so not getCalledFunction().)
  const auto *Fn = CB ? dyn_cast<Function>(
                            CB->getCalledOperand()->stripPointerCasts())
                      : nullptr;
  if (!Fn || Fn->getName() != KnownObjectFunction || CB->arg_size() != 6)
    return std::nullopt;
  auto *Size = dyn_cast<ConstantInt>(CB->getArgOperand(1));
  auto *Offset = dyn_cast<ConstantInt>(CB->getArgOperand(2));
  auto *AtLeast = dyn_cast<ConstantInt>(CB->getArgOperand(3));
  std::optional<StringRef> Name = readCString(CB->getArgOperand(4));
  std::optional<StringRef> Origin = readCString(CB->getArgOperand(5));
  if (!Size || !Offset || !AtLeast || !Name || !Origin)
    return std::nullopt;
  return ObjectBound{Size->getSExtValue(), Offset->getSExtValue(),
                     !AtLeast->isZero(), Name->str(), Origin->str()};
}

void setObjectBound(CallBase &Op, const ObjectBound &Obj) {
  LLVMContext &Ctx = Op.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Metadata *Fields[] = {
      ConstantAsMetadata::get(ConstantInt::get(I64, Obj.SizeBytes)),
      ConstantAsMetadata::get(ConstantInt::get(I64, Obj.OffsetBytes)),
      ConstantAsMetadata::get(ConstantInt::get(I64, Obj.AtLeast)),
      MDString::get(Ctx, Obj.Name), MDString::get(Ctx, Obj.Origin)};
  Op.setMetadata(ObjectKind, MDNode::get(Ctx, Fields));
}

std::optional<ObjectBound> getObjectBound(const CallBase &Op) {
  MDNode *N = Op.getMetadata(ObjectKind);
  if (!N || N->getNumOperands() != 5)
    return std::nullopt;
  auto Int = [&](unsigned I) {
    return mdconst::extract<ConstantInt>(N->getOperand(I))->getSExtValue();
  };
  auto Str = [&](unsigned I) {
    return cast<MDString>(N->getOperand(I))->getString().str();
  };
  return ObjectBound{Int(0), Int(1), Int(2) != 0, Str(3), Str(4)};
}

bool isCOperatorOp(OpKind Kind) {
  return getInstructionOpcode(Kind) && Kind != OpKind::InsertElement;
}

bool isTLXIntrinsic(const Function &F) {
  return F.getName().starts_with("llvm.tensor.") ||
                 F.getName().starts_with("llvm.vector.totensor")
             ? matchIntrinsicName(F.getName()).has_value()
             : false;
}

std::optional<OpKind> getOpKind(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F || !isTLXIntrinsic(*F))
    return std::nullopt;
  return matchIntrinsicName(F->getName());
}

std::optional<OpKind> getOpKind(const Value *V) {
  if (const auto *Call = dyn_cast_or_null<CallBase>(V))
    return getOpKind(*Call);
  return std::nullopt;
}

std::string mangleType(Type *Ty) {
  if (auto *VT = dyn_cast<FixedVectorType>(Ty))
    return "v" + std::to_string(VT->getNumElements()) +
           mangleType(VT->getElementType());
  if (auto *PT = dyn_cast<PointerType>(Ty))
    return "p" + std::to_string(PT->getAddressSpace());
  if (auto *IT = dyn_cast<IntegerType>(Ty))
    return "i" + std::to_string(IT->getBitWidth());
  if (Ty->isHalfTy())
    return "f16";
  if (Ty->isBFloatTy())
    return "bf16";
  if (Ty->isFloatTy())
    return "f32";
  if (Ty->isDoubleTy())
    return "f64";
  if (Ty->isTokenTy())
    return "token";
  if (Ty->isVoidTy())
    return "isVoid";
  std::string Str;
  raw_string_ostream OS(Str);
  Ty->print(OS);
  return OS.str();
}

std::string getMangledName(OpKind Kind, FunctionType *FTy) {
  std::string Name = getOpDesc(Kind).IRName.str();
  Type *Ret = FTy->getReturnType();
  if (!Ret->isTokenTy() && !Ret->isVoidTy())
    Name += "." + mangleType(Ret);
  for (Type *Param : FTy->params())
    if (!Param->isTokenTy())
      Name += "." + mangleType(Param);
  return Name;
}

static void addOpAttributes(Function &F, const OpDesc &D) {
  F.setDoesNotThrow();
  F.addFnAttr(Attribute::WillReturn);
  F.addFnAttr(Attribute::NoSync);
  F.addFnAttr(Attribute::NoFree);
  switch (D.Memory) {
  case MemoryKind::None:
    F.setMemoryEffects(MemoryEffects::none());
    F.addFnAttr(Attribute::Speculatable);
    break;
  case MemoryKind::ReadArg:
    F.setMemoryEffects(MemoryEffects::argMemOnly(ModRefInfo::Ref));
    break;
  case MemoryKind::WriteArg:
    F.setMemoryEffects(MemoryEffects::argMemOnly(ModRefInfo::Mod));
    break;
  }
}

Function *getOrInsertOpDecl(Module &M, OpKind Kind, FunctionType *FTy) {
  std::string Name = getMangledName(Kind, FTy);
  if (Function *F = M.getFunction(Name))
    if (F->getFunctionType() == FTy)
      return F;
  FunctionCallee Callee = M.getOrInsertFunction(Name, FTy);
  auto *F = cast<Function>(Callee.getCallee());
  addOpAttributes(*F, getOpDesc(Kind));
  return F;
}

CallInst *createOpCall(IRBuilderBase &B, OpKind Kind, Type *RetTy,
                       ArrayRef<Value *> Args, Type *ElementType,
                       const Twine &Name) {
  SmallVector<Type *, 6> ParamTys;
  for (Value *Arg : Args)
    ParamTys.push_back(Arg->getType());
  auto *FTy = FunctionType::get(RetTy, ParamTys, /*isVarArg=*/false);
  Module &M = *B.GetInsertBlock()->getModule();
  Function *F = getOrInsertOpDecl(M, Kind, FTy);
  CallInst *Call = B.CreateCall(F, Args, RetTy->isVoidTy() ? "" : Name);
  if (ElementType)
    for (unsigned I = 0; I < Args.size(); ++I)
      if (Args[I]->getType()->isPointerTy())
        Call->addParamAttr(I,
                           Attribute::get(B.getContext(),
                                          Attribute::ElementType, ElementType));
  return Call;
}

std::optional<SmallVector<int64_t, 4>> getConstantIntVector(const Value *V) {
  const auto *C = dyn_cast_or_null<Constant>(V);
  auto *VT = C ? dyn_cast<FixedVectorType>(C->getType()) : nullptr;
  // Dimension lists have a few elements; a huge constant (fuzzed IR) is
  // not read element by element.
  if (!VT || !VT->getElementType()->isIntegerTy() ||
      VT->getNumElements() > MaxConstantIntVectorElements)
    return std::nullopt;
  SmallVector<int64_t, 4> Values;
  for (unsigned I = 0, E = VT->getNumElements(); I != E; ++I) {
    const auto *Elt = dyn_cast_or_null<ConstantInt>(C->getAggregateElement(I));
    if (!Elt)
      return std::nullopt;
    Values.push_back(Elt->getSExtValue());
  }
  return Values;
}

bool isReduce(OpKind Kind) {
  switch (Kind) {
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceAdd:
  case OpKind::ReduceMul:
  case OpKind::ReduceAnd:
  case OpKind::ReduceOr:
  case OpKind::ReduceXor:
    return true;
  default:
    return false;
  }
}

Value *convertScalarToElement(IRBuilderBase &B, Value *V, Type *Elem) {
  Type *Ty = V->getType();
  if (Ty == Elem)
    return V;
  if (Ty->isIntegerTy() && Elem->isIntegerTy())
    return B.CreateSExtOrTrunc(V, Elem);
  if (Ty->isIntegerTy() && Elem->isFloatingPointTy())
    return B.CreateSIToFP(V, Elem);
  if (Ty->isFloatingPointTy() && Elem->isFloatingPointTy())
    return B.CreateFPCast(V, Elem);
  if (Ty->isFloatingPointTy() && Elem->isIntegerTy())
    return B.CreateFPToSI(V, Elem);
  return V;
}

CallInst *createScalarBroadcast(IRBuilderBase &B, Value *S, Type *VecTy) {
  LLVMContext &Ctx = B.getContext();
  Value *One = B.CreateInsertElement(
      PoisonValue::get(FixedVectorType::get(S->getType(), 1)), S,
      B.getInt64(0));
  CallInst *OneTI =
      createOpCall(B, OpKind::TypeInfo, Type::getTokenTy(Ctx),
                   {One, getI32Vector(Ctx, {1}), getI32Vector(Ctx, {0}),
                    getI32Vector(Ctx, {0})});
  return createOpCall(B, OpKind::Broadcast, VecTy, {OneTI});
}

bool isMMA(OpKind Kind) {
  return Kind == OpKind::UMMA || Kind == OpKind::SMMA ||
         Kind == OpKind::USMMA || Kind == OpKind::SUMMA;
}

bool isShortElementwise(OpKind Kind) {
  switch (Kind) {
  case OpKind::ShortAdd:
  case OpKind::ShortSub:
  case OpKind::ShortMul:
  case OpKind::ShortDiv:
  case OpKind::ShortMax:
  case OpKind::ShortMin:
    return true;
  default:
    return false;
  }
}

bool isUnaryElementwise(OpKind Kind) {
  switch (Kind) {
  case OpKind::Tanh:
  case OpKind::Sigmoid:
  case OpKind::Relu:
  case OpKind::Sin:
  case OpKind::Cos:
  case OpKind::Exp:
  case OpKind::Exp2:
  case OpKind::Log:
  case OpKind::Log2:
  case OpKind::Log10:
  case OpKind::Sqrt:
  case OpKind::Fabs:
  case OpKind::Floor:
  case OpKind::Ceil:
    return true;
  default:
    return false;
  }
}

bool mayBeRuntimeOperand(OpKind Kind, unsigned ArgNo) {
  switch (Kind) {
  case OpKind::TypeInfo:
  case OpKind::ToTensor: // the merge of run-time-sized tensors
    return ArgNo == 1;
  case OpKind::Load:
    return ArgNo == 1 || ArgNo == 4;
  case OpKind::Store:
    return ArgNo == 2;
  case OpKind::Pad: // low, high
    return ArgNo == 1 || ArgNo == 2;
  default:
    return isReduce(Kind) && (ArgNo == 1 || ArgNo == 2); // window, strides
  }
}

Constant *getI32Vector(LLVMContext &Ctx, ArrayRef<int64_t> Values) {
  SmallVector<uint32_t, 8> Elts(Values.begin(), Values.end());
  return ConstantDataVector::get(Ctx, Elts);
}

bool isSupportedElementType(const Type *Ty) {
  if (const auto *IT = dyn_cast<IntegerType>(Ty)) {
    unsigned W = IT->getBitWidth();
    return W == 8 || W == 16 || W == 32 || W == 64;
  }
  return Ty->isHalfTy() || Ty->isBFloatTy() || Ty->isFloatTy() ||
         Ty->isDoubleTy();
}

bool isAllowedElementType(ElementClass Class, const Type *Ty) {
  if (!isSupportedElementType(Ty))
    return false;
  switch (Class) {
  case ElementClass::Any:
    return true;
  case ElementClass::Float:
    return Ty->isFloatingPointTy();
  case ElementClass::Int:
    return Ty->isIntegerTy();
  }
  return false;
}

std::string elementTypeName(const Type *Ty) {
  return mangleType(const_cast<Type *>(Ty));
}

} // namespace tlx
