/* An LD_PRELOAD companion of libfaketime for the fault suite's clock steps: timerfd_settime(2)
 * and timerfd_gettime(2) go straight to the kernel. libfaketime 0.9.10 shifts every absolute
 * timerfd deadline by its wall clock offset, also one on CLOCK_BOOTTIME or CLOCK_MONOTONIC
 * (what libdispatch's timers and so every Swift sleep use): after a step back of an hour each
 * timer armed would fire an hour late, after a step ahead at once. A real step of the wall
 * clock moves no monotonic timer, so the daemon under test must see none move either.
 * Preloaded before libfaketime (the first definition wins). Built by
 * Tests/WundercastFaultTests/ClockFaultTests.swift: cc -shared -fPIC -o X.so timerfd_real.c */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

struct itimerspec;

int timerfd_settime(int fd, int flags, const struct itimerspec *value, struct itimerspec *old) {
    return (int)syscall(SYS_timerfd_settime, fd, flags, value, old);
}

int timerfd_gettime(int fd, struct itimerspec *value) {
    return (int)syscall(SYS_timerfd_gettime, fd, value);
}
