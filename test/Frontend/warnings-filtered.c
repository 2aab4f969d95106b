// The RFC idiom warns on every dummy call in plain clang (-Wpsabi for tensors
// wider than the vector registers, -Wdeprecated-non-prototype for K&R
// declarations; tlx.h's own declarations silence the latter with a pragma).
// The plugin drops these for TLX calls only: the same warnings on user calls
// stay, and -Werror does not turn them into errors.
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o /dev/null %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %clang_tlx -Werror -O0 -fplugin-arg-tlx-stop-after=recognize -S -emit-llvm -o /dev/null %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// Without the plugin, the TLX calls warn too.
// RUN: %clang_plain -DTLX_NO_PLUGIN_CHECK -O0 -S -emit-llvm -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PLAIN

#include <tlx.h>

typedef float v16f __attribute__((__vector_size__(64)));
TLX_DECLARE_TENSOR_OPS(v16f)
void user(v16f);
int user_kr();
v16f tensor_sigmoid_kr();

void f(v16f x) {
  tlx_token_t t = tensor_typeinfo(x, TLX_SHAPE(4, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2));
  v16f r = tensor_relu(t);
  user(r);
  user_kr(r);
  v16f s = tensor_sigmoid_kr(t);
}
// CHECK-DAG: warnings-filtered.c:23:10: warning: passing arguments to 'user_kr' without a prototype is deprecated
// CHECK-DAG: warnings-filtered.c:22:3: warning: AVX vector argument of type 'v16f' {{.*}} [-Wpsabi]
// CHECK-DAG: warnings-filtered.c:23:3: warning: AVX vector argument of type 'v16f' {{.*}} [-Wpsabi]
// PLAIN-DAG: warnings-filtered.c:24:29: warning: passing arguments to 'tensor_sigmoid_kr' without a prototype is deprecated
// PLAIN-DAG: warnings-filtered.c:24:12: warning: AVX vector return of type 'v16f' {{.*}} [-Wpsabi]
// PLAIN-DAG: warnings-filtered.c:20:19: warning: AVX vector argument of type 'v16f' {{.*}} [-Wpsabi]
// PLAIN-DAG: warnings-filtered.c:21:12: warning: AVX vector return of type 'v16f' {{.*}} [-Wpsabi]
