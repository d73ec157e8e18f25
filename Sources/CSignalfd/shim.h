#ifndef WUNDERCAST_CSIGNALFD_SHIM_H
#define WUNDERCAST_CSIGNALFD_SHIM_H
// glibc's <sys/signalfd.h>, which Swift's Glibc module does not import: signalfd(2) and
// struct signalfd_siginfo for WundercastPOSIX's signal stream. No shims; signalfd is in libc.
#include <sys/signalfd.h>
#endif
