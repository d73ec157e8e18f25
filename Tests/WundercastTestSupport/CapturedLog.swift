import Synchronization
import WundercastSupport

/// A ``LogSink`` that keeps every entry, for tests that check what was logged (and what never was).
public final class CapturedLog: LogSink {
    public struct Entry: Sendable {
        public var priority: LogPriority
        public var message: String
        public var fields: [(String, String)]
        /// Where it was logged: `#fileID`, `#line`, `#function` of the caller.
        public var file = ""
        public var line = 0
        public var function = ""

        /// The value of field `name`, if the entry has it.
        public func field(_ name: String) -> String? { fields.first { $0.0 == name }?.1 }
    }
    private let entries = Mutex<[Entry]>([])

    public init() {}

    public func log(
        _ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int,
        function: String
    ) {
        entries.withLock {
            $0.append(
                Entry(priority: priority, message: message, fields: fields, file: file, line: line, function: function))
        }
    }

    /// A logger that writes here, every priority included.
    public var logger: Logger { Logger(sink: self, threshold: .debug) }

    public var all: [Entry] { entries.withLock { $0 } }

    /// Every message and field value, one string each: what a grep of the journal would see.
    public var texts: [String] { all.flatMap { [$0.message] + $0.fields.map { "\($0.0)=\($0.1)" } } }
}
