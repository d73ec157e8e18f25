import WundercastSupport

/// A `--template` text such as `{icon} {temperature}{unit} {condition} {place}`: literal text
/// with ``Placeholder`` names in braces (`{{` and `}}` stand for `{` and `}`).
///
/// A placeholder without a value expands to nothing, and the blank it leaves between two
/// others collapses: `{icon} {temperature}{unit} {condition}` without an icon reads
/// `-5°C Clear sky`, not ` -5°C Clear sky`. `{unit}` labels the temperature before it
/// (``Placeholder/isTemperature``) and goes with it: without a temperature the same template
/// reads `☀️ Clear sky`, never `☀️ °C Clear sky`.
public struct Template: Sendable, Equatable {
    enum Piece: Sendable, Equatable {
        case literal(String)
        case placeholder(Placeholder)
    }

    let pieces: [Piece]

    /// Why a template was refused; `message` names the offending text.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The longest template accepted, in characters.
    public static let maxLength = 1000

    /// Parses `text`. Throws ``ParseError`` for an unknown placeholder (naming it and the known
    /// ones), a `{` without `}`, a lone `}`, or a text over ``maxLength``.
    public init(_ text: String) throws(ParseError) {
        guard text.count <= Self.maxLength else {
            throw ParseError(message: "template longer than \(Self.maxLength) characters")
        }
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(text)
        while let character = rest.first {
            rest = rest.dropFirst()
            switch character {
            case "{" where rest.first == "{", "}" where rest.first == "}":
                literal.append(character)
                rest = rest.dropFirst()
            case "{":
                guard let close = rest.firstIndex(of: "}") else {
                    throw ParseError(message: "template: '{' without a closing '}'")
                }
                let name = String(rest[..<close])
                guard let placeholder = Placeholder(rawValue: name) else {
                    let shown = UntrustedText.sanitized(name, limit: 40)
                    throw ParseError(
                        message:
                            "template: unknown placeholder '{\(shown)}' (known: \(Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: " ")))"
                    )
                }
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = ""
                pieces.append(.placeholder(placeholder))
                rest = rest[rest.index(after: close)...]
            case "}":
                throw ParseError(message: "template: '}' without an opening '{' (write '}}' for a brace)")
            default:
                literal.append(character)
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }

    /// The placeholders the template uses.
    public var placeholders: Set<Placeholder> {
        Set(pieces.compactMap { if case .placeholder(let p) = $0 { p } else { nil } })
    }

    /// The text with each placeholder replaced by its value in `values` (missing: empty); a
    /// `{unit}` after a temperature placeholder without a value is empty too; a blank left
    /// doubled by an empty value collapses, and blanks at both ends are trimmed.
    public func render(_ values: [Placeholder: String]) -> String { text(values).plain }

    /// ``render(_:)`` as runs: the `{icon}` value apart from the text around it, for a bar
    /// format that escapes the text and may give the icon its own font.
    public func text(_ values: [Placeholder: String]) -> RenderedText {
        var out = RenderedText()
        var skipBlank = false
        // Whether the last temperature placeholder so far had a value (`nil`: none yet).
        var temperatureShown: Bool?
        for piece in pieces {
            switch piece {
            case .placeholder(let placeholder):
                var value = values[placeholder] ?? ""
                if placeholder.isTemperature { temperatureShown = !value.isEmpty }
                if placeholder == .unit, temperatureShown == false { value = "" }
                if value.isEmpty {
                    // Drop one side's blank: the one already written, or the next one.
                    if out.last == " " || out.isEmpty { skipBlank = true }
                } else {
                    if placeholder == .icon { out.append(icon: value) } else { out.append(value) }
                    skipBlank = false
                }
            case .literal(var text):
                if skipBlank, text.first == " " { text.removeFirst() }
                skipBlank = false
                out.append(text)
            }
        }
        return out.trimmingBlanks()
    }
}
