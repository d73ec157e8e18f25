/* An LD_PRELOAD stand-in for the kernel's clock discipline, for the fault suite's clock
 * scenarios: adjtimex(2), ntp_adjtime(3) and clock_adjtime(2) of CLOCK_REALTIME answer TIME_OK
 * ("synchronised", what timedatectl reads as "System clock synchronized: yes") without asking
 * the kernel, and never change the clock: a request to set anything fails with EPERM.
 * Built by Tests/WundercastFaultTests/ClockFaultTests.swift: cc -shared -fPIC -o X.so adjtimex_ok.c */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/timex.h>
#include <time.h>

static int answer(struct timex *buf) {
    if (buf == NULL) { errno = EFAULT; return -1; }
    if (buf->modes != 0) { errno = EPERM; return -1; }
    memset(buf, 0, sizeof *buf);
    buf->status = 0; /* no STA_UNSYNC */
    buf->maxerror = 1000;
    buf->esterror = 100;
    return TIME_OK;
}

int adjtimex(struct timex *buf) { return answer(buf); }
int ntp_adjtime(struct timex *buf) { return answer(buf); }
int __adjtimex(struct timex *buf) { return answer(buf); }
int clock_adjtime(clockid_t clock, struct timex *buf) {
    if (clock != CLOCK_REALTIME) { errno = EINVAL; return -1; }
    return answer(buf);
}
