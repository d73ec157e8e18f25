/// An API key as read from its file (`[Weather] APIKeyFile=`, or systemd's
/// `$CREDENTIALS_DIRECTORY/openweathermap`): the file holds the key alone, surrounding blanks
/// and line ends are trimmed. Nothing here ever repeats the file's content.
public enum APIKey {
    /// The largest key file read, in bytes: a key is tens of bytes; a bigger file is the wrong one.
    public static let maxFileSize = 4096
    /// The longest key accepted, in characters.
    public static let maxLength = 512

    /// Why a key file's content is not a key. ``description`` never quotes the content.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Nothing but blanks.
        case empty
        /// Not printable ASCII: binary data, another encoding, control characters.
        case notText
        /// Blanks or line breaks inside: more than a key (two lines, `KEY = value`, a comment).
        case severalWords
        /// Longer than ``APIKey/maxLength``.
        case tooLong

        public var description: String { text(for: "key") }

        /// The problem for a file of another secret read by the same rules (`password`).
        public func text(for secret: String) -> String {
            switch self {
            case .empty: "is empty"
            case .notText: "holds something other than printable ASCII text (a \(secret) is letters and digits)"
            case .severalWords: "holds more than one word: it must contain the \(secret) alone (one line, no comments)"
            case .tooLong: "holds more than \(APIKey.maxLength) characters: not a \(secret)"
            }
        }
    }

    /// The key in `bytes`, without surrounding blanks (spaces, tabs, CR, LF).
    public static func parse(_ bytes: [UInt8]) throws(Problem) -> String {
        func blank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        guard let start = bytes.firstIndex(where: { !blank($0) }), let end = bytes.lastIndex(where: { !blank($0) })
        else { throw .empty }
        let key = bytes[start...end]
        if key.contains(where: blank) { throw .severalWords }
        guard key.allSatisfy({ (0x21...0x7E).contains($0) }) else { throw .notText }
        guard key.count <= maxLength else { throw .tooLong }
        return String(decoding: key, as: UTF8.self)
    }
}
