// Driver for emulate-phi.ll: runs its functions and compares with C.
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlxrt_amx.h>

void kloop(const int8_t *A, const int8_t *B, int32_t *C, int64_t KSteps);
void swap(uint8_t *P, uint8_t *Q, int N);
void pick(const uint8_t *P, const uint8_t *Q, uint8_t *Out, _Bool First);

int main(void) {
#ifdef NATIVE
  tlxrt_amx_init();
#endif
  enum { KSteps = 3 };
  static int8_t A[16][64 * KSteps], B[16 * KSteps][64];
  static int32_t C[16][16], Ref[16][16];
  for (int I = 0; I < 16; ++I)
    for (int J = 0; J < 64 * KSteps; ++J)
      A[I][J] = (int8_t)(I * 31 + J * 7 - 100);
  for (int I = 0; I < 16 * KSteps; ++I)
    for (int J = 0; J < 64; ++J)
      B[I][J] = (int8_t)(I * 13 - J * 5 + 3);
  for (int I = 0; I < 16; ++I)
    for (int N = 0; N < 16; ++N) {
      int32_t Sum = 0;
      for (int K = 0; K < 64 * KSteps; ++K)
        Sum += A[I][K] * B[K / 4][4 * N + K % 4];
      Ref[I][N] = Sum;
    }
  kloop(&A[0][0], &B[0][0], &C[0][0], KSteps);
  printf("kloop: %s\n", memcmp(C, Ref, sizeof(C)) ? "FAIL" : "ok");

  for (int N = 0; N <= 4; N += (N == 0 ? 3 : 1)) {
    uint8_t P[64], Q[64], P0[64], Q0[64];
    for (int I = 0; I < 64; ++I) {
      P[I] = P0[I] = (uint8_t)I;
      Q[I] = Q0[I] = (uint8_t)(200 - I);
    }
    swap(P, Q, N);
    int Swapped = N % 2 == 1 && N != 0;
    int Ok = Swapped ? !memcmp(P, Q0, 64) && !memcmp(Q, P0, 64)
                     : !memcmp(P, P0, 64) && !memcmp(Q, Q0, 64);
    printf("swap %d: %s\n", N, Ok ? "ok" : "FAIL");
  }

  for (int First = 0; First < 2; ++First) {
    uint8_t P[16], Q[16], Out[16];
    for (int I = 0; I < 16; ++I) {
      P[I] = (uint8_t)I;
      Q[I] = (uint8_t)(100 + I);
    }
    pick(P, Q, Out, First);
    printf("select %d: %s\n", First,
           !memcmp(Out, First ? P : Q, 16) ? "ok" : "FAIL");
  }
  return 0;
}
