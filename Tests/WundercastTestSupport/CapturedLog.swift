import Synchronization
import WundercastCore

/// A ``LogSink`` that keeps every entry, for tests that check what was logged (and what never was).
public final class CapturedLog: LogSink {
    public struct Entry: Sendable {
        public var priority: LogPriority
        public var message: String
        public var fields: [(String, String)]
    }
    private let entries = Mutex<[Entry]>([])

    public init() {}

    public func log(_ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int) {
        entries.withLock { $0.append(Entry(priority: priority, message: message, fields: fields)) }
    }

    /// A logger that writes here, every priority included.
    public var logger: Logger { Logger(sink: self, threshold: .debug) }

    public var all: [Entry] { entries.withLock { $0 } }

    /// Every message and field value, one string each: what a grep of the journal would see.
    public var texts: [String] { all.flatMap { [$0.message] + $0.fields.map { "\($0.0)=\($0.1)" } } }
}
