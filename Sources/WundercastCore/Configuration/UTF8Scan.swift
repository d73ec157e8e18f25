/// Where UTF-8 goes wrong in a line (Unicode 15, table 3-7: well-formed byte sequences).
enum UTF8Scan {
    /// The offset of the first byte that does not start a well-formed sequence (a stray
    /// continuation byte, a byte never used, or the lead of a cut or malformed sequence), or `nil`.
    static func firstInvalidByte(_ bytes: ArraySlice<UInt8>) -> Int? {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let lead = bytes[i]
            let (length, second): (Int, ClosedRange<UInt8>) =
                switch lead {
                case 0x00...0x7F: (1, 0x80...0xBF)
                case 0xC2...0xDF: (2, 0x80...0xBF)
                case 0xE0: (3, 0xA0...0xBF)
                case 0xED: (3, 0x80...0x9F)
                case 0xE1...0xEF: (3, 0x80...0xBF)
                case 0xF0: (4, 0x90...0xBF)
                case 0xF4: (4, 0x80...0x8F)
                case 0xF1...0xF3: (4, 0x80...0xBF)
                default: (0, 0x80...0xBF)
                }
            if length == 0 { return i - bytes.startIndex }
            for k in 1..<length {
                let range: ClosedRange<UInt8> = k == 1 ? second : 0x80...0xBF
                guard i + k < bytes.endIndex, range.contains(bytes[i + k]) else { return i - bytes.startIndex }
            }
            i += length
        }
        return nil
    }
}
