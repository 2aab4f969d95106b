/* sme_abi.c - the SME support routines of the AAPCS64 (section "SME
 * support routines"), for AArch64 Linux.
 *
 * TLX's SME GEMM kernels are locally streaming functions with a new ZA
 * (ACLE __arm_locally_streaming __arm_new("za")). LLVM's code for them
 * calls __arm_tpidr2_save (commit a caller's lazy ZA save before taking
 * ZA) and, depending on the version and target, __arm_get_current_vg;
 * calls from ZA users to ordinary functions use __arm_tpidr2_restore,
 * streaming-compatible code __arm_sme_state, and longjmp-like code
 * __arm_za_disable. Debian 12's libgcc (GCC 12) has none of them, so
 * libtlxrt supplies all five.
 *
 * They are written in assembly at file scope because the ABI makes
 * nearly every register call-preserved (X0-X13 or X2-X15, Z0-Z31,
 * P0-P15), which compiled C cannot promise. SME instructions are spelled
 * as .inst words, so this file builds with any AArch64 compiler and no
 * +sme. Whether the thread may use SME (HWCAP2_SME) is read once, by a
 * constructor, into a byte the routines test.
 *
 * The symbols are weak: a runtime library that has its own (newer libgcc,
 * compiler-rt) may take precedence. */
#if defined(__aarch64__) && defined(__linux__)
#include "tlxrt_cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>

#ifndef HWCAP2_SME
#define HWCAP2_SME (1UL << 23)
#endif
#ifndef HWCAP_SVE
#define HWCAP_SVE (1UL << 22)
#endif

/* 1 when the thread has SME (and so TPIDR2_EL0), 2 added for SVE. */
__attribute__((visibility("hidden"))) unsigned char tlxrt_sme_caps;

__attribute__((constructor)) static void tlxrt_sme_detect(void) {
  tlxrt_sme_caps = ((getauxval(AT_HWCAP2) & HWCAP2_SME) ? 1 : 0) |
                   ((getauxval(AT_HWCAP) & HWCAP_SVE) ? 2 : 0);
}

/* Called by TLX's SME GEMMs before their kernel: without SME its first
 * instruction (SMSTART) would kill the program with SIGILL and no word of
 * why. Reads the hwcaps itself (glibc keeps them in a variable), so it is
 * right even before the constructor above has run. */
void tlxrt_sme_require(void) {
  if (getauxval(AT_HWCAP2) & HWCAP2_SME)
    return;
  fflush(stdout);
  fprintf(stderr, "tlx: this program uses Arm SME, but this CPU/kernel does "
                  "not support it (HWCAP2_SME is not set); rebuild with "
                  "-fplugin-arg-tlx-target=vector and an -march without "
                  "+sme\n");
  exit(1);
}

/* Encodings (checked with llvm-mc -mattr=+sme):
 *   mrs x16, TPIDR2_EL0      = mrs x16, S3_3_C13_C0_5 (assembler knows it)
 *   mrs x0, SVCR             = mrs x0, S3_3_C4_C2_2
 *   rdsvl x17, #1            0x04bf5831
 *   str za[w15, 0], [x16]    0xe1206200
 *   ldr za[w15, 0], [x16]    0xe1006200
 *   smstop za                0xd503447f
 *   smstop sm                0xd503427f
 *   cntd x0                  0x04e0e3e0 */
__asm__(
    "  .text\n"

    /* Stops streaming mode (if on) and aborts: a TPIDR2 block with
     * nonzero reserved bytes is from a newer ABI revision than this one. */
    "  .p2align 2\n"
    "  .type tlxrt_sme_bad_block, %function\n"
    "tlxrt_sme_bad_block:\n"
    "  .inst 0xd503427f\n"
    "  bl abort\n"
    "  .size tlxrt_sme_bad_block, .-tlxrt_sme_bad_block\n"

    /* __arm_tpidr2_save: commit a lazy save. Uses only X14-X17. */
    "  .weak __arm_tpidr2_save\n"
    "  .p2align 2\n"
    "  .type __arm_tpidr2_save, %function\n"
    "__arm_tpidr2_save:\n"
    "  adrp x16, tlxrt_sme_caps\n"
    "  ldrb w16, [x16, :lo12:tlxrt_sme_caps]\n"
    "  tbz w16, #0, 2f\n"               /* no SME: nothing to save */
    "  mrs x16, S3_3_C13_C0_5\n"        /* TPIDR2_EL0 */
    "  cbz x16, 2f\n"                   /* no lazy save pending */
    "  ldr x17, [x16, #8]\n"            /* num_za_save_slices, reserved */
    "  lsr x14, x17, #16\n"
    "  cbnz x14, tlxrt_sme_bad_block\n" /* bytes 10-15 must be zero */
    "  and x14, x17, #0xffff\n"         /* slices to save */
    "  ldr x16, [x16]\n"                /* za_save_buffer */
    "  cbz x16, 2f\n"
    "  cbz x14, 2f\n"
    "  .inst 0x04bf5831\n"              /* rdsvl x17, #1: bytes a slice */
    "  mov w15, #0\n"
    "1:\n"
    "  .inst 0xe1206200\n"              /* str za[w15, 0], [x16] */
    "  add x16, x16, x17\n"
    "  add w15, w15, #1\n"
    "  cmp x15, x14\n"
    "  b.lo 1b\n"
    "2:\n"
    "  ret\n"
    "  .size __arm_tpidr2_save, .-__arm_tpidr2_save\n"

    /* __arm_za_disable: commit any lazy save, TPIDR2_EL0 = 0, ZA off. */
    "  .weak __arm_za_disable\n"
    "  .p2align 2\n"
    "  .type __arm_za_disable, %function\n"
    "__arm_za_disable:\n"
    "  adrp x16, tlxrt_sme_caps\n"
    "  ldrb w16, [x16, :lo12:tlxrt_sme_caps]\n"
    "  tbz w16, #0, 1f\n"
    "  stp x29, x30, [sp, #-16]!\n"
    "  mov x29, sp\n"
    "  bl __arm_tpidr2_save\n"
    "  ldp x29, x30, [sp], #16\n"
    "  msr S3_3_C13_C0_5, xzr\n"
    "  .inst 0xd503447f\n"              /* smstop za */
    "1:\n"
    "  ret\n"
    "  .size __arm_za_disable, .-__arm_za_disable\n"

    /* __arm_tpidr2_restore(BLK in X0): reload the slices saved through
     * BLK. ZA is on (shared-ZA interface); TPIDR2_EL0 must be null. */
    "  .weak __arm_tpidr2_restore\n"
    "  .p2align 2\n"
    "  .type __arm_tpidr2_restore, %function\n"
    "__arm_tpidr2_restore:\n"
    "  mrs x16, S3_3_C13_C0_5\n"
    "  cbnz x16, tlxrt_sme_bad_block\n" /* a lazy save is still pending */
    "  ldr x17, [x0, #8]\n"
    "  lsr x14, x17, #16\n"
    "  cbnz x14, tlxrt_sme_bad_block\n"
    "  and x14, x17, #0xffff\n"
    "  ldr x16, [x0]\n"
    "  cbz x16, 2f\n"
    "  cbz x14, 2f\n"
    "  .inst 0x04bf5831\n"              /* rdsvl x17, #1 */
    "  mov w15, #0\n"
    "1:\n"
    "  .inst 0xe1006200\n"              /* ldr za[w15, 0], [x16] */
    "  add x16, x16, x17\n"
    "  add w15, w15, #1\n"
    "  cmp x15, x14\n"
    "  b.lo 1b\n"
    "2:\n"
    "  ret\n"
    "  .size __arm_tpidr2_restore, .-__arm_tpidr2_restore\n"

    /* __arm_sme_state: X0 = bit 63 SME, bit 62 TPIDR2_EL0 access, bits 1:0
     * PSTATE.ZA:SM (SVCR); X1 = TPIDR2_EL0. Changes X16 only besides. */
    "  .weak __arm_sme_state\n"
    "  .p2align 2\n"
    "  .type __arm_sme_state, %function\n"
    "__arm_sme_state:\n"
    "  mov x0, #0\n"
    "  mov x1, #0\n"
    "  adrp x16, tlxrt_sme_caps\n"
    "  ldrb w16, [x16, :lo12:tlxrt_sme_caps]\n"
    "  tbz w16, #0, 1f\n"
    "  mrs x0, S3_3_C4_C2_2\n"          /* SVCR */
    "  and x0, x0, #3\n"
    "  orr x0, x0, #0xc000000000000000\n"
    "  mrs x1, S3_3_C13_C0_5\n"
    "1:\n"
    "  ret\n"
    "  .size __arm_sme_state, .-__arm_sme_state\n"

    /* __arm_get_current_vg: X0 = VG (64-bit granules of a vector) in the
     * current mode: streaming VG when PSTATE.SM is 1, else the SVE one,
     * 0 without either. Changes X16 only besides. */
    "  .weak __arm_get_current_vg\n"
    "  .p2align 2\n"
    "  .type __arm_get_current_vg, %function\n"
    "__arm_get_current_vg:\n"
    "  adrp x16, tlxrt_sme_caps\n"
    "  ldrb w16, [x16, :lo12:tlxrt_sme_caps]\n"
    "  tbnz w16, #1, 2f\n"              /* SVE: cntd works in either mode */
    "  tbz w16, #0, 1f\n"
    "  mrs x0, S3_3_C4_C2_2\n"          /* SME without SVE: only when SM */
    "  tbnz x0, #0, 2f\n"
    "1:\n"
    "  mov x0, #0\n"
    "  ret\n"
    "2:\n"
    "  .inst 0x04e0e3e0\n"              /* cntd x0 */
    "  ret\n"
    "  .size __arm_get_current_vg, .-__arm_get_current_vg\n");
#endif
