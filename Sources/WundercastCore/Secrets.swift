/// Secret values — API keys — that must never appear in a URL shown, a libcurl error text, a
/// log line, a journal field, the state, the kept state file or a socket answer.
///
/// Whoever holds a key makes its `Secrets` and redacts with it every text that comes from
/// outside **where it enters**, before anything of ours reads, decodes or cuts it (a cut at 200
/// characters would leave a key's first part that no later redaction can recognise):
/// the provider's answers through ``RedactingHTTPClient`` (body bytes, headers, error texts),
/// the kept state file when it is loaded, the daemon's own log lines (``Logger/redacting(_:)``).
///
/// Redacting is replacing each value with ``placeholder``: `appid=0123abcd…` becomes
/// `appid=REDACTED`. A value is found in every form a provider may echo it in, character by
/// character: each character as is (ASCII letters in any case), percent-encoded `%XX` (hex digits
/// in either case), JSON-escaped `\u00XX` (any case) or `\"`, `\\`, `\/`, and a space as `+` — also
/// mixed within one occurrence (`0%31\u00322…`).
public struct Secrets: Sendable, Equatable {
    /// What a secret is replaced with.
    public static let placeholder = "REDACTED"
    /// No secrets (a provider without a key).
    public static let none = Secrets([])

    /// The values as UTF-8 bytes, longest first (a key that contains another is replaced whole).
    private let values: [[UInt8]]

    /// `values` that are empty or only blanks are ignored.
    public init(_ values: [String]) {
        let kept = Set(values.filter { $0.contains(where: { !$0.isWhitespace }) }.map { Array($0.utf8) })
        self.values = kept.sorted { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }
    }

    public var isEmpty: Bool { values.isEmpty }

    /// `text` with every occurrence of a secret, in any of its forms (see ``Secrets``), replaced
    /// by ``placeholder``. Compared byte by byte: a secret followed by a combining mark is still found.
    public func redact(_ text: String) -> String {
        guard !values.isEmpty else { return text }
        let bytes = Array(text.utf8)
        let redacted = redact(bytes)
        return redacted == bytes ? text : String(decoding: redacted, as: UTF8.self)
    }

    /// `bytes` (a body, a file) with every occurrence of a secret replaced by ``placeholder``, as
    /// ``redact(_:)-(String)``. Bytes that are not UTF-8 are kept as they are.
    public func redact(_ bytes: [UInt8]) -> [UInt8] {
        guard !values.isEmpty else { return bytes }
        var out: [UInt8] = []
        var copied = 0  // bytes[..<copied] are in `out` (or replaced)
        var i = 0
        while i < bytes.count {
            if let end = values.lazy.compactMap({ Self.end(of: $0, in: bytes, at: i) }).first {
                if out.isEmpty { out.reserveCapacity(bytes.count) }
                out.append(contentsOf: bytes[copied..<i])
                out.append(contentsOf: Self.placeholder.utf8)
                i = end
                copied = end
            } else {
                i += 1
            }
        }
        guard copied > 0 else { return bytes }
        out.append(contentsOf: bytes[copied...])
        return out
    }

    /// Where the longest occurrence of `value` that starts at `start` in `bytes` ends, or `nil`.
    /// Each character of `value` may take any of its forms (``forms(of:in:at:)``); the places
    /// each prefix of `value` can end at are followed together, so no input costs more than
    /// `value.count` steps of at most a few places each.
    static func end(of value: [UInt8], in bytes: [UInt8], at start: Int) -> Int? {
        // Most bytes start no form at all: tell so without building the places.
        let first = bytes[start]
        guard
            folded(first) == folded(value[0]) || first == UInt8(ascii: "%") || first == UInt8(ascii: "\\")
                || first == UInt8(ascii: "+")
        else { return nil }
        var places = [start]
        for character in value {
            var next: [Int] = []
            for place in places {
                for end in forms(of: character, in: bytes, at: place) where !next.contains(end) {
                    next.append(end)
                }
            }
            guard !next.isEmpty else { return nil }
            places = next
        }
        return places.max()
    }

    /// The ends of every form of the byte `character` found at `i` in `bytes`: the byte itself
    /// (``folded(_:)``), `%XX`, `\u00XX`, `\"`/`\\`/`\/` for those characters, `+` for a space.
    static func forms(of character: UInt8, in bytes: [UInt8], at i: Int) -> [Int] {
        guard i < bytes.count else { return [] }
        var ends: [Int] = []
        let byte = bytes[i]
        if folded(byte) == folded(character) { ends.append(i + 1) }
        if byte == UInt8(ascii: "+") && character == UInt8(ascii: " ") { ends.append(i + 1) }
        if byte == UInt8(ascii: "%"), hexValue(bytes, from: i + 1, count: 2) == Int(character) {
            ends.append(i + 3)
        }
        if byte == UInt8(ascii: "\\"), i + 1 < bytes.count {
            let escape = bytes[i + 1]
            if folded(escape) == UInt8(ascii: "u"), character < 0x80,
                hexValue(bytes, from: i + 2, count: 4) == Int(character)
            {
                ends.append(i + 6)
            }
            if escape == character && [UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/")].contains(character) {
                ends.append(i + 2)
            }
        }
        return ends
    }

    /// The value of `count` hex digits (either case) at `start`, or `nil` when they are not all there.
    private static func hexValue(_ bytes: [UInt8], from start: Int, count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            let digit: UInt8
            switch folded(byte) {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = folded(byte) - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value * 16 + Int(digit)
        }
        return value
    }

    /// `byte` with an ASCII capital letter made small.
    static func folded(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// The value as it appears in a URL query: every byte but the unreserved ones
    /// (RFC 3986 `ALPHA / DIGIT / "-" / "." / "_" / "~"`) as `%XX`.
    static func percentEncoded(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }
}
