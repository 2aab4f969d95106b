/* tlxrt_cpu.h - the x86 ISA level TLX-generated code dispatches on.
 *
 * A GEMM compiled without -march (or below the best level TLX has kernels
 * for) is emitted once per level; the code calls tlxrt_x86_level() and
 * runs the best version the CPU and the OS support. See lib/Runtime/
 * cpu_level.c and docs/pipeline.md ("Run-time dispatch"). Not meant to be
 * called by hand.
 */
#ifndef TLXRT_CPU_H
#define TLXRT_CPU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 0: baseline x86-64 (or not x86); 1: AVX2 + FMA (x86-64-v3);
 * 2: AVX-512 F/BW/DQ/VL/CD (x86-64-v4); 3: level 2 with AVX512-VNNI and
 * AVX512-BF16. Only levels whose register state the OS saves count. The
 * environment variable TLX_ISA_LEVEL_MAX=<n> caps the answer (tests run
 * the lower versions that way). Computed once per process. */
int32_t tlxrt_x86_level(void);

#ifdef __cplusplus
}
#endif

#endif /* TLXRT_CPU_H */
