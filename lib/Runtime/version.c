/* version.c - identifies the TLX runtime (the CMake project version). */
const char *tlxrt_version(void) { return TLXRT_VERSION; }
