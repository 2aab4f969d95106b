/* A 64 x 64 x 64 f32 GEMM, compiled for each target by the tests of its
 * vector kernel (AArch64/neon-gemm.test, PowerPC/vsx-gemm.test,
 * RISCV/vector-gemm.test). */
#include <tlx.h>

typedef float m_t __attribute__((ext_vector_type(64 * 64)));
TLX_DECLARE_TENSOR_OPS(m_t)

void mm(const float *a, const float *b, float *c) {
  m_t r = tensor_matmul(tensor_load(a, TLX_SHAPE(64, 64), TLX_LAYOUT(0, 1),
                                    TLX_ZEROS(2), TLX_ZEROS(2)),
                        tensor_load(b, TLX_SHAPE(64, 64), TLX_LAYOUT(0, 1),
                                    TLX_ZEROS(2), TLX_ZEROS(2)));
  tensor_store(c,
               tensor_typeinfo(r, TLX_SHAPE(64, 64), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2)),
               TLX_ZEROS(2));
}
