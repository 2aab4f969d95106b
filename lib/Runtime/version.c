/* version.c - identifies the TLX runtime (the CMake project version). */
const char *tlxrt_version(void) { return TLXRT_VERSION; }

/* Every object whose TLX code calls the runtime also references this
 * symbol (lib/Transforms/RuntimeLinkHint.cpp), so that a link without the
 * runtime names what is missing: "undefined reference to
 * `tlxrt_missing__add_ltlxrt_lm_or_use_tlx_cc'". */
const char tlxrt_missing__add_ltlxrt_lm_or_use_tlx_cc = 0;
