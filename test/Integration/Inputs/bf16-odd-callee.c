/* Compiled by plain clang (-O2) for bf16-odd-vectors.c: functions taking
 * and returning odd-length __bf16 vectors by value, as the C ABI passes
 * them. */
typedef __bf16 v9 __attribute__((ext_vector_type(9)));
typedef __bf16 v33 __attribute__((ext_vector_type(33)));

v9 reverse9(v9 x) {
  v9 r;
  for (int i = 0; i < 9; ++i)
    r[i] = x[8 - i];
  return r;
}

v33 make33(const __bf16 *p) {
  v33 r;
  for (int i = 0; i < 33; ++i)
    r[i] = p[i];
  return r;
}
