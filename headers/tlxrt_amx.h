/* tlxrt_amx.h - Intel AMX support in the TLX runtime.
 *
 * Two parts:
 *  - Enablement for native AMX code: tlxrt_amx_init() or
 *    tlxrt_amx_require() must run before the first tile instruction (TLX's
 *    AMX code generator calls tlxrt_amx_require).
 *  - The AMX emulator, which the tlx-amx-emulate pass
 *    (-fplugin-arg-tlx-target=amx-emulate) calls instead of the tile
 *    instructions, so AMX programs run on any x86-64 or other CPU. See
 *    docs/amx-emulator.md for the semantics and the checks.
 *
 * The emulator follows the hardware rules and stops the program with a
 * message ("tlx amx-emulate: <instruction>: <violation>") where the hardware
 * raises #GP/#UD, or where the result would be undefined. A program (or a
 * unit test) may install its own handler with
 * tlxrt_amx_emu_set_error_handler(); if the handler returns, the offending
 * instruction has no effect.
 */
#ifndef TLXRT_AMX_H
#define TLXRT_AMX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===--- Native AMX enablement ---------------------------------------------===*/

/* Checks CPUID (AMX-TILE), XCR0 and asks Linux for the tile-data permission
 * (arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)), once per process;
 * cheap afterwards. On a machine without AMX prints why and exits with
 * status 1. Thread-safe. */
void tlxrt_amx_init(void);
/* The same checks without exiting: 1 if AMX can be used. */
int tlxrt_amx_available(void);

/* Tile products, for tlxrt_amx_require: each is its own CPUID bit
 * (AMX-INT8, AMX-BF16, AMX-FP16), and a CPU may have tiles without all of
 * them (Sapphire Rapids has no AMX-FP16). */
#define TLXRT_AMX_INT8 1u /* tdpb[su][su]d */
#define TLXRT_AMX_BF16 2u /* tdpbf16ps */
#define TLXRT_AMX_FP16 4u /* tdpfp16ps */
/* tlxrt_amx_init, and then the CPU must also have every product in
 * `products` (a mask of TLXRT_AMX_*); otherwise prints which is missing and
 * exits with status 1. TLX's AMX code calls this before its first tile
 * instruction. */
void tlxrt_amx_require(unsigned products);

/*===--- Emulator ----------------------------------------------------------===*/

#define TLXRT_AMX_NUM_TILES 8
#define TLXRT_AMX_MAX_ROWS 16
#define TLXRT_AMX_MAX_COLSB 64

/* The dot-product instructions. */
typedef enum tlxrt_amx_dp {
  TLXRT_AMX_TDPBSSD,   /* s8 x s8 -> i32 */
  TLXRT_AMX_TDPBSUD,   /* s8 x u8 -> i32 */
  TLXRT_AMX_TDPBUSD,   /* u8 x s8 -> i32 */
  TLXRT_AMX_TDPBUUD,   /* u8 x u8 -> i32 */
  TLXRT_AMX_TDPBF16PS, /* bf16 x bf16 -> f32 */
  TLXRT_AMX_TDPFP16PS  /* fp16 x fp16 -> f32 */
} tlxrt_amx_dp;

/* Error handler: receives the full message. Returning from it skips the
 * offending instruction; the default prints the message and aborts. */
typedef void (*tlxrt_amx_error_handler)(const char *message);
tlxrt_amx_error_handler
tlxrt_amx_emu_set_error_handler(tlxrt_amx_error_handler handler);

/*--- Register-number instructions (what _tile_loadd(0, ...) compiles to).
 * Per-thread state: the palette, the configuration and 8 tile registers,
 * like the hardware's TILECFG and TMM0-7. */
void tlxrt_amx_emu_ldtilecfg(const void *config64);
void tlxrt_amx_emu_sttilecfg(void *config64);
void tlxrt_amx_emu_tilerelease(void);
void tlxrt_amx_emu_tileloadd(int tile, const void *base, int64_t stride);
void tlxrt_amx_emu_tilestored(int tile, void *base, int64_t stride);
void tlxrt_amx_emu_tilezero(int tile);
void tlxrt_amx_emu_tdp(tlxrt_amx_dp kind, int dst, int src1, int src2);

/*--- Shape-carrying instructions (the *.internal intrinsics on x86_amx
 * values, what clang's __tile1024i API and TLX's lowering produce). Each
 * x86_amx value lives in a tile buffer; rows/colsb are its shape, 0/0 while
 * unknown (a tile made from a vector takes the shape of its first use). Bytes
 * outside the shape are zero, as in a hardware tile register. */
#ifdef __cplusplus
#define TLXRT_AMX_ALIGN64 alignas(64)
#else
#define TLXRT_AMX_ALIGN64 _Alignas(64)
#endif
typedef struct tlxrt_amx_tile {
  uint16_t rows;
  uint16_t colsb;
  uint32_t magic; /* TLXRT_AMX_TILE_MAGIC once written */
  uint8_t reserved[56];
  TLXRT_AMX_ALIGN64 uint8_t data[TLXRT_AMX_MAX_ROWS][TLXRT_AMX_MAX_COLSB];
} tlxrt_amx_tile;
#define TLXRT_AMX_TILE_MAGIC 0x544c5854u /* "TLXT" */
#define TLXRT_AMX_TILE_SIZE 1088          /* sizeof(tlxrt_amx_tile) */

/* Marks a buffer as holding an undefined tile (zeros, shape unknown). */
void tlxrt_amx_emu_tile_undef(tlxrt_amx_tile *dst);
void tlxrt_amx_emu_tileloadd_internal(tlxrt_amx_tile *dst, int rows,
                                      int colsb, const void *base,
                                      int64_t stride);
void tlxrt_amx_emu_tilezero_internal(tlxrt_amx_tile *dst, int rows,
                                     int colsb);
void tlxrt_amx_emu_tilestored_internal(const tlxrt_amx_tile *src, int rows,
                                       int colsb, void *base, int64_t stride);
/* dst = acc + src1 x src2 with M = m rows, N = n bytes per row of dst,
 * K = k bytes per row of src1; dst may be acc (or any operand). */
void tlxrt_amx_emu_tdp_internal(tlxrt_amx_dp kind, int m, int n, int k,
                                tlxrt_amx_tile *dst,
                                const tlxrt_amx_tile *acc,
                                const tlxrt_amx_tile *src1,
                                const tlxrt_amx_tile *src2);
/* llvm.x86.cast.vector.to.tile / cast.tile.to.vector: the 1024-byte vector
 * is the 16 x 64-byte register image, row-major. */
void tlxrt_amx_emu_tile_from_vector(tlxrt_amx_tile *dst, const void *vec1024);
void tlxrt_amx_emu_tile_to_vector(void *vec1024, const tlxrt_amx_tile *src);
/* A copy of an x86_amx value (phi nodes). */
void tlxrt_amx_emu_tile_copy(tlxrt_amx_tile *dst, const tlxrt_amx_tile *src);

/*--- Numerics, exposed for tests: one FMA step of TDPBF16PS/TDPFP16PS
 * (acc + a * b, DAZ, FTZ, round to nearest even, MXCSR ignored). */
float tlxrt_amx_emu_fma_daz_ftz(float acc, float a, float b);
float tlxrt_amx_emu_add_daz_ftz(float a, float b);

#ifdef __cplusplus
}
#endif

#endif /* TLXRT_AMX_H */
