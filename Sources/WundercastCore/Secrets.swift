/// Secret values — API keys — that must never appear in a URL shown, a libcurl error text, a
/// log line, a journal field, the state or a socket answer.
///
/// Whoever loads a key makes its `Secrets` and hands it to the parts that could let it out:
/// the HTTP client (it redacts every error text it produces), the provider (its ``WeatherProvider/secrets``,
/// which ``ProviderQueue`` applies to every error on the way to the state and to lookups), and
/// the logger (``Logger/redacting(_:)``). Redacting is replacing each value, and its
/// percent-encoded form, with ``placeholder``: `appid=0123abcd…` becomes `appid=REDACTED`.
public struct Secrets: Sendable, Equatable {
    /// What a secret is replaced with.
    public static let placeholder = "REDACTED"
    /// No secrets (a provider without a key).
    public static let none = Secrets([])

    /// The forms searched for as UTF-8 bytes, longest first (a key that contains another is
    /// replaced whole).
    private let forms: [[UInt8]]

    /// `values` that are empty or only blanks are ignored.
    public init(_ values: [String]) {
        var forms = Set<[UInt8]>()
        for value in values where value.contains(where: { !$0.isWhitespace }) {
            let encoded = Self.percentEncoded(value)
            forms.insert(Array(value.utf8))
            forms.insert(Array(encoded.utf8))
            forms.insert(Array(encoded.replacing("%20", with: "+").utf8))  // form encoding
        }
        // Compared without regard to ASCII case: a provider may echo a key in other letters, and an
        // escape may have small hex digits (`%2f`).
        let folded = Set(forms.map { $0.map(Self.folded) })
        self.forms = folded.sorted { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }
    }

    public var isEmpty: Bool { forms.isEmpty }

    /// `text` with every occurrence of a secret (as is, or percent-encoded as in a URL query,
    /// with capital or small hex digits, or with `+` for a space; ASCII letters in any case)
    /// replaced by ``placeholder``.
    /// Compared byte by byte: a secret followed by a combining mark is still found.
    public func redact(_ text: String) -> String {
        guard !forms.isEmpty else { return text }
        var bytes = Array(text.utf8)
        var changed = false
        for form in forms {
            var out: [UInt8] = []
            var i = 0
            var found = false
            while i < bytes.count {
                if bytes.count - i >= form.count, Self.folded(bytes[i]) == form[0],
                    bytes[i..<i + form.count].lazy.map(Self.folded).elementsEqual(form)
                {
                    out.append(contentsOf: Self.placeholder.utf8)
                    i += form.count
                    found = true
                } else {
                    out.append(bytes[i])
                    i += 1
                }
            }
            if found {
                bytes = out
                changed = true
            }
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : text
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
