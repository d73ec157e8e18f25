#ifndef WUNDERCAST_CGEONAMES_SHIM_H
#define WUNDERCAST_CGEONAMES_SHIM_H
// libgeonames from Debian's libgeonames-dev 0.3.0 (GPL-3; data © GeoNames, CC BY 4.0).
// Used only by the build-time tool wundercast-cities: the daemon must not link it, since it
// pulls in GLib/GIO (~3.8 MiB of RSS; PITFALLS, libgeonames). No shims: the API is plain C
// functions Swift can call as they are.
#include <geonames/geonames.h>

#endif
