#ifndef WUNDERCAST_CTIMEX_SHIM_H
#define WUNDERCAST_CTIMEX_SHIM_H
// glibc's <sys/timex.h>, which Swift's Glibc module does not import: adjtimex(2), asked
// read-only (modes 0) by WundercastPOSIX's KernelClock for whether the wall clock is
// synchronised. No shims; it is in libc.
#include <sys/timex.h>
#endif
