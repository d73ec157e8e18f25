// wundercastctl: asks wundercastd over its Unix socket. Only wiring: parsing, connection,
// commands live in WundercastCtl, formats in WundercastFormats.
import WundercastCtl
import WundercastPOSIX

ProcessControl.exit(Ctl.main(Array(CommandLine.arguments.dropFirst())))
