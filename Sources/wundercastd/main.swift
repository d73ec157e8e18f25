import WundercastPOSIX
import WundercastServer

// First, before any thread exists: SIGTERM, SIGINT and SIGHUP blocked (the daemon reads them
// from a signalfd, so none is lost), SIGPIPE ignored.
Signals.blockBeforeThreads()
// Then, still alone: a few malloc arenas (each reserves 64 MiB of address space), and the
// limits checked against the floor, which ends the process with one line when they are short.
Memory.limitArenas(2)
if let status = Daemon.checkResourceFloor() { ProcessControl.exit(status) }
// Only wiring: the daemon lives in WundercastServer.Daemon. No top-level `await`: that would
// park the main thread in dispatch_main()'s sigsuspend with an empty mask (see MainThread).
let arguments = Array(CommandLine.arguments.dropFirst())
ProcessControl.exit(MainThread.run { await Daemon.main(arguments) })
