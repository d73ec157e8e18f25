#ifndef WUNDERCAST_CNOVA_SHIM_H
#define WUNDERCAST_CNOVA_SHIM_H
// libnova from Debian's libnova-dev (0.16; LGPL-2+): the Moon's and the Sun's positions (ELP
// 2000-82B, VSOP87), nutation and sidereal time for WundercastAstronomy. Debian ships no
// pkg-config file for it (only `libnovaconfig`), hence `link "nova"` in the module map. Nothing
// to wrap: no function used is variadic; this header only names the ones used.
#include <libnova/lunar.h>
#include <libnova/solar.h>
#include <libnova/nutation.h>
#include <libnova/sidereal_time.h>
#endif
