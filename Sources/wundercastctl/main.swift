// wundercastctl: asks wundercastd over its Unix socket. Only wiring: parsing, connection,
// commands live in WundercastCtl, formats in WundercastFormats.
#if canImport(Glibc)
import Glibc
#endif
import WundercastCtl

exit(Ctl.main(Array(CommandLine.arguments.dropFirst())))
