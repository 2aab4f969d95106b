/*===- tlx.h - TLX tensor operations for C and C++ ------------------------===*
 *
 * Write N-D tensor code in C with the RFC's "dummy function" idiom; compile
 * it with clang-19 -fplugin=libtlx.so (or tlx-cc). The tlx-recognize pass
 * turns every call below into its llvm.tensor.* intrinsic, at every -O level.
 *
 *   #include <tlx.h>
 *   typedef float mat_t __attribute__((__vector_size__(9 * sizeof(float))));
 *   TLX_DECLARE_TENSOR_OPS(mat_t)              // tensor_matmul() -> mat_t ...
 *
 *   void mm(const float *a, const float *b, float *c) {   // 3x4 x 4x3
 *     tlx_token_t ta = tensor_load(a, TLX_SHAPE(3, 4), TLX_LAYOUT(0, 1),
 *                                  TLX_ZEROS(2), TLX_ZEROS(2));
 *     tlx_token_t tb = tensor_load(b, TLX_SHAPE(4, 3), TLX_LAYOUT(0, 1),
 *                                  TLX_ZEROS(2), TLX_ZEROS(2));
 *     mat_t r = tensor_matmul(ta, tb);
 *     tlx_token_t tr = tensor_typeinfo(r, TLX_SHAPE(3, 3), TLX_LAYOUT(0, 1),
 *                                      TLX_ZEROS(2));
 *     tensor_store(c, tr, TLX_ZEROS(2));
 *   }
 *
 * Concepts (docs/frontend.md has the full reference):
 *  - A tensor is data plus a token. Data is a vector value (any GNU/ext
 *    vector type, "flattened", outermost dimension first) or memory (a
 *    pointer: tensor_load, tensor_typeinfo_mem). A token (tlx_token_t, an
 *    int in C) is what tensor_typeinfo / tensor_load / vector_totensor return;
 *    it names the tensor with its shape, layout and padding. Tokens are not
 *    numbers: only pass them to other tensor_* calls (they may live in local
 *    variables and flow through if/else and loops).
 *  - Shape, layout, padding and strides are int vectors of one length (the
 *    rank). Layout and padding are constants (literals, or local variables
 *    initialised with constants); the shape and strides of tensor_load,
 *    tensor_typeinfo and tensor_store may be C variables - run-time sizes,
 *    checked when the op runs (docs/ops.md lists the ops that take them).
 *    TLX_SHAPE(16, 5, 3) or TLX_SHAPE(m, k) build them for any rank 1..8;
 *    RFC-style `typedef int _shape_t __attribute__((__vector_size__(16)));`
 *    vectors work too.
 *  - Ops that return data are declared by TLX_DECLARE_TENSOR_OPS(type) for
 *    a result vector type `type`; TLX_DECLARE_TENSOR_OPS_AS(type, sfx)
 *    declares the same ops named tensor_<op>_<sfx> so one file can use
 *    several result types (any name tensor_<op> followed by a digit or '_'
 *    and anything is op <op>: tensor_matmul10000 and tensor_matmul_f32 are
 *    matmul; my_tensor_matmul and tensor_matmulx are plain functions).
 *  - Element types: int8_t/uint8_t, int16_t, int32_t, int64_t, _Float16,
 *    __bf16, float, double. Signedness comes from the op (umma/smma/...).
 *
 * Macros (the only function-like macros with op names):
 *  tensor_load and tensor_store append a typed zero vector (the element tag)
 *  so the compiler learns the pointee type, which LLVM's opaque pointers
 *  lose. Call them with the documented arguments. A file that declares its
 *  own prototypes of these two names must define TLX_NO_LOAD_STORE_MACROS
 *  before including tlx.h (or write `(tensor_load)(...)`), and then passes
 *  the tag itself as the last argument: TLX_ELEMENT_TAG(ptr).
 *
 * Declarations are K&R style in C (C23: `(...)`; C++: extern "C" variadic),
 * so a file may also declare the dummies with its own prototypes, as the
 * research prototype's tests do; they stay compatible with these.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TLX_H
#define TLX_H

/* The version of this header (docs/frontend.md, "Versions"). The plugin
 * predefines its own: __TLX__ (1), __TLX_MAJOR__, __TLX_MINOR__,
 * __TLX_PATCHLEVEL__ and __TLX_VERSION__ ("0.1.0"). */
#define TLX_VERSION_MAJOR 0
#define TLX_VERSION_MINOR 1
#define TLX_VERSION_PATCH 0
/* One number to compare: 100 * (100 * major + minor) + patch (0.1.0: 100). */
#define TLX_VERSION                                                            \
  (100 * (100 * TLX_VERSION_MAJOR + TLX_VERSION_MINOR) + TLX_VERSION_PATCH)

/*===--- The plugin must be there -----------------------------------------===*
 *
 * Without the TLX plugin, clang (or gcc) would compile every tensor_* call
 * as a call to a function that exists nowhere: -Wpsabi warnings, then
 * "undefined reference to tensor_load" at link time. Stop here instead.
 * The plugin predefines __TLX__ in every compile; preprocessing alone (-E,
 * the first step of -save-temps) runs no plugin action, but
 * __has_attribute(tlx_plugin) tells that the plugin is loaded, and this
 * header then defines __TLX__ and the version macros itself (with its own
 * version, which the plugin's equals). Tools that read this header without
 * compiling it (clangd, which loads no plugins; documentation generators)
 * define TLX_NO_PLUGIN_CHECK. */
#if !defined(__TLX__) && defined(__has_attribute)
#if __has_attribute(tlx_plugin)
#define __TLX__ 1
#define __TLX_MAJOR__ 0
#define __TLX_MINOR__ 1
#define __TLX_PATCHLEVEL__ 0
#define __TLX_VERSION__ "0.1.0"
#endif
#endif
#if !defined(__TLX__) && !defined(TLX_NO_PLUGIN_CHECK)
#error "tlx.h needs the TLX clang plugin: compile with tlx-cc (C) or tlx-c++ (C++), or add -fplugin=<prefix>/lib/libtlx.so to clang's flags (pkg-config --cflags tlx; CMake: TLX::TLX). Define TLX_NO_PLUGIN_CHECK to read this header without the plugin."
#endif

/*===--- Parameter lists and language glue --------------------------------===*/

#if defined(__cplusplus)
#define TLX__ANYARGS ...
#define TLX__BEGIN_DECLS extern "C" {
#define TLX__END_DECLS }
/* TLX__ELEMENT_TAG_OF(p): see TLX_ELEMENT_TAG below. */
#define TLX__ELEMENT_TAG_OF(p)                                                 \
  (__extension__(typename tlx__element_of<decltype(p)>::type                   \
                 __attribute__((__vector_size__(16)))){0})
#else
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 202311L
#define TLX__ANYARGS ...
#else
#define TLX__ANYARGS
#endif
#define TLX__BEGIN_DECLS
#define TLX__END_DECLS
/* The scalar element type of the pointer or array p, through any number of
 * array extents up to 9 (float a[2][3] passed as a, or float (*)[3], give
 * float), as a statement expression of typedefs so that each step names
 * the previous one once. TLX__INNER(T) is T when *T is not an array, else a
 * pointer to *T's element type; a non-pointer, void *, or a pointer to
 * something that is no integer or floating-point scalar ends at char (the
 * plugin reports those with the argument's own type). */
#define TLX__INNER(T)                                                          \
  __typeof__(__builtin_choose_expr(                                            \
      __builtin_types_compatible_p(__typeof__(*(T)0), __typeof__((0, *(T)0))), \
      (T)0, (0, *(T)0)))
#define TLX__NOT_VOID(T)                                                       \
  __typeof__(__builtin_choose_expr(                                            \
      __builtin_types_compatible_p(__typeof__(*(T)0), void), (char *)0, (T)0))
#define TLX__SCALAR(T)                                                         \
  __typeof__(__builtin_choose_expr(__builtin_classify_type(*(T)0) == 1 ||      \
                                       __builtin_classify_type(*(T)0) == 8,    \
                                   (T)0, (char *)0))
#define TLX__ELEMENT_TAG_OF(p)                                                 \
  __extension__({                                                              \
    typedef __typeof__((0, __builtin_choose_expr(                              \
        __builtin_classify_type(p) == 5, (p), (char *)0))) tlx__p0;            \
    typedef TLX__INNER(tlx__p0) tlx__p1;                                       \
    typedef TLX__INNER(tlx__p1) tlx__p2;                                       \
    typedef TLX__INNER(tlx__p2) tlx__p3;                                       \
    typedef TLX__INNER(tlx__p3) tlx__p4;                                       \
    typedef TLX__INNER(tlx__p4) tlx__p5;                                       \
    typedef TLX__INNER(tlx__p5) tlx__p6;                                       \
    typedef TLX__INNER(tlx__p6) tlx__p7;                                       \
    typedef TLX__INNER(tlx__p7) tlx__p8;                                       \
    typedef TLX__SCALAR(TLX__NOT_VOID(tlx__p8)) tlx__p9;                       \
    (__typeof_unqual__(*(tlx__p9)0) __attribute__((__vector_size__(16)))){0};  \
  })
#endif

/* The dummies never unwind: calls stay calls (no invoke) in C++ try blocks. */
#define TLX__DUMMY __attribute__((__nothrow__))

#if defined(__cplusplus)
/* The scalar element type of a pointer or array type P, through array
 * extents; char for void and other non-scalars (the plugin reports those). */
template <class P> struct tlx__element_of {
  typedef __remove_cv(__remove_all_extents(__remove_pointer(__decay(P)))) E;
  typedef __type_pack_element<((__is_integral(E) && !__is_same(E, bool)) ||
                               __is_floating_point(E))
                                  ? 0
                                  : 1,
                              E, char>
      type;
};
#endif

/*===--- Types ------------------------------------------------------------===*/

/* A tensor token: returned by tensor_typeinfo/tensor_load/vector_totensor. */
typedef int tlx_token_t;

/* Dimension vectors (shape, layout, padding, strides, windows) of rank 1..8. */
typedef int tlx_dims1_t __attribute__((ext_vector_type(1)));
typedef int tlx_dims2_t __attribute__((ext_vector_type(2)));
typedef int tlx_dims3_t __attribute__((ext_vector_type(3)));
typedef int tlx_dims4_t __attribute__((ext_vector_type(4)));
typedef int tlx_dims5_t __attribute__((ext_vector_type(5)));
typedef int tlx_dims6_t __attribute__((ext_vector_type(6)));
typedef int tlx_dims7_t __attribute__((ext_vector_type(7)));
typedef int tlx_dims8_t __attribute__((ext_vector_type(8)));

/* Result types for ops whose extents are C variables (docs/ops.md,
 * "Run-time sizes"): such a result's C vector type carries only its
 * element type - any vector type of that element type will do; these are
 * the named ones. Declare the ops with them as with any result type:
 *   TLX_DECLARE_TENSOR_OPS_AS(tlx_float_result_t, f32)
 *   tlx_float_result_t r = tensor_matmul_f32(ta, tb);
 *   tensor_store(c, tensor_typeinfo(r, TLX_SHAPE(m, n), TLX_LAYOUT(0, 1),
 *                                   TLX_ZEROS(2)), TLX_ZEROS(2));        */
typedef float tlx_float_result_t __attribute__((__vector_size__(16)));
typedef double tlx_double_result_t __attribute__((__vector_size__(16)));
typedef signed char tlx_int8_result_t __attribute__((__vector_size__(16)));
typedef unsigned char tlx_uint8_result_t __attribute__((__vector_size__(16)));
typedef short tlx_int16_result_t __attribute__((__vector_size__(16)));
typedef int tlx_int32_result_t __attribute__((__vector_size__(16)));
typedef long long tlx_int64_result_t __attribute__((__vector_size__(16)));

/*===--- Dimension vectors ------------------------------------------------===*/

#define TLX__NARG(...) TLX__NARG_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TLX__NARG_(_1, _2, _3, _4, _5, _6, _7, _8, N, ...) N
/* tlx_dims<n>_t, after expanding n. */
#define TLX__DIMS_TYPE(n) TLX__DIMS_TYPE_(n)
#define TLX__DIMS_TYPE_(n) tlx_dims##n##_t

/* TLX_DIMS(16, 5, 3): the constant (tlx_dims3_t){16, 5, 3}; 1 to 8 values. */
#define TLX_DIMS(...)                                                          \
  (__extension__(TLX__DIMS_TYPE(TLX__NARG(__VA_ARGS__))){__VA_ARGS__})
#define TLX_SHAPE(...) TLX_DIMS(__VA_ARGS__)
#define TLX_LAYOUT(...) TLX_DIMS(__VA_ARGS__)
#define TLX_PADDING(...) TLX_DIMS(__VA_ARGS__)
#define TLX_STRIDES(...) TLX_DIMS(__VA_ARGS__)
/* TLX_ZEROS(rank): all-zero padding or strides (packed) of that rank. */
#define TLX_ZEROS(rank) (__extension__(TLX__DIMS_TYPE(rank)){0})
/* TLX_IDENTITY_LAYOUT(rank): <0, 1, ..., rank-1>, row-major storage. */
#define TLX_IDENTITY_LAYOUT(rank) TLX__IDENTITY(rank)
#define TLX__IDENTITY(rank) TLX__IDENTITY_##rank
#define TLX__IDENTITY_1 TLX_DIMS(0)
#define TLX__IDENTITY_2 TLX_DIMS(0, 1)
#define TLX__IDENTITY_3 TLX_DIMS(0, 1, 2)
#define TLX__IDENTITY_4 TLX_DIMS(0, 1, 2, 3)
#define TLX__IDENTITY_5 TLX_DIMS(0, 1, 2, 3, 4)
#define TLX__IDENTITY_6 TLX_DIMS(0, 1, 2, 3, 4, 5)
#define TLX__IDENTITY_7 TLX_DIMS(0, 1, 2, 3, 4, 5, 6)
#define TLX__IDENTITY_8 TLX_DIMS(0, 1, 2, 3, 4, 5, 6, 7)

/* The first of a macro's arguments (which may come from other macros). */
#define TLX__FIRST(...) TLX__FIRST_(__VA_ARGS__, ~)
#define TLX__FIRST_(first, ...) first

/* The element tag of pointer (or array) p: a zero vector (16 bytes) of the
 * scalar type p points to, through array extents. The recognizer reads the
 * tensor's element type from it; its value is unused. */
#define TLX_ELEMENT_TAG(p) TLX__ELEMENT_TAG_OF(p)

/*===--- Ops returning tokens, and store ----------------------------------===*/

/* K&R declarations on purpose (see the top of this file): a user prototype
 * declared later stays compatible and must not warn at these lines. */
#if defined(__clang__) && !defined(__cplusplus)
#define TLX__KR_BEGIN                                                          \
  _Pragma("clang diagnostic push")                                             \
  _Pragma("clang diagnostic ignored \"-Wdeprecated-non-prototype\"")           \
  _Pragma("clang diagnostic ignored \"-Wstrict-prototypes\"")
#define TLX__KR_END _Pragma("clang diagnostic pop")
#else
#define TLX__KR_BEGIN
#define TLX__KR_END
#endif

TLX__KR_BEGIN
TLX__BEGIN_DECLS

/* tensor_typeinfo(data, shape, layout, padding) -> token
 *   Names `data` (a vector value, flattened) as a tensor of extents `shape`
 *   (storage order, outermost first), `layout` (layout[i] = the logical dim
 *   storage dim i holds; identity = row-major) and `padding` (extra storage
 *   positions per storage dim in buffers TLX allocates). A vector function
 *   parameter passed here stays in its memory (the RFC's byval form).
 *   llvm.tensor.typeinfo. */
TLX__DUMMY tlx_token_t tensor_typeinfo(TLX__ANYARGS);

/* tensor_typeinfo_mem(ptr, shape, layout, padding) -> token
 *   tensor_typeinfo of data in memory at `ptr` (memory form): no copy. */
TLX__DUMMY tlx_token_t tensor_typeinfo_mem(TLX__ANYARGS);
#define tensor_typeinfo_mem(...)                                               \
  tensor_typeinfo_mem(__VA_ARGS__, TLX_ELEMENT_TAG(TLX__FIRST(__VA_ARGS__)))

/* tensor_load(ptr, shape, layout, padding, strides) -> token
 *   Reads a (sub-)tensor from memory. strides are BLAS-style leading
 *   dimensions in elements: strides[i] (i >= 1) is the distance between
 *   consecutive indices of storage dim i-1, 0 = packed; strides[0] is
 *   unused. llvm.tensor.load. */
TLX__DUMMY tlx_token_t tensor_load(TLX__ANYARGS);

/* tensor_store(ptr, token, strides)
 *   Writes the tensor `token` names to memory at `ptr`, with strides as for
 *   tensor_load. llvm.tensor.store. */
TLX__DUMMY void tensor_store(TLX__ANYARGS);

#ifndef TLX_NO_LOAD_STORE_MACROS
#define tensor_load(...)                                                       \
  tensor_load(__VA_ARGS__, TLX_ELEMENT_TAG(TLX__FIRST(__VA_ARGS__)))
#define tensor_store(...)                                                      \
  tensor_store(__VA_ARGS__, TLX_ELEMENT_TAG(TLX__FIRST(__VA_ARGS__)))
#endif

/* tlx__known_object(ptr, size, offset, at_least, name, origin) -> ptr
 *   Not for programs: the plugin wraps it around the pointer argument of a
 *   load, store or typeinfo_mem whose extent is known only at run time when
 *   the pointer certainly points into a C object of known size (an array, a
 *   [static N] parameter, a constant malloc), so that the access is checked
 *   against the object when it runs. */
TLX__DUMMY void *tlx__known_object(TLX__ANYARGS);

/* vector_totensor(data, shape, layout, padding) -> token
 *   A plain vector value becomes a tensor (RFC: Power "prime").
 *   llvm.vector.totensor. */
TLX__DUMMY tlx_token_t vector_totensor(TLX__ANYARGS);

TLX__END_DECLS
TLX__KR_END

/*===--- Ops returning data ------------------------------------------------===*
 *
 * Their result is a flattened vector; type it with tensor_typeinfo (the
 * RFC always does; ops whose result shape cannot be inferred - broadcast to
 * a new shape, reshapes - need it). TLX_DECLARE_TENSOR_OPS(T) declares each
 * as `T tensor_<op>()`. Operands, in the RFC's order:
 *
 *  Contractions (token operands):
 *   matmul(a, b)                 [..,M,K] x [..,K,N] -> [..,M,N]
 *   contract(a, b, axes_a, axes_b)  contract the listed axes of a and b
 *   umma(acc, a, b) smma usmma summa   acc + a x b; a/b unsigned/signed:
 *                                umma u*u, smma s*s, usmma u*s, summa s*u
 *   convolution(input, kernel [, strides, input_dilations,
 *               kernel_dilations])  two-operand form: unit strides
 *  Elementwise (token):
 *   tanh sigmoid relu sin cos exp exp2 log log2 log10 sqrt fabs floor ceil
 *  Broadcast:
 *   broadcast(t)                 to the shape of the result's typeinfo
 *   broadcast(t, scalar)         t's shape filled with scalar (prototype)
 *  Reduce-window (token, window, strides):
 *   reduce_max reduce_min reduce_add reduce_mul reduce_and reduce_or
 *   reduce_xor
 *  Index transformations:
 *   reshape_block(t, block)      reshape_permute(t)
 *   transpose(t, new_layout)     transpose(t): swap the last two dims
 *   pad(t, low, high, value)     concat(a, b, dim)
 *  Conversion:
 *   tovector(t)                  the tensor as a plain vector
 */
#define TLX__DECLARE_DATA_OPS(T, S)                                            \
  TLX__KR_BEGIN                                                                \
  TLX__BEGIN_DECLS                                                             \
  TLX__DUMMY T tensor_matmul##S(TLX__ANYARGS);                                 \
  TLX__DUMMY T tensor_contract##S(TLX__ANYARGS);                               \
  TLX__DUMMY T tensor_umma##S(TLX__ANYARGS);                                   \
  TLX__DUMMY T tensor_smma##S(TLX__ANYARGS);                                   \
  TLX__DUMMY T tensor_usmma##S(TLX__ANYARGS);                                  \
  TLX__DUMMY T tensor_summa##S(TLX__ANYARGS);                                  \
  TLX__DUMMY T tensor_convolution##S(TLX__ANYARGS);                            \
  TLX__DUMMY T tensor_tanh##S(TLX__ANYARGS);                                   \
  TLX__DUMMY T tensor_sigmoid##S(TLX__ANYARGS);                                \
  TLX__DUMMY T tensor_relu##S(TLX__ANYARGS);                                   \
  TLX__DUMMY T tensor_sin##S(TLX__ANYARGS);                                    \
  TLX__DUMMY T tensor_cos##S(TLX__ANYARGS);                                    \
  TLX__DUMMY T tensor_exp##S(TLX__ANYARGS);                                    \
  TLX__DUMMY T tensor_exp2##S(TLX__ANYARGS);                                   \
  TLX__DUMMY T tensor_log##S(TLX__ANYARGS);                                    \
  TLX__DUMMY T tensor_log2##S(TLX__ANYARGS);                                   \
  TLX__DUMMY T tensor_log10##S(TLX__ANYARGS);                                  \
  TLX__DUMMY T tensor_sqrt##S(TLX__ANYARGS);                                   \
  TLX__DUMMY T tensor_fabs##S(TLX__ANYARGS);                                   \
  TLX__DUMMY T tensor_floor##S(TLX__ANYARGS);                                  \
  TLX__DUMMY T tensor_ceil##S(TLX__ANYARGS);                                   \
  TLX__DUMMY T tensor_broadcast##S(TLX__ANYARGS);                              \
  TLX__DUMMY T tensor_reduce_max##S(TLX__ANYARGS);                             \
  TLX__DUMMY T tensor_reduce_min##S(TLX__ANYARGS);                             \
  TLX__DUMMY T tensor_reduce_add##S(TLX__ANYARGS);                             \
  TLX__DUMMY T tensor_reduce_mul##S(TLX__ANYARGS);                             \
  TLX__DUMMY T tensor_reduce_and##S(TLX__ANYARGS);                             \
  TLX__DUMMY T tensor_reduce_or##S(TLX__ANYARGS);                              \
  TLX__DUMMY T tensor_reduce_xor##S(TLX__ANYARGS);                             \
  TLX__DUMMY T tensor_reshape_block##S(TLX__ANYARGS);                          \
  TLX__DUMMY T tensor_reshape_permute##S(TLX__ANYARGS);                        \
  TLX__DUMMY T tensor_transpose##S(TLX__ANYARGS);                              \
  TLX__DUMMY T tensor_pad##S(TLX__ANYARGS);                                    \
  TLX__DUMMY T tensor_concat##S(TLX__ANYARGS);                                 \
  TLX__DUMMY T tensor_tovector##S(TLX__ANYARGS);                               \
  TLX__END_DECLS                                                               \
  TLX__KR_END

/* Declares every data-returning op as `type tensor_<op>()`. Once per file. */
#define TLX_DECLARE_TENSOR_OPS(type) TLX__DECLARE_DATA_OPS(type, )
/* Declares every data-returning op as `type tensor_<op>_<suffix>()`, e.g.
 * TLX_DECLARE_TENSOR_OPS_AS(v16f, f16x) gives tensor_matmul_f16x(). */
#define TLX_DECLARE_TENSOR_OPS_AS(type, suffix)                                \
  TLX__DECLARE_DATA_OPS(type, _##suffix)

/*===--- The short form ----------------------------------------------------===*
 *
 * The common case in fewer words; it expands to the RFC idiom above, which
 * stays the reference (docs/frontend.md, "The short form"):
 *
 *   float a[2][3], b[3][2], c[2][2];
 *   tlx_token_t ta = TLX_LOAD(a, 2, 3);      // dense, row-major, unpadded
 *   tlx_token_t tb = TLX_LOAD(b, 3, 2);
 *   TLX_STORE(c, tlx_matmul(ta, tb));        // result type inferred
 *
 * TLX_LOAD(ptr, d0, d1, ...): tensor_load of a dense row-major tensor of
 *   extents d0 x d1 x ... (rank 1..8).
 * TLX_STORE(ptr, token): tensor_store, packed (strides TLX_DIMS(0): a
 *   single 0 means packed whatever the rank).
 * TLX_SCALAR(T, token): a tensor of one element (a full reduction) as a C
 *   value of its element type T.
 * tlx_smma(s, a, b) (umma, usmma, summa): with a C scalar s as the
 *   accumulator, int32 sums (int64 for int64 operands) starting at s.
 * tlx_<op>(operands...): every data op of the vocabulary but tovector,
 *   returning a token: the result's shape and element type are what TLX
 *   infers from the operands (row-major, no padding); no vector typedef
 *   and no tensor_typeinfo. An op whose result shape cannot be inferred
 *   (broadcast to a new shape, reshapes) is a compile-time error that
 *   names the long form. To read a result in C, use the long form (or
 *   TLX_STORE it).
 * tlx_add(a, b), tlx_sub, tlx_mul, tlx_div, tlx_max, tlx_min: element by
 *   element, numpy-style broadcasting (trailing dims aligned, an extent 1
 *   stretches); either operand may be a C scalar, converted to the
 *   tensor's element type. Integers divide and compare as signed. max is
 *   a > b ? a : b, min a < b ? a : b.
 * No declaration is needed: tlx.h declares the ops with a placeholder
 * result type, tlx__inferred_t, that only the short form uses. */
typedef int tlx__inferred_t __attribute__((__vector_size__(16)));
TLX__DECLARE_DATA_OPS(tlx__inferred_t, _tlx_inferred)

/* The short form's own elementwise arithmetic (the long form's is C's
 * operators on its typed vectors). */
TLX__KR_BEGIN
TLX__BEGIN_DECLS
TLX__DUMMY tlx__inferred_t tensor_add_tlx_inferred(TLX__ANYARGS);
TLX__DUMMY tlx__inferred_t tensor_sub_tlx_inferred(TLX__ANYARGS);
TLX__DUMMY tlx__inferred_t tensor_mul_tlx_inferred(TLX__ANYARGS);
TLX__DUMMY tlx__inferred_t tensor_div_tlx_inferred(TLX__ANYARGS);
TLX__DUMMY tlx__inferred_t tensor_max_tlx_inferred(TLX__ANYARGS);
TLX__DUMMY tlx__inferred_t tensor_min_tlx_inferred(TLX__ANYARGS);
TLX__END_DECLS
TLX__KR_END

/* TLX_LOAD, TLX_STORE and TLX_SCALAR call tensor_load and tensor_store
 * under names of their own, so that messages name the macro the program
 * wrote. */
TLX__KR_BEGIN
TLX__BEGIN_DECLS
TLX__DUMMY tlx_token_t tensor_load_TLX_LOAD(TLX__ANYARGS);
TLX__DUMMY void tensor_store_TLX_STORE(TLX__ANYARGS);
TLX__DUMMY void tensor_store_TLX_SCALAR(TLX__ANYARGS);
TLX__END_DECLS
TLX__KR_END

#define TLX_LOAD(ptr, ...)                                                     \
  tensor_load_TLX_LOAD(ptr, TLX_SHAPE(__VA_ARGS__),                            \
                       TLX_IDENTITY_LAYOUT(TLX__NARG(__VA_ARGS__)),            \
                       TLX_ZEROS(TLX__NARG(__VA_ARGS__)),                      \
                       TLX_ZEROS(TLX__NARG(__VA_ARGS__)), TLX_ELEMENT_TAG(ptr))
#define TLX_STORE(ptr, token)                                                  \
  tensor_store_TLX_STORE(ptr, token, TLX_DIMS(0), TLX_ELEMENT_TAG(ptr))

/* TLX_SCALAR(T, token): a tensor of one element (a full reduction) as a C
 * value of its element type T. More elements are an error (at compile
 * time, or when it runs for run-time extents); none reads as 0. */
#define TLX_SCALAR(T, token)                                                   \
  (__extension__({                                                             \
    T tlx_scalar = 0;                                                          \
    tensor_store_TLX_SCALAR(&tlx_scalar, token, TLX_DIMS(0),                   \
                            TLX_ELEMENT_TAG(&tlx_scalar));                     \
    tlx_scalar;                                                                \
  }))

/* tlx_<op>(...) = tensor_typeinfo(tensor_<op>_tlx_inferred(...)): a
 * typeinfo of the data alone is the inferred one (recognition types it). */
#define TLX__INFERRED(op, ...)                                                 \
  tensor_typeinfo(tensor_##op##_tlx_inferred(__VA_ARGS__))
#define tlx_matmul(...) TLX__INFERRED(matmul, __VA_ARGS__)
#define tlx_contract(...) TLX__INFERRED(contract, __VA_ARGS__)
#define tlx_umma(...) TLX__INFERRED(umma, __VA_ARGS__)
#define tlx_smma(...) TLX__INFERRED(smma, __VA_ARGS__)
#define tlx_usmma(...) TLX__INFERRED(usmma, __VA_ARGS__)
#define tlx_summa(...) TLX__INFERRED(summa, __VA_ARGS__)
#define tlx_convolution(...) TLX__INFERRED(convolution, __VA_ARGS__)
#define tlx_tanh(...) TLX__INFERRED(tanh, __VA_ARGS__)
#define tlx_sigmoid(...) TLX__INFERRED(sigmoid, __VA_ARGS__)
#define tlx_relu(...) TLX__INFERRED(relu, __VA_ARGS__)
#define tlx_sin(...) TLX__INFERRED(sin, __VA_ARGS__)
#define tlx_cos(...) TLX__INFERRED(cos, __VA_ARGS__)
#define tlx_exp(...) TLX__INFERRED(exp, __VA_ARGS__)
#define tlx_exp2(...) TLX__INFERRED(exp2, __VA_ARGS__)
#define tlx_log(...) TLX__INFERRED(log, __VA_ARGS__)
#define tlx_log2(...) TLX__INFERRED(log2, __VA_ARGS__)
#define tlx_log10(...) TLX__INFERRED(log10, __VA_ARGS__)
#define tlx_sqrt(...) TLX__INFERRED(sqrt, __VA_ARGS__)
#define tlx_fabs(...) TLX__INFERRED(fabs, __VA_ARGS__)
#define tlx_floor(...) TLX__INFERRED(floor, __VA_ARGS__)
#define tlx_ceil(...) TLX__INFERRED(ceil, __VA_ARGS__)
#define tlx_broadcast(...) TLX__INFERRED(broadcast, __VA_ARGS__)
#define tlx_reduce_max(...) TLX__INFERRED(reduce_max, __VA_ARGS__)
#define tlx_reduce_min(...) TLX__INFERRED(reduce_min, __VA_ARGS__)
#define tlx_reduce_add(...) TLX__INFERRED(reduce_add, __VA_ARGS__)
#define tlx_reduce_mul(...) TLX__INFERRED(reduce_mul, __VA_ARGS__)
#define tlx_reduce_and(...) TLX__INFERRED(reduce_and, __VA_ARGS__)
#define tlx_reduce_or(...) TLX__INFERRED(reduce_or, __VA_ARGS__)
#define tlx_reduce_xor(...) TLX__INFERRED(reduce_xor, __VA_ARGS__)
#define tlx_reshape_block(...) TLX__INFERRED(reshape_block, __VA_ARGS__)
#define tlx_reshape_permute(...) TLX__INFERRED(reshape_permute, __VA_ARGS__)
#define tlx_transpose(...) TLX__INFERRED(transpose, __VA_ARGS__)
#define tlx_pad(...) TLX__INFERRED(pad, __VA_ARGS__)
#define tlx_concat(...) TLX__INFERRED(concat, __VA_ARGS__)
#define tlx_add(a, b) TLX__INFERRED(add, a, b)
#define tlx_sub(a, b) TLX__INFERRED(sub, a, b)
#define tlx_mul(a, b) TLX__INFERRED(mul, a, b)
#define tlx_div(a, b) TLX__INFERRED(div, a, b)
#define tlx_max(a, b) TLX__INFERRED(max, a, b)
#define tlx_min(a, b) TLX__INFERRED(min, a, b)

#endif /* TLX_H */
