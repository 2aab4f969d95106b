// Compiler support routines for bf16 and f16 that programs using TLX need
// but Debian 12's libgcc (GCC 12) lacks.
//
// LLVM 19's x86 backend, without AVX512-BF16, converts float to bfloat by a
// call to __truncsfbf2 - for example when a <N x bfloat> vector value is
// passed through registers, with or without TLX. compiler-rt defines it,
// libgcc 12 does not, so `clang-19 -fplugin=libtlx.so x.c -ltlxrt` failed
// to link. RISC-V without Zfh/Zfbfmin converts every half-precision value
// through calls - __extendhfsf2, __truncsfhf2, __truncsfbf2 - and libgcc
// 12 for riscv64 has none of them. The definitions are weak so
// compiler-rt's win where it is linked too; they are in their own file so
// a static link pulls in nothing else.
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__) || defined(__riscv)

// On x86, __bf16 and _Float16 are both passed and returned in the low 16
// bits of an SSE register, so GCC 12 (no __bf16 on x86) can return one as
// the other.
#if defined(__clang__) || defined(__riscv)
typedef __bf16 tlxrt_bf16_abi;
#else
typedef _Float16 tlxrt_bf16_abi;
#endif

tlxrt_bf16_abi __truncsfbf2(float value);

// Round to nearest even; NaNs stay NaNs (quieted, sign and top payload
// bits kept), as compiler-rt does.
__attribute__((weak)) tlxrt_bf16_abi __truncsfbf2(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  uint16_t rounded;
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    rounded = (uint16_t)((bits >> 16) | 0x40u);
  else
    rounded = (uint16_t)((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
  tlxrt_bf16_abi result;
  memcpy(&result, &rounded, sizeof result);
  return result;
}

#endif

#if defined(__riscv)

float __extendhfsf2(_Float16 value);
_Float16 __truncsfhf2(float value);

// Exact: every f16 is a float.
__attribute__((weak)) float __extendhfsf2(_Float16 value) {
  uint16_t h;
  memcpy(&h, &value, sizeof h);
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  float result;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float.
    result = (float)mantissa * 0x1p-24f;
    uint32_t bits;
    memcpy(&bits, &result, sizeof bits);
    bits |= sign;
    memcpy(&result, &bits, sizeof bits);
    return result;
  }
  uint32_t bits = exponent == 0x1fu
                      ? sign | 0x7f800000u | mantissa << 13 // inf, NaN
                      : sign | (exponent + 112u) << 23 | mantissa << 13;
  memcpy(&result, &bits, sizeof bits);
  return result;
}

// Round to nearest even, with f16's subnormals; overflow gives infinity;
// NaNs stay NaNs (quieted, sign and top payload bits kept).
__attribute__((weak)) _Float16 __truncsfhf2(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof bits);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & 0x7fffffffu;
  uint16_t h;
  if (magnitude > 0x7f800000u) {
    h = (uint16_t)(sign | 0x7e00u | ((magnitude >> 13) & 0x1ffu));
  } else if (magnitude >= 0x477ff000u) {
    h = sign | 0x7c00u; // 65520 and up round to infinity
  } else if (magnitude >= 0x38800000u) {
    uint32_t rebiased = magnitude - (112u << 23); // 2^-14 and up: normal
    h = (uint16_t)(sign |
                   ((rebiased + 0xfffu + ((rebiased >> 13) & 1u)) >> 13));
  } else {
    // An f16 subnormal (units of 2^-24) or zero.
    unsigned shift = 126u - (magnitude >> 23);
    uint32_t significand = (magnitude & 0x7fffffu) | 0x800000u;
    uint32_t units = 0;
    if (shift <= 24) {
      units = significand >> shift;
      uint32_t rest = significand & ((1u << shift) - 1u);
      uint32_t half = 1u << (shift - 1);
      if (rest > half || (rest == half && (units & 1u)))
        ++units;
    }
    h = (uint16_t)(sign | units);
  }
  _Float16 result;
  memcpy(&result, &h, sizeof result);
  return result;
}

#endif
