/// Severity, as syslog and the journal's `PRIORITY=` number it (0 emerg … 7 debug).
public enum LogPriority: Int, Sendable, Comparable {
    case emergency = 0, alert, critical, error, warning, notice, info, debug
    public static func < (a: LogPriority, b: LogPriority) -> Bool { a.rawValue < b.rawValue }
}

/// Where log entries go: the journal (`WundercastSystemd.JournalLogSink`), stderr, or a test buffer.
public protocol LogSink: Sendable {
    /// Writes one entry. `fields` are extra structured fields; names are journal field names
    /// (uppercase letters, digits, `_`; e.g. `MESSAGE_ID`, `WUNDERCAST_TEMPERATURE`).
    /// `file`, `line` and `function` say where the entry was logged (`#fileID`, `#line`,
    /// `#function`: the journal's `CODE_FILE`, `CODE_LINE`, `CODE_FUNC`).
    func log(
        _ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int,
        function: String)
}

/// The logger libraries accept; they never construct a global one.
public struct Logger: Sendable {
    public let sink: any LogSink
    /// Entries less severe than this are dropped.
    public var threshold: LogPriority

    public init(sink: any LogSink, threshold: LogPriority = .info) {
        self.sink = sink
        self.threshold = threshold
    }

    public func log(
        _ priority: LogPriority, _ message: @autoclosure () -> String, fields: [(String, String)] = [],
        file: String = #fileID, line: Int = #line, function: String = #function
    ) {
        guard priority <= threshold else { return }
        sink.log(priority, message(), fields: fields, file: file, line: line, function: function)
    }

    public func debug(
        _ m: @autoclosure () -> String, file: String = #fileID, line: Int = #line, function: String = #function
    ) {
        log(.debug, m(), file: file, line: line, function: function)
    }
    public func info(
        _ m: @autoclosure () -> String, file: String = #fileID, line: Int = #line, function: String = #function
    ) {
        log(.info, m(), file: file, line: line, function: function)
    }
    public func notice(
        _ m: @autoclosure () -> String, file: String = #fileID, line: Int = #line, function: String = #function
    ) {
        log(.notice, m(), file: file, line: line, function: function)
    }
    public func warning(
        _ m: @autoclosure () -> String, file: String = #fileID, line: Int = #line, function: String = #function
    ) {
        log(.warning, m(), file: file, line: line, function: function)
    }
    public func error(
        _ m: @autoclosure () -> String, file: String = #fileID, line: Int = #line, function: String = #function
    ) {
        log(.error, m(), file: file, line: line, function: function)
    }

    /// A logger that drops everything.
    public static let discard = Logger(sink: DiscardLogSink())
}

struct DiscardLogSink: LogSink {
    func log(
        _ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int,
        function: String
    ) {}
}
