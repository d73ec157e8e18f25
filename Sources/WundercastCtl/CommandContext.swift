import WundercastFormats
import WundercastPOSIX

/// What every command needs: the parsed invocation, the socket path, the reader's locale, and
/// the shared steps (one request and its answer; reporting a failure in the chosen format).
struct CommandContext {
    let invocation: Invocation
    let path: String
    /// The reader's language, clock and decimal separator (``UserLocale/current()``), for every
    /// human text the command writes.
    let locale: UserLocale

    init(_ invocation: Invocation, locale: UserLocale) {
        self.invocation = invocation
        self.path = invocation.socketPath ?? Self.defaultSocketPath()
        self.locale = locale
    }

    var format: OutputFormat { invocation.format }
    /// The bar colours: `--colors`, else `$WUNDERCAST_COLORS` (a user's choice for every bar,
    /// set once in the session's environment), else none.
    var colors: BarColors {
        invocation.colors ?? BarColors.fromEnvironment(Environment.value("WUNDERCAST_COLORS"))
    }
    var timeout: Duration { invocation.effectiveTimeout }

    /// The system unit's socket (wundercast.socket).
    static let systemSocket = "/run/wundercast/wundercast.sock"

    /// `$WUNDERCAST_SOCKET`, else `/run/wundercast/wundercast.sock`, or
    /// `$XDG_RUNTIME_DIR/wundercast/wundercast.sock` (the user unit's socket) when only that one
    /// exists. `environment` and `exists` stand in for the process's environment and `access(F_OK)`.
    static func defaultSocketPath(
        environment: (String) -> String? = { Environment.value($0) },
        exists: (String) -> Bool = { ProcessControl.exists($0) }
    ) -> String {
        if let path = environment("WUNDERCAST_SOCKET"), !path.isEmpty { return path }
        if !exists(systemSocket), let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty {
            let user = runtime + "/wundercast/wundercast.sock"
            if exists(user) { return user }
        }
        return systemSocket
    }

    /// Connects, sends `line` and returns the connection, each step within the timeout.
    func open(sending line: String) throws(CtlError) -> DaemonConnection {
        let connection = try DaemonConnection(path: path, deadline: .now + timeout, limit: timeout)
        try connection.send(line, deadline: .now + timeout)
        return connection
    }

    /// One request, one answer line (each step within the timeout).
    func ask(_ line: String) throws(CtlError) -> [UInt8] {
        let connection = try self.open(sending: line)
        return try connection.readLine(deadline: .now + timeout)
    }

    /// A message for the user: on stderr in plain and json; in bar formats only to `--log FILE`
    /// (a bar may show a command's stderr in its place: polybar 3.6 does), else nowhere.
    func report(_ message: String) {
        if !format.isBar { return Output.error(message) }
        if let log = invocation.logPath { AppendFile.write("wundercastctl: \(message)\n", to: log) }
    }

    /// Reports `error` (``report(_:)``); in a bar format also the bar's offline or error
    /// line on stdout (or its empty form with `--hide-offline`). Returns the exit status: 0 in
    /// bar formats, else 1.
    func fail(_ error: CtlError, preamble: Bool = true) -> Int32 {
        report(error.message)
        guard format.isBar else { return 1 }
        Output.write((preamble ? format.preamble : "") + unavailableLine(error))
        return 0
    }

    /// The bar's offline or error line for `error` (its empty form with `--hide-offline`);
    /// empty in plain and json.
    func unavailableLine(_ error: CtlError) -> String {
        let item = BarItem.unavailable(error.barKind, reason: error.message, locale: locale)
        return format.bar(item, hidden: invocation.hideOffline, colors: colors, iconFont: invocation.iconFont) ?? ""
    }
}
