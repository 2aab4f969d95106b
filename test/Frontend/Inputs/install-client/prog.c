/* A TLX program as a user writes it: tlx.h ops, the runtime (tlxrt.h). */
#include <stdio.h>
#include <tlx.h>
#include <tlxrt.h>

typedef float v6f __attribute__((__vector_size__(6 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(v6f)

int main(void) {
  float a[2][3] = {{1, 2, 3}, {4, 5, 6}}, b[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 2}};
  float c[2][3];
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(2, 3), TLX_IDENTITY_LAYOUT(2),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t tb = tensor_load(b, TLX_SHAPE(3, 3), TLX_IDENTITY_LAYOUT(2),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  v6f r = tensor_matmul(ta, tb);
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(2, 3), TLX_IDENTITY_LAYOUT(2),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
  printf("C: %g %g %g / %g %g %g, runtime %s, plugin %s\n", c[0][0], c[0][1],
         c[0][2], c[1][0], c[1][1], c[1][2], tlxrt_version(), __TLX_VERSION__);
  return 0;
}
