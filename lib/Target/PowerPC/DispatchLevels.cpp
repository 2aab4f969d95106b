//===- DispatchLevels.cpp - Power's levels of run-time GEMM dispatch ------===//
//
// ppc64le code built for POWER8 or POWER9 (clang's default is POWER8) gets
// a second version of each GEMM the matrix-multiply assist computes, for
// Power10: tlxrt_isa_level() returns 1 where the kernel reports MMA
// (AT_HWCAP2's PPC_FEATURE2_MMA; lib/Runtime/cpu_level.c). The version adds
// the ISA 3.1 vector features and MMA only - not prefixed or PC-relative
// code, which the rest of the program, built for the older CPU, does not
// use either.
//
//===----------------------------------------------------------------------===//

#include "Gemm/GemmEmitterImpl.h"

using namespace llvm;

namespace tlx {
namespace gemm {

ArrayRef<ISALevel> powerDispatchLevels() {
  static const ISALevel PowerLevels[] = {
      {1, "power10-mma", "mma", mmaTargetFeatures(), hasMMAKernel},
  };
  return PowerLevels;
}

} // namespace gemm
} // namespace tlx
