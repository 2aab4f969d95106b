/* Does qemu-ppc64le run xxsel right when its "false" operand is an
 * all-ones register made by xxleqv? QEMU 10.0's TCG optimizer folds the
 * pair wrongly (the result is all ones), which LLVM emits for a select
 * with a -1 constant (samples/pad_concat.c at -O0). test/lit.cfg.py builds
 * and runs this once; "ok" means the emulator needs no workaround. */
#include <stdio.h>
typedef unsigned v4u __attribute__((vector_size(16)));
int main(void) {
  volatile unsigned zero = 0;
  v4u mask = {zero, zero, ~zero, ~zero}, value = {10, 20, 30, 40}, r;
  __asm__("xxleqv %x0, %x0, %x0\n\txxsel %x0, %x0, %x1, %x2"
          : "=&wa"(r) : "wa"(value), "wa"(mask));
  puts(r[0] == ~0u && r[1] == ~0u && r[2] == 30 && r[3] == 40 ? "ok" : "bad");
  return 0;
}
