/* rfc_testing.c - the RFC's "CURRENT TESTING SUPPORT" program, as written
 * there (typedefs, example()), plus #include <tlx.h>, one declaration line
 * (TLX_DECLARE_TENSOR_OPS) and a main.
 *
 * example() multiplies two 1x10x800x800 int tensors (passed by value: 25.6
 * MB each) and discards the result; padding {0,0,0,1} pads the rows of
 * buffers TLX allocates (800 -> 801 elements), it never changes values.
 * main() calls it on the default stack - TLX keeps tensors above 64 KiB
 * off the stack: the by-value arguments are heap copies passed by pointer
 * (docs/pipeline.md, "tlx-heap-values") - and checks a 1x2x8x8 version of
 * the same code against the reference. */
#include <tlx.h>

typedef int _tensor_t __attribute__((__vector_size__(25600000)));
typedef int _shape_t __attribute__((__vector_size__(16), __aligned__(4)));
typedef int _layout_t __attribute__((__vector_size__(16), __aligned__(4)));
typedef int _padding_t __attribute__((__vector_size__(16), __aligned__(4)));
typedef int _token_t;
TLX_DECLARE_TENSOR_OPS(_tensor_t)

void example(_tensor_t tensor1, _tensor_t tensor2) {
  _shape_t shape = {1, 10, 800, 800};
  _layout_t layout = {0, 1, 2, 3};
  _padding_t padding = {0, 0, 0, 1};

  /* Define type information for the input tensors */
  _token_t tensor1_token = tensor_typeinfo(tensor1, shape, layout, padding);
  _token_t tensor2_token = tensor_typeinfo(tensor2, shape, layout, padding);
  /* Perform Matmul */
  _tensor_t tensor3 = tensor_matmul(tensor1_token, tensor2_token);
  /* Define type information for the output tensor */
  _token_t tensor3_token = tensor_typeinfo(tensor3, shape, layout, padding);
}

/* ---- not from the RFC: a small instance of the same code, checked. ---- */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tlxrt.h>

typedef int small_t __attribute__((__vector_size__(128 * sizeof(int))));
TLX_DECLARE_TENSOR_OPS_AS(small_t, small)

static small_t example_small(small_t tensor1, small_t tensor2) {
  _shape_t shape = {1, 2, 8, 8};
  _layout_t layout = {0, 1, 2, 3};
  _padding_t padding = {0, 0, 0, 1};
  _token_t tensor1_token = tensor_typeinfo(tensor1, shape, layout, padding);
  _token_t tensor2_token = tensor_typeinfo(tensor2, shape, layout, padding);
  small_t tensor3 = tensor_matmul_small(tensor1_token, tensor2_token);
  tensor_typeinfo(tensor3, shape, layout, padding);
  return tensor3;
}

int main(void) {
  printf("rfc_testing: example() compiled and linked at %p\n",
         (void *)&example);
  /* Two 25.6 MB tensors by value, on the default stack. */
  _tensor_t *t = calloc(2, sizeof(_tensor_t));
  if (!t) {
    printf("rfc_testing: out of memory\n");
    return 1;
  }
  example(t[0], t[1]);
  free(t);
  printf("rfc_testing: example() ran\n");

  static int a[128], b[128], c[128], ref[128];
  small_t va, vb, vc;
  for (int i = 0; i < 128; i++) {
    a[i] = (i * 7) % 13 - 6;
    b[i] = (i * 5) % 11 - 5;
  }
  memcpy(&va, a, sizeof va);
  memcpy(&vb, b, sizeof vb);
  vc = example_small(va, vb);
  memcpy(c, &vc, sizeof c);
  tlx_tensor da, db, dc;
  const int64_t shape[] = {1, 2, 8, 8};
  tlx_tensor_init(&da, a, TLX_I32, 4, shape, 0, 0, 0);
  tlx_tensor_init(&db, b, TLX_I32, 4, shape, 0, 0, 0);
  tlx_tensor_init(&dc, ref, TLX_I32, 4, shape, 0, 0, 0);
  if (tlx_ref_matmul(&da, &db, &dc)) {
    printf("reference error: %s\n", tlxrt_last_error());
    return 2;
  }
  int bad = 0;
  for (int i = 0; i < 128; i++)
    bad += c[i] != ref[i];
  printf("rfc_testing: 1x2x8x8 matmul: %s (C[0][0][0][0..3] = %d %d %d %d)\n",
         bad ? "FAILED" : "OK (matches the reference)", c[0], c[1], c[2],
         c[3]);
  return bad != 0;
}
