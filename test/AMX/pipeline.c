// tlx-amx-emulate runs in clang's pipeline only for target=amx-emulate, at
// the optimizer's end, at -O0 and -O2.
// RUN: %clang_tlx -O0 -fplugin-arg-tlx-target=amx-emulate -Xclang -fdebug-pass-manager -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-target=amx-emulate -Xclang -fdebug-pass-manager -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_tlx -O2 -Xclang -fdebug-pass-manager -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %clang_tlx -O2 -fplugin-arg-tlx-target=amx -Xclang -fdebug-pass-manager -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// CHECK: Running pass: tlx::AMXEmulatePass on [module]
// CHECK-NEXT: Running pass: tlx::CheckLoweredPass on [module]
// OFF-NOT: AMXEmulatePass

int f(int x) { return x + 1; }
