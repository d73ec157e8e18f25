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
        for (index, character) in value.enumerated() {
            // Between two characters of the key may stand what the outputs remove or blank
            // (``fillerEnd(in:at:)``): the key must be found with them, or it is put together again.
            if index > 0 { places = skippingFillers(places, in: bytes) }
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
    /// `places` and every place after one or more fillers from one of them, at most 64 a gap.
    static func skippingFillers(_ places: [Int], in bytes: [UInt8]) -> [Int] {
        var all = places
        for place in places {
            var at = place
            for _ in 0..<64 {
                guard let end = fillerEnd(in: bytes, at: at) else { break }
                if !all.contains(end) { all.append(end) }
                at = end
            }
        }
        return all
    }

    /// The end of a character at `i` that the outputs drop or turn into a blank — a control
    /// character or an invisible format character (``UntrustedText/isControl(_:)``,
    /// ``UntrustedText/isInvisible(_:)``: a zero-width space between two characters of a key
    /// vanishes when the text is shown) — raw in UTF-8, JSON-escaped (`\u200b`, a surrogate
    /// pair, `\n`, `\t`, `\r`, `\b`, `\f`) or percent-encoded; `nil` when none starts there.
    static func fillerEnd(in bytes: [UInt8], at i: Int) -> Int? {
        guard i < bytes.count else { return nil }
        func isFiller(_ value: Int) -> Bool {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { return false }
            return UntrustedText.isControl(scalar) || UntrustedText.isInvisible(scalar)
        }
        let byte = bytes[i]
        if byte < 0x20 || byte == 0x7F { return i + 1 }
        if byte >= 0xC0, let (value, length) = utf8Scalar(bytes, at: i) { return isFiller(value) ? i + length : nil }
        if byte == UInt8(ascii: "\\"), i + 1 < bytes.count {
            let escape = bytes[i + 1]
            if [UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "b"), UInt8(ascii: "f")]
                .contains(escape)
            {
                return i + 2
            }
            guard folded(escape) == UInt8(ascii: "u"), let unit = hexValue(bytes, from: i + 2, count: 4) else {
                return nil
            }
            if (0xD800..<0xDC00).contains(unit), i + 7 < bytes.count, bytes[i + 6] == UInt8(ascii: "\\"),
                folded(bytes[i + 7]) == UInt8(ascii: "u"), let low = hexValue(bytes, from: i + 8, count: 4),
                (0xDC00..<0xE000).contains(low)
            {
                return isFiller(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ? i + 12 : nil
            }
            return isFiller(unit) ? i + 6 : nil
        }
        if byte == UInt8(ascii: "%"), let first = hexValue(bytes, from: i + 1, count: 2) {
            if first < 0x20 || first == 0x7F { return i + 3 }
            // A percent-encoded UTF-8 sequence (`%E2%80%8B`).
            var decoded: [UInt8] = [UInt8(first)]
            var at = i + 3
            while decoded.count < 4, at < bytes.count, bytes[at] == UInt8(ascii: "%"),
                let next = hexValue(bytes, from: at + 1, count: 2), next & 0xC0 == 0x80
            {
                decoded.append(UInt8(next))
                at += 3
            }
            if let (value, length) = utf8Scalar(decoded, at: 0), length == decoded.count, isFiller(value) { return at }
        }
        return nil
    }

    /// The scalar value and length of the UTF-8 sequence at `i`, if it is one.
    private static func utf8Scalar(_ bytes: [UInt8], at i: Int) -> (Int, Int)? {
        let lead = bytes[i]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard length > 1, i + length <= bytes.count else { return nil }
        var value = Int(lead) & (0xFF >> (length + 1))
        for byte in bytes[(i + 1)..<(i + length)] {
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | Int(byte & 0x3F)
        }
        return (value, length)
    }

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
    package static func percentEncoded(_ value: String) -> String {
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
