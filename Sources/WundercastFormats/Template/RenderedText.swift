/// What a ``Template`` renders, as runs of text and the condition icon apart: a bar format
/// escapes the text for its markup and may put the icon alone in a font of its own
/// (``IconFont``, `--icon-font`). Adjacent text runs are kept as one, so an escape sees a
/// sequence (polybar's `%{`) that a value and the literal after it make together.
public struct RenderedText: Sendable, Equatable {
    public enum Run: Sendable, Equatable {
        /// Text: the template's literals and every value but the icon.
        case text(String)
        /// The `{icon}` placeholder's glyph (``IconSet``): never text from outside.
        case icon(String)
    }

    public private(set) var runs: [Run] = []

    /// `text` as one run (none when empty).
    public init(_ text: String = "") { append(text) }

    /// The text without markup: every run as it is.
    public var plain: String {
        runs.map {
            switch $0 {
            case .text(let text), .icon(let text): text
            }
        }.joined()
    }

    public var isEmpty: Bool { runs.isEmpty }

    /// The last character written, if any.
    var last: Character? {
        switch runs.last {
        case .text(let text), .icon(let text): text.last
        case nil: nil
        }
    }

    /// Appends `text` (nothing when empty), joined to a text run before it.
    public mutating func append(_ text: String) {
        guard !text.isEmpty else { return }
        if case .text(let before) = runs.last {
            runs[runs.count - 1] = .text(before + text)
        } else {
            runs.append(.text(text))
        }
    }

    /// Appends the icon `glyph` as a run of its own (nothing when empty).
    mutating func append(icon glyph: String) {
        if !glyph.isEmpty { runs.append(.icon(glyph)) }
    }

    /// This text with `marker` (` (stale)`) after it.
    public static func + (text: RenderedText, marker: String) -> RenderedText {
        var text = text
        text.append(marker)
        return text
    }

    /// Without blanks at either end (an icon is never blank).
    func trimmingBlanks() -> RenderedText {
        var runs = runs
        if case .text(let first) = runs.first {
            let trimmed = String(first.drop(while: { $0 == " " }))
            if trimmed.isEmpty { runs.removeFirst() } else { runs[0] = .text(trimmed) }
        }
        if case .text(let last) = runs.last {
            let trimmed = String(last.reversed().drop(while: { $0 == " " }).reversed())
            if trimmed.isEmpty { runs.removeLast() } else { runs[runs.count - 1] = .text(trimmed) }
        }
        var result = RenderedText()
        result.runs = runs
        return result
    }

    /// The runs written for a bar: each text run through `text` (its escape), each icon through
    /// `icon` (its font, and the same escape).
    public func written(text: (String) -> String, icon: (String) -> String) -> String {
        runs.map {
            switch $0 {
            case .text(let value): text(value)
            case .icon(let glyph): icon(glyph)
            }
        }.joined()
    }
}
