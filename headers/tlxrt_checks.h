/* tlxrt_checks.h - run-time checks of TLX programs with run-time sizes.
 *
 * When a tensor's extents or strides are C variables, what the compiler
 * cannot check is checked once before the op runs (docs/ops.md, "Run-time
 * sizes"): matching inner dimensions, non-negative extents, strides that
 * keep rows apart, a destination that overlaps no operand. A violation
 * prints a message in clang's format to stderr,
 *
 *   prog.c:12:3: error: 'tensor_matmul': inner dimensions differ at run
 *   time: op1 is 3x4 (M=3, K=4), op2 is 5x2 (K=5, N=2)
 *
 * and ends the program with exit status 1. An embedder that must not exit
 * installs a handler: it gets the message (without the trailing newline)
 * and may longjmp or throw out of it; if it returns, the program exits.
 * Compile with -fplugin-arg-tlx-runtime-checks=off to omit the checks.
 */
#ifndef TLXRT_CHECKS_H
#define TLXRT_CHECKS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*tlxrt_shape_error_handler)(const char *message);

/* Installs `handler` (NULL: print and exit, the default); returns the
 * previous one. */
tlxrt_shape_error_handler
tlxrt_set_shape_error_handler(tlxrt_shape_error_handler handler);

/* Called by generated code: reports the failed check `format` (printf
 * style, long long arguments) at `where` ("file:line:col"). Does not
 * return. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((__noreturn__, __format__(__printf__, 2, 3)))
#endif
void tlxrt_shape_error(const char *where, const char *format, ...);

/* Reports format as tlxrt_shape_error does unless ok is non-zero: a check
 * that adds no branch to the generated code. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((__format__(__printf__, 3, 4)))
#endif
void tlxrt_shape_check(int ok, const char *where, const char *format, ...);

/* Prints `format` at `where` as a warning ("prog.c:5:3: warning: ...") and
 * returns: a check of what is suspect but not certainly wrong (an access
 * past the size a [static N] parameter declares). Each (where, format)
 * pair is printed once; the handler is not called. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((__format__(__printf__, 2, 3)))
#endif
void tlxrt_shape_warning(const char *where, const char *format, ...);

/* A TLX buffer of run-time size (tlxrt_temp_try_alloc: tlxrt_temp_free
 * releases it); when overflow is non-zero (the size does not fit in 64 bits) or memory
 * runs out, reports format as tlxrt_shape_error does. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((__format__(__printf__, 4, 5)))
#endif
void *tlxrt_alloc_tensor(unsigned long long bytes, int overflow,
                         const char *where, const char *format, ...);

#ifdef __cplusplus
}
#endif

#endif /* TLXRT_CHECKS_H */
