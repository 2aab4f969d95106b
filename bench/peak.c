/* peak.c - the peak arithmetic rate of one core of this machine, per data
 * type, measured with its own widest FMA / dot-product instructions.
 *
 * Builds and runs on any x86-64 machine: every kernel is compiled for its
 * ISA with __attribute__((target(...))) and run only where CPUID says the
 * CPU has it (__builtin_cpu_supports, plus CPUID leaf 7 for AMX), so
 * `clang -O2 bench/peak.c` without -march is the intended build.
 *
 * Each kernel keeps independent accumulators in registers (more than the
 * instruction's latency x throughput needs) and repeats a block of
 * instructions with no memory operands; the best of several timed runs
 * counts (the first ones warm the core up). One line per type on stdout:
 *
 *   peak TYPE RATE INSTRUCTION (NOTE)
 *
 * TYPE: f32 (GFLOP/s), int8 (GOP/s: u8 x s8 multiply-adds, 2 ops each),
 * bf16 (GFLOP/s), and amx-int8 / amx-bf16 where the CPU has AMX. Which
 * instruction measures int8:
 *  - vpdpbusd zmm (AVX512-VNNI), else vpdpbusd ymm (AVX-VNNI): exact;
 *  - else vpmaddwd + vpaddd on s8 widened to s16 (exact for any s8/u8
 *    data); the line "peak int8-sat" also gives vpmaddubsw + vpmaddwd +
 *    vpaddd, which is faster but saturates the 16-bit pair sums (u8 x s8
 *    pairs above 32767 clip), so it is not a valid int8 GEMM in general.
 * bf16 without a bf16 dot product (no AVX512-BF16): the f32 FMA rate, as
 * bf16 data is then widened to f32 and multiplied with FMAs.
 *
 * BENCH_CPU_FLAGS (a /proc/cpuinfo "flags" string, as bench/run reads it):
 * when set, a feature is used only if CPUID has it AND the string names it
 * (avx2, fma, avx512f, avx512_vnni, avx_vnni, avx512_bf16, amx_tile,
 * amx_int8, amx_bf16) - to see what an older CPU would measure. It can
 * only take features away.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Sinks and sources the compiler cannot see through. */
static volatile float vsrc_f = 0.999999f, vsrc_g = 1e-7f;
static volatile int32_t vsrc_i = 0x01020304;
static volatile double sink;

/* A flag in BENCH_CPU_FLAGS (whole words only). */
static int allowed(const char *flag) {
  const char *s = getenv("BENCH_CPU_FLAGS");
  if (!s)
    return 1;
  size_t n = strlen(flag);
  for (const char *p = s; (p = strstr(p, flag)); p += n)
    if ((p == s || p[-1] == ' ' || p[-1] == '\t') &&
        (p[n] == 0 || p[n] == ' ' || p[n] == '\t' || p[n] == '\n'))
      return 1;
  return 0;
}

/* Runs KERNEL(iters) (returning a value to sink) several times; returns the
 * best rate in G-ops/s for OPS_PER_ITER operations per iteration. */
#define BEST_RATE(kernel, iters, ops_per_iter)                                 \
  ({                                                                           \
    double best_ = 1e30;                                                       \
    for (int r_ = 0; r_ < 7; ++r_) {                                           \
      double t0_ = now();                                                      \
      sink = kernel(iters);                                                    \
      double t_ = now() - t0_;                                                 \
      best_ = t_ < best_ ? t_ : best_;                                         \
    }                                                                          \
    (double)(iters) * (ops_per_iter) / best_ * 1e-9;                           \
  })

/* 16 zmm or 12 ymm accumulators: FMA latency 4-5 cycles x 2 pipes needs
 * 8-10 chains. */
#define REP16(X)                                                               \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13)    \
      X(14) X(15)
#define REP12(X)                                                               \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)

/*===--- f32 FMA ----------------------------------------------------------===*/

__attribute__((target("avx512f"))) static double fma_zmm(long iters) {
  __m512 x = _mm512_set1_ps(vsrc_f), y = _mm512_set1_ps(vsrc_g);
#define DECL(i) __m512 a##i = _mm512_set1_ps((float)(i));
  REP16(DECL)
#undef DECL
  for (long it = 0; it < iters; ++it) {
#define STEP(i) a##i = _mm512_fmadd_ps(a##i, x, y);
    REP16(STEP)
#undef STEP
    __asm__ volatile("" ::: "memory");
  }
  __m512 s = _mm512_setzero_ps();
#define SUM(i) s = _mm512_add_ps(s, a##i);
  REP16(SUM)
#undef SUM
  return _mm512_reduce_add_ps(s);
}

__attribute__((target("avx2,fma"))) static double fma_ymm(long iters) {
  __m256 x = _mm256_set1_ps(vsrc_f), y = _mm256_set1_ps(vsrc_g);
#define DECL(i) __m256 a##i = _mm256_set1_ps((float)(i));
  REP12(DECL)
#undef DECL
  for (long it = 0; it < iters; ++it) {
#define STEP(i) a##i = _mm256_fmadd_ps(a##i, x, y);
    REP12(STEP)
#undef STEP
    __asm__ volatile("" ::: "memory");
  }
  __m256 s = _mm256_setzero_ps();
#define SUM(i) s = _mm256_add_ps(s, a##i);
  REP12(SUM)
#undef SUM
  float out[8];
  _mm256_storeu_ps(out, s);
  return out[0] + out[7];
}

/* SSE2 (every x86-64): mul + add, no FMA. */
static double mul_add_xmm(long iters) {
  __m128 x = _mm_set1_ps(vsrc_f), y = _mm_set1_ps(vsrc_g);
#define DECL(i) __m128 a##i = _mm_set1_ps((float)(i));
  REP12(DECL)
#undef DECL
  for (long it = 0; it < iters; ++it) {
#define STEP(i) a##i = _mm_add_ps(_mm_mul_ps(a##i, x), y);
    REP12(STEP)
#undef STEP
    __asm__ volatile("" ::: "memory");
  }
  __m128 s = _mm_setzero_ps();
#define SUM(i) s = _mm_add_ps(s, a##i);
  REP12(SUM)
#undef SUM
  float out[4];
  _mm_storeu_ps(out, s);
  return out[0] + out[3];
}

/*===--- int8 dot products ------------------------------------------------===*/

__attribute__((target("avx512f,avx512vnni"))) static double
dpbusd_zmm(long iters) {
  __m512i x = _mm512_set1_epi32(vsrc_i), y = _mm512_set1_epi32(vsrc_i + 1);
#define DECL(i) __m512i a##i = _mm512_set1_epi32(i);
  REP16(DECL)
#undef DECL
  for (long it = 0; it < iters; ++it) {
#define STEP(i) a##i = _mm512_dpbusd_epi32(a##i, x, y);
    REP16(STEP)
#undef STEP
    __asm__ volatile("" ::: "memory");
  }
  __m512i s = _mm512_setzero_si512();
#define SUM(i) s = _mm512_add_epi32(s, a##i);
  REP16(SUM)
#undef SUM
  return _mm512_reduce_add_epi32(s);
}

__attribute__((target("avx2,avxvnni"))) static double dpbusd_ymm(long iters) {
  __m256i x = _mm256_set1_epi32(vsrc_i), y = _mm256_set1_epi32(vsrc_i + 1);
#define DECL(i) __m256i a##i = _mm256_set1_epi32(i);
  REP12(DECL)
#undef DECL
  for (long it = 0; it < iters; ++it) {
#define STEP(i) a##i = _mm256_dpbusd_avx_epi32(a##i, x, y);
    REP12(STEP)
#undef STEP
    __asm__ volatile("" ::: "memory");
  }
  __m256i s = _mm256_setzero_si256();
#define SUM(i) s = _mm256_add_epi32(s, a##i);
  REP12(SUM)
#undef SUM
  return _mm256_extract_epi32(s, 0) + _mm256_extract_epi32(s, 7);
}

/* Exact AVX2 int8: s8 data widened to s16 (done once per loaded vector in
 * a GEMM, not counted here), vpmaddwd (16 multiply-adds per ymm into 8
 * i32 pair sums) + vpaddd into the accumulators. 8 distinct products per
 * iteration (x, y x b0..b3; x and y opaque each iteration, so nothing is
 * hoisted or shared) into 8 accumulators: 14 ymm registers of 16. */
#define ISA_AVX2_INT8(name, target_, T, set1, add, madd, zero, PRODUCT, last)  \
  __attribute__((target(target_))) static double name(long iters) {           \
    T x = set1(vsrc_i), y = set1(vsrc_i + 1), ones = set1(0x00010001);         \
    T b0 = set1(vsrc_i + 2), b1 = set1(vsrc_i + 3), b2 = set1(vsrc_i + 4),     \
      b3 = set1(vsrc_i + 5);                                                   \
    T a0 = zero(), a1 = zero(), a2 = zero(), a3 = zero(), a4 = zero(),         \
      a5 = zero(), a6 = zero(), a7 = zero();                                   \
    for (long it = 0; it < iters; ++it) {                                      \
      a0 = add(a0, PRODUCT(x, b0));                                            \
      a1 = add(a1, PRODUCT(x, b1));                                            \
      a2 = add(a2, PRODUCT(x, b2));                                            \
      a3 = add(a3, PRODUCT(x, b3));                                            \
      a4 = add(a4, PRODUCT(y, b0));                                            \
      a5 = add(a5, PRODUCT(y, b1));                                            \
      a6 = add(a6, PRODUCT(y, b2));                                            \
      a7 = add(a7, PRODUCT(y, b3));                                            \
      __asm__ volatile("" : "+x"(x), "+x"(y));                                 \
    }                                                                          \
    (void)ones;                                                                \
    T s = add(add(add(a0, a1), add(a2, a3)), add(add(a4, a5), add(a6, a7)));   \
    return last(s);                                                            \
  }

static inline __attribute__((target("avx2"))) int last_ymm(__m256i s) {
  return _mm256_extract_epi32(s, 0) + _mm256_extract_epi32(s, 7);
}
static inline int last_xmm(__m128i s) { return _mm_cvtsi128_si32(s); }

#define MADDWD_YMM(p, q) _mm256_madd_epi16(p, q)
ISA_AVX2_INT8(maddwd_ymm, "avx2", __m256i, _mm256_set1_epi32,
              _mm256_add_epi32, _mm256_madd_epi16, _mm256_setzero_si256,
              MADDWD_YMM, last_ymm)

/* Saturating AVX2 int8 (what int8 GEMMs without VNNI often use): vpmaddubsw
 * (u8 x s8 pairs -> s16, saturating) + vpmaddwd by ones + vpaddd: 32
 * multiply-adds per ymm. */
#define MADDUBSW_YMM(p, q) _mm256_madd_epi16(_mm256_maddubs_epi16(p, q), ones)
ISA_AVX2_INT8(maddubsw_ymm, "avx2", __m256i, _mm256_set1_epi32,
              _mm256_add_epi32, _mm256_madd_epi16, _mm256_setzero_si256,
              MADDUBSW_YMM, last_ymm)

/* SSE2: pmaddwd xmm + paddd (8 multiply-adds). */
#define MADDWD_XMM(p, q) _mm_madd_epi16(p, q)
ISA_AVX2_INT8(maddwd_xmm, "sse2", __m128i, _mm_set1_epi32, _mm_add_epi32,
              _mm_madd_epi16, _mm_setzero_si128, MADDWD_XMM, last_xmm)

/*===--- bf16 dot products ------------------------------------------------===*/

__attribute__((target("avx512f,avx512bf16"))) static double
dpbf16_zmm(long iters) {
  __m512bh x = (__m512bh)_mm512_set1_epi32(0x3f803f80); /* 1.0, 1.0 */
  __m512bh y = (__m512bh)_mm512_set1_epi32(0x33d633d6); /* 1e-7 */
  x = (__m512bh)_mm512_add_epi32((__m512i)x, _mm512_set1_epi32(vsrc_i & 0));
#define DECL(i) __m512 a##i = _mm512_set1_ps((float)(i));
  REP16(DECL)
#undef DECL
  for (long it = 0; it < iters; ++it) {
#define STEP(i) a##i = _mm512_dpbf16_ps(a##i, x, y);
    REP16(STEP)
#undef STEP
    __asm__ volatile("" ::: "memory");
  }
  __m512 s = _mm512_setzero_ps();
#define SUM(i) s = _mm512_add_ps(s, a##i);
  REP16(SUM)
#undef SUM
  return _mm512_reduce_add_ps(s);
}

/*===--- AMX --------------------------------------------------------------===*/

#define ARCH_REQ_XCOMP_PERM 0x1023
#define XFEATURE_XTILEDATA 18

/* AMX-TILE / -INT8 / -BF16: CPUID.(EAX=7,ECX=0):EDX bits 24, 25, 22. */
static int cpu_amx(int bit) {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
    return 0;
  return (d >> bit) & 1;
}

static int amx_enable(void) {
  return syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) == 0;
}

struct tile_config {
  uint8_t palette, start_row, reserved[14];
  uint16_t colsb[16];
  uint8_t rows[16];
};

/* Full 16 x 64-byte tiles: 4 accumulators (tmm0-3) from 2 A (tmm4-5) and
 * 2 B (tmm6-7) tiles, as a 2 x 2 GEMM kernel uses them; one tile product
 * takes 16 cycles, so 4 chains cover its latency. */
__attribute__((target("amx-tile"))) static void amx_config(void) {
  static struct tile_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.palette = 1;
  for (int t = 0; t < 8; ++t) {
    cfg.rows[t] = 16;
    cfg.colsb[t] = 64;
  }
  _tile_loadconfig(&cfg);
}

static _Alignas(64) uint8_t amx_src[1024];
static _Alignas(64) int32_t amx_dst[256];

__attribute__((target("amx-tile,amx-int8"))) static double
tdpbssd_loop(long iters) {
  amx_config();
  _tile_loadd(4, amx_src, 64);
  _tile_loadd(5, amx_src, 64);
  _tile_loadd(6, amx_src, 64);
  _tile_loadd(7, amx_src, 64);
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  for (long it = 0; it < iters; ++it) {
    _tile_dpbssd(0, 4, 6);
    _tile_dpbssd(1, 4, 7);
    _tile_dpbssd(2, 5, 6);
    _tile_dpbssd(3, 5, 7);
  }
  _tile_stored(0, amx_dst, 64);
  _tile_release();
  return amx_dst[0];
}

__attribute__((target("amx-tile,amx-bf16"))) static double
tdpbf16ps_loop(long iters) {
  amx_config();
  _tile_loadd(4, amx_src, 64);
  _tile_loadd(5, amx_src, 64);
  _tile_loadd(6, amx_src, 64);
  _tile_loadd(7, amx_src, 64);
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  for (long it = 0; it < iters; ++it) {
    _tile_dpbf16ps(0, 4, 6);
    _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6);
    _tile_dpbf16ps(3, 5, 7);
  }
  _tile_stored(0, amx_dst, 64);
  _tile_release();
  return amx_dst[0];
}

/*===--- Read bandwidth ---------------------------------------------------===*/

/* STREAM-style reads: a sum over a buffer, eight independent vector
 * accumulators, `passes` times - what a reduction of that buffer can reach
 * at best (bench/tlx_reduce.c's rows are shown as a % of it). */
static float *read_buf;
static size_t read_floats; /* a multiple of 64 */

__attribute__((target("avx2"))) static double read_ymm(long passes) {
  __m256 s[8];
  for (int j = 0; j < 8; ++j)
    s[j] = _mm256_setzero_ps();
  for (long p = 0; p < passes; ++p) {
    for (size_t i = 0; i < read_floats; i += 64)
      for (int j = 0; j < 8; ++j)
        s[j] = _mm256_add_ps(s[j], _mm256_load_ps(read_buf + i + 8 * j));
    __asm__ volatile("" ::: "memory");
  }
  for (int j = 1; j < 8; ++j)
    s[0] = _mm256_add_ps(s[0], s[j]);
  float out[8];
  _mm256_storeu_ps(out, s[0]);
  return out[0];
}

static double read_xmm(long passes) {
  __m128 s[8];
  for (int j = 0; j < 8; ++j)
    s[j] = _mm_setzero_ps();
  for (long p = 0; p < passes; ++p) {
    for (size_t i = 0; i < read_floats; i += 32)
      for (int j = 0; j < 8; ++j)
        s[j] = _mm_add_ps(s[j], _mm_load_ps(read_buf + i + 4 * j));
    __asm__ volatile("" ::: "memory");
  }
  for (int j = 1; j < 8; ++j)
    s[0] = _mm_add_ps(s[0], s[j]);
  return _mm_cvtss_f32(s[0]);
}

/* Prints "peak read-<MiB>MiB GB/s how" for a buffer of \p mib MiB read
 * \p passes times per timed run. */
static void read_bandwidth(int avx2, size_t mib, long passes,
                           const char *where) {
  read_floats = mib << 18;
  read_buf = aligned_alloc(64, read_floats * sizeof(float));
  if (!read_buf)
    return;
  for (size_t i = 0; i < read_floats; ++i)
    read_buf[i] = 1.0f;
  double bytes = (double)read_floats * sizeof(float);
  double rate = avx2 ? BEST_RATE(read_ymm, passes, bytes)
                     : BEST_RATE(read_xmm, passes, bytes);
  printf("peak read-%zuMiB %.1f %s loads, 8 accumulators (%s)\n", mib, rate,
         avx2 ? "vmovaps ymm" : "movaps xmm", where);
  free(read_buf);
}

/*===--- Driver -----------------------------------------------------------===*/

/* Iterations per timed run: about 20-50 ms at the expected rates. */
enum { ITERS = 4000000, AMX_ITERS = 400000 };

int main(void) {
  __builtin_cpu_init();
  int avx512f = __builtin_cpu_supports("avx512f") && allowed("avx512f");
  int avx2 = __builtin_cpu_supports("avx2") && allowed("avx2");
  int fma = __builtin_cpu_supports("fma") && allowed("fma");
  int vnni512 =
      avx512f && __builtin_cpu_supports("avx512vnni") && allowed("avx512_vnni");
  int avxvnni =
      avx2 && __builtin_cpu_supports("avxvnni") && allowed("avx_vnni");
  int bf16 =
      avx512f && __builtin_cpu_supports("avx512bf16") && allowed("avx512_bf16");
  int amx_tile = cpu_amx(24) && allowed("amx_tile");
  int amx_int8 = amx_tile && cpu_amx(25) && allowed("amx_int8");
  int amx_bf16 = amx_tile && cpu_amx(22) && allowed("amx_bf16");

  /* Warm up (frequency ramp, AVX-512 license). */
  sink = avx512f ? fma_zmm(ITERS) : avx2 && fma ? fma_ymm(ITERS)
                                                : mul_add_xmm(ITERS);

  double f32;
  const char *f32_how;
  if (avx512f) {
    f32 = BEST_RATE(fma_zmm, ITERS, 16 * 16 * 2);
    f32_how = "vfmadd231ps zmm (16 accumulators)";
  } else if (avx2 && fma) {
    f32 = BEST_RATE(fma_ymm, ITERS, 12 * 8 * 2);
    f32_how = "vfmadd231ps ymm (12 accumulators)";
  } else {
    f32 = BEST_RATE(mul_add_xmm, ITERS, 12 * 4 * 2);
    f32_how = "mulps + addps xmm (no FMA)";
  }
  printf("peak f32 %.1f %s\n", f32, f32_how);

  if (vnni512)
    printf("peak int8 %.1f vpdpbusd zmm (AVX512-VNNI, exact)\n",
           BEST_RATE(dpbusd_zmm, ITERS, 16 * 64 * 2));
  else if (avxvnni)
    printf("peak int8 %.1f vpdpbusd ymm (AVX-VNNI, exact)\n",
           BEST_RATE(dpbusd_ymm, ITERS, 12 * 32 * 2));
  else if (avx2) {
    printf("peak int8 %.1f vpmaddwd + vpaddd ymm (s8 widened to s16: exact; "
           "no VNNI)\n",
           BEST_RATE(maddwd_ymm, ITERS, 8 * 16 * 2));
    printf("peak int8-sat %.1f vpmaddubsw + vpmaddwd + vpaddd ymm "
           "(saturates 16-bit pair sums: not exact)\n",
           BEST_RATE(maddubsw_ymm, ITERS, 8 * 32 * 2));
  } else
    printf("peak int8 %.1f pmaddwd + paddd xmm (s8 widened to s16: exact; "
           "SSE2 only)\n",
           BEST_RATE(maddwd_xmm, ITERS, 8 * 8 * 2));

  if (bf16)
    printf("peak bf16 %.1f vdpbf16ps zmm (AVX512-BF16)\n",
           BEST_RATE(dpbf16_zmm, ITERS, 16 * 32 * 2));
  else
    printf("peak bf16 %.1f the f32 rate (no bf16 dot product "
           "instruction: bf16 is widened to f32)\n",
           f32);

  read_bandwidth(avx2, 16, 40, "16 MiB: the last-level cache of the CPUs "
                              "measured so far, as bench/tlx_reduce.c's matrix");
  read_bandwidth(avx2, 512, 2, "512 MiB: main memory");

  if ((amx_int8 || amx_bf16) && !amx_enable()) {
    printf("peak amx FAILED arch_prctl(ARCH_REQ_XCOMP_PERM) refused\n");
    return 0;
  }
  if (amx_int8) {
    sink = tdpbssd_loop(AMX_ITERS);
    printf("peak amx-int8 %.1f tdpbssd (4 accumulator tiles)\n",
           BEST_RATE(tdpbssd_loop, AMX_ITERS, 4 * 16 * 16 * 64 * 2));
  }
  if (amx_bf16)
    printf("peak amx-bf16 %.1f tdpbf16ps (4 accumulator tiles)\n",
           BEST_RATE(tdpbf16ps_loop, AMX_ITERS, 4 * 16 * 16 * 32 * 2));
  return 0;
}
