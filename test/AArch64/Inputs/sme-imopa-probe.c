/* Does the emulator compute SME's 4-way integer outer products (SMOPA
 * into 32-bit tiles) as the architecture defines them? lit.cfg.py runs
 * this under qemu-aarch64 and adds the feature qemu-sme-imopa when it
 * prints "ok". QEMU 7.2 (Debian 12) gets them wrong: ZA0.S[i][j] comes out
 * as the dot product of A's row 2i + (j & 1) - not i - with B's column j.
 * Plain SME instructions (.inst), so it builds without +sme. */
#include <stdint.h>
#include <stdio.h>

static int8_t a[256], b[256];
static int32_t za[64 * 64];

/* ZA0.S = a (x) b over one SVL of bytes; row 0 of ZA0.S to za. */
static void outerProduct(void) {
  register int8_t *x0 __asm__("x0") = a;
  register int8_t *x1 __asm__("x1") = b;
  register int32_t *x2 __asm__("x2") = za;
  /* SMSTART/SMSTOP zero the vector registers: all clobbered. */
  __asm__ volatile(
      ".inst 0xd503477f\n"         /* smstart */
      ".inst 0xc00800ff\n"         /* zero {za} */
      ".inst 0x2518e3e0\n"         /* ptrue p0.b */
      ".inst 0xa400a000\n"         /* ld1b {z0.b}, p0/z, [x0] */
      ".inst 0xa400a021\n"         /* ld1b {z1.b}, p0/z, [x1] */
      ".inst 0xa0810000\n"         /* smopa za0.s, p0/m, p0/m, z0.b, z1.b */
      ".inst 0x2598e3e0\n"         /* ptrue p0.s */
      "mov w12, #0\n"
      ".inst 0xe0bf0040\n"         /* st1w {za0h.s[w12, 0]}, p0, [x2] */
      ".inst 0xd503467f\n"         /* smstop */
      :
      : "r"(x0), "r"(x1), "r"(x2)
      : "memory", "x12", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8",
        "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18",
        "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28",
        "v29", "v30", "v31");
}

int main(void) {
  for (int i = 0; i < 16; ++i) {
    a[4 * i] = (int8_t)(i + 1);
    b[4 * i] = (int8_t)(i + 1);
  }
  outerProduct();
  /* Row 0: j + 1 for j < 4 (every SVL has 4 32-bit lanes); QEMU 7.2
   * gives 1 4 3 8. */
  for (int j = 0; j < 4; ++j)
    if (za[j] != j + 1) {
      printf("wrong: ZA0.S[0][%d] = %d\n", j, za[j]);
      return 1;
    }
  printf("ok\n");
  return 0;
}
