// umma/smma/usmma/summa: i8 operands widened to the i32 accumulator with
// each signedness combination; accumulating in place (acc loaded from the
// destination) and from another tensor; a batched i16 x i16 -> i64 smma.
// RUN: %clang_tlx -w -O0 %s %tlx_rt -o %t0 && %t0 | FileCheck %s
// RUN: %clang_tlx -w -O2 %s %tlx_rt -o %t2 && %t2 | FileCheck %s
// The same through AMX tiles, run on the runtime's AMX emulator:
// RUN: %clang_tlx -w -O0 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %te0 && %te0 | FileCheck %s
// RUN: %clang_tlx -w -O2 -fplugin-arg-tlx-target=amx-emulate %s %tlx_rt -o %te2 && %te2 | FileCheck %s
// CHECK: umma: ok
// CHECK: smma: ok
// CHECK: usmma: ok
// CHECK: summa: ok
// CHECK: smma in place: ok
// CHECK: smma batched i16 -> i64: ok
// CHECK: PASSED
#include "Inputs/oracle.h"
#include <tlx.h>

typedef int32_t v20i __attribute__((__vector_size__(20 * 4)));
typedef int64_t v12l __attribute__((__vector_size__(12 * 8)));
TLX_DECLARE_TENSOR_OPS_AS(v20i, i)
TLX_DECLARE_TENSOR_OPS_AS(v12l, l)

static int8_t A[4 * 8], B[8 * 5];
static int32_t Acc[20], C[20], Want[20];
static const int64_t SA[] = {4, 8}, SB[] = {8, 5}, SC[] = {4, 5};

#define MMA_CASE(OP, KIND)                                                     \
  static void test_##OP(void) {                                                \
    tlx_tensor ta = desc(A, TLX_I8, 2, SA, NULL, NULL);                        \
    tlx_tensor tb = desc(B, TLX_I8, 2, SB, NULL, NULL);                        \
    tlx_tensor tacc = desc(Acc, TLX_I32, 2, SC, NULL, NULL);                   \
    tlx_tensor tc = desc(C, TLX_I32, 2, SC, NULL, NULL);                       \
    tlx_tensor tw = desc(Want, TLX_I32, 2, SC, NULL, NULL);                    \
    fillRandom(&ta, 127);                                                      \
    fillRandom(&tb, 127);                                                      \
    fillRandom(&tacc, 1000);                                                   \
    refOk(#OP, tlx_ref_mma(KIND, &tacc, &ta, &tb, &tw));                       \
    tlx_token_t xacc = tensor_load(Acc, TLX_SHAPE(4, 5), TLX_LAYOUT(0, 1),     \
                                   TLX_ZEROS(2), TLX_ZEROS(2));                \
    tlx_token_t xa = tensor_load(A, TLX_SHAPE(4, 8), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                  \
    tlx_token_t xb = tensor_load(B, TLX_SHAPE(8, 5), TLX_LAYOUT(0, 1),         \
                                 TLX_ZEROS(2), TLX_ZEROS(2));                  \
    v20i r = tensor_##OP##_i(xacc, xa, xb);                                    \
    tensor_store(C, tensor_typeinfo(r, TLX_SHAPE(4, 5), TLX_LAYOUT(0, 1),      \
                                    TLX_ZEROS(2)),                             \
                 TLX_ZEROS(2));                                                \
    compare(#OP, &tc, &tw, 0);                                                 \
  }
MMA_CASE(umma, TLX_UMMA)
MMA_CASE(smma, TLX_SMMA)
MMA_CASE(usmma, TLX_USMMA)
MMA_CASE(summa, TLX_SUMMA)

// C = C + A x B, B column-major.
static void inPlace(void) {
  int8_t bt[40];
  const int64_t sbt[] = {5, 8}, lbt[] = {1, 0};
  tlx_tensor ta = desc(A, TLX_I8, 2, SA, NULL, NULL);
  tlx_tensor tb = desc(bt, TLX_I8, 2, sbt, lbt, NULL);
  tlx_tensor tc = desc(C, TLX_I32, 2, SC, NULL, NULL);
  tlx_tensor tw = desc(Want, TLX_I32, 2, SC, NULL, NULL);
  fillRandom(&ta, 127);
  fillRandom(&tb, 127);
  fillRandom(&tc, 1000);
  refOk("smma", tlx_ref_mma(TLX_SMMA, &tc, &ta, &tb, &tw));
  tlx_token_t xc = tensor_load(C, TLX_SHAPE(4, 5), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t xa = tensor_load(A, TLX_SHAPE(4, 8), TLX_LAYOUT(0, 1),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  tlx_token_t xb = tensor_load(bt, TLX_SHAPE(5, 8), TLX_LAYOUT(1, 0),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  v20i r = tensor_smma_i(xc, xa, xb);
  tensor_store(C, tensor_typeinfo(r, TLX_SHAPE(4, 5), TLX_LAYOUT(0, 1),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
  compare("smma in place", &tc, &tw, 0);
}

static void batched(void) {
  int16_t a[2 * 3 * 4], b[2 * 4 * 2];
  int64_t acc[12], c[12], want[12];
  const int64_t sa[] = {2, 3, 4}, sb[] = {2, 4, 2}, sc[] = {2, 3, 2};
  tlx_tensor ta = desc(a, TLX_I16, 3, sa, NULL, NULL);
  tlx_tensor tb = desc(b, TLX_I16, 3, sb, NULL, NULL);
  tlx_tensor tacc = desc(acc, TLX_I64, 3, sc, NULL, NULL);
  tlx_tensor tc = desc(c, TLX_I64, 3, sc, NULL, NULL);
  tlx_tensor tw = desc(want, TLX_I64, 3, sc, NULL, NULL);
  fillRandom(&ta, 30000);
  fillRandom(&tb, 30000);
  fillRandom(&tacc, 30000);
  refOk("smma", tlx_ref_mma(TLX_SMMA, &tacc, &ta, &tb, &tw));
  tlx_token_t xacc = tensor_load(acc, TLX_SHAPE(2, 3, 2), TLX_LAYOUT(0, 1, 2),
                                 TLX_ZEROS(3), TLX_ZEROS(3));
  tlx_token_t xa = tensor_load(a, TLX_SHAPE(2, 3, 4), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  tlx_token_t xb = tensor_load(b, TLX_SHAPE(2, 4, 2), TLX_LAYOUT(0, 1, 2),
                               TLX_ZEROS(3), TLX_ZEROS(3));
  v12l r = tensor_smma_l(xacc, xa, xb);
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(2, 3, 2), TLX_LAYOUT(0, 1, 2),
                                  TLX_ZEROS(3)),
               TLX_ZEROS(3));
  compare("smma batched i16 -> i64", &tc, &tw, 0);
}

int main(void) {
  test_umma();
  test_smma();
  test_usmma();
  test_summa();
  inPlace();
  batched();
  return finish();
}
