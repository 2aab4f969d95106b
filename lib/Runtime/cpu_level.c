/* cpu_level.c - the ISA level for TLX's run-time kernel dispatch.
 *
 * x86-64: __builtin_cpu_supports reads CPUID and checks XCR0, so a level
 * counts only when the OS saves its registers (AVX-512 state on a kernel
 * that disabled it reads as absent). Power: the kernel's AT_HWCAP2 says
 * whether the matrix-multiply assist may be used (PPC_FEATURE2_MMA; set
 * by Linux 5.13 and later on Power10).
 */
#include "tlxrt_cpu.h"

#include <stdio.h>
#include <stdlib.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#if defined(__powerpc64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef PPC_FEATURE2_MMA
#define PPC_FEATURE2_MMA 0x00020000
#endif
#endif

#if defined(__x86_64__)
/* Intel's Sapphire Rapids (family 6 model 0x8f) and Emerald Rapids (0xcf)
 * issue vdpbf16ps at half the FMA's rate (bench/notes.md): level 4, bf16
 * GEMMs on vdpbf16ps, is for the CPUs that do not. */
static int halfRateBF16Dot(void) {
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx) || ebx != 0x756e6547 /* Genu */)
    return 0;
  __get_cpuid(1, &eax, &ebx, &ecx, &edx);
  unsigned family = (eax >> 8) & 0xf;
  unsigned model = ((eax >> 4) & 0xf) | (((eax >> 16) & 0xf) << 4);
  return family == 6 && (model == 0x8f || model == 0xcf);
}
#endif

static int32_t detect(void) {
  int32_t level = 0;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    level = 1;
  if (level == 1 && __builtin_cpu_supports("avx512f") &&
      __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512cd"))
    level = 2;
  if (level == 2 && __builtin_cpu_supports("avx512vnni") &&
      __builtin_cpu_supports("avx512bf16"))
    level = 3;
  if (level == 3 && !halfRateBF16Dot())
    level = 4;
#elif defined(__powerpc64__) && defined(__linux__)
  if (getauxval(AT_HWCAP2) & PPC_FEATURE2_MMA)
    level = 1;
#endif
  const char *cap = getenv("TLX_ISA_LEVEL_MAX");
  if (cap && *cap) {
    long max = strtol(cap, NULL, 10);
    if (max >= 0 && max < level)
      level = (int32_t)max;
  }
  return level;
}

int32_t tlxrt_isa_level(void) {
  /* Threads may race to the first call; they compute the same value. */
  static int32_t cached = -1;
  int32_t level = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (level < 0) {
    level = detect();
    __atomic_store_n(&cached, level, __ATOMIC_RELAXED);
  }
  return level;
}

#if defined(__powerpc64__) && defined(__linux__)
/* Called by the GEMMs of -fplugin-arg-tlx-target=mma before their kernel:
 * without MMA its first outer product would kill the program with SIGILL
 * and no word of why. */
void tlxrt_mma_require(void) {
  if (getauxval(AT_HWCAP2) & PPC_FEATURE2_MMA)
    return;
  fflush(stdout);
  fprintf(stderr, "tlx: this program uses the Power10 matrix-multiply assist "
                  "(MMA), but this CPU/kernel does not support it "
                  "(PPC_FEATURE2_MMA is not set); rebuild with "
                  "-fplugin-arg-tlx-target=auto\n");
  exit(1);
}
#endif
