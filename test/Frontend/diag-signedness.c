// Integer contractions widen their operands: matmul, contract and
// convolution as signed, umma/smma/usmma/summa as their names say. Data
// whose C element type has the other signedness is a warning at the
// argument, with the op that reads it as it is (a fix-it where the file
// declares that op). Operands that are not widened, and plain char, are
// left alone. -w drops these warnings and -Werror makes them errors, as
// for clang's own (clang 19 keeps a plugin's warnings at their level).
// RUN: %clang_tlx -fsyntax-only -Xclang -verify %s
// RUN: %clang_tlx -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
// RUN: %clang_tlx -fsyntax-only -w %s 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: not %clang_tlx -fsyntax-only -Werror %s 2>&1 | FileCheck %s --check-prefix=WERROR
// QUIET-NOT: {{warning|error}}
// WERROR: error: 'tensor_matmul' widens integer elements as signed, but argument 1 holds uint8_t
// WERROR-NOT: warning:

#include <stdint.h>
#include <tlx.h>

typedef int32_t v16i __attribute__((__vector_size__(16 * sizeof(int32_t))));
typedef uint8_t v16u8 __attribute__((__vector_size__(16)));
TLX_DECLARE_TENSOR_OPS(v16i)
TLX_DECLARE_TENSOR_OPS_AS(v16u8, u8)

#define LOAD(p) tensor_load(p, TLX_SHAPE(4, 4), TLX_IDENTITY_LAYOUT(2), TLX_ZEROS(2), TLX_ZEROS(2))

void contractions(const uint8_t *u, const int8_t *s, const char *c,
                  const int32_t *acc) {
  tlx_token_t tu = LOAD(u), ts = LOAD(s), tc = LOAD(c), tacc = LOAD(acc);
  v16i a = tensor_matmul(tu, ts); // expected-warning {{'tensor_matmul' widens integer elements as signed, but argument 1 holds uint8_t: values above 127 read as negative (200 as -56)}} expected-note {{tensor_usmma(acc, a, b) reads the operands as they are; with a zero accumulator it computes this matmul}}
  v16i b = tensor_matmul(tu, tu); // expected-warning {{argument 1 holds uint8_t}} expected-warning {{argument 2 holds uint8_t}} expected-note {{tensor_umma(acc, a, b)}}
  v16i c1 = tensor_smma(tacc, tu, ts); // expected-warning {{'tensor_smma' widens integer elements as signed, but argument 2 holds uint8_t}} expected-note {{use tensor_usmma to read the operands as they are}}
  v16i d = tensor_umma(tacc, tu, ts); // expected-warning {{'tensor_umma' widens argument 3 as unsigned, but it holds int8_t: negative values read as large positive ones (-1 as 255)}} expected-note {{use tensor_usmma}}
  v16i e = tensor_usmma(tacc, tu, ts); // as they are
  v16i f = tensor_matmul(ts, tc);      // plain char: either way
  v16u8 g = tensor_matmul_u8(tu, tu);  // u8 x u8 -> u8 wraps alike
  (void)a, (void)b, (void)c1, (void)d, (void)e, (void)f, (void)g;
}
// CHECK: fix-it:"{{.*}}diag-signedness.c":{[[@LINE-7]]:13-[[@LINE-7]]:24}:"tensor_usmma"
// CHECK: fix-it:"{{.*}}diag-signedness.c":{[[@LINE-7]]:12-[[@LINE-7]]:23}:"tensor_usmma"
