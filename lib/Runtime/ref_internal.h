/* ref_internal.h - helpers shared by the reference ops (not installed).
 *
 * Every op works the same way: validate the descriptors, walk the output's
 * logical indices in row-major order computing one value each into a
 * scratch buffer, then write the buffer through the output descriptor. The
 * scratch buffer makes the ops safe when the output aliases an input.
 */
#ifndef TLXRT_REF_INTERNAL_H
#define TLXRT_REF_INTERNAL_H

#include "tlxrt.h"

/* Shared between the reference sources, not exported from libtlxrt.so. */
#pragma GCC visibility push(hidden)

/* Logical extents of a tensor. */
typedef struct tlx_lshape {
  int rank;
  int64_t ext[TLX_MAX_RANK];
} tlx_lshape;

/* One computed element: integers as wrapped bits, floats as double. */
typedef union tlx_value {
  uint64_t u;
  double f;
} tlx_value;

/* Records "<op>: <message>" for tlxrt_last_error(); returns -1. */
int tlxrt_fail(const char *op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Descriptor validation: dtype, rank, extents, layout permutation, data. */
int tlxrt_check_input(const char *op, const char *name, const tlx_tensor *t);
/* Also rejects strides under which two elements share an address. */
int tlxrt_check_output(const char *op, const tlx_tensor *t);

void tlxrt_lshape(const tlx_tensor *t, tlx_lshape *s);
int64_t tlxrt_lshape_count(const tlx_lshape *s);
/* 1 when out's logical shape is s, else -1 with a message. */
int tlxrt_expect_lshape(const char *op, const tlx_tensor *out,
                        const tlx_lshape *s);
int tlxrt_expect_dtype(const char *op, const char *name, const tlx_tensor *t,
                       tlx_dtype dtype);

/* Row-major odometer over ext[0..rank); returns 0 after the last index. */
int tlxrt_next_index(int rank, const int64_t *ext, int64_t *idx);

int tlxrt_is_float(tlx_dtype dtype);
int tlxrt_bits(tlx_dtype dtype);
const char *tlxrt_dtype_name(tlx_dtype dtype);

/* Element access by address: the element of type dtype at p, integers
 * sign- or zero-extended. (Inline: the reference GEMMs read two elements
 * per multiply-add.) */
static inline int64_t tlxrt_signed_at(tlx_dtype dtype, const void *p) {
  switch (dtype) {
  case TLX_I8:
    return *(const int8_t *)p;
  case TLX_I16:
  case TLX_F16:
  case TLX_BF16:
    return *(const int16_t *)p;
  case TLX_I32:
  case TLX_F32:
    return *(const int32_t *)p;
  default:
    return *(const int64_t *)p;
  }
}

static inline uint64_t tlxrt_unsigned_at(tlx_dtype dtype, const void *p) {
  switch (dtype) {
  case TLX_I8:
    return *(const uint8_t *)p;
  case TLX_I16:
  case TLX_F16:
  case TLX_BF16:
    return *(const uint16_t *)p;
  case TLX_I32:
  case TLX_F32:
    return *(const uint32_t *)p;
  default:
    return *(const uint64_t *)p;
  }
}

static inline double tlxrt_float_at(tlx_dtype dtype, const void *p) {
  switch (dtype) {
  case TLX_F16:
    return tlx_f16_to_f32(*(const uint16_t *)p);
  case TLX_BF16:
    return tlx_bf16_to_f32(*(const uint16_t *)p);
  case TLX_F32:
    return *(const float *)p;
  case TLX_F64:
    return *(const double *)p;
  default:
    return (double)tlxrt_signed_at(dtype, p);
  }
}
/* The address of the element at a logical index, and how many bytes it
 * moves when logical index d grows by one: the address is linear in each
 * logical index, so a loop along one dim can step a pointer. */
const char *tlxrt_element_address(const tlx_tensor *t, const int64_t *lidx);
int64_t tlxrt_logical_step(const tlx_tensor *t, int d);

/* Element access by logical index. */
int64_t tlxrt_load_signed(const tlx_tensor *t, const int64_t *lidx);
double tlxrt_load_float(const tlx_tensor *t, const int64_t *lidx);
tlx_value tlxrt_load_value(const tlx_tensor *t, const int64_t *lidx);
void tlxrt_store_value(tlx_tensor *t, const int64_t *lidx, tlx_value v);

/* Scratch buffer for one result, in out's logical row-major order. */
tlx_value *tlxrt_alloc_values(const char *op, int64_t count);
/* Writes vals through out's descriptor and frees vals; returns 0. */
int tlxrt_write_values(tlx_tensor *out, tlx_value *vals);

/* Rounds a float-class intermediate to the precision it is accumulated in:
 * float for f16/bf16/f32, double for f64. (Inline: it runs once or twice
 * per multiply-add of every reference GEMM.) */
static inline double tlxrt_round_acc(tlx_dtype dtype, double v) {
  return dtype == TLX_F64 ? v : (double)(float)v;
}

#pragma GCC visibility pop

#endif /* TLXRT_REF_INTERNAL_H */
