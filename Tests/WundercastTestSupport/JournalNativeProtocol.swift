#if canImport(Glibc)
import Glibc
#endif

/// Parses one datagram of journald's native protocol (systemd's JOURNAL_NATIVE_PROTOCOL):
/// fields are `NAME=value\n`, or, for values that may hold newlines,
/// `NAME\n` + 64-bit little-endian length + value bytes + `\n`. `nil` when malformed.
public func parseNativeEntry(_ bytes: [UInt8]) -> [(String, [UInt8])]? {
    var fields: [(String, [UInt8])] = []
    var index = 0
    let newline = UInt8(ascii: "\n")
    let equals = UInt8(ascii: "=")
    while index < bytes.count {
        guard let end = bytes[index...].firstIndex(where: { $0 == newline || $0 == equals }) else { return nil }
        let name = String(decoding: bytes[index..<end], as: UTF8.self)
        if bytes[end] == equals {
            guard let lineEnd = bytes[end...].firstIndex(of: newline) else { return nil }
            fields.append((name, Array(bytes[(end + 1)..<lineEnd])))
            index = lineEnd + 1
        } else {
            let lengthStart = end + 1
            guard lengthStart + 8 <= bytes.count else { return nil }
            var length: UInt64 = 0
            for (shift, byte) in bytes[lengthStart..<(lengthStart + 8)].enumerated() {
                length |= UInt64(byte) << (8 * UInt64(shift))
            }
            let valueStart = lengthStart + 8
            guard length <= UInt64(bytes.count - valueStart - 1), bytes[valueStart + Int(length)] == newline else {
                return nil
            }
            fields.append((name, Array(bytes[valueStart..<(valueStart + Int(length))])))
            index = valueStart + Int(length) + 1
        }
    }
    return fields
}

/// One journal entry as a test reads it back: from a native datagram (``JournalStandIn``) or
/// from `journalctl -o json` (``Journalctl``). A field may appear several times.
public struct JournalEntry: Sendable {
    /// Every field in order, values as raw bytes.
    public var fields: [(name: String, value: [UInt8])]
    /// The sending process: `SCM_CREDENTIALS` of the datagram, or journald's `_PID`.
    public var senderPID: pid_t?

    public init(fields: [(name: String, value: [UInt8])], senderPID: pid_t?) {
        self.fields = fields
        self.senderPID = senderPID
    }

    /// Parses a native-protocol datagram; `nil` when it is malformed.
    public init?(_ datagram: DatagramSocket.Datagram) {
        guard let fields = parseNativeEntry(datagram.bytes) else { return nil }
        self.init(fields: fields.map { (name: $0.0, value: $0.1) }, senderPID: datagram.senderPID)
    }

    /// Every value of field `name`, decoded as UTF-8.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map { String(decoding: $0.value, as: UTF8.self) }
    }

    /// The first value of field `name`, decoded as UTF-8.
    public subscript(_ name: String) -> String? { values(name).first }

    /// Fields by name, each with all its values.
    public var dictionary: [String: [[UInt8]]] {
        Dictionary(grouping: fields, by: \.name).mapValues { $0.map(\.value) }
    }
}
