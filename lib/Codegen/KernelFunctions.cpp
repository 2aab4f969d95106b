//===- KernelFunctions.cpp - Functions built beside their caller ----------===//

#include "Codegen/KernelFunctions.h"
#include "Codegen/Threads.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace tlx {

Function *createKernelFunction(Function &Caller, FunctionType *FT,
                               const Twine &Name, StringRef ExtraFeatures) {
  Function *F = Function::Create(FT, GlobalValue::InternalLinkage, Name,
                                 Caller.getParent());
  for (StringRef Attr : {"target-cpu", "tune-cpu", ParallelRegionAttr})
    if (Caller.hasFnAttribute(Attr))
      F->addFnAttr(Caller.getFnAttribute(Attr));
  std::string Features =
      Caller.getFnAttribute("target-features").getValueAsString().str();
  if (!ExtraFeatures.empty())
    Features += (Features.empty() ? "" : ",") + ExtraFeatures.str();
  if (!Features.empty())
    F->addFnAttr("target-features", Features);
  // A sanitized caller's kernels are checked too (-fsanitize=thread sees
  // the threads' shares of C, address the packing reads).
  for (Attribute::AttrKind Sanitizer :
       {Attribute::SanitizeAddress, Attribute::SanitizeThread,
        Attribute::SanitizeMemory, Attribute::SanitizeHWAddress})
    if (Caller.hasFnAttribute(Sanitizer))
      F->addFnAttr(Sanitizer);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::NoUnwind);
  return F;
}

/// The key of \p Kind's shared kernel for \p Caller's target.
static std::string sharedKernelKey(const Function &Caller, StringRef Kind) {
  std::string Key = Kind.str();
  for (StringRef Attr : {"target-cpu", "tune-cpu", "target-features"})
    Key += "|" + Caller.getFnAttribute(Attr).getValueAsString().str();
  return Key;
}

static constexpr const char *SharedKernelAttr = "tlx-shared-kernel";

Function *findSharedKernel(Function &Caller, StringRef Kind) {
  std::string Key = sharedKernelKey(Caller, Kind);
  for (Function &F : *Caller.getParent())
    if (F.getFnAttribute(SharedKernelAttr).getValueAsString() == Key)
      return &F;
  return nullptr;
}

void markSharedKernel(Function &Kernel, Function &Caller, StringRef Kind) {
  Kernel.addFnAttr(SharedKernelAttr, sharedKernelKey(Caller, Kind));
}

Function *createEnvKernel(Function &Caller, const Twine &Name,
                          StringRef ExtraFeatures) {
  LLVMContext &Ctx = Caller.getContext();
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {PointerType::get(Ctx, 0)},
                               false);
  Function *F = createKernelFunction(Caller, FT, Name, ExtraFeatures);
  F->getArg(0)->setName("env");
  ReturnInst::Create(Ctx, BasicBlock::Create(Ctx, "entry", F));
  return F;
}

Value *passCallerValues(Function &Kernel, unsigned EnvArg,
                        IRBuilderBase &CallerB) {
  SetVector<Value *> Captured;
  for (Instruction &Inst : instructions(Kernel))
    for (Value *V : Inst.operands()) {
      auto *VI = dyn_cast<Instruction>(V);
      auto *VA = dyn_cast<Argument>(V);
      if ((VI && VI->getFunction() != &Kernel) ||
          (VA && VA->getParent() != &Kernel))
        Captured.insert(V);
    }
  if (Captured.empty())
    return ConstantPointerNull::get(CallerB.getPtrTy());
  SmallVector<Type *, 8> Types;
  for (Value *V : Captured)
    Types.push_back(V->getType());
  auto *EnvTy = StructType::get(Kernel.getContext(), Types);
  Function *Caller = CallerB.GetInsertBlock()->getParent();
  AllocaInst *Slot;
  {
    IRBuilderBase::InsertPointGuard Guard(CallerB);
    CallerB.SetInsertPoint(&Caller->getEntryBlock(),
                           Caller->getEntryBlock().getFirstInsertionPt());
    Slot = CallerB.CreateAlloca(EnvTy, nullptr, "tlx.env");
  }
  IRBuilder<> KB(&Kernel.getEntryBlock(),
                 Kernel.getEntryBlock().getFirstInsertionPt());
  for (auto [Index, V] : enumerate(Captured)) {
    CallerB.CreateStore(V, CallerB.CreateStructGEP(EnvTy, Slot, Index));
    Value *Field = KB.CreateLoad(
        V->getType(), KB.CreateStructGEP(EnvTy, Kernel.getArg(EnvArg), Index));
    V->replaceUsesWithIf(Field, [&](Use &U) {
      auto *User = dyn_cast<Instruction>(U.getUser());
      return User && User->getFunction() == &Kernel;
    });
  }
  return Slot;
}

} // namespace tlx
