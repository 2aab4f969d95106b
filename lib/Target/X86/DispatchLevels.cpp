//===- DispatchLevels.cpp - x86's levels of run-time GEMM dispatch --------===//
//
// The x86-64 levels GemmDispatch.cpp emits GEMM versions for, as
// tlxrt_isa_level() numbers them (lib/Runtime/cpu_level.c): AVX2 + FMA
// (x86-64-v3), AVX-512 (x86-64-v4) and, for int8 and bf16 GEMMs only (the
// others gain nothing), AVX-512 with VNNI and BF16.
//
//===----------------------------------------------------------------------===//

#include "Gemm/GemmEmitterImpl.h"

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

#define TLX_X86_64_V3                                                          \
  "+avx,+avx2,+bmi,+bmi2,+cx16,+f16c,+fma,+lzcnt,+movbe,+popcnt,+sse3,"      \
  "+sse4.1,+sse4.2,+ssse3,+xsave"
#define TLX_X86_64_V4                                                          \
  TLX_X86_64_V3 ",+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512vl,+evex512"

/// VNNI and BF16 only change int8 and bf16 kernels.
bool hasDotProducts(const GemmDesc &G) {
  return G.A.Elem->isIntegerTy(8) || G.A.Elem->isBFloatTy();
}

const ISALevel X86Levels[] = {
    {1, "avx2", "avx2", TLX_X86_64_V3, nullptr},
    {2, "avx512", "avx512f", TLX_X86_64_V4, nullptr},
    {3, "avx512-vnni-bf16", "avx512vnni",
     TLX_X86_64_V4 ",+avx512vnni,+avx512bf16", hasDotProducts},
};

} // namespace

ArrayRef<ISALevel> x86DispatchLevels() { return X86Levels; }

} // namespace gemm
} // namespace tlx
