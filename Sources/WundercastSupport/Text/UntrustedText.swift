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
    /// Invisible format characters (``isInvisible(_:)``: zero-width spaces and joiners, the
    /// word joiner, a BOM, a soft hyphen, Unicode tags) are removed without a trace: one inside
    /// a word would hide in it (`Clear\u{200B}sky` reads `Clearsky`, not two words).
    ///
    /// Reads only as much of `text` as it needs: a megabyte costs no more than `limit` scalars.
    public static func sanitized(_ text: String, limit: Int = defaultLimit) -> String {
        let limit = max(limit, 1)
        var out = String.UnicodeScalarView()
        var count = 0
        var pendingSpace = false
        var cut = false
        for scalar in text.unicodeScalars {
            if isInvisible(scalar) { continue }
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

    /// Format characters that show nothing yet change what a text is: the soft hyphen
    /// `U+00AD`, the Mongolian vowel separator `U+180E`, the zero-width space, non-joiner and
    /// joiner `U+200B`–`U+200D`, the word joiner and invisible operators `U+2060`–`U+2064`, the
    /// deprecated format controls `U+206A`–`U+206F`, the BOM (zero-width no-break space)
    /// `U+FEFF`, the interlinear annotation controls `U+FFF9`–`U+FFFB` and the Unicode tags
    /// `U+E0000`–`U+E007F`, which can carry a whole hidden ASCII text. Variation selectors
    /// (`U+FE0F` of an emoji) are kept: they only choose how a visible character looks.
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00AD, 0x180E, 0x200B...0x200D, 0x2060...0x2064, 0x206A...0x206F: true
        case 0xFEFF, 0xFFF9...0xFFFB, 0xE0000...0xE007F: true
        default: false
        }
    }
}

extension UntrustedText {
    /// `message` as a reader who may not know the position sees it: every number after the
    /// message's own head (up to the first `": "`, ours: `HTTP 400`, `error report in an HTTP
    /// 200 answer`) replaced by `#`. Provider text may echo the request's coordinates in any form
    /// — `33.87°S`, `-33,87`, `-3387/15121`, or those of a position since left — so no number
    /// of it is shown (the hostile pass of issue 14); precise readers get the message whole.
    public static func hidingNumbers(_ message: String) -> String {
        guard let head = message.firstRange(of: ": ") else { return message }
        var out = String(message[..<head.upperBound])
        var scalars = message[head.upperBound...].unicodeScalars.makeIterator()
        var inNumber = false
        var pending: Unicode.Scalar?  // a "." or "," after digits: part of the number if a digit follows
        while let scalar = scalars.next() {
            let digit = ("0"..."9").contains(scalar)
            if digit {
                if !inNumber { out.unicodeScalars.append("#") }
                inNumber = true
                pending = nil
            } else if inNumber, pending == nil, scalar == "." || scalar == "," {
                pending = scalar
            } else {
                if let separator = pending { out.unicodeScalars.append(separator) }
                pending = nil
                inNumber = false
                out.unicodeScalars.append(scalar)
            }
        }
        if let separator = pending { out.unicodeScalars.append(separator) }
        return out
    }
}
