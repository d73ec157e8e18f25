import WundercastSupport

extension UntrustedText {
    /// `text` with every decimal form of `exact`'s latitude and longitude that is finer than
    /// `publicPrecision` decimals (as a URL or message would print them: `44.44`, `26.1309`)
    /// replaced by the public rounded form (`44.4`): provider text echoes the request's
    /// coordinates, and a public reader must not get the precise position from an error message.
    /// A number counts only whole (not inside a longer number).
    public static func hidingPosition(_ text: String, exact: Coordinate, publicPrecision: Int) -> String {
        var out = text
        let rounded = exact.rounded(toDecimals: publicPrecision)
        for (value, publicValue) in [(exact.latitude, rounded.latitude), (exact.longitude, rounded.longitude)] {
            let shown = Coordinate.text(publicValue, decimals: publicPrecision)
            for decimals in stride(from: 8, to: publicPrecision, by: -1) {
                let form = Coordinate.text((value * pow10(decimals)).rounded() / pow10(decimals), decimals: decimals)
                // Also as printed with trailing zeros (`48.1400`).
                var padded = form.contains(".") ? form : form + "."
                var forms = [form]
                while padded.split(separator: ".", omittingEmptySubsequences: false).last!.count < 8 {
                    padded += "0"
                    forms.append(padded)
                }
                for candidate in forms.reversed() where candidate != shown && out.contains(candidate) {
                    out = replacingWholeNumbers(candidate, with: shown, in: out)
                }
            }
        }
        return out
    }

    private static func pow10(_ n: Int) -> Double {
        (0..<n).reduce(1.0) { value, _ in value * 10 }
    }

    /// `text` with each occurrence of the number `form` that is not part of a longer number
    /// (no digit or `.` right before or after it) replaced by `replacement`.
    private static func replacingWholeNumbers(_ form: String, with replacement: String, in text: String) -> String {
        let bytes = Array(text.utf8)
        let needle = Array(form.utf8)
        func isNumberByte(_ byte: UInt8) -> Bool { (48...57).contains(byte) || byte == UInt8(ascii: ".") }
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes.count - i >= needle.count, bytes[i..<i + needle.count].elementsEqual(needle),
                i == 0 || !isNumberByte(bytes[i - 1]),
                i + needle.count == bytes.count || !isNumberByte(bytes[i + needle.count])
            {
                out.append(contentsOf: replacement.utf8)
                i += needle.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
