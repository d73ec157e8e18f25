/// Place names folded for matching: case- and diacritic-insensitive, so that `Tromso` finds
/// `Tromsø` and `sao paulo` finds `São Paulo`.
///
/// Works on Unicode scalars (FoundationEssentials has no `folding(options:)`): a Latin letter
/// is reduced to its base letters (``LatinBaseLetters``: `ø` → `o`, `Æ` → `ae`, `ß` → `ss`,
/// `ł` → `l`, `đ` → `d`, `ı`/`İ` → `i`, `Þ` → `th`); combining marks are dropped; other scripts
/// are lower-cased. Hyphens and underscores count as spaces
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
    /// Uses only ranges and ``LatinBaseLetters`` (no scalar-name or category tables).
    static func foldNonASCII(_ scalar: Unicode.Scalar) -> [UInt8] {
        switch scalar.value {
        // Combining marks (the decomposed `São`), format characters, apostrophes ‘ ’ ʻ ʼ ʿ ʾ ´.
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F, 0x200B...0x200F,
            0x2060...0x2064, 0xFEFF, 0x2018, 0x2019, 0x02BB, 0x02BC, 0x02BE, 0x02BF, 0x00B4:
            return []
        // C1 controls, no-break and other spaces, dashes, line and paragraph separators.
        case 0x80...0x9F, 0xA0, 0x2000...0x200A, 0x2010...0x2015, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return [0x20]
        case 0x0259, 0x025B: return [UInt8(ascii: "e")]  // ə ɛ (IPA extensions, used in Azerbaijani)
        case 0x0254: return [UInt8(ascii: "o")]  // ɔ
        default:
            if let base = LatinBaseLetters.of(scalar) { return Array(base.utf8) }
            return Array(scalar.properties.lowercaseMapping.utf8)
        }
    }
}
