/// Many short UTF-8 strings in one byte array, found by index: no object per string (the
/// city table holds 24k names in some 220 KB this way). The writing side of
/// ``PackedStringsView``: the parser collects strings here before the image is written.
struct PackedStrings: Sendable {
    private(set) var bytes: [UInt8] = []
    /// Start of string `i` in ``bytes``; one more entry than strings (the end of the last).
    private(set) var starts: [UInt32] = [0]

    var count: Int { starts.count - 1 }

    /// Appends `utf8` and returns its index.
    @discardableResult
    mutating func append(_ utf8: some Collection<UInt8>) -> Int {
        bytes.append(contentsOf: utf8)
        starts.append(UInt32(bytes.count))
        return starts.count - 2
    }

    /// The bytes of string `i`.
    subscript(i: Int) -> ArraySlice<UInt8> {
        bytes[Int(starts[i])..<Int(starts[i + 1])]
    }

    /// String `i`; nil when it is empty.
    func string(_ i: Int) -> String? {
        let slice = self[i]
        return slice.isEmpty ? nil : String(decoding: slice, as: UTF8.self)
    }
}
