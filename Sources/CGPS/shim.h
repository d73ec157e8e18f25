#ifndef WUNDERCAST_CGPS_SHIM_H
#define WUNDERCAST_CGPS_SHIM_H
// libgps from Debian's libgps-dev (gpsd 3.22).
#include <gps.h>
#include <math.h>

// The gps(3) man page advises failing the build on an unknown API major version:
// the struct layout and read semantics wundercast relies on are those of API 11.
#if GPSD_API_MAJOR_VERSION != 11
#error "wundercast supports libgps API major version 11 only (gpsd 3.22)"
#endif

// Why: the WATCH_* and *_SET flags are macros of unsigned long long / int expressions
// that Swift does not import; these constants give them names Swift can see.
static const unsigned int cgps_watch_enable = WATCH_ENABLE;
static const unsigned int cgps_watch_json = WATCH_JSON;
static const unsigned int cgps_watch_disable = WATCH_DISABLE;
static const unsigned long long cgps_latlon_set = LATLON_SET;
static const unsigned long long cgps_mode_set = MODE_SET;
static const unsigned long long cgps_time_set = TIME_SET;

#endif
