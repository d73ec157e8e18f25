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

    /// The forms searched for, longest first (a key that contains another is replaced whole).
    private let forms: [String]

    /// `values` that are empty or only blanks are ignored.
    public init(_ values: [String]) {
        var forms = Set<String>()
        for value in values where value.contains(where: { !$0.isWhitespace }) {
            forms.insert(value)
            forms.insert(Self.percentEncoded(value))
        }
        self.forms = forms.sorted { ($0.count, $0) > ($1.count, $1) }
    }

    public var isEmpty: Bool { forms.isEmpty }

    /// `text` with every occurrence of a secret (as is, or percent-encoded as in a URL query)
    /// replaced by ``placeholder``.
    public func redact(_ text: String) -> String {
        var out = text
        for form in forms where out.contains(form) {
            out = out.replacing(form, with: Self.placeholder)
        }
        return out
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
