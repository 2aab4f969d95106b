/* shape_checks.c - reports of the run-time shape checks TLX emits for
 * tensors whose extents are C variables (headers/tlxrt_checks.h). */
#include "tlxrt_checks.h"
#include "tlxrt_scratch.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static tlxrt_shape_error_handler error_handler;

tlxrt_shape_error_handler
tlxrt_set_shape_error_handler(tlxrt_shape_error_handler handler) {
  tlxrt_shape_error_handler previous = error_handler;
  error_handler = handler;
  return previous;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((__noreturn__))
#endif
static void report(const char *where, const char *format, va_list args) {
  char message[1024];
  int used = snprintf(message, sizeof message, "%s: error: ",
                      where && *where ? where : "<unknown>");
  if (used < 0 || used >= (int)sizeof message)
    used = 0;
  vsnprintf(message + used, sizeof message - (size_t)used, format, args);
  if (error_handler)
    error_handler(message);
  fflush(stdout);
  fprintf(stderr, "%s\n", message);
  exit(1);
}

void tlxrt_shape_error(const char *where, const char *format, ...) {
  va_list args;
  va_start(args, format);
  report(where, format, args);
}

void tlxrt_shape_check(int ok, const char *where, const char *format, ...) {
  if (ok)
    return;
  va_list args;
  va_start(args, format);
  report(where, format, args);
}

void *tlxrt_alloc_tensor(unsigned long long bytes, int overflow,
                         const char *where, const char *format, ...) {
  /* A temporary's buffer (freed by tlxrt_temp_free). */
  void *p = overflow || bytes > INT64_MAX
                ? NULL
                : tlxrt_temp_try_alloc((int64_t)bytes);
  if (p)
    return p;
  va_list args;
  va_start(args, format);
  report(where, format, args);
}
