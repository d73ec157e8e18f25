#if canImport(Glibc)
import Glibc
#endif
import WundercastCore
import WundercastPOSIX

/// What every command needs: the parsed invocation, the socket path, and the shared steps
/// (one request and its answer; reporting a failure in the chosen format).
struct CommandContext {
    let invocation: Invocation
    let path: String

    init(_ invocation: Invocation) {
        self.invocation = invocation
        self.path = invocation.socketPath ?? Self.defaultSocketPath()
    }

    var format: OutputFormat { invocation.format }
    var timeout: Duration { invocation.effectiveTimeout }

    /// `$WUNDERCAST_SOCKET`, else `/run/wundercast/wundercast.sock`, or
    /// `$XDG_RUNTIME_DIR/wundercast/wundercast.sock` when only that one exists.
    static func defaultSocketPath() -> String {
        if let path = Environment.value("WUNDERCAST_SOCKET"), !path.isEmpty { return path }
        let system = "/run/wundercast/wundercast.sock"
        if access(system, F_OK) != 0, let runtime = Environment.value("XDG_RUNTIME_DIR"), !runtime.isEmpty {
            let user = runtime + "/wundercast/wundercast.sock"
            if access(user, F_OK) == 0 { return user }
        }
        return system
    }

    /// Connects, sends `line` and returns the connection, each step within the timeout.
    func open(sending line: String) throws(CtlError) -> DaemonConnection {
        let connection = try DaemonConnection(path: path, deadline: .now + timeout, limit: timeout)
        try connection.send(line, deadline: .now + timeout)
        return connection
    }

    /// One request, one answer line (each step within the timeout).
    func ask(_ line: String) throws(CtlError) -> [UInt8] {
        let connection = try open(sending: line)
        return try connection.readLine(deadline: .now + timeout)
    }

    /// Reports `error`: its message on stderr; in a bar format also the bar's offline or error
    /// line on stdout (or its empty form with `--hide-offline`). Returns the exit status: 0 in
    /// bar formats, else 1.
    func fail(_ error: CtlError, preamble: Bool = true) -> Int32 {
        Output.error(error.message)
        guard format.isBar else { return 1 }
        let item = BarItem.unavailable(error.barKind, reason: error.message)
        Output.write((preamble ? format.preamble : "") + (format.bar(item, hidden: invocation.hideOffline) ?? ""))
        return 0
    }
}
