#ifndef WUNDERCAST_CPIDFD_SHIM_H
#define WUNDERCAST_CPIDFD_SHIM_H
// glibc's <sys/pidfd.h> (2.36, Debian 12), which Swift's Glibc module does not import: a
// descriptor for a process that is not this one's child, readable once it has ended. The bar
// tests wait on one for a `wundercastctl watch` whose bar was killed. Test support only; no
// shims, pidfd_open is in libc.
#include <sys/pidfd.h>
#endif
