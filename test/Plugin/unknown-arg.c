// An unknown -fplugin-arg-tlx-* option is an error that lists the valid ones,
// and names the nearest spelling where one is near (a third of the letters
// apart, or the only one the mistake begins).
// RUN: not %clang_tlx -fplugin-arg-tlx-bogus=1 -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: not %clang_tlx -fplugin-arg-tlx-target=gpu -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not %clang_tlx -fplugin-arg-tlx-stop-after=nowhere -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=STAGE
// RUN: not %clang_tlx -fplugin-arg-tlx-fuse-epilogues=maybe -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=FUSE
// RUN: not %clang_tlx -fplugin-arg-tlx-optimize-kernels=yes -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=OPTK
// RUN: not %clang_tlx -fplugin-arg-tlx-dispatch=auto -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=DISP
// RUN: not %clang_tlx -fplugin-arg-tlx-share-kernel=never -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=NEAR-KEY
// RUN: not %clang_tlx -fplugin-arg-tlx-target=amx-emu -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=NEAR-TARGET
// RUN: not %clang_tlx -fplugin-arg-tlx-target=vectr -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=NEAR-TARGET2
// RUN: not %clang_tlx -fplugin-arg-tlx-threads=of -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=NEAR-SWITCH
// RUN: not %clang_tlx -fplugin-arg-tlx-stop-after=nd-to2d -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=NEAR-STAGE
// RUN: not %clang_tlx -fplugin-arg-tlx-share-kernels=allways -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=NEAR-SHARE
// Every argument the error lists is in tlx-cc --help.
// RUN: %tlx_cc --help | FileCheck %s --check-prefix=HELP
// CHECK: error: invalid TLX plugin argument 'bogus=1': unknown option (valid arguments: target=auto|vector|amx|amx-emulate|sme|mma, stop-after=<stage>, fuse-epilogues=on|off, optimize-kernels=on|off, dispatch=on|off, threads=on|off, runtime-checks=on|off, share-kernels=auto|always|never)
// TARGET: error: invalid TLX plugin argument 'target=gpu': unknown target (valid
// STAGE: error: invalid TLX plugin argument 'stop-after=nowhere': unknown stage; stages are recognize, vector-ops, bufferize, nd-to-2d, tile, legalize (valid
// FUSE: error: invalid TLX plugin argument 'fuse-epilogues=maybe': expected 'on' or 'off' (valid
// OPTK: error: invalid TLX plugin argument 'optimize-kernels=yes': expected 'on' or 'off' (valid
// DISP: error: invalid TLX plugin argument 'dispatch=auto': expected 'on' or 'off' (valid
// NEAR-KEY: error: invalid TLX plugin argument 'share-kernel=never': unknown option; did you mean 'share-kernels'? (valid
// NEAR-TARGET: error: invalid TLX plugin argument 'target=amx-emu': unknown target; did you mean 'amx-emulate'? (valid
// NEAR-TARGET2: error: invalid TLX plugin argument 'target=vectr': unknown target; did you mean 'vector'? (valid
// NEAR-SWITCH: error: invalid TLX plugin argument 'threads=of': expected 'on' or 'off'; did you mean 'off'? (valid
// NEAR-STAGE: error: invalid TLX plugin argument 'stop-after=nd-to2d': unknown stage; did you mean 'nd-to-2d'?; stages are
// NEAR-SHARE: error: invalid TLX plugin argument 'share-kernels=allways': expected 'auto', 'always' or 'never'; did you mean 'always'? (valid
// HELP: -fplugin-arg-tlx-target=<target>
// HELP: -fplugin-arg-tlx-stop-after=<stage>
// HELP: recognize, vector-ops,
// HELP: -fplugin-arg-tlx-fuse-epilogues=on|off
// HELP: -fplugin-arg-tlx-runtime-checks=on|off
// HELP: -fplugin-arg-tlx-dispatch=on|off
// HELP: -fplugin-arg-tlx-threads=on|off
// HELP: -fplugin-arg-tlx-share-kernels=auto|always|never
// HELP: -fplugin-arg-tlx-optimize-kernels=on|off
int main(void) { return 0; }
