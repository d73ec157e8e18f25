import WundercastModel
import WundercastProtocol
import WundercastFormats

/// One parsed `wundercastctl` command line: what to ask the daemon and how to show it.
public struct Invocation: Sendable, Equatable {
    /// What to do.
    public enum Action: Sendable, Equatable {
        /// Send `request` (the line `requestLine`) to the daemon.
        case request(SocketProtocol.Request, line: String)
        /// `help` or `--help`: print the usage text.
        case help
        /// `--version`: this program's version, without asking the daemon.
        case clientVersion
        /// `alerts`: the official alerts of the current state (asked with `now`), in full.
        case alerts
    }

    public var action: Action
    /// `--socket PATH`; `nil`: `$WUNDERCAST_SOCKET`, else the default paths.
    public var socketPath: String?
    /// `--format` (default `plain`; `--json` is `--format json`).
    public var format: OutputFormat = .plain
    /// `--template TEXT`, parsed.
    public var template: Template?
    /// `--short-template TEXT`, parsed: the short text of i3blocks, i3bar and i3status-rs
    /// (``BarItem/shortText``).
    public var shortTemplate: Template?
    /// `--icons` (default `emoji`).
    public var icons: IconSet = .emoji
    /// `--icon-font FONT`, checked against the format (``IconFont/parse(_:for:)``); `nil`: the
    /// icon in the text's font.
    public var iconFont: IconFont?
    /// `--timeout SPAN`; `nil`: ``defaultTimeout``.
    public var timeout: Duration?
    /// `--hide-offline`: the bar's empty form instead of an offline or no-weather line.
    public var hideOffline = false
    /// `--log FILE`: where messages go in bar formats (which write nothing to stderr).
    public var logPath: String?
    /// `--colors none|dark|light`; `nil`: `$WUNDERCAST_COLORS`, else none
    /// (``CommandContext/colors``).
    public var colors: BarColors?
    /// `--hot T`, `--cold T`: the temperature bands of bar formats (``TemperatureBands``).
    public var bands: TemperatureBands = .none

    public init(action: Action) { self.action = action }

    /// The bound of each call (connect, send, each answer; for `watch` the connection and
    /// first answer): `--timeout`, else 15 s for `weather` and `around` (they may wait on the
    /// network), else 2 s.
    public var effectiveTimeout: Duration {
        if let timeout { return timeout }
        if case .request(let request, _) = action {
            switch request {
            case .weather, .around: return Self.lookupTimeout
            default: break
            }
        }
        return Self.defaultTimeout
    }

    public static let defaultTimeout = Duration.seconds(2)
    public static let lookupTimeout = Duration.seconds(15)
}
