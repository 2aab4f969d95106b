// tlxrt_amx_require checks the tile products (AMX-INT8, AMX-BF16,
// AMX-FP16: separate CPUID bits) besides the tile state, and stops with a
// message naming the missing one - never SIGILL. This machine's answer is
// compared with the lit features from CPUID (amx-hw, amx-fp16-hw); without
// AMX-TILE the message names the tile state, whatever product was asked.
// RUN: %clang_plain -std=c11 -O2 %s -o %t %tlx_rt
// RUN: env TLX_AMX_FORCE_UNSUPPORTED=1 not %t 1 2>&1 | FileCheck %s --check-prefix=FORCED
// RUN: %if amx-hw %{ %t 3 | FileCheck %s --check-prefix=HW %}
// RUN: %if amx-fp16-hw %{ %t 7 | FileCheck %s --check-prefix=HW %}
// RUN: %if amx-hw && !amx-fp16-hw %{ not %t 4 2>&1 | FileCheck %s --check-prefix=NOFP16 %}
// RUN: %if !amx-hw %{ not %t 1 2>&1 | FileCheck %s --check-prefix=NOAMX %}
// RUN: %if !amx-hw %{ not %t 4 2>&1 | FileCheck %s --check-prefix=NOAMX %}

// FORCED: tlx: this program uses Intel AMX, but this CPU/kernel does not support it (AMX disabled by TLX_AMX_FORCE_UNSUPPORTED)
// FORCED-NOT: granted
// HW: granted
// NOFP16: tlx: this program uses Intel AMX, but this CPU/kernel does not support it (the CPU has no AMX-FP16 (CPUID.7.1:EAX[21]))
// NOFP16-NOT: granted
// NOAMX: tlx: this program uses Intel AMX, but this CPU/kernel does not support it
// NOAMX-NOT: granted

#include <stdio.h>
#include <stdlib.h>
#include <tlxrt_amx.h>

int main(int argc, char **argv) {
  unsigned products = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 0;
  tlxrt_amx_require(products);
  tlxrt_amx_require(products); // cached: the same answer, no second message
  printf("granted\n");
  return 0;
}
