/// Whether a text lets out a part of a secret: issue 14 asks that no 8-character piece of an
/// API key appears in any output, file or journal entry.
public enum SecretPieces {
    /// The first run of `length` consecutive characters of `secret` found in `text` (ASCII
    /// letters compared in any case), or `nil` when there is none.
    public static func leaked(_ secret: String, in text: String, length: Int = 8) -> String? {
        let characters = Array(secret.lowercased())
        let haystack = text.lowercased()
        guard characters.count >= length else { return haystack.contains(secret.lowercased()) ? secret : nil }
        for start in 0...(characters.count - length) {
            let piece = String(characters[start..<start + length])
            if haystack.contains(piece) { return piece }
        }
        return nil
    }
}
