// Compiler support routines for bf16 that programs using TLX need but
// Debian 12's libgcc (GCC 12) lacks.
//
// LLVM 19's x86 backend, without AVX512-BF16, converts float to bfloat by a
// call to __truncsfbf2 - for example when a <N x bfloat> vector value is
// passed through registers, with or without TLX. compiler-rt defines it,
// libgcc 12 does not, so `clang-19 -fplugin=libtlx.so x.c -ltlxrt` failed
// to link. The definition is weak so compiler-rt's wins where it is linked
// too; it is in its own file so a static link pulls in nothing else.
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)

// __bf16 and _Float16 are both passed and returned in the low 16 bits of
// an SSE register, so GCC 12 (no __bf16 on x86) can return one as the
// other.
#if defined(__clang__)
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
