#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport

/// Compact one-line JSON for the bar formats: sorted members, `/` unescaped; control
/// characters in strings are escaped by the encoder (and already removed by ``UntrustedText``).
enum JSONText {
    static func line<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// `--format json`: the daemon's JSON line as received, made safe for a terminal. Valid JSON
/// already escapes C0 control characters inside strings, but may carry DEL, the C1 controls
/// (U+0080–U+009F, e.g. the 8-bit CSI) and U+2028/U+2029 raw; those are written as `\uXXXX`
/// escapes, which leaves the JSON value unchanged. A C0 character (only whitespace between
/// tokens in a line that decoded) becomes a blank.
public enum RawJSONLine {
    public static func text(_ line: some Collection<UInt8>) -> String {
        var out = String.UnicodeScalarView()
        for scalar in String(decoding: line, as: UTF8.self).unicodeScalars {
            if scalar.value < 0x20 {
                out.append(" ")
            } else if UntrustedText.isControl(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
