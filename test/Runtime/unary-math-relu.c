// Elementwise ops: every math op on f32/f64 (known values), f16/bf16 results
// rounded from float, relu on all eight element types, special values,
// layouts, and rejected element types.
// RUN: %clang_plain -std=c11 -Wall -I%S/Inputs %s %tlx_rt -o %t && %t | FileCheck %s

#include "check.h"

typedef struct {
  tlx_unary_op op;
  const char *name;
  double x, want;
} Case;

static const Case MathCases[] = {
    {TLX_TANH, "tanh", 1, 0.7615941559557649},
    {TLX_SIGMOID, "sigmoid", 2, 0.8807970779778823},
    {TLX_SIGMOID, "sigmoid", 0, 0.5},
    {TLX_RELU, "relu", -2.5, 0},
    {TLX_SIN, "sin", 1, 0.8414709848078965},
    {TLX_COS, "cos", 1, 0.5403023058681398},
    {TLX_EXP, "exp", 1, 2.718281828459045},
    {TLX_EXP2, "exp2", 0.5, 1.4142135623730951},
    {TLX_LOG, "log", 2, 0.6931471805599453},
    {TLX_LOG2, "log2", 10, 3.321928094887362},
    {TLX_LOG10, "log10", 2, 0.3010299956639812},
    {TLX_SQRT, "sqrt", 2, 1.4142135623730951},
    {TLX_FABS, "fabs", -3.25, 3.25},
    {TLX_FLOOR, "floor", -1.5, -2},
    {TLX_CEIL, "ceil", -1.5, -1},
};
enum { NumCases = sizeof(MathCases) / sizeof(MathCases[0]) };

// Applies op to the scalar x stored as dtype; returns the stored result.
static double apply(tlx_unary_op op, tlx_dtype dtype, double x) {
  _Alignas(8) unsigned char in[8], out[8];
  const int64_t one[] = {1}, zero[] = {0};
  tlx_tensor ti = makeTensor(in, dtype, 1, one);
  tlx_tensor to = makeTensor(out, dtype, 1, one);
  tlx_set_f64(&ti, zero, x);
  expectOk("apply", tlx_ref_unary(op, &ti, &to));
  return tlx_get_f64(&to, zero);
}

// CHECK-LABEL: f32 math ops: ok
// CHECK: f64 math ops: ok
static void mathOps(void) {
  int before = Failures;
  for (int i = 0; i < NumCases; ++i) {
    const Case *c = &MathCases[i];
    double got32 = apply(c->op, TLX_F32, c->x);
    double got64 = apply(c->op, TLX_F64, c->x);
    if (fabs(got32 - c->want) > 3e-7 * fmax(1, fabs(c->want)))
      printf("FAIL f32 %s(%g) = %.9g, expected %.9g\n", c->name, c->x, got32,
             c->want), ++Failures;
    if (fabs(got64 - c->want) > 1e-15 * fmax(1, fabs(c->want)))
      printf("FAIL f64 %s(%g) = %.17g, expected %.17g\n", c->name, c->x,
             got64, c->want), ++Failures;
  }
  expectTrue("f32 math ops", Failures == before);
  expectTrue("f64 math ops", Failures == before);
}

// Results computed in float, rounded once to the 16-bit type (values
// worked out by hand: f16 keeps 11 significant bits, bf16 8).
// CHECK-LABEL: f16 math ops: ok
// CHECK: bf16 math ops: ok
static void halfOps(void) {
  static const struct {
    tlx_unary_op op;
    double x, f16, bf16;
  } Cases[] = {
      {TLX_TANH, 1, 0.76171875, 0.76171875},
      {TLX_SIGMOID, 2, 0.880859375, 0.87890625},
      {TLX_SIN, 1, 0.84130859375, 0.83984375},
      {TLX_COS, 1, 0.54052734375, 0.5390625},
      {TLX_EXP, 1, 2.71875, 2.71875},
      {TLX_LOG, 2, 0.693359375, 0.69140625},
      {TLX_LOG2, 10, 3.322265625, 3.328125},
      {TLX_LOG10, 2, 0.301025390625, 0.30078125},
      {TLX_SQRT, 2, 1.4140625, 1.4140625},
      {TLX_EXP2, 0.5, 1.4140625, 1.4140625},
      {TLX_FLOOR, 2.5, 2, 2},
      {TLX_CEIL, -0.5, -0.0, -0.0},
      {TLX_FABS, -0.0, 0.0, 0.0},
      {TLX_EXP, 12, INFINITY, 162816}, // e^12 = 162754.8 > f16 max
  };
  int before = Failures, n = sizeof(Cases) / sizeof(Cases[0]);
  for (int i = 0; i < n; ++i) {
    double h = apply(Cases[i].op, TLX_F16, Cases[i].x);
    double b = apply(Cases[i].op, TLX_BF16, Cases[i].x);
    if (h != Cases[i].f16 || signbit(h) != signbit(Cases[i].f16))
      printf("FAIL f16 case %d: %.17g, expected %.17g\n", i, h, Cases[i].f16),
          ++Failures;
    if (b != Cases[i].bf16 || signbit(b) != signbit(Cases[i].bf16))
      printf("FAIL bf16 case %d: %.17g, expected %.17g\n", i, b,
             Cases[i].bf16), ++Failures;
  }
  expectTrue("f16 math ops", Failures == before);
  expectTrue("bf16 math ops", Failures == before);
}

// CHECK-LABEL: relu i8: ok
// CHECK: relu i16: ok
// CHECK: relu i32: ok
// CHECK: relu i64: ok
static void reluInts(void) {
  static const struct {
    const char *name;
    tlx_dtype dtype;
    int64_t min, max;
  } Types[] = {{"relu i8", TLX_I8, INT8_MIN, INT8_MAX},
               {"relu i16", TLX_I16, INT16_MIN, INT16_MAX},
               {"relu i32", TLX_I32, INT32_MIN, INT32_MAX},
               {"relu i64", TLX_I64, INT64_MIN, INT64_MAX}};
  for (int t = 0; t < 4; ++t) {
    _Alignas(8) unsigned char in[40], out[40];
    const int64_t five[] = {5};
    tlx_tensor ti = makeTensor(in, Types[t].dtype, 1, five);
    tlx_tensor to = makeTensor(out, Types[t].dtype, 1, five);
    const int64_t vals[] = {Types[t].min, -1, 0, 1, Types[t].max};
    for (int64_t i = 0; i < 5; ++i)
      tlx_set_i64(&ti, &i, vals[i]);
    expectOk(Types[t].name, tlx_ref_unary(TLX_RELU, &ti, &to));
    const int64_t want[] = {0, 0, 0, 1, Types[t].max};
    expectInts(Types[t].name, &to, want);
  }
}

// relu on floats is llvm.maximum(x, +0.0): NaN stays NaN, -0 becomes +0.
// CHECK-LABEL: relu f16: ok
// CHECK: relu bf16: ok
// CHECK: relu f32: ok
// CHECK: relu f64: ok
static void reluFloats(void) {
  static const struct {
    const char *name;
    tlx_dtype dtype;
  } Types[] = {{"relu f16", TLX_F16},
               {"relu bf16", TLX_BF16},
               {"relu f32", TLX_F32},
               {"relu f64", TLX_F64}};
  const double vals[] = {-INFINITY, -1.5, -0.0, 0.0, 2.5, INFINITY, NAN};
  const double want[] = {0.0, 0.0, 0.0, 0.0, 2.5, INFINITY, NAN};
  for (int t = 0; t < 4; ++t) {
    _Alignas(8) unsigned char in[56], out[56];
    const int64_t seven[] = {7};
    tlx_tensor ti = makeTensor(in, Types[t].dtype, 1, seven);
    tlx_tensor to = makeTensor(out, Types[t].dtype, 1, seven);
    for (int64_t i = 0; i < 7; ++i)
      tlx_set_f64(&ti, &i, vals[i]);
    expectOk(Types[t].name, tlx_ref_unary(TLX_RELU, &ti, &to));
    expectFloats(Types[t].name, &to, want, 0);
  }
}

// CHECK-LABEL: special values: ok
// CHECK: column-major in, row-major out: ok
static void specialsAndLayouts(void) {
  int ok = isnan(apply(TLX_LOG, TLX_F32, -1)) &&
           apply(TLX_LOG, TLX_F32, 0) == -INFINITY &&
           isnan(apply(TLX_SQRT, TLX_F64, -1)) &&
           apply(TLX_EXP, TLX_F32, 1000) == INFINITY &&
           apply(TLX_SIGMOID, TLX_F32, -1000) == 0 &&
           apply(TLX_TANH, TLX_BF16, 100) == 1;
  expectTrue("special values", ok);

  float inCol[] = {1, 4, 9, 16, 25, 36}, out[6]; // logical [[1,9,25],[4,16,36]]
  const int64_t s32[] = {3, 2}, s23[] = {2, 3}, col[] = {1, 0};
  tlx_tensor ti = makeLayout(inCol, TLX_F32, 2, s32, col, NULL);
  tlx_tensor to = makeTensor(out, TLX_F32, 2, s23);
  expectOk("sqrt layout", tlx_ref_unary(TLX_SQRT, &ti, &to));
  const double want[] = {1, 3, 5, 2, 4, 6};
  expectFloats("column-major in, row-major out", &to, want, 0);
}

// CHECK-LABEL: tanh on i32: error: tanh: needs a floating-point element type, not i32
// CHECK: type change: error: exp: out has element type f64, expected f32
// CHECK: bad op: error: unary: bad unary op 99
static void errors(void) {
  static int32_t ibuf[4];
  static double dbuf[4];
  const int64_t four[] = {4};
  tlx_tensor ti = makeTensor(ibuf, TLX_I32, 1, four);
  expectError("tanh on i32", tlx_ref_unary(TLX_TANH, &ti, &ti),
              "floating-point");
  tlx_tensor tf = makeTensor(ibuf, TLX_F32, 1, four);
  tlx_tensor td = makeTensor(dbuf, TLX_F64, 1, four);
  expectError("type change", tlx_ref_unary(TLX_EXP, &tf, &td), "element type");
  expectError("bad op", tlx_ref_unary((tlx_unary_op)99, &tf, &tf),
              "bad unary op");
}

int main(void) {
  mathOps();
  halfOps();
  reluInts();
  reluFloats();
  specialsAndLayouts();
  errors();
  return Failures != 0;
}
