// tlx-cc runs clang with the plugin and tlx.h, passes every argument
// through, and links the runtime (with an rpath) and libm unless the command
// does not link (or has no input: "tlx-cc -v" only prints). tlx-c++ is the
// same around clang++. Both find TLX through symbolic links to them.
// RUN: %tlx_cc -### -O2 %s -o %t 2>&1 | FileCheck %s --check-prefix=LINK
// RUN: %tlx_cc -### -O2 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOLINK
// RUN: %tlx_cc -### -S %s -o %t.s 2>&1 | FileCheck %s --check-prefix=NOLINK
// RUN: %tlx_cc -O2 %S/Inputs/tlx-cc-client.c -o %t && %t | FileCheck %s --check-prefix=EXEC
// RUN: %tlx_cc -c %S/Inputs/tlx-cc-client.c -o %t.o && %tlx_cc %t.o -o %t.2 && %t.2 | FileCheck %s --check-prefix=EXEC

// RUN: %tlx_cc -v 2>&1 | FileCheck %s --check-prefix=NOINPUT
// RUN: %tlx_cxx -### %s -o %t 2>&1 | FileCheck %s --check-prefix=CXX
// RUN: rm -rf %t.links && mkdir %t.links && ln -s %tlx_cc %t.links/cc && ln -s %t.links/cc %t.links/cc2
// RUN: cd %t.links && ./cc2 -O2 %S/Inputs/tlx-cc-client.c -o %t.3 && %t.3 | FileCheck %s --check-prefix=EXEC

// NOINPUT: clang version
// NOINPUT-NOT: tlxrt
// CXX: "-cc1"
// CXX-SAME: "-load" "{{[^"]*}}/libtlx.so"
// CXX: "-ltlxrt" "-lm"
// CXX-SAME: "-lstdc++"
// LINK: "-cc1"
// LINK-DAG: "-I" "{{[^"]*}}/headers"
// LINK-DAG: "-O2"
// LINK-DAG: "-load" "{{[^"]*}}/libtlx.so"
// LINK: "-rpath" "{{[^"]*}}/lib"{{.*}} "-ltlxrt" "-lm"
// NOLINK: "-cc1"
// NOLINK-SAME: "-load" "{{[^"]*}}/libtlx.so"
// NOLINK-NOT: tlxrt
// EXEC: shape 16 5 3, bf16(1.0) = 0x3f80
