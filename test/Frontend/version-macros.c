// The plugin predefines __TLX__ and its version for every translation unit,
// before any header, in C and C++; tlx.h's TLX_VERSION_* (the header's own)
// agree with them and with the CMake project version.
// RUN: %clang_tlx -fsyntax-only %tlx_version_defines %s
// RUN: %clang_tlx -x c++ -fsyntax-only %tlx_version_defines %s
// Preprocessing alone runs no plugin action: tlx.h defines the same macros
// when __has_attribute(tlx_plugin) says the plugin is loaded, so -E and
// -save-temps see them from tlx.h on.
// RUN: %clang_tlx -E -P %tlx_version_defines -DPREPROCESS_ONLY %s | FileCheck %s
// RUN: rm -rf %t.d && mkdir %t.d && cd %t.d && %clang_tlx -c -save-temps %tlx_version_defines -DPREPROCESS_ONLY %s
// RUN: FileCheck %s < %t.d/version-macros.i
// Without the plugin, none of the plugin's macros exists.
// RUN: %clang_plain -fsyntax-only -DTLX_NO_PLUGIN_CHECK -DNO_PLUGIN %tlx_version_defines %s

#if defined(NO_PLUGIN) || defined(PREPROCESS_ONLY)
#ifdef __TLX__
#error "__TLX__ without the plugin's AST action"
#endif
#else
#if !defined(__TLX__) || __TLX__ != 1
#error "__TLX__ is not 1 before any #include"
#endif
#if __TLX_MAJOR__ != CMAKE_VERSION_MAJOR || __TLX_MINOR__ != CMAKE_VERSION_MINOR || __TLX_PATCHLEVEL__ != CMAKE_VERSION_PATCH
#error "__TLX_MAJOR__.__TLX_MINOR__.__TLX_PATCHLEVEL__ differ from CMake's"
#endif
#endif

#include <tlx.h>

#if TLX_VERSION_MAJOR != CMAKE_VERSION_MAJOR || TLX_VERSION_MINOR != CMAKE_VERSION_MINOR || TLX_VERSION_PATCH != CMAKE_VERSION_PATCH
#error "tlx.h's TLX_VERSION_* differ from CMake's project version"
#endif
#if TLX_VERSION != 100 * (100 * CMAKE_VERSION_MAJOR + CMAKE_VERSION_MINOR) + CMAKE_VERSION_PATCH
#error "TLX_VERSION"
#endif
#ifndef NO_PLUGIN
#if __TLX_MAJOR__ != TLX_VERSION_MAJOR || __TLX_MINOR__ != TLX_VERSION_MINOR || __TLX_PATCHLEVEL__ != TLX_VERSION_PATCH
#error "plugin and tlx.h versions differ"
#endif
static const char version[] = __TLX_VERSION__;
#endif

#ifdef PREPROCESS_ONLY
int after_tlx_h[] = {__TLX__, __TLX_MAJOR__, __TLX_MINOR__, __TLX_PATCHLEVEL__};
#endif
// CHECK: int after_tlx_h[] = {1, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}};
