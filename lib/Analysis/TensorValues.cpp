//===- TensorValues.cpp - Tokens decoded once for the lowering ------------===//

#include "TensorValues.h"

#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace tlx {

/// Decodes \p Op's index-map parameters into \p Info.
static void decodeIndexMap(const CallBase &Op, TokenInfo &Info) {
  std::string Why;
  switch (Info.Kind) {
  case OpKind::Transpose:
    Info.LogicalTranspose = isLogicalTranspose(Op);
    break;
  case OpKind::ReshapeBlock:
    Info.Blocks = *getReshapeBlocks(Op, Why);
    break;
  case OpKind::Pad:
    Info.Pad = *getPadAmounts(Op, Why);
    break;
  case OpKind::Concat:
    Info.Axis = *getConcatAxis(Op, Why);
    break;
  default:
    break;
  }
}

static std::unique_ptr<TokenInfo> decode(const Value *Token) {
  std::optional<TensorValue> TV = getTensorValue(Token);
  if (!TV)
    return nullptr;
  auto Info = std::make_unique<TokenInfo>();
  Info->Type = TV->Type;
  if ((Info->Memory = getMemoryView(Token)))
    return Info;
  Info->Op = dyn_cast<CallBase>(TV->Data);
  std::optional<OpKind> Kind = Info->Op ? getOpKind(*Info->Op) : std::nullopt;
  if (!Kind)
    return Info; // vector data bufferization did not place: the caller asks
  Info->Kind = *Kind;
  for (const Value *Arg : Info->Op->args())
    if (Arg->getType()->isTokenTy()) {
      std::optional<TensorValue> In = getTensorValue(Arg);
      Info->OperandShapes.push_back(In ? In->Type.logicalShape() : Dims());
    }
  decodeIndexMap(*Info->Op, *Info);
  return Info;
}

const TokenInfo *TensorValues::get(const Value *Token) {
  auto It = Infos.find(Token);
  if (It == Infos.end())
    It = Infos.insert({Token, decode(Token)}).first;
  return It->second.get();
}

} // namespace tlx
