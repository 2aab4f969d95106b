// A C++ TLX program: iostream needs the C++ driver's standard library.
#include <iostream>
#include <tlx.h>
#include <tlxrt.h>

typedef float v4f __attribute__((__vector_size__(4 * sizeof(float))));
TLX_DECLARE_TENSOR_OPS(v4f)

int main() {
  float a[2][2] = {{1, 2}, {3, 4}}, c[2][2];
  tlx_token_t ta = tensor_load(a, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2),
                               TLX_ZEROS(2), TLX_ZEROS(2));
  v4f r = tensor_matmul(ta, ta);
  tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(2, 2), TLX_IDENTITY_LAYOUT(2),
                                  TLX_ZEROS(2)),
               TLX_ZEROS(2));
  std::cout << "C++: " << c[0][0] << ' ' << c[0][1] << ' ' << c[1][0] << ' '
            << c[1][1] << ", runtime " << tlxrt_version() << '\n';
  return 0;
}
