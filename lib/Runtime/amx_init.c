/* amx_init.c - enables Intel AMX for the process before the first tile
 * instruction.
 *
 * Linux keeps the 8 KiB AMX tile-data state (XFEATURE_XTILEDATA) disabled
 * per process until the program asks for it with
 * arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA); a tile instruction
 * before that request faults. Code that TLX compiles for native AMX calls
 * tlxrt_amx_init() before its first tile instruction. On a CPU or kernel
 * without AMX the program stops here with a message, never with SIGILL.
 */
#define _GNU_SOURCE /* syscall() */
#include "tlxrt_amx.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__x86_64__) && defined(__linux__)
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TLX_ARCH_GET_XCOMP_PERM 0x1022
#define TLX_ARCH_REQ_XCOMP_PERM 0x1023
#define TLX_XFEATURE_XTILECFG 17
#define TLX_XFEATURE_XTILEDATA 18

/* CPUID.(EAX=7,ECX=0):EDX[24] = AMX-TILE. */
static int cpu_has_amx_tile(void) {
  unsigned eax, ebx, ecx, edx;
  if (__get_cpuid_max(0, 0) < 7)
    return 0;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  return (edx >> 24) & 1;
}

/* The tile products (TLXRT_AMX_*) this CPU has: CPUID.(7,0):EDX[25]
 * AMX-INT8, EDX[22] AMX-BF16, CPUID.(7,1):EAX[21] AMX-FP16. */
static unsigned cpu_amx_products(void) {
  unsigned eax, ebx, ecx, edx, products = 0;
  if (__get_cpuid_max(0, 0) < 7)
    return 0;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  unsigned max_subleaf = eax;
  if ((edx >> 25) & 1)
    products |= TLXRT_AMX_INT8;
  if ((edx >> 22) & 1)
    products |= TLXRT_AMX_BF16;
  if (max_subleaf >= 1) {
    __cpuid_count(7, 1, eax, ebx, ecx, edx);
    if ((eax >> 21) & 1)
      products |= TLXRT_AMX_FP16;
  }
  return products;
}

/* The OS uses XSAVE (CPUID.1:ECX[27] OSXSAVE) and enabled both AMX state
 * components in XCR0. */
static int os_enables_amx_state(void) {
  unsigned eax, ebx, ecx, edx, lo, hi;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !((ecx >> 27) & 1))
    return 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  (void)hi;
  unsigned want =
      (1u << TLX_XFEATURE_XTILECFG) | (1u << TLX_XFEATURE_XTILEDATA);
  return (lo & want) == want;
}

/* Asks the kernel for permission to use XTILEDATA, then reads it back. */
static int kernel_grants_xtiledata(void) {
  if (syscall(SYS_arch_prctl, TLX_ARCH_REQ_XCOMP_PERM,
              (unsigned long)TLX_XFEATURE_XTILEDATA) != 0)
    return 0;
  unsigned long long perm = 0;
  if (syscall(SYS_arch_prctl, TLX_ARCH_GET_XCOMP_PERM, &perm) != 0)
    return 0;
  return (perm >> TLX_XFEATURE_XTILEDATA) & 1;
}

static const char *amx_unavailable_reason(void) {
  if (getenv("TLX_AMX_FORCE_UNSUPPORTED"))
    return "AMX disabled by TLX_AMX_FORCE_UNSUPPORTED";
  if (!cpu_has_amx_tile())
    return "the CPU has no AMX-TILE (CPUID.7.0:EDX[24])";
  if (!os_enables_amx_state())
    return "the OS does not enable the AMX state in XCR0";
  if (!kernel_grants_xtiledata())
    return "the kernel refused arch_prctl(ARCH_REQ_XCOMP_PERM, "
           "XFEATURE_XTILEDATA)";
  return NULL;
}
#else
static unsigned cpu_amx_products(void) { return 0; }
static const char *amx_unavailable_reason(void) {
  return "AMX exists only on x86-64 Linux";
}
#endif

/* 0 = not checked yet, 1 = available, 2 = unavailable. The check is
 * idempotent (the permission is per process), so racing first callers are
 * harmless; later calls are one atomic load. */
static atomic_int AMXState;
static const char *_Atomic AMXReason;
static atomic_uint AMXProducts; /* TLXRT_AMX_* the CPU has */

int tlxrt_amx_available(void) {
  int S = atomic_load_explicit(&AMXState, memory_order_acquire);
  if (S == 0) {
    const char *Why = amx_unavailable_reason();
    atomic_store_explicit(&AMXReason, Why, memory_order_relaxed);
    atomic_store_explicit(&AMXProducts, cpu_amx_products(),
                          memory_order_relaxed);
    S = Why ? 2 : 1;
    atomic_store_explicit(&AMXState, S, memory_order_release);
  }
  return S == 1;
}

static _Noreturn void amx_unsupported(const char *why) {
  fflush(stdout);
  fprintf(stderr,
          "tlx: this program uses Intel AMX, but this CPU/kernel does not "
          "support it (%s); rebuild with -fplugin-arg-tlx-target=amx-emulate "
          "or target=vector\n",
          why ? why : "unknown reason");
  exit(1);
}

void tlxrt_amx_init(void) {
  if (!tlxrt_amx_available())
    amx_unsupported(atomic_load_explicit(&AMXReason, memory_order_relaxed));
}

void tlxrt_amx_require(unsigned products) {
  tlxrt_amx_init(); /* also reads the products, once per process */
  unsigned missing =
      products & ~atomic_load_explicit(&AMXProducts, memory_order_relaxed);
  if (missing & TLXRT_AMX_INT8)
    amx_unsupported("the CPU has no AMX-INT8 (CPUID.7.0:EDX[25])");
  if (missing & TLXRT_AMX_BF16)
    amx_unsupported("the CPU has no AMX-BF16 (CPUID.7.0:EDX[22])");
  if (missing & TLXRT_AMX_FP16)
    amx_unsupported("the CPU has no AMX-FP16 (CPUID.7.1:EAX[21])");
}
