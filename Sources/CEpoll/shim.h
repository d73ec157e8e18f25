#ifndef WUNDERCAST_CEPOLL_SHIM_H
#define WUNDERCAST_CEPOLL_SHIM_H
// glibc's <sys/epoll.h> and <sys/eventfd.h>, which Swift's Glibc module does not import:
// epoll(7) and eventfd(2) for WundercastPOSIX's EventLoop (the socket server's I/O thread).
// No shims; both are in libc.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif
