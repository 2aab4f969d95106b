//===- VectorDots.cpp - x86's dot products in the vector GEMM driver ------===//
//
// What x86's vector extensions add to the vector GEMM driver
// (lib/Gemm/GemmVector.cpp), each a k group per i32 or f32 lane:
//   vpdpbusd  u8/s8 x s8 -> i32, 4 k (avx512vnni on zmm, avxvnni on ymm:
//             the VEX form LLVM selects for the same intrinsic). It
//             multiplies unsigned bytes by signed ones, so signed A is
//             packed with its sign bit flipped and the driver compensates
//             (VectorDot::BiasA); B must be signed.
//   vpmaddwd  every integer pair that fits i16 (u8 x u8, s8 x u8, s16, and
//             all int8 without VNNI), 2 k: operands widened to i16 while
//             packed, products summed into i32 and added to the
//             accumulator (sse2 xmm, avx2 ymm, avx512bw zmm); exact, unlike
//             vpmaddubsw, which saturates. With VNNI the add is fused:
//             vpdpwssd (wrapping, as the add; not vpdpwssds).
//   vdpbf16ps bf16 x bf16 -> f32, 2 k (avx512bf16, zmm).
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

} // namespace

bool chooseX86Dot(const GemmDesc &G, const Function &F, unsigned Bits,
                  VectorDot &Dot) {
  Type *AT = G.A.Elem, *BT = G.B.Elem, *CT = G.C.Elem;
  bool VNNI = (Bits == 512 && hasTargetFeature(F, "avx512vnni")) ||
              (Bits == 256 && hasTargetFeature(F, "avxvnni"));
  bool PMADDWD = (Bits == 512 && hasTargetFeature(F, "avx512bw")) ||
                 (Bits == 256 && hasTargetFeature(F, "avx2")) ||
                 (Bits == 128 && hasTargetFeature(F, "sse2"));
  if (VNNI && CT->isIntegerTy(32) && AT->isIntegerTy(8) && BT->isIntegerTy(8) &&
      G.B.IsSigned) {
    Dot.BiasA = G.A.IsSigned;
    use(Dot,
        Bits == 512 ? Intrinsic::x86_avx512_vpdpbusd_512
                    : Intrinsic::x86_avx512_vpdpbusd_256,
        AT, 4,
        intTypesName(G) + (Dot.BiasA ? " vpdpbusd(+128 bias)" : " vpdpbusd"));
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
      hasTargetFeature(F, "avx512bf16")) {
    use(Dot, Intrinsic::x86_avx512bf16_dpbf16ps_512, AT, 2, "bf16 vdpbf16ps");
    return true;
  }
  return false;
}

} // namespace gemm
} // namespace tlx
