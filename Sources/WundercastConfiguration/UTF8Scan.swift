/// Where UTF-8 goes wrong in a line.
enum UTF8Scan {
    /// The offset of the first byte that does not start a well-formed sequence (a stray
    /// continuation byte, a byte never used, or the lead of a cut or malformed sequence), or `nil`.
    /// The standard library's decoder (`Unicode.UTF8.ForwardParser`) judges the bytes.
    static func firstInvalidByte(_ bytes: ArraySlice<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &input) {
            case .valid(let encoded): offset += encoded.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }
}
