// A program compiled for native AMX calls tlxrt_amx_init() before its first
// tile instruction. Without AMX (CPU or kernel) it must stop there with a
// clear message and exit status 1 - never SIGILL.
// RUN: %clang_plain -O2 -mamx-tile -mamx-int8 %s -o %t %tlx_rt
// RUN: env TLX_AMX_FORCE_UNSUPPORTED=1 not %t 2>&1 | FileCheck %s
// RUN: %if amx-hw %{ %t | FileCheck %s --check-prefix=HW %} \
// RUN: %else %{ not %t 2>&1 | FileCheck %s %}

#include <immintrin.h>
#include <stdio.h>
#include <string.h>
#include <tlxrt_amx.h>

// CHECK: tlx: this program uses Intel AMX, but this CPU/kernel does not support it
// CHECK-SAME: rebuild with -fplugin-arg-tlx-target=amx-emulate or target=vector
// CHECK-NOT: reached
// HW: c[0] = 64

int main(void) {
  tlxrt_amx_init();
  tlxrt_amx_init(); // cheap and harmless the second time
  printf("reached\n");
  unsigned char cfg[64];
  memset(cfg, 0, sizeof(cfg));
  cfg[0] = 1;
  for (int t = 0; t < 3; ++t) {
    cfg[16 + 2 * t] = 64;
    cfg[48 + t] = 16;
  }
  static signed char a[16][64], b[16][64];
  static int c[16][16];
  memset(a, 1, sizeof(a));
  memset(b, 1, sizeof(b));
  _tile_loadconfig(cfg);
  _tile_zero(0);
  _tile_loadd(1, a, 64);
  _tile_loadd(2, b, 64);
  _tile_dpbssd(0, 1, 2);
  _tile_stored(0, c, 64);
  _tile_release();
  printf("c[0] = %d\n", c[0][0]);
  return 0;
}
