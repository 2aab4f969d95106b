/* shape_checks.c - reports of the run-time shape checks TLX emits for
 * tensors whose extents are C variables (headers/tlxrt_checks.h). */
#include "tlxrt_checks.h"

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

void tlxrt_shape_error(const char *where, const char *format, ...) {
  char message[1024];
  int used = snprintf(message, sizeof message, "%s: error: ",
                      where && *where ? where : "<unknown>");
  if (used < 0 || used >= (int)sizeof message)
    used = 0;
  va_list args;
  va_start(args, format);
  vsnprintf(message + used, sizeof message - (size_t)used, format, args);
  va_end(args);
  if (error_handler)
    error_handler(message);
  fflush(stdout);
  fprintf(stderr, "%s\n", message);
  exit(1);
}
