// tlx-cc runs clang-19 with the plugin and tlx.h, passes every argument
// through, and links the runtime (with an rpath) and libm unless the command
// does not link.
// RUN: %tlx_cc -### -O2 %s -o %t 2>&1 | FileCheck %s --check-prefix=LINK
// RUN: %tlx_cc -### -O2 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOLINK
// RUN: %tlx_cc -### -S %s -o %t.s 2>&1 | FileCheck %s --check-prefix=NOLINK
// RUN: %tlx_cc -O2 %S/Inputs/tlx-cc-client.c -o %t && %t | FileCheck %s --check-prefix=EXEC
// RUN: %tlx_cc -c %S/Inputs/tlx-cc-client.c -o %t.o && %tlx_cc %t.o -o %t.2 && %t.2 | FileCheck %s --check-prefix=EXEC

// LINK: "-cc1"
// LINK-SAME: "-I" "{{[^"]*}}/headers"
// LINK-SAME: "-O2"
// LINK-SAME: "-load" "{{[^"]*}}/libtlx.so"
// LINK: "-rpath" "{{[^"]*}}/lib"{{.*}} "-ltlxrt" "-lm"
// NOLINK: "-cc1"
// NOLINK-SAME: "-load" "{{[^"]*}}/libtlx.so"
// NOLINK-NOT: tlxrt
// EXEC: shape 16 5 3, bf16(1.0) = 0x3f80
