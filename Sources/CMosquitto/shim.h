#ifndef WUNDERCAST_CMOSQUITTO_SHIM_H
#define WUNDERCAST_CMOSQUITTO_SHIM_H
// libmosquitto from Debian's libmosquitto-dev (2.0.11): the MQTT client the daemon publishes
// through (issue 16). Nothing to wrap: none of the functions used is variadic; this header
// only names the one Debian installs.
#include <mosquitto.h>
#include <mqtt_protocol.h>

#endif
