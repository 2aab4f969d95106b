//===- GemmAMX.cpp - GEMM on Intel AMX tiles ------------------------------===//
#include "GemmEmitterImpl.h"

using namespace llvm;

namespace tlx {
namespace gemm {

bool emitAMXGemm(IRBuilderBase &B, const GemmDesc &G, GemmPlan &Plan,
                 std::string &Why) {
  Why = "the AMX kernels are not implemented yet";
  return false;
}

} // namespace gemm
} // namespace tlx
