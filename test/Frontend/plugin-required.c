// tlx.h stops with an #error that says what to do when the TLX plugin is not
// loaded (instead of -Wpsabi warnings and "undefined reference to
// tensor_load" at link time); TLX_NO_PLUGIN_CHECK reads it anyway. With the
// plugin, every action passes, preprocessing alone (-E) included.
// RUN: not %clang_plain -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// RUN: %clang_plain -fsyntax-only -DTLX_NO_PLUGIN_CHECK %s
// RUN: %clang_tlx -DEXPECT_PLUGIN -fsyntax-only %s
// RUN: %clang_tlx -DEXPECT_PLUGIN -E %s -o /dev/null
// RUN: %clang_tlx -DEXPECT_PLUGIN -c -save-temps=obj -o %t.o %s
// RUN: %clang_tlx -DEXPECT_PLUGIN -x c++ -fsyntax-only %s
// RUN: not %clang_plain -x c++ -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// NOPLUGIN: tlx.h:{{[0-9]+}}:2: error: "tlx.h needs the TLX clang plugin: compile with tlx-cc (C) or tlx-c++ (C++), or add -fplugin=<prefix>/lib/libtlx.so to clang's flags (pkg-config --cflags tlx; CMake: TLX::TLX). Define TLX_NO_PLUGIN_CHECK to read this header without the plugin."
// NOPLUGIN-NOT: error:

#include <tlx.h>

#if defined(EXPECT_PLUGIN) && !defined(__TLX__)
#error "tlx.h accepted without __TLX__"
#endif

void f(const float *a, float *b) {
  tlx_token_t t = tensor_load(a, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2),
                              TLX_ZEROS(2), TLX_ZEROS(2));
  tensor_store(b, t, TLX_ZEROS(2));
}
