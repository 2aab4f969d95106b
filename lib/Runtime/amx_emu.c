/* amx_emu.c - the Intel AMX emulator.
 *
 * Executes the AMX instructions in C, bit-exactly, so AMX programs (TLX's own
 * AMX lowering and users' immintrin.h code) run and are tested on machines
 * without AMX. The tlx-amx-emulate pass rewrites every AMX intrinsic into a
 * call to this file; docs/amx-emulator.md describes the semantics.
 *
 * Numerics of TDPBF16PS/TDPFP16PS, as we read the SDM pseudocode: per output
 * row, two f32 accumulators per output element (even and odd halves of the
 * 16-bit pairs) start at zero and take one FMA per k step (DAZ, FTZ, round to
 * nearest even, MXCSR ignored); then dst += even + odd (same rules). FTZ
 * detects tininess after rounding; NaN results take the first NaN operand of
 * each step (src1, src2, accumulator) or the default NaN. Checked bit for bit
 * against real AMX-BF16 hardware (test/AMX/hw-differential.c).
 */
#include "tlxrt_amx.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(tlxrt_amx_tile) == TLXRT_AMX_TILE_SIZE,
               "tile buffer layout is part of the emulator ABI");

/*===--- Errors
 * ------------------------------------------------------------===*/

static _Thread_local tlxrt_amx_error_handler Handler;

tlxrt_amx_error_handler
tlxrt_amx_emu_set_error_handler(tlxrt_amx_error_handler handler) {
  tlxrt_amx_error_handler Old = Handler;
  Handler = handler;
  return Old;
}

/* Reports a violation; returns only if the user's handler does (the caller
 * then skips the instruction). */
__attribute__((format(printf, 2, 3))) static void fail(const char *Insn,
                                                       const char *Fmt, ...) {
  char Msg[512];
  int Len = snprintf(Msg, sizeof(Msg), "tlx amx-emulate: %s: ", Insn);
  va_list Args;
  va_start(Args, Fmt);
  vsnprintf(Msg + Len, sizeof(Msg) - (size_t)Len, Fmt, Args);
  va_end(Args);
  if (Handler) {
    Handler(Msg);
    return;
  }
  fflush(stdout);
  fprintf(stderr, "%s\n", Msg);
  abort();
}

/*===--- Numerics
 * ----------------------------------------------------------===*/

static uint32_t f32_bits(float F) {
  uint32_t U;
  memcpy(&U, &F, sizeof(U));
  return U;
}

static float bits_f32(uint32_t U) {
  float F;
  memcpy(&F, &U, sizeof(F));
  return F;
}

/* Denormals are zero: a denormal input reads as a zero of its sign. */
static float daz(float F) {
  uint32_t U = f32_bits(F);
  if ((U & 0x7f800000u) == 0)
    return bits_f32(U & 0x80000000u);
  return F;
}

/* Flush to zero: R = fmaf(A, B, Acc) of normal (or zero) inputs, flushed
 * when tiny. x86 detects tininess after rounding: a result is tiny when the
 * exact value, rounded to 24 bits with an unbounded exponent, is below
 * FLT_MIN. fmaf rounds to the denormal grid instead; the two differ only for
 * exact values in [FLT_MIN - 2^-150, FLT_MIN - 2^-151), which fmaf rounds up
 * to FLT_MIN but which are tiny. The inputs are normal f32 (the product of
 * two floats is exact in double), and near FLT_MIN the sum is exact in double
 * too (a large addend must cancel a product of similar magnitude), so the
 * double sum decides. */
static float flush_tiny(float Acc, float A, float B, float R) {
  float Mag = fabsf(R);
  if (Mag != 0.0f && Mag < FLT_MIN)
    return copysignf(0.0f, R);
  if (Mag == FLT_MIN) {
    double X = (double)A * (double)B + (double)Acc;
    const double Tiny = 0x1p-126 - 0x1p-151; /* a tie: rounds up to FLT_MIN */
    if (fabs(X) < Tiny)
      return copysignf(0.0f, R);
  }
  return R;
}

/* One FMA step on inputs that are already DAZ'd. Only results below 2^-125
 * (exponent field <= 1) can need flushing. */
/* A NaN result: the first NaN operand in the order A, B, Acc, quieted; or,
 * for an invalid operation (inf * 0, inf - inf), the default NaN. Explicit,
 * so the payload does not depend on which FMA form the compiler picks. */
static float nan_result(float Acc, float A, float B) {
  const float Ops[3] = {A, B, Acc};
  for (int I = 0; I < 3; ++I)
    if (isnan(Ops[I]))
      return bits_f32(f32_bits(Ops[I]) | 0x00400000u);
  return bits_f32(0xffc00000u);
}

static inline __attribute__((always_inline)) float fma_step(float Acc, float A,
                                                            float B) {
  float R = fmaf(A, B, Acc);
  uint32_t Exp = f32_bits(R) & 0x7f800000u;
  if (Exp > 0x00800000u && Exp != 0x7f800000u)
    return R;
  if (isnan(R))
    return nan_result(Acc, A, B);
  if (Exp == 0x7f800000u)
    return R;
  return flush_tiny(Acc, A, B, R);
}

float tlxrt_amx_emu_fma_daz_ftz(float Acc, float A, float B) {
  return fma_step(daz(Acc), daz(A), daz(B));
}

float tlxrt_amx_emu_add_daz_ftz(float A, float B) {
  return tlxrt_amx_emu_fma_daz_ftz(B, A, 1.0f);
}

static float bf16_to_f32(uint16_t H) { return bits_f32((uint32_t)H << 16); }

/* IEEE binary16 to binary32, exact (fp16 denormals are f32 normals). */
static float fp16_to_f32(uint16_t H) {
  uint32_t Sign = (uint32_t)(H & 0x8000u) << 16;
  uint32_t Exp = (H >> 10) & 0x1f;
  uint32_t Frac = H & 0x3ffu;
  if (Exp == 0x1f) /* inf, NaN (payload kept, quiet bit where it was) */
    return bits_f32(Sign | 0x7f800000u | (Frac << 13));
  if (Exp == 0) {
    if (Frac == 0)
      return bits_f32(Sign);
    /* Denormal: Frac * 2^-24, exact in f32. */
    float V = (float)Frac * 0x1p-24f;
    return Sign ? -V : V;
  }
  return bits_f32(Sign | ((Exp + 112) << 23) | (Frac << 13));
}

/*===--- The dot products on raw row images
 * --------------------------------===*/

typedef uint8_t RowImage[TLXRT_AMX_MAX_ROWS][TLXRT_AMX_MAX_COLSB];

static const char *dp_name(tlxrt_amx_dp Kind) {
  switch (Kind) {
  case TLXRT_AMX_TDPBSSD:
    return "tdpbssd";
  case TLXRT_AMX_TDPBSUD:
    return "tdpbsud";
  case TLXRT_AMX_TDPBUSD:
    return "tdpbusd";
  case TLXRT_AMX_TDPBUUD:
    return "tdpbuud";
  case TLXRT_AMX_TDPBF16PS:
    return "tdpbf16ps";
  case TLXRT_AMX_TDPFP16PS:
    return "tdpfp16ps";
  }
  return "tdp<unknown>";
}

static uint32_t load_u32(const uint8_t *P) {
  uint32_t V;
  memcpy(&V, P, sizeof(V));
  return V;
}

static uint16_t load_u16(const uint8_t *P) {
  uint16_t V;
  memcpy(&V, P, sizeof(V));
  return V;
}

/* The integer dot products: Out = Acc + A x B on M x N dwords, K = KBytes.
 * B is widened once into Wide[k][n], so the inner loop runs over n and
 * vectorizes; sums wrap modulo 2^32. */
static void int_dot_product(tlxrt_amx_dp Kind, int M, int N, int KBytes,
                            uint8_t (*Out)[TLXRT_AMX_MAX_COLSB],
                            const uint8_t (*Acc)[TLXRT_AMX_MAX_COLSB],
                            const uint8_t (*A)[TLXRT_AMX_MAX_COLSB],
                            const uint8_t (*B)[TLXRT_AMX_MAX_COLSB]) {
  int ASigned = Kind == TLXRT_AMX_TDPBSSD || Kind == TLXRT_AMX_TDPBSUD;
  int BSigned = Kind == TLXRT_AMX_TDPBSSD || Kind == TLXRT_AMX_TDPBUSD;
  int32_t Wide[TLXRT_AMX_MAX_COLSB][16];
  for (int P = 0; P < KBytes; ++P)
    for (int J = 0; J < N; ++J) {
      uint8_t Y = B[P / 4][4 * J + P % 4];
      Wide[P][J] = BSigned ? (int8_t)Y : Y;
    }
  for (int I = 0; I < M; ++I) {
    uint32_t Sum[16];
    memcpy(Sum, Acc[I], sizeof(uint32_t) * (size_t)N);
    for (int P = 0; P < KBytes; ++P) {
      int32_t X = ASigned ? (int8_t)A[I][P] : A[I][P];
      for (int J = 0; J < N; ++J)
        Sum[J] += (uint32_t)(X * Wide[P][J]); /* |X * Wide| <= 2^16 */
    }
    memcpy(Out[I], Sum, sizeof(uint32_t) * (size_t)N);
  }
}

/* The 16-bit float dot products on inputs converted to f32 and DAZ'd:
 * AF[m][p][h] is element 2p+h of row m of A, BF[p][h][n] element 2n+h of
 * row p of B. */
static inline __attribute__((always_inline)) void
float_dot_product_body(int M, int N, int K, uint8_t (*Out)[TLXRT_AMX_MAX_COLSB],
                       const uint8_t (*Acc)[TLXRT_AMX_MAX_COLSB],
                       const float (*AF)[16][2], const float (*BF)[2][16]) {
  for (int I = 0; I < M; ++I) {
    float Even[16] = {0}, Odd[16] = {0};
    for (int P = 0; P < K; ++P) {
      float A0 = AF[I][P][0], A1 = AF[I][P][1];
      for (int J = 0; J < N; ++J) {
        Even[J] = fma_step(Even[J], A0, BF[P][0][J]);
        Odd[J] = fma_step(Odd[J], A1, BF[P][1][J]);
      }
    }
    for (int J = 0; J < N; ++J) {
      float C = daz(bits_f32(load_u32(&Acc[I][4 * J])));
      /* C + (Even + Odd), in the operand order the hardware propagates NaN
       * payloads in. */
      float R = fma_step(fma_step(Odd[J], Even[J], 1.0f), C, 1.0f);
      uint32_t U = f32_bits(R);
      memcpy(&Out[I][4 * J], &U, sizeof(U));
    }
  }
}

typedef void FloatKernel(int, int, int, uint8_t (*)[TLXRT_AMX_MAX_COLSB],
                         const uint8_t (*)[TLXRT_AMX_MAX_COLSB],
                         const float (*)[16][2], const float (*)[2][16]);

static void float_dot_product_generic(int M, int N, int K,
                                      uint8_t (*Out)[TLXRT_AMX_MAX_COLSB],
                                      const uint8_t (*Acc)[TLXRT_AMX_MAX_COLSB],
                                      const float (*AF)[16][2],
                                      const float (*BF)[2][16]) {
  float_dot_product_body(M, N, K, Out, Acc, AF, BF);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The same code with the FMA instructions inline (bit-identical: fmaf is
 * one correctly rounded operation either way). */
__attribute__((target("fma"))) static void
float_dot_product_fma(int M, int N, int K, uint8_t (*Out)[TLXRT_AMX_MAX_COLSB],
                      const uint8_t (*Acc)[TLXRT_AMX_MAX_COLSB],
                      const float (*AF)[16][2], const float (*BF)[2][16]) {
  float_dot_product_body(M, N, K, Out, Acc, AF, BF);
}

static FloatKernel *select_float_kernel(void) {
  return __builtin_cpu_supports("fma") ? float_dot_product_fma
                                       : float_dot_product_generic;
}
#else
static FloatKernel *select_float_kernel(void) {
  return float_dot_product_generic;
}
#endif

/* Dst (zeroed outside M x NBytes) = Acc + A x B, where A is M x KBytes and B
 * is KBytes/4 x NBytes. Out is a scratch image, so any operand may alias. */
static void dot_product(tlxrt_amx_dp Kind, int M, int NBytes, int KBytes,
                        uint8_t (*Dst)[TLXRT_AMX_MAX_COLSB],
                        const uint8_t (*Acc)[TLXRT_AMX_MAX_COLSB],
                        const uint8_t (*A)[TLXRT_AMX_MAX_COLSB],
                        const uint8_t (*B)[TLXRT_AMX_MAX_COLSB]) {
  RowImage Out;
  memset(Out, 0, sizeof(Out));
  int N = NBytes / 4, K = KBytes / 4;
  if (Kind != TLXRT_AMX_TDPBF16PS && Kind != TLXRT_AMX_TDPFP16PS) {
    int_dot_product(Kind, M, N, KBytes, Out, Acc, A, B);
  } else {
    float (*Cvt)(uint16_t) =
        Kind == TLXRT_AMX_TDPBF16PS ? bf16_to_f32 : fp16_to_f32;
    float AF[16][16][2], BF[16][2][16];
    for (int I = 0; I < M; ++I)
      for (int P = 0; P < K; ++P)
        for (int H = 0; H < 2; ++H)
          AF[I][P][H] = daz(Cvt(load_u16(&A[I][4 * P + 2 * H])));
    for (int P = 0; P < K; ++P)
      for (int H = 0; H < 2; ++H)
        for (int J = 0; J < N; ++J)
          BF[P][H][J] = daz(Cvt(load_u16(&B[P][4 * J + 2 * H])));
    static FloatKernel *_Atomic Kernel;
    FloatKernel *F = atomic_load_explicit(&Kernel, memory_order_relaxed);
    if (!F) {
      F = select_float_kernel();
      atomic_store_explicit(&Kernel, F, memory_order_relaxed);
    }
    F(M, N, K, Out, Acc, (const float(*)[16][2])AF, (const float(*)[2][16])BF);
  }
  memcpy(Dst, Out, sizeof(Out));
}

/* Copies Rows x ColsB bytes from memory into a zeroed register image. */
static void load_rows(uint8_t (*Dst)[TLXRT_AMX_MAX_COLSB], int StartRow,
                      int Rows, int ColsB, const void *Base, int64_t Stride) {
  if (StartRow == 0)
    memset(Dst, 0, sizeof(RowImage));
  for (int R = StartRow; R < Rows; ++R)
    memcpy(Dst[R], (const uint8_t *)Base + (int64_t)R * Stride, (size_t)ColsB);
}

static void store_rows(const uint8_t (*Src)[TLXRT_AMX_MAX_COLSB], int StartRow,
                       int Rows, int ColsB, void *Base, int64_t Stride) {
  for (int R = StartRow; R < Rows; ++R)
    memcpy((uint8_t *)Base + (int64_t)R * Stride, Src[R], (size_t)ColsB);
}

/*===--- Register-number instructions: per-thread tile state
 * ---------------===*/

typedef struct AMXState {
  int Palette; /* 0: init state (unconfigured), 1: configured */
  int StartRow;
  uint16_t ColsB[TLXRT_AMX_NUM_TILES];
  uint8_t Rows[TLXRT_AMX_NUM_TILES];
  _Alignas(64)
      uint8_t Tmm[TLXRT_AMX_NUM_TILES][TLXRT_AMX_MAX_ROWS][TLXRT_AMX_MAX_COLSB];
} AMXState;

static _Thread_local AMXState State;

void tlxrt_amx_emu_tilerelease(void) { memset(&State, 0, sizeof(State)); }

void tlxrt_amx_emu_ldtilecfg(const void *config64) {
  const uint8_t *C = config64;
  if (C[0] == 0) { /* palette 0: the init state */
    tlxrt_amx_emu_tilerelease();
    return;
  }
  if (C[0] != 1) {
    fail("ldtilecfg", "palette %d is not supported (only 0 and 1)", C[0]);
    return;
  }
  for (int I = 2; I < 16; ++I)
    if (C[I]) {
      fail("ldtilecfg", "reserved byte %d is %d, must be zero", I, C[I]);
      return;
    }
  for (int I = 32; I < 48; ++I)
    if (C[I]) {
      fail("ldtilecfg",
           "reserved byte %d (colsb of tile %d) is %d, must be zero", I,
           8 + (I - 32) / 2, C[I]);
      return;
    }
  for (int I = 56; I < 64; ++I)
    if (C[I]) {
      fail("ldtilecfg",
           "reserved byte %d (rows of tile %d) is %d, must be zero", I,
           8 + (I - 56), C[I]);
      return;
    }
  uint16_t ColsB[TLXRT_AMX_NUM_TILES];
  for (int T = 0; T < TLXRT_AMX_NUM_TILES; ++T) {
    ColsB[T] = load_u16(&C[16 + 2 * T]);
    int Rows = C[48 + T];
    if (Rows > TLXRT_AMX_MAX_ROWS) {
      fail("ldtilecfg", "tile %d: rows %d > 16", T, Rows);
      return;
    }
    if (ColsB[T] > TLXRT_AMX_MAX_COLSB) {
      fail("ldtilecfg", "tile %d: colsb %d > 64", T, ColsB[T]);
      return;
    }
    if ((Rows == 0) != (ColsB[T] == 0)) {
      fail("ldtilecfg",
           "tile %d: rows %d and colsb %d must be both zero (unused) "
           "or both non-zero",
           T, Rows, ColsB[T]);
      return;
    }
  }
  /* Like the hardware, a new configuration zeroes every tile. */
  memset(&State, 0, sizeof(State));
  State.Palette = 1;
  State.StartRow = C[1];
  memcpy(State.ColsB, ColsB, sizeof(ColsB));
  memcpy(State.Rows, &C[48], TLXRT_AMX_NUM_TILES);
}

void tlxrt_amx_emu_sttilecfg(void *config64) {
  uint8_t *C = config64;
  memset(C, 0, 64);
  if (State.Palette == 0)
    return;
  C[0] = (uint8_t)State.Palette;
  C[1] = (uint8_t)State.StartRow;
  for (int T = 0; T < TLXRT_AMX_NUM_TILES; ++T) {
    memcpy(&C[16 + 2 * T], &State.ColsB[T], 2);
    C[48 + T] = State.Rows[T];
  }
}

/* Checks that tile T may be used by Insn; 0 after reporting a violation. */
static int check_tile(const char *Insn, const char *Role, int T) {
  if (State.Palette == 0) {
    fail(Insn, "tile registers used before ldtilecfg (no palette configured)");
    return 0;
  }
  if (T < 0 || T >= TLXRT_AMX_NUM_TILES) {
    fail(Insn, "%s tile index %d is out of range (tmm0-tmm7)", Role, T);
    return 0;
  }
  if (State.Rows[T] == 0) {
    fail(Insn, "%s tile tmm%d is not configured (rows = colsb = 0)", Role, T);
    return 0;
  }
  return 1;
}

void tlxrt_amx_emu_tileloadd(int tile, const void *base, int64_t stride) {
  if (!check_tile("tileloadd", "destination", tile))
    return;
  load_rows(State.Tmm[tile],
            State.StartRow < State.Rows[tile] ? State.StartRow : 0,
            State.Rows[tile], State.ColsB[tile], base, stride);
  State.StartRow = 0;
}

void tlxrt_amx_emu_tilestored(int tile, void *base, int64_t stride) {
  if (!check_tile("tilestored", "source", tile))
    return;
  store_rows((const uint8_t(*)[TLXRT_AMX_MAX_COLSB])State.Tmm[tile],
             State.StartRow < State.Rows[tile] ? State.StartRow : 0,
             State.Rows[tile], State.ColsB[tile], base, stride);
  State.StartRow = 0;
}

void tlxrt_amx_emu_tilezero(int tile) {
  if (!check_tile("tilezero", "destination", tile))
    return;
  memset(State.Tmm[tile], 0, sizeof(State.Tmm[tile]));
  State.StartRow = 0;
}

/* The shape rules of the dot products (M, N, K in bytes). */
static int check_dp_shape(const char *Insn, int M, int NBytes, int KBytes) {
  if (M < 1 || M > TLXRT_AMX_MAX_ROWS) {
    fail(Insn, "M = %d rows is outside 1..16", M);
    return 0;
  }
  if (NBytes < 1 || NBytes > TLXRT_AMX_MAX_COLSB) {
    fail(Insn, "N = %d bytes per row is outside 1..64", NBytes);
    return 0;
  }
  if (KBytes < 1 || KBytes > TLXRT_AMX_MAX_COLSB) {
    fail(Insn, "K = %d bytes is outside 1..64", KBytes);
    return 0;
  }
  if (NBytes % 4) {
    fail(Insn, "N = %d bytes per row is not a multiple of 4", NBytes);
    return 0;
  }
  if (KBytes % 4) {
    fail(Insn, "K = %d bytes is not a multiple of 4", KBytes);
    return 0;
  }
  return 1;
}

void tlxrt_amx_emu_tdp(tlxrt_amx_dp kind, int dst, int src1, int src2) {
  const char *Insn = dp_name(kind);
  if (!check_tile(Insn, "destination", dst) ||
      !check_tile(Insn, "src1", src1) || !check_tile(Insn, "src2", src2))
    return;
  if (dst == src1 || dst == src2 || src1 == src2) {
    fail(Insn, "tile operands must be distinct (tmm%d, tmm%d, tmm%d)", dst,
         src1, src2);
    return;
  }
  int M = State.Rows[dst], N = State.ColsB[dst], K = State.ColsB[src1];
  if (State.Rows[src1] != M) {
    fail(Insn, "M mismatch: destination tmm%d has %d rows, src1 tmm%d has %d",
         dst, M, src1, State.Rows[src1]);
    return;
  }
  if (State.ColsB[src2] != N) {
    fail(Insn,
         "N mismatch: destination tmm%d has colsb %d, src2 tmm%d has "
         "colsb %d",
         dst, N, src2, State.ColsB[src2]);
    return;
  }
  if (!check_dp_shape(Insn, M, N, K))
    return;
  if (State.Rows[src2] != K / 4) {
    fail(Insn,
         "K mismatch: src1 tmm%d has colsb %d, so src2 tmm%d needs %d "
         "rows, not %d",
         src1, K, src2, K / 4, State.Rows[src2]);
    return;
  }
  dot_product(kind, M, N, K, State.Tmm[dst],
              (const uint8_t(*)[TLXRT_AMX_MAX_COLSB])State.Tmm[dst],
              (const uint8_t(*)[TLXRT_AMX_MAX_COLSB])State.Tmm[src1],
              (const uint8_t(*)[TLXRT_AMX_MAX_COLSB])State.Tmm[src2]);
  State.StartRow = 0;
}

/*===--- Shape-carrying instructions on tile buffers
 * -----------------------===*/

static void set_shape(tlxrt_amx_tile *T, int Rows, int ColsB) {
  T->rows = (uint16_t)Rows;
  T->colsb = (uint16_t)ColsB;
  T->magic = TLXRT_AMX_TILE_MAGIC;
}

static int check_shape(const char *Insn, int Rows, int ColsB) {
  if (Rows < 1 || Rows > TLXRT_AMX_MAX_ROWS) {
    fail(Insn, "rows = %d is outside 1..16", Rows);
    return 0;
  }
  if (ColsB < 1 || ColsB > TLXRT_AMX_MAX_COLSB) {
    fail(Insn, "colsb = %d is outside 1..64", ColsB);
    return 0;
  }
  return 1;
}

/* Checks that operand T (of role Role) holds a Rows x ColsB tile. A tile of
 * unknown shape (from a vector) takes the shape of its use. */
static int check_operand(const char *Insn, const char *Role,
                         const tlxrt_amx_tile *T, int Rows, int ColsB) {
  if (T->magic != TLXRT_AMX_TILE_MAGIC) {
    fail(Insn, "%s is not a defined tile (used before it was written)", Role);
    return 0;
  }
  if (T->rows == 0 && T->colsb == 0)
    return 1;
  if (T->rows != Rows || T->colsb != ColsB) {
    fail(Insn,
         "%s was defined as %d rows x %d bytes but is used as %d rows x %d "
         "bytes",
         Role, T->rows, T->colsb, Rows, ColsB);
    return 0;
  }
  return 1;
}

void tlxrt_amx_emu_tile_undef(tlxrt_amx_tile *dst) {
  memset(dst, 0, sizeof(*dst));
  set_shape(dst, 0, 0);
}

void tlxrt_amx_emu_tileloadd_internal(tlxrt_amx_tile *dst, int rows, int colsb,
                                      const void *base, int64_t stride) {
  if (!check_shape("tileloadd", rows, colsb))
    return;
  load_rows(dst->data, 0, rows, colsb, base, stride);
  set_shape(dst, rows, colsb);
}

void tlxrt_amx_emu_tilezero_internal(tlxrt_amx_tile *dst, int rows, int colsb) {
  if (!check_shape("tilezero", rows, colsb))
    return;
  memset(dst->data, 0, sizeof(dst->data));
  set_shape(dst, rows, colsb);
}

void tlxrt_amx_emu_tilestored_internal(const tlxrt_amx_tile *src, int rows,
                                       int colsb, void *base, int64_t stride) {
  if (!check_shape("tilestored", rows, colsb) ||
      !check_operand("tilestored", "the stored tile", src, rows, colsb))
    return;
  store_rows((const uint8_t(*)[TLXRT_AMX_MAX_COLSB])src->data, 0, rows, colsb,
             base, stride);
}

void tlxrt_amx_emu_tdp_internal(tlxrt_amx_dp kind, int m, int n, int k,
                                tlxrt_amx_tile *dst, const tlxrt_amx_tile *acc,
                                const tlxrt_amx_tile *src1,
                                const tlxrt_amx_tile *src2) {
  const char *Insn = dp_name(kind);
  if (!check_dp_shape(Insn, m, n, k) ||
      !check_operand(Insn, "the accumulator (dst)", acc, m, n) ||
      !check_operand(Insn, "src1", src1, m, k) ||
      !check_operand(Insn, "src2", src2, k / 4, n))
    return;
  dot_product(kind, m, n, k, dst->data,
              (const uint8_t(*)[TLXRT_AMX_MAX_COLSB])acc->data,
              (const uint8_t(*)[TLXRT_AMX_MAX_COLSB])src1->data,
              (const uint8_t(*)[TLXRT_AMX_MAX_COLSB])src2->data);
  set_shape(dst, m, n);
}

void tlxrt_amx_emu_tile_from_vector(tlxrt_amx_tile *dst, const void *vec1024) {
  memmove(dst->data, vec1024, sizeof(dst->data));
  set_shape(dst, 0, 0);
}

void tlxrt_amx_emu_tile_to_vector(void *vec1024, const tlxrt_amx_tile *src) {
  if (src->magic != TLXRT_AMX_TILE_MAGIC) {
    fail("cast.tile.to.vector",
         "the tile is not defined (used before it was written)");
    return;
  }
  memmove(vec1024, src->data, sizeof(src->data));
}

void tlxrt_amx_emu_tile_copy(tlxrt_amx_tile *dst, const tlxrt_amx_tile *src) {
  if (dst != src)
    memcpy(dst, src, sizeof(*dst));
}
