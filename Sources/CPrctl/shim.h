#ifndef WUNDERCAST_CPRCTL_SHIM_H
#define WUNDERCAST_CPRCTL_SHIM_H
// glibc's <sys/prctl.h>, which Swift's Glibc module does not import.
#include <sys/prctl.h>

// Why: prctl(2) is a C variadic function, which Swift cannot call. This wrapper fixes the one
// option wundercastctl uses: PR_SET_PDEATHSIG, the signal the kernel sends this process when
// the thread that started it ends. Returns prctl's result (0, or -1 with errno set).
static inline int cprctl_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}
#endif
