//===- Loops.cpp - Loops and ifs built at an IRBuilder --------------------===//

#include "Codegen/Loops.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace tlx {

void setLoopHint(Instruction &Back, LoopHint Hint) {
  LLVMContext &Ctx = Back.getContext();
  // A loop ID names itself first (LangRef, "llvm.loop").
  SmallVector<Metadata *, 4> Properties = {nullptr};
  auto Add = [&](StringRef Name, Constant *Value) {
    SmallVector<Metadata *, 2> Ops = {MDString::get(Ctx, Name)};
    if (Value)
      Ops.push_back(ConstantAsMetadata::get(Value));
    Properties.push_back(MDNode::get(Ctx, Ops));
  };
  if (Hint.NoUnroll)
    Add("llvm.loop.unroll.disable", nullptr);
  if (Hint.ScalableVF) {
    Add("llvm.loop.vectorize.width",
        ConstantInt::get(Type::getInt32Ty(Ctx), Hint.ScalableVF));
    Add("llvm.loop.vectorize.scalable.enable", ConstantInt::getTrue(Ctx));
    Add("llvm.loop.vectorize.predicate.enable", ConstantInt::getTrue(Ctx));
  }
  if (Properties.size() == 1)
    return;
  MDNode *LoopID = MDNode::getDistinct(Ctx, Properties);
  LoopID->replaceOperandWith(0, LoopID);
  Back.setMetadata(LLVMContext::MD_loop, LoopID);
}

SmallVector<Value *, 8> emitLoop(IRBuilderBase &B, Value *Begin, Value *End,
                                 Value *Step, const Twine &Name,
                                 ArrayRef<Value *> Inits, const LoopBody &Body,
                                 LoopHint Hint) {
  BasicBlock *Pre = B.GetInsertBlock();
  Function *F = Pre->getParent();
  LLVMContext &Ctx = F->getContext();

  // Split off everything after the insertion point into the exit block, or
  // start an empty exit block when the caller is still building this one.
  BasicBlock *Exit;
  if (Pre->getTerminator()) {
    Exit = Pre->splitBasicBlock(B.GetInsertPoint(), Name + ".exit");
    Pre->getTerminator()->eraseFromParent();
  } else {
    Exit = BasicBlock::Create(Ctx, Name + ".exit", F);
  }
  BasicBlock *Header = BasicBlock::Create(Ctx, Name + ".header", F, Exit);
  BasicBlock *BodyBB = BasicBlock::Create(Ctx, Name + ".body", F, Exit);

  B.SetInsertPoint(Pre);
  B.CreateBr(Header);

  // The header tests first, so a loop whose range is empty runs no body.
  B.SetInsertPoint(Header);
  PHINode *IV = B.CreatePHI(Begin->getType(), 2, Name + ".iv");
  IV->addIncoming(Begin, Pre);
  SmallVector<Value *, 8> Carried;
  for (Value *Init : Inits) {
    PHINode *Phi = B.CreatePHI(Init->getType(), 2, Name + ".carried");
    Phi->addIncoming(Init, Pre);
    Carried.push_back(Phi);
  }
  B.CreateCondBr(B.CreateICmpSLT(IV, End), BodyBB, Exit);

  B.SetInsertPoint(BodyBB);
  SmallVector<Value *, 8> Next = Body(B, IV, Carried);
  assert(Next.size() == Carried.size() && "one next value per carried value");
  Value *NextIV = B.CreateAdd(IV, Step, Name + ".next", /*HasNUW=*/true,
                              /*HasNSW=*/true);
  BasicBlock *Latch = B.GetInsertBlock();
  IV->addIncoming(NextIV, Latch);
  for (auto [Phi, V] : zip(Carried, Next))
    cast<PHINode>(Phi)->addIncoming(V, Latch);
  setLoopHint(*B.CreateBr(Header), Hint);

  B.SetInsertPoint(Exit, Exit->begin());
  return Carried;
}

void emitLoop(IRBuilderBase &B, Value *Begin, Value *End, Value *Step,
              const Twine &Name,
              function_ref<void(IRBuilderBase &, Value *)> Body,
              LoopHint Hint) {
  emitLoop(
      B, Begin, End, Step, Name, {},
      [&](IRBuilderBase &B, Value *IV, ArrayRef<Value *>) {
        Body(B, IV);
        return SmallVector<Value *, 8>();
      },
      Hint);
}

void emitIf(IRBuilderBase &B, Value *Cond, function_ref<void()> Then,
            function_ref<void()> Else) {
  BasicBlock *Pre = B.GetInsertBlock();
  Function *F = Pre->getParent();
  LLVMContext &Ctx = F->getContext();
  BasicBlock *Join;
  if (Pre->getTerminator()) {
    Join = Pre->splitBasicBlock(B.GetInsertPoint(), "gemm.if.end");
    Pre->getTerminator()->eraseFromParent();
  } else {
    Join = BasicBlock::Create(Ctx, "gemm.if.end", F);
  }
  BasicBlock *ThenBB = BasicBlock::Create(Ctx, "gemm.if.then", F, Join);
  BasicBlock *ElseBB =
      Else ? BasicBlock::Create(Ctx, "gemm.if.else", F, Join) : Join;
  B.SetInsertPoint(Pre);
  B.CreateCondBr(Cond, ThenBB, ElseBB);
  B.SetInsertPoint(ThenBB);
  Then();
  B.CreateBr(Join);
  if (Else) {
    B.SetInsertPoint(ElseBB);
    Else();
    B.CreateBr(Join);
  }
  B.SetInsertPoint(Join, Join->begin());
}

void emitIfFolded(IRBuilderBase &B, Value *Cond, function_ref<void()> Then,
                  function_ref<void()> Else) {
  if (auto *Known = dyn_cast<ConstantInt>(Cond)) {
    if (Known->isOne())
      Then();
    else if (Else)
      Else();
    return;
  }
  emitIf(B, Cond, Then, Else);
}

} // namespace tlx
