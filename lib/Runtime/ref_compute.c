/* ref_compute.c - the reference ops that compute: matmul, the mma family,
 * contract, convolution, the elementwise math ops and reduce-window.
 *
 * Accumulation (docs/decisions.md): integers in uint64_t, wrapped to the
 * element width on store; floats in float for f16/bf16/f32 results (one
 * rounding to f16/bf16 at the end) and in double for f64, multiply and add
 * rounded separately (no FMA contraction), summing in index order.
 */
#include "ref_internal.h"

#include <math.h>
#include <string.h>

/* No FMA contraction in the oracle; CMake passes -ffp-contract=off too. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

/*===--------------------------- accumulation ---------------------------===*/

/* Operand element types that widen exactly to the result type: integers to
 * a wider-or-equal integer, f16/bf16 to f32/f64, f32 to f64. */
static int widensTo(tlx_dtype from, tlx_dtype to) {
  if (from == to)
    return 1;
  if (tlxrt_is_float(from) != tlxrt_is_float(to))
    return 0;
  if (!tlxrt_is_float(to))
    return tlxrt_bits(from) <= tlxrt_bits(to);
  if (to == TLX_F64)
    return 1;
  return to == TLX_F32 && (from == TLX_F16 || from == TLX_BF16);
}

static int checkWidens(const char *op, const char *name, const tlx_tensor *t,
                       const tlx_tensor *out) {
  if (widensTo(t->dtype, out->dtype))
    return 0;
  return tlxrt_fail(op, "%s element type %s does not widen to %s", name,
                    tlxrt_dtype_name(t->dtype), tlxrt_dtype_name(out->dtype));
}

/* A running sum of products in the result's accumulation type. */
typedef struct {
  tlx_dtype dtype;
  tlx_value sum;
} Accum;

static Accum accumStart(tlx_dtype dtype) {
  Accum a = {dtype, {0}};
  if (tlxrt_is_float(dtype))
    a.sum.f = 0.0;
  return a;
}

/* sum += x * y with x, y the elements of types ta and tb at pa and pb
 * (integers sign-extended). */
static void accumProductAt(Accum *acc, tlx_dtype ta, const char *pa,
                           tlx_dtype tb, const char *pb) {
  if (tlxrt_is_float(acc->dtype)) {
    double p = tlxrt_round_acc(acc->dtype,
                               tlxrt_float_at(ta, pa) * tlxrt_float_at(tb, pb));
    acc->sum.f = tlxrt_round_acc(acc->dtype, acc->sum.f + p);
    return;
  }
  acc->sum.u +=
      (uint64_t)tlxrt_signed_at(ta, pa) * (uint64_t)tlxrt_signed_at(tb, pb);
}

/* sum += x * y with x, y read from a and b at logical indices ai, bi. */
static void accumProduct(Accum *acc, const tlx_tensor *a, const int64_t *ai,
                         const tlx_tensor *b, const int64_t *bi) {
  accumProductAt(acc, a->dtype, tlxrt_element_address(a, ai), b->dtype,
                 tlxrt_element_address(b, bi));
}

/*===----------------------------- matmul -------------------------------===*/

/* Shared by matmul and the mma family: logical [.., M, K] x [.., K, N]. */
static int checkMatmulShapes(const char *op, const tlx_tensor *a,
                             const tlx_tensor *b, tlx_lshape *result) {
  tlx_lshape as, bs;
  tlxrt_lshape(a, &as);
  tlxrt_lshape(b, &bs);
  if (as.rank < 2 || as.rank != bs.rank)
    return tlxrt_fail(op, "operands need equal ranks >= 2, got %d and %d",
                      as.rank, bs.rank);
  int r = as.rank;
  for (int i = 0; i < r - 2; ++i)
    if (as.ext[i] != bs.ext[i])
      return tlxrt_fail(op, "batch dim %d differs: %lld vs %lld", i,
                        (long long)as.ext[i], (long long)bs.ext[i]);
  if (as.ext[r - 1] != bs.ext[r - 2])
    return tlxrt_fail(op, "inner extents differ: [..,%lld,%lld] x [..,%lld,%lld]",
                      (long long)as.ext[r - 2], (long long)as.ext[r - 1],
                      (long long)bs.ext[r - 2], (long long)bs.ext[r - 1]);
  *result = as;
  result->ext[r - 1] = bs.ext[r - 1];
  return 0;
}

int tlx_ref_matmul(const tlx_tensor *a, const tlx_tensor *b, tlx_tensor *out) {
  static const char *const Op = "matmul";
  tlx_lshape rs, as;
  if (tlxrt_check_input(Op, "a", a) || tlxrt_check_input(Op, "b", b) ||
      tlxrt_check_output(Op, out) || checkWidens(Op, "a", a, out) ||
      checkWidens(Op, "b", b, out) || checkMatmulShapes(Op, a, b, &rs) ||
      tlxrt_expect_lshape(Op, out, &rs))
    return -1;
  tlx_value *vals = tlxrt_alloc_values(Op, tlxrt_lshape_count(&rs));
  if (!vals)
    return -1;
  tlxrt_lshape(a, &as);
  int r = rs.rank;
  /* kk walks a's last logical dim and b's second to last. */
  int64_t stepA = tlxrt_logical_step(a, r - 1);
  int64_t stepB = tlxrt_logical_step(b, r - 2);
  int64_t idx[TLX_MAX_RANK] = {0}, ai[TLX_MAX_RANK], bi[TLX_MAX_RANK];
  int64_t k = 0;
  do {
    /* out[.., m, n] = sum over kk of a[.., m, kk] * b[.., kk, n]. */
    Accum acc = accumStart(out->dtype);
    memcpy(ai, idx, sizeof(ai));
    memcpy(bi, idx, sizeof(bi));
    ai[r - 1] = 0;
    bi[r - 2] = 0;
    const char *pa = tlxrt_element_address(a, ai);
    const char *pb = tlxrt_element_address(b, bi);
    for (int64_t kk = 0; kk < as.ext[r - 1]; ++kk)
      accumProductAt(&acc, a->dtype, pa + kk * stepA, b->dtype,
                     pb + kk * stepB);
    vals[k++] = acc.sum;
  } while (tlxrt_next_index(r, rs.ext, idx));
  return tlxrt_write_values(out, vals);
}

/*===---------------------------- mma family ----------------------------===*/

static const char *mmaName(tlx_mma_kind kind) {
  switch (kind) {
  case TLX_UMMA:
    return "umma";
  case TLX_SMMA:
    return "smma";
  case TLX_USMMA:
    return "usmma";
  case TLX_SUMMA:
    return "summa";
  }
  return "mma";
}

/* An mma operand element at p widened to 64 bits: zero- or sign-extended. */
static uint64_t loadExtended(tlx_dtype dtype, const char *p, int isUnsigned) {
  return isUnsigned ? tlxrt_unsigned_at(dtype, p)
                    : (uint64_t)tlxrt_signed_at(dtype, p);
}

int tlx_ref_mma(tlx_mma_kind kind, const tlx_tensor *acc, const tlx_tensor *a,
                const tlx_tensor *b, tlx_tensor *out) {
  const char *op = mmaName(kind);
  if ((unsigned)kind > TLX_SUMMA)
    return tlxrt_fail(op, "bad mma kind %d", (int)kind);
  tlx_lshape rs, accShape;
  if (tlxrt_check_input(op, "acc", acc) || tlxrt_check_input(op, "a", a) ||
      tlxrt_check_input(op, "b", b) || tlxrt_check_output(op, out))
    return -1;
  if (tlxrt_is_float(acc->dtype))
    return tlxrt_fail(op, "acc must have an integer element type, not %s",
                      tlxrt_dtype_name(acc->dtype));
  if (tlxrt_expect_dtype(op, "out", out, acc->dtype) ||
      checkWidens(op, "a", a, acc) || checkWidens(op, "b", b, acc) ||
      checkMatmulShapes(op, a, b, &rs))
    return -1;
  tlxrt_lshape(acc, &accShape);
  if (tlxrt_expect_lshape(op, out, &rs))
    return -1;
  if (accShape.rank != rs.rank ||
      memcmp(accShape.ext, rs.ext, sizeof(int64_t) * (size_t)rs.rank))
    return tlxrt_fail(op, "acc's logical shape differs from a x b's");
  int aUnsigned = kind == TLX_UMMA || kind == TLX_USMMA;
  int bUnsigned = kind == TLX_UMMA || kind == TLX_SUMMA;
  tlx_value *vals = tlxrt_alloc_values(op, tlxrt_lshape_count(&rs));
  if (!vals)
    return -1;
  int r = rs.rank;
  tlx_lshape as;
  tlxrt_lshape(a, &as);
  int64_t stepA = tlxrt_logical_step(a, r - 1);
  int64_t stepB = tlxrt_logical_step(b, r - 2);
  int64_t idx[TLX_MAX_RANK] = {0}, ai[TLX_MAX_RANK], bi[TLX_MAX_RANK];
  int64_t k = 0;
  do {
    uint64_t sum = (uint64_t)tlxrt_load_signed(acc, idx);
    memcpy(ai, idx, sizeof(ai));
    memcpy(bi, idx, sizeof(bi));
    ai[r - 1] = 0;
    bi[r - 2] = 0;
    const char *pa = tlxrt_element_address(a, ai);
    const char *pb = tlxrt_element_address(b, bi);
    for (int64_t kk = 0; kk < as.ext[r - 1]; ++kk)
      sum += loadExtended(a->dtype, pa + kk * stepA, aUnsigned) *
             loadExtended(b->dtype, pb + kk * stepB, bUnsigned);
    vals[k++].u = sum;
  } while (tlxrt_next_index(r, rs.ext, idx));
  return tlxrt_write_values(out, vals);
}

/*===---------------------------- contract ------------------------------===*/

int tlx_ref_contract(const tlx_tensor *a, const tlx_tensor *b, int naxes,
                     const int64_t *axes_a, const int64_t *axes_b,
                     tlx_tensor *out) {
  static const char *const Op = "contract";
  if (tlxrt_check_input(Op, "a", a) || tlxrt_check_input(Op, "b", b) ||
      tlxrt_check_output(Op, out) || checkWidens(Op, "a", a, out) ||
      checkWidens(Op, "b", b, out))
    return -1;
  tlx_lshape as, bs;
  tlxrt_lshape(a, &as);
  tlxrt_lshape(b, &bs);
  if (naxes < 0 || naxes > as.rank || naxes > bs.rank ||
      (naxes > 0 && (!axes_a || !axes_b)))
    return tlxrt_fail(Op, "bad number of contraction axes %d", naxes);
  int usedA[TLX_MAX_RANK] = {0}, usedB[TLX_MAX_RANK] = {0};
  int64_t cExt[TLX_MAX_RANK];
  for (int i = 0; i < naxes; ++i) {
    int64_t x = axes_a[i], y = axes_b[i];
    if (x < 0 || x >= as.rank || y < 0 || y >= bs.rank || usedA[x] ||
        usedB[y])
      return tlxrt_fail(Op, "contraction axis pair %d (%lld, %lld) is out of "
                            "range or repeated",
                        i, (long long)x, (long long)y);
    if (as.ext[x] != bs.ext[y])
      return tlxrt_fail(Op, "a dim %lld (extent %lld) and b dim %lld (extent "
                            "%lld) differ",
                        (long long)x, (long long)as.ext[x], (long long)y,
                        (long long)bs.ext[y]);
    usedA[x] = usedB[y] = 1;
    cExt[i] = as.ext[x];
  }
  /* Result dims: a's free dims in order, then b's (numpy tensordot); a
   * full contraction gives [1], as the IR has no rank-0 tensors. */
  tlx_lshape rs = {0, {0}};
  int freeA[TLX_MAX_RANK], freeB[TLX_MAX_RANK], nA = 0, nB = 0;
  if (as.rank + bs.rank - 2 * naxes > TLX_MAX_RANK)
    return tlxrt_fail(Op, "result rank exceeds %d", TLX_MAX_RANK);
  for (int i = 0; i < as.rank; ++i)
    if (!usedA[i]) {
      freeA[nA++] = i;
      rs.ext[rs.rank++] = as.ext[i];
    }
  for (int i = 0; i < bs.rank; ++i)
    if (!usedB[i]) {
      freeB[nB++] = i;
      rs.ext[rs.rank++] = bs.ext[i];
    }
  if (rs.rank == 0)
    rs.ext[rs.rank++] = 1;
  if (tlxrt_expect_lshape(Op, out, &rs))
    return -1;
  tlx_value *vals = tlxrt_alloc_values(Op, tlxrt_lshape_count(&rs));
  if (!vals)
    return -1;
  int64_t idx[TLX_MAX_RANK] = {0}, ai[TLX_MAX_RANK], bi[TLX_MAX_RANK];
  int64_t k = 0;
  do {
    for (int i = 0; i < nA; ++i)
      ai[freeA[i]] = idx[i];
    for (int i = 0; i < nB; ++i)
      bi[freeB[i]] = idx[nA + i];
    Accum acc = accumStart(out->dtype);
    int64_t c[TLX_MAX_RANK] = {0};
    do {
      for (int i = 0; i < naxes; ++i) {
        ai[axes_a[i]] = c[i];
        bi[axes_b[i]] = c[i];
      }
      accumProduct(&acc, a, ai, b, bi);
    } while (tlxrt_next_index(naxes, cExt, c));
    vals[k++] = acc.sum;
  } while (tlxrt_next_index(rs.rank, rs.ext, idx));
  return tlxrt_write_values(out, vals);
}

/*===--------------------------- convolution ----------------------------===*/

/* A per-spatial-dim parameter: NULL or 0 means 1. */
static int64_t paramOr1(const int64_t *v, int i) {
  return v && v[i] ? v[i] : 1;
}

int tlx_ref_convolution(const tlx_tensor *in, const tlx_tensor *kernel,
                        const int64_t *strides, const int64_t *in_dilations,
                        const int64_t *kernel_dilations, tlx_tensor *out) {
  static const char *const Op = "convolution";
  if (tlxrt_check_input(Op, "input", in) ||
      tlxrt_check_input(Op, "kernel", kernel) || tlxrt_check_output(Op, out) ||
      checkWidens(Op, "input", in, out) ||
      checkWidens(Op, "kernel", kernel, out))
    return -1;
  tlx_lshape is, ks;
  tlxrt_lshape(in, &is);
  tlxrt_lshape(kernel, &ks);
  if (is.rank < 3 || is.rank != ks.rank)
    return tlxrt_fail(Op, "input [N,C,spatial..] and kernel [O,C,spatial..] "
                          "need equal ranks >= 3, got %d and %d",
                      is.rank, ks.rank);
  if (is.ext[1] != ks.ext[1])
    return tlxrt_fail(Op, "input has %lld channels, kernel %lld",
                      (long long)is.ext[1], (long long)ks.ext[1]);
  int nsp = is.rank - 2;
  int64_t stride[TLX_MAX_RANK], inDil[TLX_MAX_RANK], kDil[TLX_MAX_RANK];
  tlx_lshape rs = is;
  rs.ext[1] = ks.ext[0];
  for (int d = 0; d < nsp; ++d) {
    stride[d] = paramOr1(strides, d);
    inDil[d] = paramOr1(in_dilations, d);
    kDil[d] = paramOr1(kernel_dilations, d);
    if (stride[d] < 1 || inDil[d] < 1 || kDil[d] < 1 ||
        stride[d] > ((int64_t)1 << 31) || inDil[d] > ((int64_t)1 << 31) ||
        kDil[d] > ((int64_t)1 << 31))
      return tlxrt_fail(Op, "stride/dilation of spatial dim %d must be in "
                            "1..2^31 (0 means 1)",
                        d);
    int64_t inSpan = (is.ext[2 + d] - 1) * inDil[d] + 1;
    int64_t kSpan = (ks.ext[2 + d] - 1) * kDil[d] + 1;
    if (kSpan > inSpan)
      return tlxrt_fail(Op, "spatial dim %d: dilated kernel (%lld) is larger "
                            "than the dilated input (%lld)",
                        d, (long long)kSpan, (long long)inSpan);
    rs.ext[2 + d] = (inSpan - kSpan) / stride[d] + 1;
  }
  if (tlxrt_expect_lshape(Op, out, &rs))
    return -1;
  tlx_value *vals = tlxrt_alloc_values(Op, tlxrt_lshape_count(&rs));
  if (!vals)
    return -1;
  /* Iterate kernel indices [c, taps..] for every output [n, o, x..]. */
  int64_t tapExt[TLX_MAX_RANK];
  tapExt[0] = ks.ext[1];
  for (int d = 0; d < nsp; ++d)
    tapExt[1 + d] = ks.ext[2 + d];
  int64_t idx[TLX_MAX_RANK] = {0}, ii[TLX_MAX_RANK], ki[TLX_MAX_RANK];
  int64_t k = 0;
  do {
    Accum acc = accumStart(out->dtype);
    int64_t tap[TLX_MAX_RANK] = {0};
    do {
      int hole = 0;
      ii[0] = idx[0];
      ii[1] = tap[0];
      ki[0] = idx[1];
      ki[1] = tap[0];
      for (int d = 0; d < nsp; ++d) {
        /* Position in the dilated input; holes between inputs read 0. */
        int64_t pos = idx[2 + d] * stride[d] + tap[1 + d] * kDil[d];
        hole |= pos % inDil[d] != 0;
        ii[2 + d] = pos / inDil[d];
        ki[2 + d] = tap[1 + d];
      }
      if (!hole)
        accumProduct(&acc, in, ii, kernel, ki);
    } while (tlxrt_next_index(1 + nsp, tapExt, tap));
    vals[k++] = acc.sum;
  } while (tlxrt_next_index(rs.rank, rs.ext, idx));
  return tlxrt_write_values(out, vals);
}

/*===---------------------------- elementwise ---------------------------===*/

static const char *unaryName(tlx_unary_op op) {
  static const char *const Names[] = {
      "tanh", "sigmoid", "relu", "sin",   "cos",  "exp",   "exp2",
      "log",  "log2",    "log10", "sqrt", "fabs", "floor", "ceil"};
  if ((unsigned)op < sizeof(Names) / sizeof(Names[0]))
    return Names[op];
  return "unary";
}

/* relu on floats is llvm.maximum(x, +0.0): NaN stays NaN, -0 gives +0. */
static float reluF(float x) { return x != x ? x : (x > 0.0f ? x : 0.0f); }
static double reluD(double x) { return x != x ? x : (x > 0.0 ? x : 0.0); }

static float applyFloat(tlx_unary_op op, float x) {
  switch (op) {
  case TLX_TANH:
    return tanhf(x);
  case TLX_SIGMOID:
    return 1.0f / (1.0f + expf(-x));
  case TLX_RELU:
    return reluF(x);
  case TLX_SIN:
    return sinf(x);
  case TLX_COS:
    return cosf(x);
  case TLX_EXP:
    return expf(x);
  case TLX_EXP2:
    return exp2f(x);
  case TLX_LOG:
    return logf(x);
  case TLX_LOG2:
    return log2f(x);
  case TLX_LOG10:
    return log10f(x);
  case TLX_SQRT:
    return sqrtf(x);
  case TLX_FABS:
    return fabsf(x);
  case TLX_FLOOR:
    return floorf(x);
  case TLX_CEIL:
    return ceilf(x);
  }
  return x;
}

static double applyDouble(tlx_unary_op op, double x) {
  switch (op) {
  case TLX_TANH:
    return tanh(x);
  case TLX_SIGMOID:
    return 1.0 / (1.0 + exp(-x));
  case TLX_RELU:
    return reluD(x);
  case TLX_SIN:
    return sin(x);
  case TLX_COS:
    return cos(x);
  case TLX_EXP:
    return exp(x);
  case TLX_EXP2:
    return exp2(x);
  case TLX_LOG:
    return log(x);
  case TLX_LOG2:
    return log2(x);
  case TLX_LOG10:
    return log10(x);
  case TLX_SQRT:
    return sqrt(x);
  case TLX_FABS:
    return fabs(x);
  case TLX_FLOOR:
    return floor(x);
  case TLX_CEIL:
    return ceil(x);
  }
  return x;
}

int tlx_ref_unary(tlx_unary_op op, const tlx_tensor *in, tlx_tensor *out) {
  const char *name = unaryName(op);
  if ((unsigned)op > TLX_CEIL)
    return tlxrt_fail(name, "bad unary op %d", (int)op);
  if (tlxrt_check_input(name, "in", in) || tlxrt_check_output(name, out) ||
      tlxrt_expect_dtype(name, "out", out, in->dtype))
    return -1;
  int isFloat = tlxrt_is_float(in->dtype);
  if (!isFloat && op != TLX_RELU)
    return tlxrt_fail(name, "needs a floating-point element type, not %s",
                      tlxrt_dtype_name(in->dtype));
  tlx_lshape s;
  tlxrt_lshape(in, &s);
  if (tlxrt_expect_lshape(name, out, &s))
    return -1;
  tlx_value *vals = tlxrt_alloc_values(name, tlxrt_lshape_count(&s));
  if (!vals)
    return -1;
  int64_t idx[TLX_MAX_RANK] = {0};
  int64_t k = 0;
  do {
    tlx_value v;
    if (!isFloat) {
      int64_t x = tlxrt_load_signed(in, idx);
      v.u = (uint64_t)(x > 0 ? x : 0);
    } else if (in->dtype == TLX_F64) {
      v.f = applyDouble(op, tlxrt_load_float(in, idx));
    } else {
      v.f = applyFloat(op, (float)tlxrt_load_float(in, idx));
    }
    vals[k++] = v;
  } while (tlxrt_next_index(s.rank, s.ext, idx));
  return tlxrt_write_values(out, vals);
}

/*===-------------------------- reduce-window ---------------------------===*/

static const char *reduceName(tlx_reduce_op op) {
  static const char *const Names[] = {"reduce.max", "reduce.min",
                                      "reduce.add", "reduce.mul",
                                      "reduce.and", "reduce.or",
                                      "reduce.xor"};
  if ((unsigned)op < sizeof(Names) / sizeof(Names[0]))
    return Names[op];
  return "reduce";
}

/* llvm.maximum/llvm.minimum: NaN wins, -0 < +0. */
static double fmaximum(double a, double b) {
  if (a != a || b != b)
    return a != a ? a : b;
  if (a == b)
    return signbit(a) ? b : a;
  return a > b ? a : b;
}

static double fminimum(double a, double b) {
  if (a != a || b != b)
    return a != a ? a : b;
  if (a == b)
    return signbit(a) ? a : b;
  return a < b ? a : b;
}

static tlx_value combineFloat(tlx_reduce_op op, tlx_dtype dtype, tlx_value x,
                              tlx_value y) {
  switch (op) {
  case TLX_REDUCE_MAX:
    x.f = fmaximum(x.f, y.f);
    break;
  case TLX_REDUCE_MIN:
    x.f = fminimum(x.f, y.f);
    break;
  case TLX_REDUCE_ADD:
    x.f = tlxrt_round_acc(dtype, x.f + y.f);
    break;
  default: /* TLX_REDUCE_MUL; and/or/xor are rejected for floats */
    x.f = tlxrt_round_acc(dtype, x.f * y.f);
    break;
  }
  return x;
}

static tlx_value combineInt(tlx_reduce_op op, tlx_value x, tlx_value y) {
  int64_t sx = (int64_t)x.u, sy = (int64_t)y.u;
  switch (op) {
  case TLX_REDUCE_MAX:
    x.u = sx >= sy ? x.u : y.u;
    break;
  case TLX_REDUCE_MIN:
    x.u = sx <= sy ? x.u : y.u;
    break;
  case TLX_REDUCE_ADD:
    x.u += y.u;
    break;
  case TLX_REDUCE_MUL:
    x.u *= y.u;
    break;
  case TLX_REDUCE_AND:
    x.u &= y.u;
    break;
  case TLX_REDUCE_OR:
    x.u |= y.u;
    break;
  case TLX_REDUCE_XOR:
    x.u ^= y.u;
    break;
  }
  return x;
}

int tlx_ref_reduce(tlx_reduce_op op, const tlx_tensor *in,
                   const int64_t *window, const int64_t *strides,
                   tlx_tensor *out) {
  const char *name = reduceName(op);
  if ((unsigned)op > TLX_REDUCE_XOR)
    return tlxrt_fail(name, "bad reduce op %d", (int)op);
  if (tlxrt_check_input(name, "in", in) || tlxrt_check_output(name, out) ||
      tlxrt_expect_dtype(name, "out", out, in->dtype))
    return -1;
  int isFloat = tlxrt_is_float(in->dtype);
  if (isFloat && op >= TLX_REDUCE_AND)
    return tlxrt_fail(name, "needs an integer element type, not %s",
                      tlxrt_dtype_name(in->dtype));
  if (!window)
    return tlxrt_fail(name, "null window");
  tlx_lshape is, rs;
  tlxrt_lshape(in, &is);
  rs = is;
  int64_t stride[TLX_MAX_RANK];
  for (int i = 0; i < is.rank; ++i) {
    stride[i] = strides ? strides[i] : 1;
    if (window[i] < 1 || window[i] > is.ext[i] || stride[i] < 1)
      return tlxrt_fail(name, "dim %d: window %lld must be in 1..%lld and "
                              "stride %lld >= 1",
                        i, (long long)window[i], (long long)is.ext[i],
                        (long long)stride[i]);
    rs.ext[i] = (is.ext[i] - window[i]) / stride[i] + 1;
  }
  if (tlxrt_expect_lshape(name, out, &rs))
    return -1;
  tlx_value *vals = tlxrt_alloc_values(name, tlxrt_lshape_count(&rs));
  if (!vals)
    return -1;
  int64_t idx[TLX_MAX_RANK] = {0}, w[TLX_MAX_RANK], ii[TLX_MAX_RANK];
  int64_t k = 0;
  do {
    /* Fold the window in row-major order, starting from its first
     * element. */
    memset(w, 0, sizeof(w));
    tlx_value acc;
    int first = 1;
    do {
      for (int i = 0; i < is.rank; ++i)
        ii[i] = idx[i] * stride[i] + w[i];
      tlx_value x = tlxrt_load_value(in, ii);
      if (first)
        acc = x;
      else
        acc = isFloat ? combineFloat(op, in->dtype, acc, x)
                      : combineInt(op, acc, x);
      first = 0;
    } while (tlxrt_next_index(is.rank, window, w));
    vals[k++] = acc;
  } while (tlxrt_next_index(rs.rank, rs.ext, idx));
  return tlxrt_write_values(out, vals);
}
