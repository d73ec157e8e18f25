/// Journal field names as journald accepts them: 1–64 characters, uppercase ASCII letters,
/// digits and `_`, not starting with a digit; a leading `_` marks a trusted field that only
/// journald itself may set. journald silently drops any other name (PITFALLS), so the sink
/// checks them before sending.
enum JournalFieldName {
    /// journald's limit on the length of a field name (`journal_field_valid()` in systemd).
    static let maximumLength = 64

    /// What becomes of a name given by a caller.
    enum Verdict: Equatable {
        /// Valid as it is.
        case valid
        /// Invalid, but fixable: lowercase letters uppercased, other characters made `_`.
        case renamed(String)
        /// Invalid and not fixable: empty, too long, starts with a digit, or a trusted `_` field.
        case dropped
    }

    static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumLength, !isDigit(bytes[0]), bytes[0] != underscore else {
            return false
        }
        return bytes.allSatisfy { isUpper($0) || isDigit($0) || $0 == underscore }
    }

    static func check(_ name: String) -> Verdict {
        if isValid(name) { return .valid }
        // A trusted field (`_PID`, `__CURSOR`) cannot be set by a client at all: renaming it
        // would silently change its meaning, so it is dropped.
        guard let first = name.unicodeScalars.first, first != "_" else { return .dropped }
        var fixed = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "A"..."Z", "0"..."9", "_": fixed.unicodeScalars.append(scalar)
            case "a"..."z": fixed.unicodeScalars.append(Unicode.Scalar(scalar.value - 0x20)!)
            default: fixed.append("_")
            }
        }
        return isValid(fixed) ? .renamed(fixed) : .dropped
    }

    private static let underscore = UInt8(ascii: "_")
    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    private static func isUpper(_ b: UInt8) -> Bool { b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") }
}
