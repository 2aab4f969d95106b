/* scratch.c - per-thread packing buffers for generated GEMM code.
 *
 * The blocked GEMM kernels TLX emits pack panels of their operands into
 * cache-friendly buffers. Allocating those per call would cost more than
 * the packing itself for small and medium matrices, so each thread keeps
 * one buffer per slot and grows it on demand; the buffers live until the
 * thread exits. Buffers are 64-byte aligned (one cache line, one zmm
 * register).
 */
#include "tlxrt_scratch.h"

#include <stdio.h>
#include <stdlib.h>

#define TLX_SCRATCH_ALIGN 64

typedef struct scratch_slot {
  void *data;
  int64_t bytes;
} scratch_slot;

static _Thread_local scratch_slot slots[TLXRT_SCRATCH_SLOTS];

void *tlxrt_scratch(int32_t slot, int64_t bytes) {
  if (slot < 0 || slot >= TLXRT_SCRATCH_SLOTS || bytes < 0) {
    fprintf(stderr, "tlxrt_scratch: bad request (slot %d, %lld bytes)\n",
            (int)slot, (long long)bytes);
    abort();
  }
  scratch_slot *s = &slots[slot];
  if (bytes <= s->bytes)
    return s->data;
  /* Grow geometrically so a sequence of growing GEMMs reallocates rarely. */
  int64_t want = s->bytes * 2 > bytes ? s->bytes * 2 : bytes;
  want = (want + TLX_SCRATCH_ALIGN - 1) / TLX_SCRATCH_ALIGN * TLX_SCRATCH_ALIGN;
  void *data = aligned_alloc(TLX_SCRATCH_ALIGN, (size_t)want);
  if (!data) {
    fprintf(stderr, "tlxrt_scratch: out of memory (%lld bytes)\n",
            (long long)want);
    abort();
  }
  free(s->data);
  s->data = data;
  s->bytes = want;
  return data;
}
