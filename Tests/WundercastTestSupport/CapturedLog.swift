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
    private let entries = EventRecorder<Entry>()

    public init() {}

    public func log(
        _ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int,
        function: String
    ) {
        entries.append(
            Entry(priority: priority, message: message, fields: fields, file: file, line: line, function: function))
    }

    /// A logger that writes here, every priority included.
    public var logger: Logger { Logger(sink: self, threshold: .debug) }

    public var all: [Entry] { entries.values }

    /// Waits until `condition` holds for the entries so far (woken by each new entry); `false`
    /// after `deadline` or when the task is cancelled.
    public func wait(
        _ deadline: Duration = .seconds(30), until condition: @escaping @Sendable ([Entry]) -> Bool
    ) async
        -> Bool
    {
        await entries.wait(deadline, until: condition)
    }

    /// Every message and field value, one string each: what a grep of the journal would see.
    public var texts: [String] { all.flatMap { [$0.message] + $0.fields.map { "\($0.0)=\($0.1)" } } }
}
