// -fplugin=libtlx.so alone puts the TLX passes into clang's pipeline at every
// -O level; they are required passes, so -O0's optnone does not skip them.
// RUN: %clang_tlx -O0 -Xclang -fdebug-pass-manager -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_tlx -O1 -Xclang -fdebug-pass-manager -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_tlx -O2 -Xclang -fdebug-pass-manager -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_tlx -O3 -Xclang -fdebug-pass-manager -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang_tlx -Os -Xclang -fdebug-pass-manager -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: Running pass: tlx::RecognizePass on [module]
// CHECK: Running pass: tlx::VerifyPass on [module]
// CHECK: Running pass: tlx::{{.*}}LowerIfValidPass on [module]
// CHECK: Running pass: tlx::BufferizePass on [module]
// CHECK: Running pass: tlx::NDTo2DPass on [module]
// CHECK: Running pass: tlx::TilePass on [module]
// CHECK: Running pass: tlx::LegalizePass on [module]
// CHECK: Running pass: tlx::CheckLoweredPass on [module]
int main(void) { return 0; }
