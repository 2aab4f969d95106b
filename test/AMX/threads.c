// The emulated tile state is per thread, like the hardware's: two threads
// with different configurations and data do not disturb each other.
// RUN: %clang_tlx -O2 -mamx-tile -mamx-int8 -fplugin-arg-tlx-target=amx-emulate -pthread %s -o %t %tlx_rt
// RUN: %t | FileCheck %s
// CHECK: thread 0: ok
// CHECK: thread 1: ok

#include <immintrin.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int Ok[2];

static void *worker(void *Arg) {
  int Id = (int)(intptr_t)Arg;
  int Rows = Id ? 3 : 16, ColsB = Id ? 8 : 64;
  uint8_t Cfg[64] = {0};
  Cfg[0] = 1;
  for (int T = 0; T < 3; ++T) {
    Cfg[16 + 2 * T] = (uint8_t)ColsB;
    Cfg[48 + T] = (uint8_t)(T == 2 ? ColsB / 4 : Rows);
  }
  static int8_t A[2][16][64], B[2][16][64];
  static int32_t C[2][16][16];
  memset(A[Id], Id + 1, sizeof(A[Id]));
  memset(B[Id], Id + 2, sizeof(B[Id]));
  _tile_loadconfig(Cfg);
  int Good = 1;
  for (int Iter = 0; Iter < 2000; ++Iter) {
    _tile_zero(0);
    _tile_loadd(1, A[Id], 64);
    _tile_loadd(2, B[Id], 64);
    _tile_dpbssd(0, 1, 2);
    _tile_stored(0, C[Id], 64);
    int32_t Want = (Id + 1) * (Id + 2) * ColsB;
    for (int I = 0; I < Rows; ++I)
      for (int J = 0; J < ColsB / 4; ++J)
        Good &= C[Id][I][J] == Want;
  }
  _tile_release();
  Ok[Id] = Good;
  return NULL;
}

int main(void) {
  pthread_t T[2];
  for (int I = 0; I < 2; ++I)
    pthread_create(&T[I], NULL, worker, (void *)(intptr_t)I);
  for (int I = 0; I < 2; ++I) {
    pthread_join(T[I], NULL);
    printf("thread %d: %s\n", I, Ok[I] ? "ok" : "FAIL");
  }
  return 0;
}
