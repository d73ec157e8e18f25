import Foundation

/// A gettext PO file (or the POT template) read for checks: its header and its messages.
public struct PO: Sendable {
    public struct Entry: Sendable, Equatable {
        public var context: String?
        public var id: String
        public var plural: String?
        /// `msgstr`, or `msgstr[0]`, `msgstr[1]`, … of a plural.
        public var strings: [String]
        public var isFuzzy: Bool
        /// The files of its `#:` lines.
        public var references: [String]

        /// `context` + U+0004 + `id`, as gettext looks a message up (`pgettext`).
        public var key: String { context.map { $0 + "\u{4}" + id } ?? id }
    }

    /// The header (the empty msgid's msgstr).
    public var header: String
    public var entries: [Entry]

    public init(path: String) throws {
        try self.init(text: String(contentsOfFile: path, encoding: .utf8))
    }

    public init(text: String) throws {
        var entries: [Entry] = []
        var header = ""
        var current = Entry(context: nil, id: "", plural: nil, strings: [], isFuzzy: false, references: [])
        var field: String?
        var started = false
        func finish() {
            if started {
                if current.id.isEmpty && current.context == nil {
                    header = current.strings.first ?? ""
                } else {
                    entries.append(current)
                }
            }
            current = Entry(context: nil, id: "", plural: nil, strings: [], isFuzzy: false, references: [])
            started = false
            field = nil
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.isEmpty {
                finish()
                continue
            }
            if line.hasPrefix("#,") {
                current.isFuzzy = line.contains("fuzzy")
                continue
            }
            if line.hasPrefix("#:") {
                current.references += line.dropFirst(2).split(separator: " ").map(String.init)
                continue
            }
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("\"") {
                let value = try Self.unquote(line)
                switch field {
                case "msgctxt": current.context! += value
                case "msgid": current.id += value
                case "msgid_plural": current.plural! += value
                case "msgstr": current.strings[current.strings.count - 1] += value
                default: throw Failure(line: line)
                }
                continue
            }
            guard let space = line.firstIndex(of: " ") else { throw Failure(line: line) }
            let keyword = String(line[..<space])
            let value = try Self.unquote(String(line[line.index(after: space)...]))
            started = true
            switch keyword {
            case "msgctxt":
                current.context = value
                field = keyword
            case "msgid":
                current.id = value
                field = keyword
            case "msgid_plural":
                current.plural = value
                field = keyword
            case _ where keyword == "msgstr" || keyword.hasPrefix("msgstr["):
                current.strings.append(value)
                field = "msgstr"
            default: throw Failure(line: line)
            }
        }
        finish()
        self.header = header
        self.entries = entries
    }

    public struct Failure: Error, CustomStringConvertible {
        public var line: String
        public var description: String { "cannot read PO line: \(line)" }
    }

    static func unquote(_ text: String) throws -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { throw Failure(line: text) }
        var out = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": out.append("\n")
                case "t": out.append("\t")
                default: out.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// The `{name}` placeholders of `text`.
    public static func placeholders(_ text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            names.insert(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return names
    }
}
