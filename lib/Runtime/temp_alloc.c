/* temp_alloc.c - heap buffers of TLX-generated code's temporaries.
 *
 * Tensors too large for the stack (results between ops, merge buffers,
 * large C vector variables) live in heap buffers that the generated code
 * allocates and frees on every call. Through malloc, buffers of hundreds
 * of KiB are a page-fault storm: glibc serves them by mmap (munmap'ed at
 * free) or, once its dynamic threshold has risen past them, from the top
 * of the heap, which it trims when two such buffers are freed - and every
 * later call faults the pages back in (a 3x3 NCHW convolution followed by
 * an unfused bias and relu: 42 GFLOP/s instead of 196 on Zen 5, a third
 * of the time in the kernel). So each thread keeps the last few large
 * buffers it freed and hands them out again; small ones go straight back
 * to malloc, which recycles them well.
 *
 * Every buffer is 64-byte aligned (one cache line, one zmm register) and
 * carries its size in the 64 bytes before it. The cache holds at most
 * TEMP_CACHE_SLOTS buffers of at most TEMP_CACHE_MAX bytes per thread and
 * is freed when the thread exits. Under AddressSanitizer nothing is cached,
 * so a read of a freed temporary is still reported.
 */
#include "tlxrt_scratch.h"

#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

#define TEMP_ALIGN 64
/* glibc's default mmap threshold: smaller buffers are recycled by malloc. */
#define TEMP_CACHE_MIN ((size_t)128 << 10)
#define TEMP_CACHE_MAX ((size_t)64 << 20)
#define TEMP_CACHE_SLOTS 4

/* Present only in programs built with -fsanitize=address. */
extern void __asan_init(void) __attribute__((weak));

typedef struct temp_header {
  size_t bytes; /* what the buffer holds, a multiple of TEMP_ALIGN */
} temp_header;

static _Thread_local void *cache[TEMP_CACHE_SLOTS];
static _Thread_local int cache_registered;
static tss_t cache_key;
static int cache_key_created;
static once_flag cache_key_once = ONCE_FLAG_INIT;

static temp_header *header_of(void *p) {
  return (temp_header *)((char *)p - TEMP_ALIGN);
}

static void release(void *p) { free(header_of(p)); }

static void free_cache(void *unused) {
  (void)unused;
  for (int i = 0; i < TEMP_CACHE_SLOTS; ++i) {
    if (cache[i])
      release(cache[i]);
    cache[i] = NULL;
  }
}

static void create_cache_key(void) {
  cache_key_created = tss_create(&cache_key, free_cache) == thrd_success;
}

/* Whether the thread may cache: its cache is freed at its exit (a tss
 * destructor runs for a non-null value); nothing is cached where that
 * cannot be arranged. */
static int register_cache(void) {
  if (cache_registered)
    return 1;
  call_once(&cache_key_once, create_cache_key);
  if (!cache_key_created ||
      tss_set(cache_key, &cache_registered) != thrd_success)
    return 0;
  cache_registered = 1;
  return 1;
}

static void *take_cached(size_t bytes) {
  int best = -1;
  for (int i = 0; i < TEMP_CACHE_SLOTS; ++i)
    if (cache[i] && header_of(cache[i])->bytes >= bytes &&
        (best < 0 ||
         header_of(cache[i])->bytes < header_of(cache[best])->bytes))
      best = i;
  if (best < 0)
    return NULL;
  void *p = cache[best];
  cache[best] = NULL;
  return p;
}

void *tlxrt_temp_try_alloc(int64_t bytes) {
  if (bytes < 0 || (uint64_t)bytes > SIZE_MAX - 2 * TEMP_ALIGN)
    return NULL;
  size_t rounded = ((size_t)bytes + TEMP_ALIGN - 1) / TEMP_ALIGN * TEMP_ALIGN;
  if (rounded >= TEMP_CACHE_MIN) {
    void *p = take_cached(rounded);
    if (p)
      return p;
  }
  temp_header *h = aligned_alloc(TEMP_ALIGN, TEMP_ALIGN + rounded);
  if (!h)
    return NULL;
  h->bytes = rounded;
  return (char *)h + TEMP_ALIGN;
}

void *tlxrt_temp_alloc(int64_t bytes) {
  void *p = tlxrt_temp_try_alloc(bytes);
  if (p)
    return p;
  fprintf(stderr, "tlx: out of memory: a tensor temporary of %lld bytes\n",
          (long long)bytes);
  abort();
}

void tlxrt_temp_free(void *p) {
  if (!p)
    return;
  size_t bytes = header_of(p)->bytes;
  if (bytes < TEMP_CACHE_MIN || bytes > TEMP_CACHE_MAX || &__asan_init ||
      !register_cache()) {
    release(p);
    return;
  }
  /* An empty slot, else the smallest cached buffer if this one is larger. */
  int slot = 0;
  for (int i = 0; i < TEMP_CACHE_SLOTS; ++i) {
    if (!cache[i]) {
      slot = i;
      break;
    }
    if (header_of(cache[i])->bytes < header_of(cache[slot])->bytes)
      slot = i;
  }
  if (cache[slot]) {
    if (header_of(cache[slot])->bytes >= bytes) {
      release(p);
      return;
    }
    release(cache[slot]);
  }
  cache[slot] = p;
}
