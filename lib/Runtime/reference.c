/* reference.c - tensor descriptors, element access, f16/bf16 conversion, and
 * the reference ops that only move data: copy, broadcast, fill, transpose,
 * reshape.block, reshape.permute, pad, concat.
 *
 * Obvious correctness over speed: every op walks logical indices one
 * element at a time (see ref_internal.h for the common shape of an op).
 */
#include "ref_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Extents above this are rejected so that offsets never overflow int64. */
#define TLX_MAX_EXTENT ((int64_t)1 << 31)
#define TLX_MAX_ELEMENTS ((int64_t)1 << 40)

/*===------------------------------ errors ------------------------------===*/

static _Thread_local char LastError[512];

const char *tlxrt_last_error(void) { return LastError; }

int tlxrt_fail(const char *op, const char *fmt, ...) {
  int n = snprintf(LastError, sizeof(LastError), "%s: ", op);
  if (n < 0 || (size_t)n >= sizeof(LastError))
    return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(LastError + n, sizeof(LastError) - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

/*===----------------------------- dtypes -------------------------------===*/

size_t tlx_dtype_size(tlx_dtype dtype) {
  switch (dtype) {
  case TLX_I8:
    return 1;
  case TLX_I16:
  case TLX_F16:
  case TLX_BF16:
    return 2;
  case TLX_I32:
  case TLX_F32:
    return 4;
  case TLX_I64:
  case TLX_F64:
    return 8;
  }
  return 0;
}

int tlxrt_bits(tlx_dtype dtype) { return (int)tlx_dtype_size(dtype) * 8; }

int tlxrt_is_float(tlx_dtype dtype) {
  return dtype == TLX_F16 || dtype == TLX_BF16 || dtype == TLX_F32 ||
         dtype == TLX_F64;
}

const char *tlxrt_dtype_name(tlx_dtype dtype) {
  static const char *const Names[] = {"i8",  "i16",  "i32", "i64",
                                      "f16", "bf16", "f32", "f64"};
  if ((unsigned)dtype < sizeof(Names) / sizeof(Names[0]))
    return Names[dtype];
  return "<bad dtype>";
}

/*===------------------------ f16/bf16 conversion -----------------------===*/

/* Rounds x to nearest-even in a 16-bit IEEE-style format with ebits exponent
 * and mbits mantissa bits (f16: 5/10, bf16: 8/7). Going through double is
 * exact for float inputs, so one routine serves f32 and f64 sources. */
static uint16_t roundToHalfFormat(double x, int ebits, int mbits) {
  uint64_t d;
  memcpy(&d, &x, sizeof(d));
  uint16_t sign = (uint16_t)((d >> 63) << 15);
  int exp = (int)((d >> 52) & 0x7ff);
  uint64_t mant = d & ((UINT64_C(1) << 52) - 1);
  uint16_t expAll = (uint16_t)(((1u << ebits) - 1) << mbits);
  if (exp == 0x7ff) {
    if (mant == 0)
      return sign | expAll;
    /* NaN: keep the payload's top bits and make it quiet. */
    return sign | expAll | (uint16_t)(1u << (mbits - 1)) |
           (uint16_t)(mant >> (52 - mbits));
  }
  /* Zero, or a double denormal: far below half the smallest target
   * denormal (2^-25 for f16, 2^-134 for bf16), so it rounds to zero. */
  if (exp == 0)
    return sign;
  int bias = (1 << (ebits - 1)) - 1;
  int targetExp = exp - 1023 + bias;
  uint64_t sig = (UINT64_C(1) << 52) | mant;
  int shift = 52 - mbits;
  if (targetExp < 1)
    shift += 1 - targetExp; /* denormal result: fewer mantissa bits */
  if (shift >= 54)
    return sign; /* below half the smallest denormal */
  uint64_t q = sig >> shift;
  uint64_t rem = sig & ((UINT64_C(1) << shift) - 1);
  uint64_t half = UINT64_C(1) << (shift - 1);
  if (rem > half || (rem == half && (q & 1)))
    ++q;
  if (targetExp < 1)
    return sign | (uint16_t)q; /* q == 1 << mbits is the smallest normal */
  if (q >> (mbits + 1)) {
    q >>= 1;
    ++targetExp;
  }
  if (targetExp >= (1 << ebits) - 1)
    return sign | expAll; /* overflow to infinity */
  return sign | (uint16_t)(targetExp << mbits) |
         (uint16_t)(q & ((1u << mbits) - 1));
}

/* The exact value of a 16-bit IEEE-style number. */
static double halfFormatToDouble(uint16_t h, int ebits, int mbits) {
  int negative = h >> 15;
  int exp = (h >> mbits) & ((1 << ebits) - 1);
  uint32_t mant = h & ((1u << mbits) - 1);
  int bias = (1 << (ebits - 1)) - 1;
  if (exp == (1 << ebits) - 1) {
    uint64_t d = ((uint64_t)negative << 63) | (UINT64_C(0x7ff) << 52) |
                 ((uint64_t)mant << (52 - mbits));
    double v;
    memcpy(&v, &d, sizeof(v));
    return v;
  }
  double v = exp == 0 ? ldexp((double)mant, 1 - bias - mbits)
                      : ldexp((double)(mant | (1u << mbits)), exp - bias - mbits);
  return negative ? -v : v;
}

float tlx_f16_to_f32(uint16_t h) { return (float)halfFormatToDouble(h, 5, 10); }
uint16_t tlx_f32_to_f16(float f) { return roundToHalfFormat(f, 5, 10); }
float tlx_bf16_to_f32(uint16_t b) { return (float)halfFormatToDouble(b, 8, 7); }
uint16_t tlx_f32_to_bf16(float f) { return roundToHalfFormat(f, 8, 7); }
uint16_t tlx_f64_to_f16(double d) { return roundToHalfFormat(d, 5, 10); }
uint16_t tlx_f64_to_bf16(double d) { return roundToHalfFormat(d, 8, 7); }

/*===--------------------------- descriptors ----------------------------===*/

static int isPermutation(int rank, const int64_t *perm) {
  int seen[TLX_MAX_RANK] = {0};
  for (int i = 0; i < rank; ++i) {
    if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]])
      return 0;
    seen[perm[i]] = 1;
  }
  return 1;
}

static int checkDescriptor(const char *op, const char *name,
                           const tlx_tensor *t) {
  if (!t)
    return tlxrt_fail(op, "%s: null descriptor", name);
  if ((unsigned)t->dtype > TLX_F64)
    return tlxrt_fail(op, "%s: bad element type %d", name, (int)t->dtype);
  if (t->rank < 0 || t->rank > TLX_MAX_RANK)
    return tlxrt_fail(op, "%s: rank %d outside 0..%d", name, t->rank,
                      TLX_MAX_RANK);
  int64_t count = 1;
  for (int i = 0; i < t->rank; ++i) {
    if (t->shape[i] < 1 || t->shape[i] > TLX_MAX_EXTENT)
      return tlxrt_fail(op, "%s: extent %lld of dim %d must be in 1..2^31",
                        name, (long long)t->shape[i], i);
    if (count > TLX_MAX_ELEMENTS / t->shape[i])
      return tlxrt_fail(op, "%s: more than 2^40 elements", name);
    count *= t->shape[i];
  }
  /* Keep every element offset within +-2^59 so byte offsets (8-byte
   * elements at most) cannot overflow. */
  const int64_t spanLimit = (int64_t)1 << 59;
  int64_t span = 0;
  for (int i = 0; i < t->rank; ++i) {
    int64_t s = t->strides[i];
    if (s < -spanLimit || s > spanLimit)
      return tlxrt_fail(op, "%s: stride %lld of dim %d out of range", name,
                        (long long)s, i);
    s = s < 0 ? -s : s;
    if (t->shape[i] > 1 && s > (spanLimit - span) / (t->shape[i] - 1))
      return tlxrt_fail(op, "%s: strides address more than 2^59 elements",
                        name);
    span += s * (t->shape[i] - 1);
  }
  if (!isPermutation(t->rank, t->layout))
    return tlxrt_fail(op, "%s: layout is not a permutation of 0..%d", name,
                      t->rank - 1);
  if (!t->data)
    return tlxrt_fail(op, "%s: null data pointer", name);
  return 0;
}

int tlxrt_check_input(const char *op, const char *name, const tlx_tensor *t) {
  return checkDescriptor(op, name, t);
}

/* Sufficient test that no two elements share an address: sorted by
 * |stride|, every stride exceeds the span of all smaller-stride dims. */
int tlxrt_check_output(const char *op, const tlx_tensor *t) {
  if (checkDescriptor(op, "out", t))
    return -1;
  int64_t stride[TLX_MAX_RANK], ext[TLX_MAX_RANK];
  int n = 0;
  for (int i = 0; i < t->rank; ++i) {
    if (t->shape[i] == 1)
      continue;
    int64_t s = t->strides[i] < 0 ? -t->strides[i] : t->strides[i];
    int j = n++;
    for (; j > 0 && stride[j - 1] > s; --j) {
      stride[j] = stride[j - 1];
      ext[j] = ext[j - 1];
    }
    stride[j] = s;
    ext[j] = t->shape[i];
  }
  int64_t span = 0;
  for (int k = 0; k < n; ++k) {
    if (stride[k] <= span)
      return tlxrt_fail(op, "out: strides make two elements share an address");
    span += stride[k] * (ext[k] - 1);
  }
  return 0;
}

int tlx_tensor_init(tlx_tensor *t, void *data, tlx_dtype dtype, int rank,
                    const int64_t *shape, const int64_t *layout,
                    const int64_t *padding, const int64_t *strides) {
  static const char *const Op = "tlx_tensor_init";
  if (!t)
    return tlxrt_fail(Op, "null descriptor");
  if (rank < 0 || rank > TLX_MAX_RANK)
    return tlxrt_fail(Op, "rank %d outside 0..%d", rank, TLX_MAX_RANK);
  if (rank > 0 && !shape)
    return tlxrt_fail(Op, "null shape");
  for (int i = 0; i < rank; ++i)
    if (shape[i] < 1 || shape[i] > TLX_MAX_EXTENT)
      return tlxrt_fail(Op, "extent %lld of dim %d must be in 1..2^31",
                        (long long)shape[i], i);
  memset(t, 0, sizeof(*t));
  t->data = data;
  t->dtype = dtype;
  t->rank = rank;
  int64_t packed = 1;
  for (int i = rank - 1; i >= 0; --i) {
    t->shape[i] = shape[i];
    t->layout[i] = layout ? layout[i] : i;
    t->padding[i] = padding ? padding[i] : 0;
    t->strides[i] = strides ? strides[i] : packed;
    if (packed <= INT64_MAX / shape[i]) /* else rejected below */
      packed *= shape[i];
  }
  return checkDescriptor(Op, "tensor", t);
}

int tlx_strides_from_ir(int rank, const int64_t *shape,
                        const int64_t *ir_strides, int64_t *strides) {
  static const char *const Op = "tlx_strides_from_ir";
  if (rank < 1 || rank > TLX_MAX_RANK || !shape || !strides)
    return tlxrt_fail(Op, "bad rank or null array");
  strides[rank - 1] = 1;
  for (int i = rank - 1; i >= 1; --i) {
    int64_t ld = ir_strides ? ir_strides[i] : 0;
    if (ld < 0)
      return tlxrt_fail(Op, "negative stride %lld at %d", (long long)ld, i);
    strides[i - 1] = ld ? ld : strides[i] * shape[i];
  }
  return 0;
}

int64_t tlx_tensor_num_elements(const tlx_tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; ++i)
    n *= t->shape[i];
  return n;
}

void tlx_tensor_logical_shape(const tlx_tensor *t, int64_t *logical) {
  for (int i = 0; i < t->rank; ++i)
    logical[t->layout[i]] = t->shape[i];
}

void tlxrt_lshape(const tlx_tensor *t, tlx_lshape *s) {
  s->rank = t->rank;
  tlx_tensor_logical_shape(t, s->ext);
}

int64_t tlxrt_lshape_count(const tlx_lshape *s) {
  int64_t n = 1;
  for (int i = 0; i < s->rank; ++i)
    n *= s->ext[i];
  return n;
}

static void formatShape(char *buf, size_t size, int rank, const int64_t *ext) {
  size_t n = (size_t)snprintf(buf, size, "[");
  for (int i = 0; i < rank && n < size; ++i)
    n += (size_t)snprintf(buf + n, size - n, i ? ",%lld" : "%lld",
                          (long long)ext[i]);
  if (n < size)
    snprintf(buf + n, size - n, "]");
}

int tlxrt_expect_lshape(const char *op, const tlx_tensor *out,
                        const tlx_lshape *s) {
  tlx_lshape got;
  tlxrt_lshape(out, &got);
  int same = got.rank == s->rank;
  for (int i = 0; same && i < s->rank; ++i)
    same = got.ext[i] == s->ext[i];
  if (same)
    return 0;
  char want[160], have[160];
  formatShape(want, sizeof(want), s->rank, s->ext);
  formatShape(have, sizeof(have), got.rank, got.ext);
  return tlxrt_fail(op, "out has logical shape %s, the result is %s", have,
                    want);
}

int tlxrt_expect_dtype(const char *op, const char *name, const tlx_tensor *t,
                       tlx_dtype dtype) {
  if (t->dtype == dtype)
    return 0;
  return tlxrt_fail(op, "%s has element type %s, expected %s", name,
                    tlxrt_dtype_name(t->dtype), tlxrt_dtype_name(dtype));
}

int tlxrt_next_index(int rank, const int64_t *ext, int64_t *idx) {
  for (int i = rank - 1; i >= 0; --i) {
    if (++idx[i] < ext[i])
      return 1;
    idx[i] = 0;
  }
  return 0;
}

/*===-------------------------- element access --------------------------===*/

const char *tlxrt_element_address(const tlx_tensor *t, const int64_t *lidx) {
  int64_t off = 0;
  for (int i = 0; i < t->rank; ++i)
    off += t->strides[i] * lidx[t->layout[i]];
  return (const char *)t->data + off * (int64_t)tlx_dtype_size(t->dtype);
}

int64_t tlxrt_logical_step(const tlx_tensor *t, int d) {
  for (int i = 0; i < t->rank; ++i)
    if (t->layout[i] == d)
      return t->strides[i] * (int64_t)tlx_dtype_size(t->dtype);
  return 0;
}

static void *elementAddress(const tlx_tensor *t, const int64_t *lidx) {
  return (void *)tlxrt_element_address(t, lidx);
}

int64_t tlxrt_load_signed(const tlx_tensor *t, const int64_t *lidx) {
  return tlxrt_signed_at(t->dtype, elementAddress(t, lidx));
}

double tlxrt_load_float(const tlx_tensor *t, const int64_t *lidx) {
  return tlxrt_float_at(t->dtype, elementAddress(t, lidx));
}

tlx_value tlxrt_load_value(const tlx_tensor *t, const int64_t *lidx) {
  tlx_value v;
  if (tlxrt_is_float(t->dtype))
    v.f = tlxrt_load_float(t, lidx);
  else
    v.u = (uint64_t)tlxrt_load_signed(t, lidx);
  return v;
}

void tlxrt_store_value(tlx_tensor *t, const int64_t *lidx, tlx_value v) {
  void *p = elementAddress(t, lidx);
  switch (t->dtype) {
  case TLX_I8:
    *(uint8_t *)p = (uint8_t)v.u;
    break;
  case TLX_I16:
    *(uint16_t *)p = (uint16_t)v.u;
    break;
  case TLX_I32:
    *(uint32_t *)p = (uint32_t)v.u;
    break;
  case TLX_I64:
    *(uint64_t *)p = v.u;
    break;
  case TLX_F16:
    *(uint16_t *)p = tlx_f64_to_f16(v.f);
    break;
  case TLX_BF16:
    *(uint16_t *)p = tlx_f64_to_bf16(v.f);
    break;
  case TLX_F32:
    *(float *)p = (float)v.f;
    break;
  case TLX_F64:
    *(double *)p = v.f;
    break;
  }
}

/* C's double -> int64 conversion without its undefined behaviour: truncate
 * toward zero, saturate, NaN -> 0. */
static int64_t doubleToI64(double d) {
  if (d != d)
    return 0;
  if (d >= 9223372036854775808.0)
    return INT64_MAX;
  if (d <= -9223372036854775808.0)
    return INT64_MIN;
  return (int64_t)d;
}

/* The value v converted to t's element type, in tlx_value form. */
static tlx_value valueFromI64(const tlx_tensor *t, int64_t v) {
  tlx_value r;
  if (tlxrt_is_float(t->dtype))
    r.f = (double)v;
  else
    r.u = (uint64_t)v;
  return r;
}

static tlx_value valueFromF64(const tlx_tensor *t, double v) {
  tlx_value r;
  if (tlxrt_is_float(t->dtype))
    r.f = v;
  else
    r.u = (uint64_t)doubleToI64(v);
  return r;
}

int64_t tlx_get_i64(const tlx_tensor *t, const int64_t *logical_index) {
  if (tlxrt_is_float(t->dtype))
    return doubleToI64(tlxrt_load_float(t, logical_index));
  return tlxrt_load_signed(t, logical_index);
}

double tlx_get_f64(const tlx_tensor *t, const int64_t *logical_index) {
  return tlxrt_load_float(t, logical_index);
}

void tlx_set_i64(tlx_tensor *t, const int64_t *logical_index, int64_t v) {
  tlxrt_store_value(t, logical_index, valueFromI64(t, v));
}

void tlx_set_f64(tlx_tensor *t, const int64_t *logical_index, double v) {
  tlxrt_store_value(t, logical_index, valueFromF64(t, v));
}

/*===-------------------------- result buffers --------------------------===*/

tlx_value *tlxrt_alloc_values(const char *op, int64_t count) {
  tlx_value *vals = malloc((size_t)(count > 0 ? count : 1) * sizeof(*vals));
  if (!vals)
    tlxrt_fail(op, "out of memory for %lld elements", (long long)count);
  return vals;
}

int tlxrt_write_values(tlx_tensor *out, tlx_value *vals) {
  tlx_lshape s;
  tlxrt_lshape(out, &s);
  int64_t idx[TLX_MAX_RANK] = {0};
  int64_t k = 0;
  do
    tlxrt_store_value(out, idx, vals[k++]);
  while (tlxrt_next_index(s.rank, s.ext, idx));
  free(vals);
  return 0;
}

/*===------------------------- data-moving ops --------------------------===*/

/* Checks in and out, equal dtypes, and out's logical shape == want. */
static int checkUnaryShape(const char *op, const tlx_tensor *in,
                           const tlx_tensor *out, const tlx_lshape *want) {
  if (tlxrt_check_input(op, "in", in) || tlxrt_check_output(op, out) ||
      tlxrt_expect_dtype(op, "out", out, in->dtype))
    return -1;
  return tlxrt_expect_lshape(op, out, want);
}

/* out[i] = in[map(i)] for every logical index i of out. */
typedef void (*IndexMap)(const int64_t *outIdx, int64_t *inIdx,
                         const void *ctx);

static int gather(const char *op, const tlx_tensor *in, tlx_tensor *out,
                  IndexMap map, const void *ctx) {
  tlx_lshape s;
  tlxrt_lshape(out, &s);
  tlx_value *vals = tlxrt_alloc_values(op, tlxrt_lshape_count(&s));
  if (!vals)
    return -1;
  int64_t idx[TLX_MAX_RANK] = {0}, inIdx[TLX_MAX_RANK] = {0};
  int64_t k = 0;
  do {
    map(idx, inIdx, ctx);
    vals[k++] = tlxrt_load_value(in, inIdx);
  } while (tlxrt_next_index(s.rank, s.ext, idx));
  return tlxrt_write_values(out, vals);
}

static void identityMap(const int64_t *outIdx, int64_t *inIdx,
                        const void *ctx) {
  const tlx_tensor *in = ctx;
  memcpy(inIdx, outIdx, sizeof(int64_t) * (size_t)in->rank);
}

int tlx_ref_copy(const tlx_tensor *in, tlx_tensor *out) {
  static const char *const Op = "copy";
  if (tlxrt_check_input(Op, "in", in))
    return -1;
  tlx_lshape s;
  tlxrt_lshape(in, &s);
  if (checkUnaryShape(Op, in, out, &s))
    return -1;
  return gather(Op, in, out, identityMap, in);
}

/* Broadcast: in's dims align with out's trailing dims. */
typedef struct {
  int inRank, lead;
  const int64_t *inExt;
} BroadcastCtx;

static void broadcastMap(const int64_t *outIdx, int64_t *inIdx,
                         const void *ctx) {
  const BroadcastCtx *c = ctx;
  for (int i = 0; i < c->inRank; ++i)
    inIdx[i] = c->inExt[i] == 1 ? 0 : outIdx[c->lead + i];
}

int tlx_ref_broadcast(const tlx_tensor *in, tlx_tensor *out) {
  static const char *const Op = "broadcast";
  if (tlxrt_check_input(Op, "in", in) || tlxrt_check_output(Op, out) ||
      tlxrt_expect_dtype(Op, "out", out, in->dtype))
    return -1;
  tlx_lshape is, os;
  tlxrt_lshape(in, &is);
  tlxrt_lshape(out, &os);
  if (is.rank > os.rank)
    return tlxrt_fail(Op, "in has rank %d, more than out's %d", is.rank,
                      os.rank);
  BroadcastCtx c = {is.rank, os.rank - is.rank, is.ext};
  for (int i = 0; i < is.rank; ++i)
    if (is.ext[i] != 1 && is.ext[i] != os.ext[c.lead + i])
      return tlxrt_fail(Op,
                        "in dim %d has extent %lld, out dim %d has %lld "
                        "(must be equal or 1)",
                        i, (long long)is.ext[i], c.lead + i,
                        (long long)os.ext[c.lead + i]);
  return gather(Op, in, out, broadcastMap, &c);
}

static int fill(tlx_tensor *out, tlx_value v) {
  tlx_lshape s;
  tlxrt_lshape(out, &s);
  int64_t idx[TLX_MAX_RANK] = {0};
  do
    tlxrt_store_value(out, idx, v);
  while (tlxrt_next_index(s.rank, s.ext, idx));
  return 0;
}

int tlx_ref_fill_i64(tlx_tensor *out, int64_t value) {
  if (tlxrt_check_output("fill", out))
    return -1;
  return fill(out, valueFromI64(out, value));
}

int tlx_ref_fill_f64(tlx_tensor *out, double value) {
  if (tlxrt_check_output("fill", out))
    return -1;
  return fill(out, valueFromF64(out, value));
}

/* Transpose of the last two logical dims (research prototype form). */
static void swapLastTwoMap(const int64_t *outIdx, int64_t *inIdx,
                           const void *ctx) {
  const tlx_tensor *in = ctx;
  int r = in->rank;
  memcpy(inIdx, outIdx, sizeof(int64_t) * (size_t)r);
  inIdx[r - 2] = outIdx[r - 1];
  inIdx[r - 1] = outIdx[r - 2];
}

int tlx_ref_transpose(const tlx_tensor *in, const int64_t *perm,
                      tlx_tensor *out) {
  static const char *const Op = "transpose";
  if (tlxrt_check_input(Op, "in", in))
    return -1;
  tlx_lshape s;
  tlxrt_lshape(in, &s);
  if (!perm) {
    if (s.rank < 2)
      return tlxrt_fail(Op, "one-operand transpose needs rank >= 2, got %d",
                        s.rank);
    int64_t t = s.ext[s.rank - 1];
    s.ext[s.rank - 1] = s.ext[s.rank - 2];
    s.ext[s.rank - 2] = t;
    if (checkUnaryShape(Op, in, out, &s))
      return -1;
    return gather(Op, in, out, swapLastTwoMap, in);
  }
  if (!isPermutation(in->rank, perm))
    return tlxrt_fail(Op, "perm is not a permutation of 0..%d", in->rank - 1);
  if (tlxrt_check_output(Op, out))
    return -1;
  if (out->rank != in->rank)
    return tlxrt_fail(Op, "out has rank %d, in %d", out->rank, in->rank);
  /* Same logical tensor, stored with layout perm. */
  for (int i = 0; i < in->rank; ++i)
    if (out->layout[i] != perm[i])
      return tlxrt_fail(Op, "out layout[%d] is %lld, perm says %lld", i,
                        (long long)out->layout[i], (long long)perm[i]);
  if (checkUnaryShape(Op, in, out, &s))
    return -1;
  return gather(Op, in, out, identityMap, in);
}

/* reshape.permute: out's k-th logical row-major element is in's k-th. */
int tlx_ref_reshape_permute(const tlx_tensor *in, tlx_tensor *out) {
  static const char *const Op = "reshape.permute";
  if (tlxrt_check_input(Op, "in", in) || tlxrt_check_output(Op, out) ||
      tlxrt_expect_dtype(Op, "out", out, in->dtype))
    return -1;
  tlx_lshape is, os;
  tlxrt_lshape(in, &is);
  tlxrt_lshape(out, &os);
  if (tlxrt_lshape_count(&is) != tlxrt_lshape_count(&os))
    return tlxrt_fail(Op, "in has %lld elements, out %lld",
                      (long long)tlxrt_lshape_count(&is),
                      (long long)tlxrt_lshape_count(&os));
  tlx_value *vals = tlxrt_alloc_values(Op, tlxrt_lshape_count(&is));
  if (!vals)
    return -1;
  int64_t idx[TLX_MAX_RANK] = {0};
  int64_t k = 0;
  do
    vals[k++] = tlxrt_load_value(in, idx);
  while (tlxrt_next_index(is.rank, is.ext, idx));
  return tlxrt_write_values(out, vals);
}

/* reshape.block: blocked dim i splits into outer i and an appended inner. */
typedef struct {
  int rank;
  int64_t block[TLX_MAX_RANK];
  int inner[TLX_MAX_RANK]; /* out position of dim i's inner part, or -1 */
} BlockCtx;

static void blockMap(const int64_t *outIdx, int64_t *inIdx, const void *ctx) {
  const BlockCtx *c = ctx;
  for (int i = 0; i < c->rank; ++i)
    inIdx[i] = c->inner[i] < 0
                   ? outIdx[i]
                   : outIdx[i] * c->block[i] + outIdx[c->inner[i]];
}

int tlx_ref_reshape_block(const tlx_tensor *in, const int64_t *blocks,
                          tlx_tensor *out) {
  static const char *const Op = "reshape.block";
  if (tlxrt_check_input(Op, "in", in))
    return -1;
  if (!blocks)
    return tlxrt_fail(Op, "null blocks");
  tlx_lshape s;
  tlxrt_lshape(in, &s);
  BlockCtx c = {s.rank, {0}, {0}};
  for (int i = 0, r = s.rank; i < r; ++i) {
    c.block[i] = blocks[i];
    c.inner[i] = -1;
    if (blocks[i] < 1)
      return tlxrt_fail(Op, "block %lld of dim %d must be >= 1",
                        (long long)blocks[i], i);
    if (blocks[i] == 1)
      continue;
    if (s.ext[i] % blocks[i])
      return tlxrt_fail(Op, "block %lld does not divide extent %lld of dim %d",
                        (long long)blocks[i], (long long)s.ext[i], i);
    if (s.rank == TLX_MAX_RANK)
      return tlxrt_fail(Op, "result rank exceeds %d", TLX_MAX_RANK);
    c.inner[i] = s.rank;
    s.ext[s.rank++] = blocks[i];
    s.ext[i] /= blocks[i];
  }
  if (checkUnaryShape(Op, in, out, &s))
    return -1;
  return gather(Op, in, out, blockMap, &c);
}

/* pad: out = low zeros/value, in, high value, along every logical dim. */
static int pad(const char *op, const tlx_tensor *in, const int64_t *low,
               const int64_t *high, tlx_value value, tlx_tensor *out) {
  if (!low || !high)
    return tlxrt_fail(op, "null low/high");
  tlx_lshape is, os;
  tlxrt_lshape(in, &is);
  os = is;
  for (int i = 0; i < is.rank; ++i) {
    if (low[i] < 0 || high[i] < 0 || low[i] > TLX_MAX_EXTENT ||
        high[i] > TLX_MAX_EXTENT)
      return tlxrt_fail(op, "low/high of dim %d must be in 0..2^31", i);
    os.ext[i] += low[i] + high[i];
  }
  if (checkUnaryShape(op, in, out, &os))
    return -1;
  tlx_value *vals = tlxrt_alloc_values(op, tlxrt_lshape_count(&os));
  if (!vals)
    return -1;
  int64_t idx[TLX_MAX_RANK] = {0}, inIdx[TLX_MAX_RANK] = {0};
  int64_t k = 0;
  do {
    int inside = 1;
    for (int i = 0; i < is.rank; ++i) {
      inIdx[i] = idx[i] - low[i];
      inside &= inIdx[i] >= 0 && inIdx[i] < is.ext[i];
    }
    vals[k++] = inside ? tlxrt_load_value(in, inIdx) : value;
  } while (tlxrt_next_index(os.rank, os.ext, idx));
  return tlxrt_write_values(out, vals);
}

int tlx_ref_pad(const tlx_tensor *in, const int64_t *low, const int64_t *high,
                double value, tlx_tensor *out) {
  if (tlxrt_check_input("pad", "in", in))
    return -1;
  return pad("pad", in, low, high, valueFromF64(in, value), out);
}

int tlx_ref_pad_i64(const tlx_tensor *in, const int64_t *low,
                    const int64_t *high, int64_t value, tlx_tensor *out) {
  if (tlxrt_check_input("pad", "in", in))
    return -1;
  return pad("pad", in, low, high, valueFromI64(in, value), out);
}

int tlx_ref_concat(const tlx_tensor *a, const tlx_tensor *b, int axis,
                   tlx_tensor *out) {
  static const char *const Op = "concat";
  if (tlxrt_check_input(Op, "a", a) || tlxrt_check_input(Op, "b", b) ||
      tlxrt_check_output(Op, out) ||
      tlxrt_expect_dtype(Op, "b", b, a->dtype) ||
      tlxrt_expect_dtype(Op, "out", out, a->dtype))
    return -1;
  tlx_lshape as, bs;
  tlxrt_lshape(a, &as);
  tlxrt_lshape(b, &bs);
  if (as.rank != bs.rank)
    return tlxrt_fail(Op, "a has rank %d, b rank %d", as.rank, bs.rank);
  if (axis < 0 || axis >= as.rank)
    return tlxrt_fail(Op, "axis %d outside 0..%d", axis, as.rank - 1);
  for (int i = 0; i < as.rank; ++i)
    if (i != axis && as.ext[i] != bs.ext[i])
      return tlxrt_fail(Op, "dim %d differs: a %lld, b %lld", i,
                        (long long)as.ext[i], (long long)bs.ext[i]);
  tlx_lshape os = as;
  os.ext[axis] += bs.ext[axis];
  if (tlxrt_expect_lshape(Op, out, &os))
    return -1;
  tlx_value *vals = tlxrt_alloc_values(Op, tlxrt_lshape_count(&os));
  if (!vals)
    return -1;
  int64_t idx[TLX_MAX_RANK] = {0}, src[TLX_MAX_RANK];
  int64_t k = 0;
  do {
    memcpy(src, idx, sizeof(src));
    if (idx[axis] < as.ext[axis]) {
      vals[k++] = tlxrt_load_value(a, src);
    } else {
      src[axis] -= as.ext[axis];
      vals[k++] = tlxrt_load_value(b, src);
    }
  } while (tlxrt_next_index(os.rank, os.ext, idx));
  return tlxrt_write_values(out, vals);
}
