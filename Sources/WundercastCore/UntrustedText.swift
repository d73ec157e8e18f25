/// Text from outside (a weather provider's `reason`, a transport error) made safe to show in
/// the state, a status bar or a log line.
///
/// Provider text is untrusted: unbounded in length and free to carry control characters
/// (PITFALLS, found on wundercast). An ESC would restyle a terminal, a newline would forge a
/// log line or break a one-line-per-state protocol, and a 1.1 MB reason would be copied into
/// every state.
public enum UntrustedText {
    /// The default bound, in Unicode scalars.
    public static let defaultLimit = 200

    /// `text` with every control character (C0 `U+0000`–`U+001F` incl. tab, CR and LF, DEL
    /// `U+007F`, C1 `U+0080`–`U+009F` incl. the 8-bit CSI, and the line and paragraph
    /// separators `U+2028`/`U+2029`, and the bidirectional marks, embeddings, overrides and
    /// isolates `U+061C`, `U+200E`/`U+200F`, `U+202A`–`U+202E`, `U+2066`–`U+2069`, which
    /// would make a terminal or bar show text in another order than it is) turned into a space, runs of spaces collapsed and ends
    /// trimmed, then cut to at most `limit` Unicode scalars, the last being `…` when cut.
    ///
    /// Reads only as much of `text` as it needs: a megabyte costs no more than `limit` scalars.
    public static func sanitized(_ text: String, limit: Int = defaultLimit) -> String {
        let limit = max(limit, 1)
        var out = String.UnicodeScalarView()
        var count = 0
        var pendingSpace = false
        var cut = false
        for scalar in text.unicodeScalars {
            if isControl(scalar) || scalar == " " {
                pendingSpace = count > 0  // leading blanks are dropped
                continue
            }
            let needed = pendingSpace ? 2 : 1
            if count + needed > limit {
                cut = true
                break
            }
            if pendingSpace {
                out.append(" ")
                count += 1
                pendingSpace = false
            }
            out.append(scalar)
            count += 1
        }
        guard cut else { return String(out) }
        // Make room for the ellipsis, and do not leave a blank before it.
        while count >= limit || out.last == " " {
            out.removeLast()
            count -= 1
        }
        out.append("…")
        return String(out)
    }

    /// C0, DEL, C1, the Unicode line/paragraph separators and the bidirectional controls.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
