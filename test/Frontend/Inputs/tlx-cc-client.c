/* Uses tlx.h (macros and types) and the runtime (libtlxrt). */
#include <stdio.h>
#include <tlx.h>
#include <tlxrt.h>

int main(void) {
  tlx_dims3_t shape = TLX_SHAPE(16, 5, 3);
  printf("shape %d %d %d, bf16(1.0) = 0x%x\n", shape[0], shape[1], shape[2],
         tlx_f32_to_bf16(1.0f));
  return 0;
}
