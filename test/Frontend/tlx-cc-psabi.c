// tlx-cc and tlx-c++ pass -Wno-psabi: a tensor vector passed to or returned
// from the user's own functions (here 64 floats, wider than any x86 vector
// register) makes clang warn at each such call that the ABI depends on
// -march, which TLX code does all the time. -Wpsabi (or -Werror=psabi)
// among the user's arguments turns the warning back on. Plain clang with
// -fplugin keeps it (warnings-filtered.c).
// RUN: %tlx_cc -march=x86-64 -c %s -o %t.o 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %tlx_cxx -x c++ -march=x86-64 -c %s -o %t.o 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %tlx_cc -march=x86-64 -Wpsabi -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=LOUD
// RUN: not %tlx_cc -march=x86-64 -Werror=psabi -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=LOUD
// RUN: %tlx_cc -### -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=FLAG
// QUIET-NOT: psabi
// LOUD: tlx-cc-psabi.c:[[@LINE+6]]:{{[0-9]+}}: {{warning|error}}: AVX vector {{argument|return}} of type 'v64f' {{.*}}psabi
// FLAG: "-cc1"
// FLAG-SAME: "-Wno-psabi"

typedef float v64f __attribute__((__vector_size__(64 * sizeof(float))));
v64f twice(v64f x) { return x + x; }
v64f twice_again(v64f y) { return twice(y); }
