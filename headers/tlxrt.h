/* tlxrt.h - the TLX runtime: reference implementation of every op.
 *
 * The reference ("oracle") works on tensor descriptors and is written for
 * obvious correctness, not speed: every execution test compares compiled TLX
 * code against it. docs/ops.md defines each op; this header names them.
 *
 * Conventions (see docs/decisions.md):
 *  - shape[i] is the extent of storage dimension i (outermost first);
 *    layout[i] is the logical dimension storage dimension i holds; so the
 *    logical extent of dimension layout[i] is shape[i].
 *  - strides[i] is the element distance between consecutive indices of
 *    storage dimension i (packed: strides[rank-1] = 1, ...).
 *  - ops are defined on logical dimensions; an output descriptor fixes how
 *    the result is written (shape, layout, strides).
 *  - integers wrap at the element width; widening of integer operands is
 *    signed except where the op says unsigned (umma, usmma, summa).
 *  - f16/bf16 values are computed in float and rounded (nearest-even) to the
 *    element type on store.
 * Every function returns 0 on success, or -1 after recording a message that
 * tlxrt_last_error() returns (shape mismatch, bad argument).
 */
#ifndef TLXRT_H
#define TLXRT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TLX_MAX_RANK 8

/* The runtime's version, "major.minor.patch" (the TLX version it was built
 * from). */
const char *tlxrt_version(void);

typedef enum tlx_dtype {
  TLX_I8, TLX_I16, TLX_I32, TLX_I64, TLX_F16, TLX_BF16, TLX_F32, TLX_F64
} tlx_dtype;

typedef struct tlx_tensor {
  void *data;                       /* storage element (0,...,0) */
  tlx_dtype dtype;
  int rank;
  int64_t shape[TLX_MAX_RANK];      /* storage extents */
  int64_t layout[TLX_MAX_RANK];     /* logical dim held by storage dim i */
  int64_t padding[TLX_MAX_RANK];    /* allocation hint; never changes values */
  int64_t strides[TLX_MAX_RANK];    /* element strides per storage dim */
} tlx_tensor;

typedef enum tlx_mma_kind { TLX_UMMA, TLX_SMMA, TLX_USMMA, TLX_SUMMA } tlx_mma_kind;

typedef enum tlx_unary_op {
  TLX_TANH, TLX_SIGMOID, TLX_RELU, TLX_SIN, TLX_COS, TLX_EXP, TLX_EXP2,
  TLX_LOG, TLX_LOG2, TLX_LOG10, TLX_SQRT, TLX_FABS, TLX_FLOOR, TLX_CEIL
} tlx_unary_op;

typedef enum tlx_reduce_op {
  TLX_REDUCE_MAX, TLX_REDUCE_MIN, TLX_REDUCE_ADD, TLX_REDUCE_MUL,
  TLX_REDUCE_AND, TLX_REDUCE_OR, TLX_REDUCE_XOR
} tlx_reduce_op;

/* Descriptor set-up. layout NULL = identity, padding NULL = zeros,
 * strides NULL = packed. Returns 0, or -1 for a bad rank/layout. */
int tlx_tensor_init(tlx_tensor *t, void *data, tlx_dtype dtype, int rank,
                    const int64_t *shape, const int64_t *layout,
                    const int64_t *padding, const int64_t *strides);
size_t tlx_dtype_size(tlx_dtype dtype);
int64_t tlx_tensor_num_elements(const tlx_tensor *t);
/* Logical extents: logical[layout[i]] = shape[i]. */
void tlx_tensor_logical_shape(const tlx_tensor *t, int64_t *logical);

/* Element access by logical index, unchecked (t valid, index in range).
 * Integers as int64 (sign-extended), floats as double; set rounds/wraps to
 * the element type. Across classes: float -> integer truncates toward zero
 * and saturates to int64 (NaN -> 0) before wrapping. */
int64_t tlx_get_i64(const tlx_tensor *t, const int64_t *logical_index);
double tlx_get_f64(const tlx_tensor *t, const int64_t *logical_index);
void tlx_set_i64(tlx_tensor *t, const int64_t *logical_index, int64_t v);
void tlx_set_f64(tlx_tensor *t, const int64_t *logical_index, double v);

/* f16/bf16 conversions (round to nearest even; NaN stays NaN). */
float tlx_f16_to_f32(uint16_t h);
uint16_t tlx_f32_to_f16(float f);
float tlx_bf16_to_f32(uint16_t b);
uint16_t tlx_f32_to_bf16(float f);
/* Direct double -> f16/bf16 rounding (no double rounding through float). */
uint16_t tlx_f64_to_f16(double d);
uint16_t tlx_f64_to_bf16(double d);

/* Converts the IR's load/store strides (BLAS-style leading dimensions:
 * ir_strides[i], i >= 1, is the element distance between consecutive
 * indices of storage dim i-1; 0 = packed; ir_strides[0] unused) into
 * descriptor strides. ir_strides NULL = packed. Returns 0 or -1. */
int tlx_strides_from_ir(int rank, const int64_t *shape,
                        const int64_t *ir_strides, int64_t *strides);

/* The reference ops (docs/ops.md defines each). out describes where and how
 * the result is written; its strides must not map two elements to one
 * address. out may alias an input: results are computed before writing. */
int tlx_ref_copy(const tlx_tensor *in, tlx_tensor *out); /* load, store,
                                  tovector, totensor, reshape-free moves */
int tlx_ref_matmul(const tlx_tensor *a, const tlx_tensor *b, tlx_tensor *out);
int tlx_ref_mma(tlx_mma_kind kind, const tlx_tensor *acc, const tlx_tensor *a,
                const tlx_tensor *b, tlx_tensor *out);
/* numpy tensordot: result dims are a's free dims, then b's; [1] when every
 * dim is contracted. */
int tlx_ref_contract(const tlx_tensor *a, const tlx_tensor *b, int naxes,
                     const int64_t *axes_a, const int64_t *axes_b,
                     tlx_tensor *out);
/* in [N,C,spatial..], kernel [O,C,kspatial..] (rank >= 3) -> [N,O,out..].
 * strides/dilations per spatial dim; NULL or 0 entries mean 1. */
int tlx_ref_convolution(const tlx_tensor *in, const tlx_tensor *kernel,
                        const int64_t *strides, const int64_t *in_dilations,
                        const int64_t *kernel_dilations, tlx_tensor *out);
int tlx_ref_unary(tlx_unary_op op, const tlx_tensor *in, tlx_tensor *out);
/* numpy-style: in's dims align with out's trailing dims; extents equal or 1. */
int tlx_ref_broadcast(const tlx_tensor *in, tlx_tensor *out);
int tlx_ref_fill_i64(tlx_tensor *out, int64_t value);
int tlx_ref_fill_f64(tlx_tensor *out, double value);
/* reduce-window over every logical dim: out = (in - window) / stride + 1;
 * window entries in 1..extent, strides >= 1 (NULL = all 1). */
int tlx_ref_reduce(tlx_reduce_op op, const tlx_tensor *in,
                   const int64_t *window, const int64_t *strides,
                   tlx_tensor *out);
/* blocks[i] >= 1 divides extent i; each block > 1 splits dim i into
 * extent/block (in place) and a new innermost dim of extent block. */
int tlx_ref_reshape_block(const tlx_tensor *in, const int64_t *blocks,
                          tlx_tensor *out);
int tlx_ref_reshape_permute(const tlx_tensor *in, tlx_tensor *out);
/* perm NULL: the research prototype's logical transpose of the last two
 * dims; otherwise a layout change (out must have layout perm). */
int tlx_ref_transpose(const tlx_tensor *in, const int64_t *perm,
                      tlx_tensor *out);
int tlx_ref_pad(const tlx_tensor *in, const int64_t *low, const int64_t *high,
                double value, tlx_tensor *out);
/* The same with an integer pad value (exact for i64 tensors). */
int tlx_ref_pad_i64(const tlx_tensor *in, const int64_t *low,
                    const int64_t *high, int64_t value, tlx_tensor *out);
int tlx_ref_concat(const tlx_tensor *a, const tlx_tensor *b, int axis,
                   tlx_tensor *out);

/* The message of this thread's most recent failure ("" if none). */
const char *tlxrt_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* TLXRT_H */
