/* tlxrt_cpu.h - the CPU checks TLX-generated code makes at run time.
 *
 * x86-64 and Power: a GEMM compiled without -march/-mcpu (or below the best
 * level TLX has kernels for) is emitted once per level; the code calls
 * tlxrt_isa_level() and runs the best version the CPU and the OS support.
 * See lib/Runtime/cpu_level.c and docs/pipeline.md ("Run-time dispatch").
 * AArch64: an SME GEMM calls tlxrt_sme_require() before its kernel; Power:
 * a GEMM built with -fplugin-arg-tlx-target=mma calls tlxrt_mma_require().
 * Not meant to be called by hand.
 */
#ifndef TLXRT_CPU_H
#define TLXRT_CPU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* x86-64: 0 baseline, 1 AVX2 + FMA (x86-64-v3), 2 AVX-512 F/BW/DQ/VL/CD
 * (x86-64-v4), 3 level 2 with AVX512-VNNI and AVX512-BF16, 4 level 3 on a
 * CPU that issues vdpbf16ps at the FMA's rate (not Intel's Sapphire or
 * Emerald Rapids); only levels whose register state the OS saves count.
 * Power (Linux): 0, or 1 where the matrix-multiply assist is available
 * (Power10). Elsewhere 0. The environment variable TLX_ISA_LEVEL_MAX=<n>
 * caps the answer (tests run the lower versions that way). Computed once
 * per process. */
int32_t tlxrt_isa_level(void);

/* AArch64 Linux only: returns if the thread may use SME (HWCAP2_SME);
 * otherwise says so on stderr and exits with status 1. */
void tlxrt_sme_require(void);

/* Power Linux only: returns if the CPU has the matrix-multiply assist
 * (PPC_FEATURE2_MMA); otherwise says so on stderr and exits with status 1.
 * Called by GEMMs built with -fplugin-arg-tlx-target=mma. */
void tlxrt_mma_require(void);

#ifdef __cplusplus
}
#endif

#endif /* TLXRT_CPU_H */
