extension Coordinate {
    /// `[+-]digits[.digits]` (no exponent, no `nan`/`inf`) as a finite Double: the one reading
    /// of decimal degrees, so that `[Location] Fallback=` and the requests agree.
    package static func decimalDegrees(_ s: Substring) -> Double? {
        var body = s
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let pieces = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !body.isEmpty, body != ".", pieces.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        guard let value = Double(s.first == "+" ? String(s.dropFirst()) : String(s)), value.isFinite else { return nil }
        return value == 0 ? 0 : value
    }
}
