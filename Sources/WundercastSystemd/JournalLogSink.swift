import CSystemd
import WundercastSupport

/// Writes structured entries to the systemd journal with `sd_journal_sendv` (the native
/// protocol: binary-safe, newlines in values kept, no C variadics).
///
/// Each entry carries `MESSAGE`, `PRIORITY` (0–7), `SYSLOG_IDENTIFIER`, `CODE_FILE`,
/// `CODE_LINE` and `CODE_FUNC` (the C macros add those; from Swift we do), then the caller's fields
/// (`MESSAGE_ID`, `WUNDERCAST_*`). Invalid field names, which journald would drop silently
/// (PITFALLS), are fixed or dropped, and a debug entry says which.
///
/// With no journal socket (`/run/systemd/journal/socket` missing) libsystemd drops entries
/// silently; any other failure sends the entry to stderr instead.
public struct JournalLogSink: LogSink {
    /// `SYSLOG_IDENTIFIER=` of every entry, e.g. `"wundercastd"` (`journalctl -t wundercastd`).
    public let identifier: String

    public init(identifier: String) {
        self.identifier = identifier
    }

    public func log(
        _ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int,
        function: String
    ) {
        do {
            try self.write(
                priority, message, fields: fields.map { ($0.0, Array($0.1.utf8)) }, file: file, line: line,
                function: function)
        } catch {
            StderrLogSink(prefixPriority: true).log(
                priority, message, fields: fields, file: file, line: line, function: function)
        }
    }

    /// Sends one entry whose field values are raw bytes (they may hold newlines or NULs).
    /// - Throws: the errno of `sd_journal_sendv`, e.g. `ECONNREFUSED` when journald is gone.
    public func write(
        _ priority: LogPriority, _ message: String, fields: [(String, [UInt8])], file: String, line: Int,
        function: String? = nil
    ) throws(SystemdError) {
        let entry = Self.entryFields(
            priority: priority, message: message, fields: fields, file: file, line: line, function: function,
            identifier: identifier)
        try Self.send(entry.fields)
        if !entry.notes.isEmpty {
            let note = Self.entryFields(
                priority: .debug,
                message: "journal field names fixed for journald: " + entry.notes.joined(separator: "; "),
                fields: [], file: file, line: line, function: function, identifier: identifier)
            try Self.send(note.fields)
        }
    }

    /// Fields set by the sink itself; a caller's field of the same name is dropped.
    static let reservedNames: Set<String> = [
        "MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC",
    ]

    /// The fields of one entry, in order: `MESSAGE`, `PRIORITY`, `SYSLOG_IDENTIFIER`,
    /// `CODE_FILE`, `CODE_LINE`, `CODE_FUNC` (when `function` is given and not empty), then the
    /// caller's `fields` with names checked. `notes` says which of the caller's names were
    /// renamed or dropped (empty when all were valid).
    static func entryFields(
        priority: LogPriority, message: String, fields: [(String, [UInt8])], file: String, line: Int,
        function: String? = nil, identifier: String
    ) -> (fields: [(String, [UInt8])], notes: [String]) {
        var result: [(String, [UInt8])] = [
            ("MESSAGE", Array(message.utf8)),
            ("PRIORITY", Array(String(priority.rawValue).utf8)),
            ("SYSLOG_IDENTIFIER", Array(identifier.utf8)),
            ("CODE_FILE", Array(file.utf8)),
            ("CODE_LINE", Array(String(line).utf8)),
        ]
        if let function, !function.isEmpty { result.append(("CODE_FUNC", Array(function.utf8))) }
        var notes: [String] = []
        for (name, value) in fields {
            let accepted: String
            switch JournalFieldName.check(name) {
            case .valid: accepted = name
            case .renamed(let fixed): accepted = fixed
            case .dropped:
                notes.append("\"\(name)\" dropped")
                continue
            }
            if reservedNames.contains(accepted) {
                notes.append("\"\(name)\" dropped (set by the sink)")
                continue
            }
            if accepted != name { notes.append("\"\(name)\" renamed \(accepted)") }
            result.append((accepted, value))
        }
        return (result, notes)
    }

    /// One `NAME=value` byte string per field: what each `iovec` of `sd_journal_sendv` holds.
    /// libsystemd itself turns a value with a newline into the native protocol's binary form
    /// (`NAME\n`, 64-bit little-endian length, bytes), so values are passed as they are.
    static func encode(_ fields: [(String, [UInt8])]) -> [[UInt8]] {
        fields.map { name, value in Array(name.utf8) + [UInt8(ascii: "=")] + value }
    }

    /// Sends `fields` as one entry with `sd_journal_sendv`.
    static func send(_ fields: [(String, [UInt8])]) throws(SystemdError) {
        let items = encode(fields)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(items.reduce(0) { $0 + $1.count })
        var ranges: [Range<Int>] = []
        for item in items {
            ranges.append(buffer.count..<buffer.count + item.count)
            buffer.append(contentsOf: item)
        }
        let result = buffer.withUnsafeMutableBytes { bytes -> Int32 in
            let vectors = ranges.map { range in
                iovec(iov_base: bytes.baseAddress! + range.lowerBound, iov_len: range.count)
            }
            return vectors.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) }
        }
        if result < 0 { throw SystemdError(function: "sd_journal_sendv", errno: -result) }
    }
}
