/* shape_checks.c - reports of the run-time shape checks TLX emits for
 * tensors whose extents are C variables (headers/tlxrt_checks.h). */
#include "tlxrt_checks.h"
#include "tlxrt_scratch.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static tlxrt_shape_error_handler error_handler;

tlxrt_shape_error_handler
tlxrt_set_shape_error_handler(tlxrt_shape_error_handler handler) {
  tlxrt_shape_error_handler previous = error_handler;
  error_handler = handler;
  return previous;
}

/* "where: level: " and the formatted message, clang's form. */
static void format_message(char *message, size_t size, const char *where,
                           const char *level, const char *format,
                           va_list args) {
  int used = snprintf(message, size, "%s: %s: ",
                      where && *where ? where : "<unknown>", level);
  if (used < 0 || (size_t)used >= size)
    used = 0;
  vsnprintf(message + used, size - (size_t)used, format, args);
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((__noreturn__))
#endif
static void report(const char *where, const char *format, va_list args) {
  char message[1024];
  format_message(message, sizeof message, where, "error", format, args);
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

void tlxrt_shape_warning(const char *where, const char *format, ...) {
  /* Once per site: the generated code passes the same two strings each
   * time it runs the check. A full table (sites beyond 64) prints again. */
  static const char *_Atomic seen[64][2];
  for (int i = 0; i < 64; ++i) {
    const char *w = seen[i][0];
    if (w == where && seen[i][1] == format)
      return;
    if (!w) {
      const char *expected = NULL;
      if (atomic_compare_exchange_strong(&seen[i][0], &expected, where)) {
        seen[i][1] = format;
        break;
      }
      --i; /* another thread took the slot: look at it again */
    }
  }
  char message[1024];
  va_list args;
  va_start(args, format);
  format_message(message, sizeof message, where, "warning", format, args);
  va_end(args);
  fflush(stdout);
  fprintf(stderr, "%s\n", message);
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
