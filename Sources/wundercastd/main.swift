import WundercastServer

#if canImport(Glibc)
import Glibc
#endif

// Only wiring: the daemon lives in WundercastServer.Daemon.
exit(await Daemon.main(Array(CommandLine.arguments.dropFirst())))
