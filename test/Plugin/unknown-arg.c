// An unknown -fplugin-arg-tlx-* option is an error that lists the valid ones.
// RUN: not %clang_tlx -fplugin-arg-tlx-bogus=1 -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: not %clang_tlx -fplugin-arg-tlx-target=gpu -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not %clang_tlx -fplugin-arg-tlx-stop-after=nowhere -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=STAGE
// RUN: not %clang_tlx -fplugin-arg-tlx-fuse-epilogues=maybe -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=FUSE
// RUN: not %clang_tlx -fplugin-arg-tlx-optimize-kernels=yes -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=OPTK
// RUN: not %clang_tlx -fplugin-arg-tlx-dispatch=auto -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=DISP
// CHECK: error: invalid TLX plugin argument 'bogus=1': unknown option (valid arguments: target=auto|vector|amx|amx-emulate|sme|mma, stop-after=<stage>, fuse-epilogues=on|off, optimize-kernels=on|off, dispatch=on|off, threads=on|off, runtime-checks=on|off, share-kernels=auto|always|never)
// TARGET: error: invalid TLX plugin argument 'target=gpu': unknown target
// STAGE: error: invalid TLX plugin argument 'stop-after=nowhere': unknown stage; stages are recognize
// FUSE: error: invalid TLX plugin argument 'fuse-epilogues=maybe': expected 'on' or 'off'
// OPTK: error: invalid TLX plugin argument 'optimize-kernels=yes': expected 'on' or 'off'
// DISP: error: invalid TLX plugin argument 'dispatch=auto': expected 'on' or 'off'
int main(void) { return 0; }
