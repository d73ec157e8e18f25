import WundercastPipeline

import WundercastPOSIX

/// The socket server as a service: it serves from the moment it is made (the listening
/// socket must exist before `READY=1`), and ``run()`` runs the requests answered off the loop
/// (lookups, decisions) as its child tasks; cancelling it cancels those and waits for them,
/// stops accepting, closes every client (a `watch` client sees the end of its stream) and
/// removes a socket file the daemon bound itself while it is still its socket (an activated
/// socket belongs to systemd).
struct SocketService: DaemonService {
    let name = "socket"
    let server: SocketServer
    /// The path the daemon bound, to unlink at the end; `nil` under socket activation.
    let ownedPath: String?

    func run() async {
        await server.runJobs()
        server.stop()
        if let ownedPath { UnixSocket.removeOwnSocket(at: ownedPath) }
    }
}
