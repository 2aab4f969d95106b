// tlxrt_temp_alloc / tlxrt_temp_free, the heap buffers of generated code's
// temporaries: 64-byte aligned and writable to their last byte; a freed
// buffer of 128 KiB or more comes back to the same thread's next request
// it fits (the smallest that fits); at most four are kept (the largest),
// none above 64 MiB; other threads keep their own, freed when they exit
// (each case runs in a thread of its own, so starts with nothing kept);
// a negative or impossible size fails (try_alloc: null). Under
// AddressSanitizer nothing is kept, so a use after free is still reported
// (the second program).
// RUN: %clang_plain -std=c11 -O1 %s %tlx_rt -o %t && %t | FileCheck %s
// RUN: %clang_plain -std=c11 -O1 -fsanitize=address -DUSE_AFTER_FREE %s %tlx_rt -o %t.asan
// RUN: not %t.asan 2>&1 | FileCheck %s --check-prefix=ASAN
// CHECK: alignment: ok
// CHECK: reuse: ok
// CHECK: best fit: ok
// CHECK: bounded: ok
// CHECK: threads: ok
// CHECK: failure: ok
// ASAN: ERROR: AddressSanitizer: heap-use-after-free
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <threads.h>
#include <tlxrt_scratch.h>

#define KiB 1024
#define MiB (1024 * 1024)

static void report(const char *What, int Ok) {
  printf("%s: %s\n", What, Ok ? "ok" : "FAILED");
}

static int aligned(void) {
  static const int64_t Sizes[] = {0, 1, 63, 65, 4 * KiB + 3, 200 * KiB + 1};
  int Ok = 1;
  for (unsigned I = 0; I < sizeof Sizes / sizeof Sizes[0]; ++I) {
    char *P = tlxrt_temp_alloc(Sizes[I]);
    Ok &= ((uintptr_t)P % 64) == 0;
    memset(P, 0x5a, (size_t)Sizes[I]);
    tlxrt_temp_free(P);
  }
  tlxrt_temp_free(NULL);
  return Ok;
}

static int reused(void) {
  void *A = tlxrt_temp_alloc(750 * KiB);
  tlxrt_temp_free(A);
  void *B = tlxrt_temp_alloc(750 * KiB);
  void *C = tlxrt_temp_alloc(600 * KiB); // not B's: B is taken
  int Ok = A == B && C != B;
  tlxrt_temp_free(C);
  void *D = tlxrt_temp_alloc(500 * KiB); // C's buffer fits
  Ok &= D == C;
  tlxrt_temp_free(D);
  tlxrt_temp_free(B);
  return Ok;
}

static int bestFit(void) {
  void *Big = tlxrt_temp_alloc(4 * MiB), *Mid = tlxrt_temp_alloc(1 * MiB);
  tlxrt_temp_free(Big);
  tlxrt_temp_free(Mid);
  void *P = tlxrt_temp_alloc(900 * KiB), *Q = tlxrt_temp_alloc(2 * MiB);
  int Ok = P == Mid && Q == Big;
  tlxrt_temp_free(P);
  tlxrt_temp_free(Q);
  return Ok;
}

static int bounded(void) {
  // Six large buffers freed, and one of 80 MiB: the four largest of the six
  // are kept, the others go back to malloc.
  void *P[6];
  for (int I = 0; I < 6; ++I)
    P[I] = tlxrt_temp_alloc((int64_t)(200 + 100 * I) * KiB);
  void *Huge = tlxrt_temp_alloc(80 * MiB);
  for (int I = 0; I < 6; ++I)
    tlxrt_temp_free(P[I]);
  tlxrt_temp_free(Huge);
  int Ok = 1;
  void *Q[4];
  for (int I = 0; I < 4; ++I) {
    Q[I] = tlxrt_temp_alloc(150 * KiB); // the smallest kept that fits
    Ok &= Q[I] == P[I + 2];
  }
  for (int I = 0; I < 4; ++I)
    tlxrt_temp_free(Q[I]);
  return Ok;
}

static void *Shared;

static int otherThread(void *Arg) {
  (void)Arg;
  void *P = tlxrt_temp_alloc(750 * KiB);
  int Own = P != Shared; // the first thread's kept buffer is not handed out
  tlxrt_temp_free(P);    // kept by this thread, freed at its exit
  return Own;
}

static int threads(void) {
  // Keep a 750 KiB buffer on this thread; a new thread gets its own.
  Shared = tlxrt_temp_alloc(750 * KiB);
  tlxrt_temp_free(Shared);
  thrd_t T;
  int Result = 0;
  if (thrd_create(&T, otherThread, NULL) != thrd_success ||
      thrd_join(T, &Result) != thrd_success)
    return 0;
  void *Mine = tlxrt_temp_alloc(750 * KiB);
  int Ok = Result && Mine == Shared;
  tlxrt_temp_free(Mine);
  return Ok;
}

typedef struct {
  int (*Run)(void);
} TestCase;

static int runCase(void *Arg) { return ((TestCase *)Arg)->Run(); }

/* Runs \p Run in a new thread: nothing kept at its start, all freed at its
 * exit. */
static int inThread(int (*Run)(void)) {
  TestCase Case = {Run};
  thrd_t T;
  int Result = 0;
  if (thrd_create(&T, runCase, &Case) != thrd_success ||
      thrd_join(T, &Result) != thrd_success)
    return 0;
  return Result;
}

static int failure(void) {
  return tlxrt_temp_try_alloc(-1) == NULL &&
         tlxrt_temp_try_alloc(INT64_MAX) == NULL;
}

int main(void) {
#ifdef USE_AFTER_FREE
  volatile char *P = tlxrt_temp_alloc(750 * KiB);
  tlxrt_temp_free((void *)P);
  return P[100];
#else
  report("alignment", inThread(aligned));
  report("reuse", inThread(reused));
  report("best fit", inThread(bestFit));
  report("bounded", inThread(bounded));
  report("threads", inThread(threads));
  report("failure", failure());
  return 0;
#endif
}
