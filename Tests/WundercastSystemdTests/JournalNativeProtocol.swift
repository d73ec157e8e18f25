import Testing

/// Parses one datagram of journald's native protocol (systemd's JOURNAL_NATIVE_PROTOCOL):
/// fields are `NAME=value\n`, or, for values that may hold newlines,
/// `NAME\n` + 64-bit little-endian length + value bytes + `\n`. `nil` when malformed.
func parseNativeEntry(_ bytes: [UInt8]) -> [(String, [UInt8])]? {
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

@Test func nativeProtocolParser() throws {
    let datagram = Array("MESSAGE\n".utf8) + [5, 0, 0, 0, 0, 0, 0, 0] + Array("a\nb\0c\nPRIORITY=6\n".utf8)
    let fields = try #require(parseNativeEntry(datagram))
    #expect(fields.map(\.0) == ["MESSAGE", "PRIORITY"])
    #expect(fields[0].1 == Array("a\nb\0c".utf8))
    #expect(fields[1].1 == Array("6".utf8))
    #expect(parseNativeEntry(Array("MESSAGE\n".utf8) + [9, 0, 0, 0, 0, 0, 0, 0] + Array("ab\n".utf8)) == nil)
    #expect(parseNativeEntry(Array("MESSAGE=no newline".utf8)) == nil)
}
