/// Reads the big-endian fields of a TZif file (RFC 8536 §3), refusing to read past its end.
struct TZifReader {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// A TZif header: version (0 for version 1, else 2, 3, 4) and the six counts.
    struct Header {
        var version: Int
        var utcCount: Int
        var standardCount: Int
        var leapCount: Int
        var timeCount: Int
        var typeCount: Int
        var charCount: Int

        /// Bytes of the data block that follows this header.
        func blockSize(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4)
                + standardCount + utcCount
        }
    }

    /// The header; throws unless the data block of `timeSize`-byte times that follows fits.
    mutating func header(timeSize: Int) throws(ZoneInfo.FormatError) -> Header {
        guard try self.bytes(4).elementsEqual("TZif".utf8) else { throw .malformed("not a TZif file") }
        let v = try byte()
        let version: Int
        switch v {
        case 0: version = 0
        case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(v - UInt8(ascii: "0"))
        default: throw .malformed("version \(v)")
        }
        try skip(15)
        var counts: [Int] = []
        for _ in 0..<6 {
            let n = try int32()
            // Far above any real zone (Debian's largest has a few hundred transitions).
            guard n >= 0, n <= 100_000 else { throw .malformed("count \(n)") }
            counts.append(Int(n))
        }
        let header = Header(
            version: version, utcCount: counts[0], standardCount: counts[1], leapCount: counts[2],
            timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
        guard header.typeCount >= 1, header.charCount >= 1,
            header.utcCount == 0 || header.utcCount == header.typeCount,
            header.standardCount == 0 || header.standardCount == header.typeCount
        else { throw .malformed("counts") }
        guard header.blockSize(timeSize: timeSize) <= bytes.count - index else {
            throw .malformed("cut short")
        }
        return header
    }

    mutating func byte() throws(ZoneInfo.FormatError) -> UInt8 {
        guard index < bytes.count else { throw .malformed("cut short") }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func bytes(_ count: Int) throws(ZoneInfo.FormatError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - index else { throw .malformed("cut short") }
        defer { index += count }
        return bytes[index..<(index + count)]
    }

    mutating func skip(_ count: Int) throws(ZoneInfo.FormatError) { _ = try bytes(count) }

    mutating func int32() throws(ZoneInfo.FormatError) -> Int32 {
        var value: UInt32 = 0
        for b in try bytes(4) { value = value << 8 | UInt32(b) }
        return Int32(bitPattern: value)
    }

    mutating func int64() throws(ZoneInfo.FormatError) -> Int64 {
        var value: UInt64 = 0
        for b in try bytes(8) { value = value << 8 | UInt64(b) }
        return Int64(bitPattern: value)
    }
}
