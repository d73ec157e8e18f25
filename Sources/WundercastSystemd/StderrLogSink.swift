import WundercastSupport

import WundercastPOSIX

/// Readable lines on standard error, `<N>` syslog prefixes included when `prefixPriority`
/// (systemd reads them from a stream); used when not under journald.
public struct StderrLogSink: LogSink {
    public var prefixPriority: Bool
    public init(prefixPriority: Bool = false) { self.prefixPriority = prefixPriority }
    public func log(
        _ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int,
        function: String
    ) {
        let extra = fields.filter { $0.0 != "MESSAGE_ID" }.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
        let text =
            (prefixPriority ? "<\(priority.rawValue)>" : "") + message + (extra.isEmpty ? "" : " [\(extra)]") + "\n"
        StandardError.write(text)
    }
}
