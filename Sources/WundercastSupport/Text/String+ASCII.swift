extension String {
    /// The text without the whitespace around it.
    package func trimmingASCIIWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[start...end])
    }
}

extension Character {
    /// `0` to `9`, nothing else (no other script's digits).
    package var isASCIIDigit: Bool {
        guard let ascii = asciiValue else { return false }
        return ascii >= 0x30 && ascii <= 0x39
    }
}
