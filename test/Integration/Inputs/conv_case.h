// CONV_CASE: one convolution test case, through tlx.h against the
// runtime's reference convolution (Inputs/oracle.h). Shared by the
// convolution tests of each lowering (conv-shifted.c, conv-row-taps.c,
// conv-epilogue.c).
#ifndef TLX_TEST_CONV_CASE_H
#define TLX_TEST_CONV_CASE_H

#include "oracle.h"
#include <tlx.h>

#define UNP(...) __VA_ARGS__

// The start of a case (in a block of its own): storage shapes and layouts
// of input, kernel and output (as parenthesized lists), strides, input
// dilations (a parenthesized list, 0s reading as 1) and kernel dilations.
// Declares the arrays in, k (random), o (the result's) and w (the
// expected values) with their descriptors ti, tk, to and tw, and computes
// tlx_ref_convolution into tw. CONV_CASE_END frees them.
#define CONV_CASE_BEGIN(NAME, TIN, TOUT, DTIN, DTOUT, R, SI, LI, SK, LK, SO,   \
                        LO, ST, ID, KD)                                        \
  const int64_t si[] = {UNP SI}, li[] = {UNP LI}, sk[] = {UNP SK},             \
                lk[] = {UNP LK}, so[] = {UNP SO}, lo[] = {UNP LO},             \
                st[] = {UNP ST}, id[R - 2] = {UNP ID}, kd[] = {UNP KD};        \
  int64_t ni = 1, nk = 1, no = 1;                                              \
  for (int d = 0; d < R; ++d) {                                                \
    ni *= si[d];                                                               \
    nk *= sk[d];                                                               \
    no *= so[d];                                                               \
  }                                                                            \
  TIN *in = malloc(sizeof(TIN) * ni), *k = malloc(sizeof(TIN) * nk);          \
  TOUT *o = malloc(sizeof(TOUT) * no), *w = malloc(sizeof(TOUT) * no);        \
  int64_t idr[R - 2];                                                          \
  for (int d = 0; d < R - 2; ++d)                                              \
    idr[d] = id[d] ? id[d] : 1;                                                \
  tlx_tensor ti = desc(in, DTIN, R, si, li, NULL);                             \
  tlx_tensor tk = desc(k, DTIN, R, sk, lk, NULL);                              \
  tlx_tensor to = desc(o, DTOUT, R, so, lo, NULL);                             \
  tlx_tensor tw = desc(w, DTOUT, R, so, lo, NULL);                             \
  fillRandom(&ti, 3);                                                          \
  fillRandom(&tk, 3);                                                          \
  refOk(NAME, tlx_ref_convolution(&ti, &tk, st, idr, kd, &tw));

#define CONV_CASE_END                                                          \
  free(in);                                                                    \
  free(k);                                                                     \
  free(o);                                                                     \
  free(w);

// One case: CONV_CASE_BEGIN's, and the input dilations as a TLX vector
// too; checked against tlx_ref_convolution.
#define CONV_CASE_DIL(NAME, TIN, TOUT, DTIN, DTOUT, SFX, R, NS, SI, LI, SK, LK, \
                      SO, LO, ST, ID, IDV, KD)                                 \
  {                                                                            \
    CONV_CASE_BEGIN(NAME, TIN, TOUT, DTIN, DTOUT, R, SI, LI, SK, LK, SO, LO,   \
                    ST, ID, KD)                                                \
    tlx_token_t xi = tensor_load(in, TLX_SHAPE SI, TLX_LAYOUT LI,              \
                                 TLX_ZEROS(R), TLX_ZEROS(R));                  \
    tlx_token_t xk = tensor_load(k, TLX_SHAPE SK, TLX_LAYOUT LK,               \
                                 TLX_ZEROS(R), TLX_ZEROS(R));                  \
    tensor_store(o,                                                            \
                 tensor_typeinfo(tensor_convolution_##SFX(                     \
                                     xi, xk, TLX_DIMS ST, IDV, TLX_DIMS KD),   \
                                 TLX_SHAPE SO, TLX_LAYOUT LO, TLX_ZEROS(R)),   \
                 TLX_ZEROS(R));                                                \
    compare(NAME, &to, &tw, 1e-3);                                             \
    CONV_CASE_END                                                              \
  }

/// CONV_CASE_DIL without input dilation.
#define CONV_CASE(NAME, TIN, TOUT, DTIN, DTOUT, SFX, R, NS, SI, LI, SK, LK, SO, \
                  LO, ST, KD)                                                  \
  CONV_CASE_DIL(NAME, TIN, TOUT, DTIN, DTOUT, SFX, R, NS, SI, LI, SK, LK, SO,  \
                LO, ST, (0), TLX_ZEROS(NS), KD)

#endif // TLX_TEST_CONV_CASE_H
