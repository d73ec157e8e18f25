/// How many terminal columns a text takes: the one rule for aligning columns of text that mixes
/// emoji, CJK and Latin letters (`wundercastctl around`, `--help` within 80 columns).
///
/// Per Unicode scalar: 2 for an East Asian Wide or Fullwidth character (UAX #11) and for a
/// character whose default presentation is emoji (`⛅`, `☔`, `🌙`); 0 for a combining mark
/// (general category Mn, Me), a variation selector (U+FE00–U+FE0F, U+E0100–U+E01EF), the
/// zero-width joiner and other invisible format characters (Cf, but for the soft hyphen), a
/// Hangul medial or final jamo, and a control character; 1 for the rest. An emoji presentation
/// sequence — a character with an emoji form followed by U+FE0F (`☀️`, `🌤️`) — takes 2 in all.
///
/// glibc's `wcwidth` is not used: it counts U+FE0F as 0 and the base of `🌤️` or `🌫️` as 1, so
/// such a cell is one column narrower there than the terminal draws it.
public enum DisplayWidth {
    /// The columns `text` takes in a terminal (see the type's rule).
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        // The width of the last scalar that had one, and whether it has an emoji form.
        var last: (width: Int, isEmoji: Bool)? = nil
        for scalar in text.unicodeScalars {
            if scalar == "\u{FE0F}", let previous = last, previous.isEmoji, previous.width == 1 {
                total += 1  // the base takes 2 columns in its emoji presentation
                last = nil
                continue
            }
            let width = of(scalar)
            total += width
            if width > 0 { last = (width, scalar.properties.isEmoji) }
        }
        return total
    }

    /// The columns one scalar takes on its own (no emoji presentation sequence).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x7F { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        case .format: return value == 0xAD ? 1 : 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) { return 0 }
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation || isWide(value) { return 2 }
        return 1
    }

    /// Whether `value` is East Asian Wide or Fullwidth: assigned characters of Unicode 14.0's
    /// `EastAsianWidth.txt` (as Python 3.11's `unicodedata` has it), ranges merged across
    /// unassigned code points; planes 2 and 3 whole.
    static func isWide(_ value: UInt32) -> Bool {
        var low = 0
        var high = wide.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if value < wide[middle].lowerBound {
                high = middle - 1
            } else if value > wide[middle].upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E,
        0x3041...0x3247, 0x3250...0x4DBF, 0x4E00...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAD9,
        0xFE10...0xFE19, 0xFE30...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x1B2FB, 0x1F004...0x1F004,
        0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F320, 0x1F32D...0x1F335,
        0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0,
        0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D,
        0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4,
        0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6DF,
        0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945,
        0x1F947...0x1F9FF, 0x1FA70...0x1FAF6, 0x20000...0x3FFFD,
    ]

    /// `text` followed by blanks up to `columns` display columns (nothing added when it is as
    /// wide or wider).
    public static func padded(_ text: String, to columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - of(text)))
    }
}
