#ifndef WUNDERCAST_CSYSTEMD_SHIM_H
#define WUNDERCAST_CSYSTEMD_SHIM_H
// libsystemd from Debian's libsystemd-dev (systemd 252).
// No shims: wundercast calls only non-variadic functions (sd_journal_sendv, sd_notify,
// sd_listen_fds_with_names, sd_watchdog_enabled, sd_id128_get_machine_app_specific; sd-bus: sd_bus_open_system,
// sd_bus_match_signal, sd_bus_message_read_basic, sd_bus_process for logind's
// PrepareForSleep); sd_journal_send and sd_bus_emit_signal are variadic and unused.
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>
#include <sys/uio.h>
#endif
