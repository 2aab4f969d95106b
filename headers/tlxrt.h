/* tlxrt.h - the TLX runtime (placeholder until the oracle lands). */
#ifndef TLXRT_H
#define TLXRT_H
#endif
