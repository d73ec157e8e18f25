/// A read-only array of little-endian integers inside a city table image
/// (``CityTableImage``): no copy, wherever the image lies (parsed onto the heap, or a file read into memory).
///
/// Safe only while the image's owner lives: ``CityTable`` keeps it. Reads never leave the
/// section and never trap: an index outside it reads 0 (only a damaged image, changed after
/// it was checked, gets there; lookups then find wrong or no cities, the daemon goes on).
// `@unchecked Sendable`: a raw pointer into an image never written once checked.
struct Column<Element: FixedWidthInteger>: @unchecked Sendable {
    let base: UnsafeRawPointer?
    let count: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        base = bytes.baseAddress
        count = bytes.count / MemoryLayout<Element>.size
    }

    subscript(i: Int) -> Element {
        guard i >= 0 && i < count, let base else { return 0 }
        return Element(
            littleEndian: base.loadUnaligned(fromByteOffset: i * MemoryLayout<Element>.size, as: Element.self))
    }
}

/// Short UTF-8 strings inside a city table image: their bytes, and one start offset per string
/// plus the end of the last (the reading side of ``PackedStrings``).
// `@unchecked Sendable`: a raw buffer pointer into an image never written once checked.
struct PackedStringsView: @unchecked Sendable {
    let starts: Column<UInt32>
    let bytes: UnsafeRawBufferPointer

    /// How many strings.
    var count: Int { max(starts.count - 1, 0) }

    /// The bytes of string `i`; empty when `i` or its offsets are outside the section.
    subscript(i: Int) -> UnsafeBufferPointer<UInt8> {
        let start = Int(starts[i])
        let end = Int(starts[i + 1])
        guard i >= 0, i < count, start <= end, end <= bytes.count else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        return UnsafeBufferPointer(rebasing: bytes.assumingMemoryBound(to: UInt8.self)[start..<end])
    }

    /// String `i`; nil when it is empty.
    func string(_ i: Int) -> String? {
        let slice = self[i]
        return slice.isEmpty ? nil : String(decoding: slice, as: UTF8.self)
    }
}
