//===- VectorDots.cpp - x86's dot products in the vector GEMM driver ------===//
//
// What x86's vector extensions add to the vector GEMM driver
// (lib/Gemm/GemmVector.cpp), each a k group per i32 or f32 lane:
//   vpdpbusd  u8/s8 x s8 -> i32, 4 k (avx512vnni on zmm, avxvnni on ymm:
//             the VEX form LLVM selects for the same intrinsic). It
//             multiplies unsigned bytes by signed ones, so signed A gets
//             its sign bit flipped (while packed, or in the broadcasts of
//             A read in place) and the driver compensates
//             (VectorDot::BiasA); B must be signed.
//   vpmaddwd  every integer pair that fits i16 (u8 x u8, s8 x u8, s16, and
//             all int8 without VNNI), 2 k: operands widened to i16 while
//             packed, products summed into i32 and added to the
//             accumulator (sse2 xmm, avx2 ymm, avx512bw zmm); exact, unlike
//             vpmaddubsw, which saturates. With VNNI the add is fused:
//             vpdpwssd (wrapping, as the add; not vpdpwssds).
//   vdpbf16ps bf16 x bf16 -> f32, 2 k (avx512bf16, zmm), but not on the
//             CPUs that issue it at half the FMA's rate (halfRateBF16Dot).
// Register blocks: the driver's 14 rows x 2 vectors, but 6 x 4 for zmm
// vpdpbusd tuned for AMD Zen 5 (-march or -mtune=znver5;
// preferredBlockVectors).
// The multiply-add kernels (vfmadd, vpmulld + vpaddd) are the driver's.
//
//===----------------------------------------------------------------------===//

#include "Gemm/GemmEmitterImpl.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicsX86.h"

using namespace llvm;

namespace tlx {
namespace gemm {

namespace {

void use(VectorDot &Dot, Intrinsic::ID ID, Type *PackT, unsigned KG,
         const std::string &Name) {
  Dot.ID = ID;
  Dot.Overloads = VectorDot::Overload::None;
  Dot.PackT = PackT;
  Dot.KG = KG;
  Dot.Name = Name;
}

/// The CPU \p F is tuned for: -mtune's, else -march's.
StringRef tunedCPU(const Function &F) {
  Attribute Tune = F.getFnAttribute("tune-cpu");
  return Tune.isValid() ? Tune.getValueAsString()
                        : F.getFnAttribute("target-cpu").getValueAsString();
}

/// Vectors of B per register block for \p F's CPU (VectorDot::BlockVectors).
/// Zen 5 (full-width 512-bit datapath) runs zmm vpdpbusd faster as 6 rows x
/// 4 vectors than as 14 x 2: one thread, -march=znver5, GOP/s 14x2 -> 6x4:
/// s8s8s32 1024x1024x64 501 -> 896 (C written at half the cost: 4 full
/// cache lines per row instead of 2), 64x1024x1024 771 -> 866, 256^3 941 ->
/// 973, 64^3 609 -> 689, 1024^3 and 2048^3 equal; u8s8s32 the same way; the
/// s8 dense layers 1.00-1.15x. (f32 FMA and bf16 gained on square GEMMs but
/// lost 4-9% on convolutions and bf16 64x1024x1024, so they keep 14 x 2.)
/// Zen 4 and Intel's cores were measured with 14 x 2 only.
unsigned preferredBlockVectors(const Function &F, unsigned Bits) {
  return Bits == 512 && tunedCPU(F) == "znver5" ? 4 : 0;
}

/// Whether \p F's CPU issues zmm vdpbf16ps at half the multiply-add's rate,
/// so that its 2 k per lane only match vfmadd231ps's 1 (Intel's Sapphire
/// and Emerald Rapids cores; Zen 4/5 run it at the FMA's rate, twice the
/// f32 work). There bf16 GEMMs take the multiply-add kernel on f32, the
/// operands converted while they are packed (exactly). Measured on an
/// Emerald Rapids, one core (bench/peak.c: vdpbf16ps 85 GFLOP/s,
/// vfmadd231ps 174), bf16 GFLOP/s vdpbf16ps -> FMA: 64^3 80 -> 93, 256^3
/// 84 -> 148, 1024^3 85 -> 155, 64 x 1024 x 1024 79 -> 139 (oneDNN's
/// vdpbf16ps matmul: 83-89). Other Intel cores with AVX512-BF16 (Cooper
/// Lake, Granite Rapids) are not measured and keep vdpbf16ps.
bool halfRateBF16Dot(const Function &F) {
  StringRef CPU = tunedCPU(F);
  return CPU == "sapphirerapids" || CPU == "emeraldrapids";
}

} // namespace

/// LLVM's x86 cost model reports a 256 KiB L2 for every CPU; Intel's
/// Sapphire, Emerald and Granite Rapids cores have 2 MiB. With it the f32
/// GEMM's A block (half of L2) takes 1022 rows instead of 504, so 512^3 is
/// one A block rather than 504 + 8 rows: 159 -> 162 GFLOP/s on an Emerald
/// Rapids core (1024^3 +1%, 2048^3 equal).
uint64_t x86L2CacheBytes(const Function &F) {
  StringRef CPU = tunedCPU(F);
  if (CPU == "sapphirerapids" || CPU == "emeraldrapids" ||
      CPU == "graniterapids" || CPU == "graniterapids-d")
    return 2 << 20;
  return 0;
}

bool chooseX86Dot(const GemmDesc &G, const Function &F, unsigned Bits,
                  VectorDot &Dot, bool AllowBias) {
  Type *AT = G.A.Elem, *BT = G.B.Elem, *CT = G.C.Elem;
  bool VNNI = (Bits == 512 && hasTargetFeature(F, "avx512vnni")) ||
              (Bits == 256 && hasTargetFeature(F, "avxvnni"));
  bool PMADDWD = (Bits == 512 && hasTargetFeature(F, "avx512bw")) ||
                 (Bits == 256 && hasTargetFeature(F, "avx2")) ||
                 (Bits == 128 && hasTargetFeature(F, "sse2"));
  if (VNNI && CT->isIntegerTy(32) && AT->isIntegerTy(8) && BT->isIntegerTy(8) &&
      G.B.IsSigned && (AllowBias || !G.A.IsSigned)) {
    Dot.BiasA = G.A.IsSigned;
    use(Dot,
        Bits == 512 ? Intrinsic::x86_avx512_vpdpbusd_512
                    : Intrinsic::x86_avx512_vpdpbusd_256,
        AT, 4,
        intTypesName(G) + (Dot.BiasA ? " vpdpbusd(+128 bias)" : " vpdpbusd"));
    Dot.BlockVectors = preferredBlockVectors(F, Bits);
    return true;
  }
  if (PMADDWD && CT->isIntegerTy(32) && fitsI16(G.A) && fitsI16(G.B)) {
    Type *I16 = Type::getInt16Ty(CT->getContext());
    Dot.KBlockFillsL1 = true;
    if (VNNI) {
      use(Dot,
          Bits == 512 ? Intrinsic::x86_avx512_vpdpwssd_512
                      : Intrinsic::x86_avx512_vpdpwssd_256,
          I16, 2, intTypesName(G) + " vpdpwssd");
      return true;
    }
    use(Dot,
        Bits == 512   ? Intrinsic::x86_avx512_pmaddw_d_512
        : Bits == 256 ? Intrinsic::x86_avx2_pmadd_wd
                      : Intrinsic::x86_sse2_pmadd_wd,
        I16, 2, intTypesName(G) + " vpmaddwd");
    Dot.AddsProducts = true;
    // Two k groups per loop iteration: the loop's own instructions
    // (counter, C and A prefetches) next to 2 x 12 vector ops per group;
    // 1024^3 s8s8 on AVX2: +1-2%.
    Dot.KUnroll = 2;
    return true;
  }
  if (Bits == 512 && CT->isFloatTy() && AT->isBFloatTy() && BT->isBFloatTy() &&
      hasTargetFeature(F, "avx512bf16") && !halfRateBF16Dot(F)) {
    use(Dot, Intrinsic::x86_avx512bf16_dpbf16ps_512, AT, 2, "bf16 vdpbf16ps");
    return true;
  }
  return false;
}

} // namespace gemm
} // namespace tlx
