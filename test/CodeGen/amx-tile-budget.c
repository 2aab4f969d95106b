// AMX kernels within the tile budget for every mix of constant and run-time
// sizes, under every tuning (issue 51). A module with one run-time-sized
// int8 GEMM (an int32 accumulator) and one bf16 GEMM whose M is a constant
// (ROWS) and N, K variables: IPSCCP makes the row range of each one's
// shared kernel constant, and LLVM 19's unroller used to unroll its block
// loops past the eight tiles ("ran out of registers during register
// allocation" at M = 96 and 130). And GEMMs of constant sizes with edge
// tiles (CONST), whose kernels the post-RA scheduler of Zen's models used
// to give unconfigured tiles. Each build compiles, and uses only tile
// registers its ldtilecfg configures (test/tools/amx_tile_config.py).
// LLVM 19: LLVM 22 takes vector code for run-time tile shapes (Compat.h).
// Values: test/AMX/runtime-constant-rows.c.
// REQUIRES: llvm-19
// DEFINE: %{flags} =
// DEFINE: %{file} =
// DEFINE: %{check} = %clang_tlx -std=c11 -march=sapphirerapids -fplugin-arg-tlx-target=amx %{flags} -S %s -o %t.s && python3 %S/../tools/amx_tile_config.py %t.s
// REDEFINE: %{flags} = -O2 -DROWS=1
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DROWS=16
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DROWS=33
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DROWS=64
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DROWS=65
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DROWS=96
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DROWS=100
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DROWS=130
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DROWS=200
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DROWS=256
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DROWS=511
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DROWS=512
// RUN: %{check}
// Tunings whose models schedule after register allocation, and not; the
// constant-size GEMMs of test/Integration/gemm-dot-{direct,pack}-a.c gave
// 13 kernels unconfigured tiles under -mtune=znver5.
// REDEFINE: %{flags} = -O2 -DROWS=96 -mtune=znver5
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DROWS=37 -mtune=znver4
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DCONST -mtune=znver3
// RUN: %{check}
// REDEFINE: %{flags} = -O2 -DCONST -mtune=generic
// RUN: %{check}
// REDEFINE: %{flags} = -O0 -DROWS=130 -mtune=znver5
// RUN: %{check}
// DEFINE: %{integration} = %clang_tlx -std=c11 -w -O2 -fplugin-arg-tlx-target=amx %{flags} -S %S/../Integration/%{file} -o %t.i.s && python3 %S/../tools/amx_tile_config.py %t.i.s
// REDEFINE: %{file} = gemm-dot-direct-a.c
// REDEFINE: %{flags} = -march=sapphirerapids -mtune=znver5
// RUN: %{integration}
// REDEFINE: %{flags} = -march=graniterapids -mtune=znver4
// RUN: %{integration}
// REDEFINE: %{file} = gemm-dot-pack-a.c
// REDEFINE: %{flags} = -march=sapphirerapids -mtune=znver5
// RUN: %{integration}
// REDEFINE: %{flags} = -march=sapphirerapids -mtune=znver3
// RUN: %{integration}
#include <stdint.h>
#include <tlx.h>

#ifdef ROWS
TLX_DECLARE_TENSOR_OPS_AS(tlx_float_result_t, f32)

void smma_rows(int n, int k, const int8_t *a, const int8_t *b,
               const int32_t *acc, int32_t *c) {
  TLX_STORE(c, tlx_smma(TLX_LOAD(acc, ROWS, n), TLX_LOAD(a, ROWS, k),
                        TLX_LOAD(b, k, n)));
}

void bf16_rows(int n, int k, const __bf16 *a, const __bf16 *b, float *c) {
  tlx_float_result_t r =
      tensor_matmul_f32(TLX_LOAD(a, ROWS, k), TLX_LOAD(b, k, n));
  tensor_store(c,
               tensor_typeinfo(r, TLX_SHAPE(ROWS, n), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2)),
               TLX_ZEROS(2));
}
#endif

#ifdef CONST
typedef float f32_130x70 __attribute__((vector_size(130 * 70 * 4)));
TLX_DECLARE_TENSOR_OPS_AS(f32_130x70, f32c)

void smma_const(const int8_t *a, const int8_t *b, const int32_t *acc,
                int32_t *c) {
  TLX_STORE(c, tlx_smma(TLX_LOAD(acc, 37, 50), TLX_LOAD(a, 37, 100),
                        TLX_LOAD(b, 100, 50)));
}

void bf16_const(const __bf16 *a, const __bf16 *b, float *c) {
  f32_130x70 r = tensor_matmul_f32c(TLX_LOAD(a, 130, 96), TLX_LOAD(b, 96, 70));
  tensor_store(c,
               tensor_typeinfo(r, TLX_SHAPE(130, 70), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2)),
               TLX_ZEROS(2));
}
#endif
