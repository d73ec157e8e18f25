import Synchronization

extension Logger {
    /// This logger with repeated entries limited (``RepeatedEntryLimit``): the same
    /// `MESSAGE_ID` and text again within `window` is suppressed, and a "suppressed N similar"
    /// entry follows the window. `now` is a monotonic clock's time (a manual clock in tests).
    public func limitingRepeats(
        window: Duration = RepeatedEntryLimit.defaultWindow, now: @escaping @Sendable () -> Duration = monotonicNow
    ) -> Logger {
        Logger(
            sink: RepeatLimitingLogSink(sink: sink, limit: RepeatedEntryLimit(window: window), now: now),
            threshold: threshold)
    }

    /// Time since the first call, on the monotonic clock.
    public static let monotonicNow: @Sendable () -> Duration = {
        let clock = ContinuousClock()
        let origin = clock.now
        return { origin.duration(to: clock.now) }
    }()
}

/// The journal's rate limit for repeated events (issue 14: a device flapping once a second gave
/// 245 lines a minute, the same texts again and again).
///
/// A plain state machine fed with entries at instants of a monotonic clock (as durations since
/// its origin). An entry is *repeated* when one with the same `MESSAGE_ID` and the same text but
/// for its numbers (a flapping device's "stale, 5 s ago", "stale, 6 s ago"; a cell's churn) was
/// logged less than ``window`` ago; repeats are counted, not logged. When the window of a key with
/// repeats has passed, the next entry (of any kind) first brings a summary: "suppressed N
/// similar entries in the last <window>: <text>", with the original's priority and fields and
/// `WUNDERCAST_SUPPRESSED=N`. So each kind of event logs at most two entries per window.
/// Debug entries are not limited (they are asked for). At most ``capacity`` keys are kept; the
/// oldest leaves first, with its summary.
public struct RepeatedEntryLimit: Sendable {
    public static let defaultWindow: Duration = .seconds(60)
    /// Keys remembered at most.
    public static let capacity = 256
    /// The field carrying the number of suppressed entries in a summary.
    public static let suppressedField = "WUNDERCAST_SUPPRESSED"

    public let window: Duration

    /// One entry to write.
    public struct Entry: Sendable {
        public var priority: LogPriority
        public var message: String
        public var fields: [(String, String)]
    }

    /// Fields that name the object an entry is about: entries about two objects are never
    /// repeats of each other, whatever their texts (three alerts of one event for three zones).
    public static let identityFields: Set<String> = ["WUNDERCAST_ALERT_ID"]

    private struct Key: Hashable {
        var messageID: String
        /// The text with each run of digits as `#`.
        var shape: String
        /// The values of ``RepeatedEntryLimit/identityFields`` the entry has.
        var identity: [String]

        init(messageID: String, message: String, identity: [String] = []) {
            self.messageID = messageID
            self.identity = identity
            var shape = String.UnicodeScalarView()
            for scalar in message.unicodeScalars {
                let digit = ("0"..."9").contains(scalar)
                if digit, shape.last == "#" { continue }
                shape.append(digit ? "#" : scalar)
            }
            self.shape = String(shape)
        }
    }
    private struct Seen {
        /// The first entry's text (shown in the summary).
        var message: String
        var loggedAt: Duration
        var suppressed: Int
        var priority: LogPriority
        var fields: [(String, String)]
    }
    private var seen: [Key: Seen] = [:]

    public init(window: Duration = defaultWindow) {
        self.window = window
    }

    /// What to write for an entry at `now`: the summaries that are due, then the entry itself
    /// unless it is a repeat.
    public mutating func admit(
        _ priority: LogPriority, _ message: String, fields: [(String, String)], at now: Duration
    ) -> [Entry] {
        var out = dueSummaries(at: now)
        guard priority < .debug else { return out + [Entry(priority: priority, message: message, fields: fields)] }
        let key = Key(
            messageID: fields.first { $0.0 == "MESSAGE_ID" }?.1 ?? "", message: message,
            identity: fields.filter { Self.identityFields.contains($0.0) }.map(\.1))
        if var known = seen[key], now - known.loggedAt < window {
            known.suppressed += 1
            seen[key] = known
            return out
        }
        if seen[key] == nil, seen.count >= Self.capacity,
            let oldest = seen.min(by: { $0.value.loggedAt < $1.value.loggedAt })
        {
            out += summary(oldest.key, oldest.value).map { [$0] } ?? []
            seen.removeValue(forKey: oldest.key)
        }
        seen[key] = Seen(message: message, loggedAt: now, suppressed: 0, priority: priority, fields: fields)
        return out + [Entry(priority: priority, message: message, fields: fields)]
    }

    /// Summaries of keys whose window has passed with repeats; those keys are forgotten.
    private mutating func dueSummaries(at now: Duration) -> [Entry] {
        let due = seen.filter { now - $0.value.loggedAt >= window }
        for key in due.keys { seen.removeValue(forKey: key) }
        return due.sorted { $0.value.loggedAt < $1.value.loggedAt }.compactMap { summary($0.key, $0.value) }
    }

    private func summary(_ key: Key, _ seen: Seen) -> Entry? {
        guard seen.suppressed > 0 else { return nil }
        return Entry(
            priority: seen.priority,
            message:
                "suppressed \(seen.suppressed) similar entries in the last \(TimeSpan.format(window)): \(seen.message)",
            fields: seen.fields + [(Self.suppressedField, String(seen.suppressed))])
    }
}

/// A sink that applies ``RepeatedEntryLimit``, then passes the entries on.
final class RepeatLimitingLogSink: LogSink {
    let sink: any LogSink
    private let limit: Mutex<RepeatedEntryLimit>
    private let now: @Sendable () -> Duration

    init(sink: any LogSink, limit: RepeatedEntryLimit, now: @escaping @Sendable () -> Duration) {
        self.sink = sink
        self.limit = Mutex(limit)
        self.now = now
    }

    func log(
        _ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int,
        function: String
    ) {
        let at = now()
        let entries = limit.withLock { $0.admit(priority, message, fields: fields, at: at) }
        for entry in entries {
            sink.log(entry.priority, entry.message, fields: entry.fields, file: file, line: line, function: function)
        }
    }
}
