#ifndef WUNDERCAST_CSYSTEMD_SHIM_H
#define WUNDERCAST_CSYSTEMD_SHIM_H
// libsystemd from Debian's libsystemd-dev (systemd 252).
// No shims: wundercast calls only non-variadic functions (sd_journal_sendv, sd_notify,
// sd_listen_fds_with_names, sd_watchdog_enabled); sd_journal_send is variadic and unused.
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <sys/uio.h>
#endif
