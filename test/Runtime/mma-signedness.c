// umma/smma/usmma/summa: out = acc + a x b with each operand zero- or
// sign-extended to acc's element type; the RFC's 3x3 accumulator examples.
// RUN: %clang_plain -std=c11 -Wall -I%S/Inputs %s %tlx_rt -o %t && %t | FileCheck %s

#include "check.h"

static const int64_t S34[] = {3, 4}, S43[] = {4, 3}, S33[] = {3, 3};
static int8_t A8[] = {-1, 2, 0, 1, 3, -128, 1, 0, 0, 1, -2, 127};
static int8_t B8[] = {1, -1, 0, 2, 0, -128, 0, 3, 1, -1, 1, 2};
static int32_t Acc[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};

static void runMma(const char *what, tlx_mma_kind kind, const int64_t *want) {
  int32_t out[9];
  tlx_tensor acc = makeTensor(Acc, TLX_I32, 2, S33);
  tlx_tensor a = makeTensor(A8, TLX_I8, 2, S34);
  tlx_tensor b = makeTensor(B8, TLX_I8, 2, S43);
  tlx_tensor o = makeTensor(out, TLX_I32, 2, S33);
  expectOk(what, tlx_ref_mma(kind, &acc, &a, &b, &o));
  expectInts(what, &o, want);
}

// Unsigned reads: -1 -> 255, -128 -> 128, -2 -> 254.
// CHECK-LABEL: umma i8 -> i32: ok
// CHECK: smma i8 -> i32: ok
// CHECK: usmma i8 -> i32: ok
// CHECK: summa i8 -> i32: ok
static void signedness(void) {
  const int64_t umma[] = {515, 65028, 261, 263, 773, 16391, 32394, 897, 645};
  const int64_t smma[] = {3, 4, -251, -249, 5, 16391, -118, 129, 133};
  const int64_t usmma[] = {259, -252, -251, 263, 5, -16377, -118, 897, 389};
  const int64_t summa[] = {259, -252, 261, -249, 773, -16377, 32394, 129, 389};
  runMma("umma i8 -> i32", TLX_UMMA, umma);
  runMma("smma i8 -> i32", TLX_SMMA, smma);
  runMma("usmma i8 -> i32", TLX_USMMA, usmma);
  runMma("summa i8 -> i32", TLX_SUMMA, summa);
}

// The RFC's examples: i32 acc 3x3, op1 3x4, op2 4x3, all i32.
// CHECK-LABEL: rfc umma i32: ok
// CHECK: rfc smma i32: ok
// CHECK: rfc usmma i32: ok
// CHECK: rfc summa i32: ok
static void rfcExamples(void) {
  int32_t a[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  int32_t b[] = {1, 0, 2, 0, 1, 0, 1, 1, 1, 2, 0, -1};
  int32_t out[9];
  const int64_t want[] = {13, 7, 4, 32, 18, 15, 51, 29, 26};
  const char *names[] = {"rfc umma i32", "rfc smma i32", "rfc usmma i32",
                         "rfc summa i32"};
  tlx_tensor acc = makeTensor(Acc, TLX_I32, 2, S33);
  tlx_tensor ta = makeTensor(a, TLX_I32, 2, S34);
  tlx_tensor tb = makeTensor(b, TLX_I32, 2, S43);
  tlx_tensor o = makeTensor(out, TLX_I32, 2, S33);
  // With i32 operands and an i32 acc, the four agree modulo 2^32.
  for (int k = TLX_UMMA; k <= TLX_SUMMA; ++k) {
    expectOk(names[k], tlx_ref_mma((tlx_mma_kind)k, &acc, &ta, &tb, &o));
    expectInts(names[k], &o, want);
  }
}

// CHECK-LABEL: umma i8 acc wraps: ok
// CHECK: smma column-major acc and out: ok
static void wrapAndLayouts(void) {
  int8_t acc8[] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, out8[9];
  tlx_tensor acc = makeTensor(acc8, TLX_I8, 2, S33);
  tlx_tensor a = makeTensor(A8, TLX_I8, 2, S34);
  tlx_tensor b = makeTensor(B8, TLX_I8, 2, S43);
  tlx_tensor o = makeTensor(out8, TLX_I8, 2, S33);
  expectOk("umma i8", tlx_ref_mma(TLX_UMMA, &acc, &a, &b, &o));
  const int64_t want8[] = {3, 4, 5, 7, 5, 7, -118, -127, -123};
  expectInts("umma i8 acc wraps", &o, want8);

  // acc stored column-major (its transpose in memory), out column-major.
  int32_t accCol[] = {1, 4, 7, 2, 5, 8, 3, 6, 9}, out[9];
  const int64_t col[] = {1, 0};
  tlx_tensor ac = makeLayout(accCol, TLX_I32, 2, S33, col, NULL);
  tlx_tensor oc = makeLayout(out, TLX_I32, 2, S33, col, NULL);
  expectOk("col smma", tlx_ref_mma(TLX_SMMA, &ac, &a, &b, &oc));
  const int64_t smma[] = {3, 4, -251, -249, 5, 16391, -118, 129, 133};
  expectInts("smma column-major acc and out", &oc, smma);
}

// CHECK-LABEL: float acc: error: smma: acc must have an integer element type, not f32
// CHECK: operand wider than acc: error: umma: a element type i64 does not widen to i32
// CHECK: out type differs from acc: error: usmma: out has element type i16, expected i32
// CHECK: acc shape: error: summa: acc's logical shape differs from a x b's
static void errors(void) {
  static int64_t buf[64];
  static float fbuf[64];
  tlx_tensor facc = makeTensor(fbuf, TLX_F32, 2, S33);
  tlx_tensor a = makeTensor(A8, TLX_I8, 2, S34);
  tlx_tensor b = makeTensor(B8, TLX_I8, 2, S43);
  tlx_tensor o = makeTensor(buf, TLX_I32, 2, S33);
  expectError("float acc", tlx_ref_mma(TLX_SMMA, &facc, &a, &b, &facc),
              "integer element type");
  tlx_tensor acc = makeTensor(Acc, TLX_I32, 2, S33);
  tlx_tensor a64 = makeTensor(buf, TLX_I64, 2, S34);
  expectError("operand wider than acc",
              tlx_ref_mma(TLX_UMMA, &acc, &a64, &b, &o), "does not widen");
  tlx_tensor o16 = makeTensor(buf, TLX_I16, 2, S33);
  expectError("out type differs from acc",
              tlx_ref_mma(TLX_USMMA, &acc, &a, &b, &o16), "element type");
  const int64_t s31[] = {3, 1};
  tlx_tensor acc31 = makeTensor(Acc, TLX_I32, 2, s31);
  expectError("acc shape", tlx_ref_mma(TLX_SUMMA, &acc31, &a, &b, &o),
              "acc's logical shape");
}

int main(void) {
  signedness();
  rfcExamples();
  wrapAndLayouts();
  errors();
  return Failures != 0;
}
