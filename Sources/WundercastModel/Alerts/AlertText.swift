#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport

/// Texts of alerts made safe: HTML tags dropped, the common entities decoded, then
/// ``UntrustedText/sanitized(_:limit:)`` (control characters to spaces, runs collapsed, bounded).
public enum AlertText {
    /// `text` cleaned and cut to `limit` scalars; `nil` when nothing is left.
    public static func clean(_ text: String?, limit: Int) -> String? {
        guard let text else { return nil }
        // Read at most a bounded prefix: a megabyte costs no more than a few times the limit.
        let prefix = String(text.unicodeScalars.prefix(limit * 4 + 64).map(Character.init))
        let cleaned = UntrustedText.sanitized(decodeEntities(droppingTags(prefix)), limit: limit)
        return cleaned.isEmpty ? nil : cleaned
    }

    /// `<…>` runs become a space (a `<br>` separates words).
    static func droppingTags(_ text: String) -> String {
        var out = ""
        var inTag = false
        for character in text {
            if character == "<" {
                inTag = true
                continue
            }
            if inTag {
                if character == ">" {
                    inTag = false
                    out.append(" ")
                }
                continue
            }
            out.append(character)
        }
        return out
    }

    static let entities = [
        "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&apos;": "'", "&nbsp;": " ",
    ]

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = text
        // `&amp;` last, so `&amp;lt;` reads `&lt;` as written.
        for (entity, value) in entities where entity != "&amp;" { out = out.replacing(entity, with: value) }
        return out.replacing("&amp;", with: "&")
    }
}
