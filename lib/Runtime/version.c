/* version.c - identifies the TLX runtime. */
const char *tlxrt_version(void) { return "0.1.0"; }
