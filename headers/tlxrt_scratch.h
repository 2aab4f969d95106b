/* tlxrt_scratch.h - per-thread scratch buffers for TLX-generated code.
 *
 * Generated GEMM code packs operand panels into these buffers; see
 * lib/Runtime/scratch.c. Tensor temporaries too large for the stack live
 * in the heap buffers below. Not meant to be called by hand.
 */
#ifndef TLXRT_SCRATCH_H
#define TLXRT_SCRATCH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Slots used by the GEMM emitter: packed A, packed B, B's column sums,
 * C staging (AMX with a non-row-major C), A's edge rows, A's row sums
 * (lib/Gemm/GemmEmitterImpl.h, ScratchSlot). */
#define TLXRT_SCRATCH_SLOTS 8

/* A 64-byte aligned buffer of at least `bytes` bytes, private to the
 * calling thread and reused by later calls with the same slot (its
 * contents are then undefined). Aborts with a message when out of memory. */
void *tlxrt_scratch(int32_t slot, int64_t bytes);

/* Heap buffers of tensor temporaries (lib/Runtime/temp_alloc.c): 64-byte
 * aligned, at least `bytes` bytes, freed only by tlxrt_temp_free, which
 * keeps the thread's last few large ones for later calls. tlxrt_temp_alloc
 * aborts with a message when out of memory; tlxrt_temp_try_alloc returns
 * null (and does for a negative size). */
void *tlxrt_temp_alloc(int64_t bytes);
void *tlxrt_temp_try_alloc(int64_t bytes);
void tlxrt_temp_free(void *p);

#ifdef __cplusplus
}
#endif

#endif /* TLXRT_SCRATCH_H */
