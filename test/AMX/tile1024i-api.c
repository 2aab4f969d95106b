// The AMX programming-model example (llvm-dev, "C user interface"): clang's
// __tile1024i API with a branch choosing what to load, run through the
// emulator and checked against a plain C computation, at -O0 and -O2.
// RUN: %clang_tlx -O0 -mamx-tile -mamx-int8 -mamx-bf16 -fplugin-arg-tlx-target=amx-emulate %s -o %t0 %tlx_rt
// RUN: %t0 | FileCheck %s
// RUN: %clang_tlx -O2 -mamx-tile -mamx-int8 -mamx-bf16 -fplugin-arg-tlx-target=amx-emulate %s -o %t2 %tlx_rt
// RUN: %t2 | FileCheck %s
// On AMX hardware, the same program natively gives the same output:
// RUN: %if amx-hw %{ %clang_plain -O2 -mamx-tile -mamx-int8 -mamx-bf16 -DNATIVE %s -o %tn %tlx_rt %}
// RUN: %if amx-hw %{ %tn | FileCheck %s %}
// RUN: %clang_tlx -O2 -mamx-tile -mamx-int8 -mamx-bf16 -fplugin-arg-tlx-target=amx-emulate -Rpass=tlx %s -c -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: tile1024i-api.c:{{[0-9]+}}:{{[0-9]+}}: remark: AMX emulated: {{[0-9]+}} AMX intrinsic call(s) in 'api' replaced by calls into libtlxrt's AMX emulator
// The emulated program contains no AMX instruction:
// RUN: %clang_tlx -O2 -mamx-tile -mamx-int8 -mamx-bf16 -fplugin-arg-tlx-target=amx-emulate %s -S -o - | FileCheck %s --check-prefix=ASM
// RUN: %clang_tlx -O0 -mamx-tile -mamx-int8 -mamx-bf16 -fplugin-arg-tlx-target=amx-emulate %s -S -o - | FileCheck %s --check-prefix=ASM
// ASM-NOT: {{%tmm|ldtilecfg|[[:space:]]tileloadd|[[:space:]]tdpb}}
// ASM: tlxrt_amx_emu_tdp_internal
// ASM-NOT: {{%tmm|ldtilecfg|[[:space:]]tileloadd|[[:space:]]tdpb}}

#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tlxrt_amx.h>

// CHECK: cond=1 rows=16 cols=64: ok
// CHECK: cond=0 rows=16 cols=64: ok
// CHECK: cond=1 rows=5 cols=12: ok
// CHECK: cond=0 rows=7 cols=20: ok
// CHECK: bf16 rows=3 cols=8: ok

#define STRIDE 64
static int8_t buf[16 * STRIDE], buf2[16 * STRIDE];
static int32_t out[16 * 16];

// M x (col/4) int32 result of C + A x B for the tiles of api() below: A is
// rows x col bytes, B is col/4 rows x col bytes (VNNI pairs of 4).
static void reference(int Cond, int Rows, int Col, int32_t *Ref) {
  const int8_t *Src = Cond ? buf : buf2;
  for (int M = 0; M < Rows; ++M)
    for (int N = 0; N < Col / 4; ++N) {
      int32_t C;
      memcpy(&C, &Src[M * STRIDE + 4 * N], 4);
      uint32_t Acc = (uint32_t)C;
      for (int K = 0; K < Col; ++K)
        Acc += (uint32_t)(Src[M * STRIDE + K] *
                          Src[(K / 4) * STRIDE + 4 * N + K % 4]);
      Ref[M * 16 + N] = (int32_t)Acc;
    }
}

void api(int cond, short row, short col) {
  __tile1024i a = {row, col};
  __tile1024i b = {col / 4, col};
  __tile1024i c = {row, col};
  if (cond) {
    __tile_loadd(&a, buf, STRIDE);
    __tile_loadd(&b, buf, STRIDE);
    __tile_loadd(&c, buf, STRIDE);
  } else {
    __tile_loadd(&a, buf2, STRIDE);
    __tile_loadd(&b, buf2, STRIDE);
    __tile_loadd(&c, buf2, STRIDE);
  }
  __tile_dpbssd(&c, a, b);
  __tile_stored(out, STRIDE, c);
}

static void check(int Cond, int Rows, int Col) {
  static int32_t Ref[16 * 16];
  memset(out, 0x5a, sizeof(out));
  memset(Ref, 0x5a, sizeof(Ref));
  reference(Cond, Rows, Col, Ref);
  api(Cond, (short)Rows, (short)Col);
  int Bad = memcmp(out, Ref, sizeof(out));
  printf("cond=%d rows=%d cols=%d: %s\n", Cond, Rows, Col, Bad ? "FAIL" : "ok");
}

// bf16: c (rows x 4*cols bytes f32) += a (rows x 2*k) x b (k/2 x ...).
static void bf16(void) {
  static uint16_t A[16 * 32], B[16 * 32];
  static float C[16 * 16], Ref[16 * 16];
  for (int I = 0; I < 16 * 32; ++I) {
    float FA = (float)(I % 7) - 3.0f, FB = (float)(I % 5) * 0.5f;
    uint32_t UA, UB;
    memcpy(&UA, &FA, 4);
    memcpy(&UB, &FB, 4);
    A[I] = (uint16_t)(UA >> 16);
    B[I] = (uint16_t)(UB >> 16);
  }
  for (int I = 0; I < 16 * 16; ++I)
    C[I] = Ref[I] = 0.25f * (float)I;
  int Rows = 3, N = 8, K = 6; // f32 columns, bf16 K
  for (int M = 0; M < Rows; ++M)
    for (int J = 0; J < N; ++J) {
      float Sum = 0.0f;
      for (int P = 0; P < K; ++P) {
        uint32_t UA = (uint32_t)A[M * 32 + P] << 16,
                 UB = (uint32_t)B[(P / 2) * 32 + 2 * J + P % 2] << 16;
        float FA, FB;
        memcpy(&FA, &UA, 4);
        memcpy(&FB, &UB, 4);
        Sum += FA * FB; // small integers and halves: exact in any order
      }
      Ref[M * 16 + J] += Sum;
    }
  __tile1024i a = {Rows, 2 * K};
  __tile1024i b = {K / 2, 4 * N};
  __tile1024i c = {Rows, 4 * N};
  __tile_loadd(&a, A, 64);
  __tile_loadd(&b, B, 64);
  __tile_loadd(&c, C, 64);
  __tile_dpbf16ps(&c, a, b);
  __tile_stored(C, 64, c);
  printf("bf16 rows=%d cols=%d: %s\n", Rows, N,
         memcmp(C, Ref, sizeof(C)) ? "FAIL" : "ok");
}

int main(void) {
#ifdef NATIVE
  tlxrt_amx_init();
#endif
  for (int I = 0; I < 16 * STRIDE; ++I) {
    buf[I] = (int8_t)(I * 37 + 11);
    buf2[I] = (int8_t)(I % 3 == 0 ? -128 : I % 3 == 1 ? 127 : (I * 13) & 0xff);
  }
  check(1, 16, 64);
  check(0, 16, 64);
  check(1, 5, 12);
  check(0, 7, 20);
  bf16();
  return 0;
}
