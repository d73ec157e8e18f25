import CZlib

/// gzip (RFC 1952) by zlib, for the fixture HTTP server's bodies: what `gzip.compress` gives in
/// Python (level 9), so a body repeated to 100 MB goes on the wire in about 100 kB.
public enum Gzip {
    public struct Failure: Error, CustomStringConvertible {
        public var code: Int32
        public var description: String { "zlib failed (\(code))" }
    }

    public static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
        let started = deflateInit2_(
            &stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard started == Z_OK else { throw Failure(code: started) }
        defer { deflateEnd(&stream) }
        return try run(&stream, bytes) { deflate(&$0, Z_FINISH) }
    }

    /// The bytes a gzip stream holds (a cut or broken stream throws).
    public static func decompress(_ bytes: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        let started = inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard started == Z_OK else { throw Failure(code: started) }
        defer { inflateEnd(&stream) }
        return try run(&stream, bytes) { inflate(&$0, Z_NO_FLUSH) }
    }

    /// Feeds all of `bytes` to `stream` and calls `step` (deflate or inflate) with 64 KiB of
    /// room at a time until it reports the end of the stream; throws on any other outcome
    /// (a cut stream: `Z_BUF_ERROR`).
    private static func run(
        _ stream: inout z_stream, _ bytes: [UInt8], _ step: (inout z_stream) -> Int32
    ) throws
        -> [UInt8]
    {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = bytes
        let result = input.withUnsafeMutableBufferPointer { input -> Int32 in
            stream.next_in = input.baseAddress
            stream.avail_in = uInt(input.count)
            while true {
                let code = chunk.withUnsafeMutableBufferPointer { chunk -> Int32 in
                    stream.next_out = chunk.baseAddress
                    stream.avail_out = uInt(chunk.count)
                    return step(&stream)
                }
                output += chunk.prefix(chunk.count - Int(stream.avail_out))
                if code != Z_OK { return code }  // Z_OK: more to come
            }
        }
        guard result == Z_STREAM_END else { throw Failure(code: result) }
        return output
    }
}
