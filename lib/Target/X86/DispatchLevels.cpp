//===- DispatchLevels.cpp - x86's levels of run-time GEMM dispatch --------===//
//
// The x86-64 levels GemmDispatch.cpp emits GEMM versions for, as
// tlxrt_isa_level() numbers them (lib/Runtime/cpu_level.c): AVX2 + FMA
// (x86-64-v3), AVX-512 (x86-64-v4), AVX-512 with VNNI and BF16 for int8
// GEMMs (vpdpbusd), and the same on a CPU that issues vdpbf16ps at the
// FMA's rate for bf16 GEMMs (the others gain nothing from either). On
// Sapphire and Emerald Rapids vdpbf16ps runs at half that rate and only
// matches the FMA kernel's k per cycle (VectorDots.cpp, halfRateBF16Dot):
// there tlxrt_isa_level() stops at 3 and bf16 GEMMs run the AVX-512 FMA
// version.
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

/// VNNI only changes int8 kernels, BF16 bf16 ones.
bool hasInt8Dots(const GemmDesc &G) { return G.A.Elem->isIntegerTy(8); }
bool hasBF16Dots(const GemmDesc &G) { return G.A.Elem->isBFloatTy(); }

const ISALevel X86Levels[] = {
    {1, "avx2", "avx2", TLX_X86_64_V3, nullptr},
    {2, "avx512", "avx512f", TLX_X86_64_V4, nullptr},
    {3, "avx512-vnni", "avx512vnni", TLX_X86_64_V4 ",+avx512vnni,+avx512bf16",
     hasInt8Dots},
    {4, "avx512-bf16", "avx512bf16", TLX_X86_64_V4 ",+avx512vnni,+avx512bf16",
     hasBF16Dots},
};

} // namespace

ArrayRef<ISALevel> x86DispatchLevels() { return X86Levels; }

} // namespace gemm
} // namespace tlx
