/// Place names folded for matching: case- and diacritic-insensitive, so that `Tromso` finds
/// `Tromsø` and `sao paulo` finds `São Paulo`.
///
/// Works on Unicode scalars (FoundationEssentials has no `folding(options:)`), without tables
/// of its own: a Latin letter is reduced to the base letter its Unicode name gives
/// (`LATIN SMALL LETTER O WITH STROKE` → `o`, `LATIN CAPITAL LETTER AE` → `ae`,
/// `LATIN SMALL LETTER SHARP S` → `ss`, `ł` → `l`, `đ` → `d`, `ı`/`İ` → `i`); combining marks
/// are dropped; other scripts are lower-cased. Hyphens and underscores count as spaces
/// (`Winston Salem` finds `Winston-Salem`), apostrophes and full stops are dropped
/// (`St Louis`, `St. Louis`), runs of spaces become one and the ends are trimmed.
public enum NameFolding {
    /// `text` folded, as UTF-8 bytes (mostly ASCII).
    public static func fold(_ text: some StringProtocol) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                let byte = UInt8(v)
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "_"), 0x00...0x1F, 0x7F:
                    pendingSpace = !out.isEmpty
                    continue
                case UInt8(ascii: "'"), UInt8(ascii: "."), UInt8(ascii: "`"):
                    continue
                default:
                    if pendingSpace { out.append(UInt8(ascii: " ")) }
                    pendingSpace = false
                    out.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
                }
                continue
            }
            let folded = foldNonASCII(scalar)
            if folded.isEmpty { continue }
            if folded == [UInt8(ascii: " ")] {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(UInt8(ascii: " ")) }
            pendingSpace = false
            out.append(contentsOf: folded)
        }
        return out
    }

    /// `text` folded, as a string (for messages and tests).
    public static func folded(_ text: some StringProtocol) -> String {
        String(decoding: fold(text), as: UTF8.self)
    }

    /// Whether folding `utf8` gives the same bytes as lower-casing its ASCII letters: true for
    /// most names (`Regensburg`), false for `Tromsø`, `Winston-Salem`, `St. Louis`.
    static func foldsToASCIILowercase(_ utf8: some Collection<UInt8>) -> Bool {
        var previousSpace = true  // a leading space would be trimmed
        for byte in utf8 {
            switch byte {
            case 0x80...0xFF, UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "'"), UInt8(ascii: "."),
                UInt8(ascii: "`"), 0x00...0x1F, 0x7F:
                return false
            case UInt8(ascii: " "):
                if previousSpace { return false }
                previousSpace = true
            default:
                previousSpace = false
            }
        }
        return !previousSpace || utf8.isEmpty
    }

    /// One non-ASCII scalar folded: empty to drop it, a single space for a separator.
    static func foldNonASCII(_ scalar: Unicode.Scalar) -> [UInt8] {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: return []
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .dashPunctuation, .control: return [0x20]
        default: break
        }
        switch scalar.value {
        case 0x2018, 0x2019, 0x02BB, 0x02BC, 0x02BF, 0x02BE, 0x00B4: return []  // ‘ ’ ʻ ʼ ʿ ʾ ´
        default: break
        }
        if let base = latinBase(properties.name) { return Array(base.utf8) }
        return Array(properties.lowercaseMapping.utf8)
    }

    /// The ASCII letters a Latin letter stands for, from its Unicode name
    /// (`LATIN SMALL LETTER A WITH RING ABOVE` → `a`), or nil when it is not such a letter.
    static func latinBase(_ name: String?) -> String? {
        guard let name, name.hasPrefix("LATIN ") else { return nil }
        var rest = Substring(name)
        for marker in ["LETTER ", "LIGATURE "] {
            if let range = rest.firstRange(of: marker) {
                rest = rest[range.upperBound...]
                break
            }
        }
        if let with = rest.firstRange(of: " WITH ") { rest = rest[..<with.lowerBound] }
        switch rest {
        case "SHARP S": return "ss"
        case "DOTLESS I", "DOTLESS J": return rest == "DOTLESS I" ? "i" : "j"
        case "ETH": return "d"
        case "THORN": return "th"
        case "SCHWA", "TURNED E", "REVERSED E", "OPEN E": return "e"
        case "OPEN O": return "o"
        case "LONG S": return "s"
        default: break
        }
        guard (1...2).contains(rest.count), rest.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return rest.lowercased()
    }
}
