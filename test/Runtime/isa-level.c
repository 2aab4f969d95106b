// tlxrt_isa_level() on x86-64 against what /proc/cpuinfo says of this CPU:
// 1 with AVX2 and FMA, 2 with AVX-512 F/BW/DQ/VL/CD, 3 with AVX512-VNNI and
// AVX512-BF16 too, 4 on those CPUs except Intel's Sapphire and Emerald
// Rapids (family 6, models 143 and 207: vdpbf16ps at half the FMA's rate,
// so bf16 GEMMs keep the FMA kernel there); TLX_ISA_LEVEL_MAX caps it (lit
// sets it when the CPU is masked). The expected level is read from the
// kernel's flags and model line, not from CPUID as the runtime does.
// RUN: %clang_plain -std=c11 -O0 -march=x86-64 %s %tlx_rt -o %t && %t | FileCheck %s
// RUN: env TLX_ISA_LEVEL_MAX=2 %t | FileCheck %s
// RUN: env TLX_ISA_LEVEL_MAX=0 %t | FileCheck %s
// CHECK: isa level: OK
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int32_t tlxrt_isa_level(void);

static char Flags[8192], Vendor[64];
static int Family = -1, Model = -1;

static void readCpuinfo(void) {
  FILE *F = fopen("/proc/cpuinfo", "r");
  char Line[8192];
  if (!F)
    return;
  while (fgets(Line, sizeof Line, F)) {
    char *Value = strchr(Line, ':');
    if (!Value)
      continue;
    Value += 1;
    if (!strncmp(Line, "flags", 5) && !Flags[0])
      snprintf(Flags, sizeof Flags, "%s ", Value);
    else if (!strncmp(Line, "vendor_id", 9) && !Vendor[0])
      sscanf(Value, "%63s", Vendor);
    else if (!strncmp(Line, "cpu family", 10) && Family < 0)
      Family = atoi(Value);
    else if (!strncmp(Line, "model\t", 6) && Model < 0)
      Model = atoi(Value);
  }
  fclose(F);
}

static int has(const char *Flag) {
  char Word[64];
  snprintf(Word, sizeof Word, " %s ", Flag);
  return strstr(Flags, Word) != NULL;
}

int main(void) {
  readCpuinfo();
  int Want = 0;
  if (has("avx2") && has("fma"))
    Want = 1;
  if (Want == 1 && has("avx512f") && has("avx512bw") && has("avx512dq") &&
      has("avx512vl") && has("avx512cd"))
    Want = 2;
  if (Want == 2 && has("avx512_vnni") && has("avx512_bf16"))
    Want = 3;
  int HalfRateBF16 = !strcmp(Vendor, "GenuineIntel") && Family == 6 &&
                     (Model == 143 || Model == 207);
  if (Want == 3 && !HalfRateBF16)
    Want = 4;
  const char *Cap = getenv("TLX_ISA_LEVEL_MAX");
  if (Cap && *Cap && atoi(Cap) < Want)
    Want = atoi(Cap);
  int32_t Got = tlxrt_isa_level();
  printf("isa level: %s (%d, expected %d; %s family %d model %d)\n",
         Got == Want ? "OK" : "WRONG", (int)Got, Want, Vendor, Family, Model);
  return Got != Want;
}
