import Foundation
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 client over a blocking socket (each read bounded by `SO_RCVTIMEO`), to
/// see exactly what a fixture server puts on the wire: status, headers in order, body bytes.
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    struct Response: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        /// The body as sent (chunked framing and compression still on).
        var wireBody: [UInt8]

        func header(_ name: String) -> String? {
            headers.last { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The body without chunked framing and gzip; `nil` when it is cut short.
        var body: [UInt8]? {
            var bytes = wireBody
            if header("Transfer-Encoding") == "chunked" {
                guard let joined = RawHTTP.dechunk(bytes) else { return nil }
                bytes = joined
            } else if let length = header("Content-Length").flatMap(Int.init), bytes.count != length {
                return nil
            }
            if header("Content-Encoding") == "gzip", !bytes.isEmpty {
                return try? Gzip.decompress(bytes)
            }
            return bytes
        }
    }

    /// Sends `requests` (each a request head without its final blank line) on one connection,
    /// the last with `Connection: close`, and reads every response until the server closes.
    static func exchange(port: Int, _ requests: [String], head: Bool = false) async throws -> [Response] {
        try await onDedicatedThread("RawHTTP :\(port)") {
            guard let fd = LoopbackTCP.connect(port: port) else {
                throw Failure(description: "connect to \(port): \(errno)")
            }
            defer { close(fd) }
            var timeout = timeval(tv_sec: 20, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let text = requests.enumerated().map { index, request in
                request + (index == requests.count - 1 ? "Connection: close\r\n" : "") + "\r\n"
            }.joined()
            let bytes = Array(text.utf8)
            guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count
            else {
                throw Failure(description: "send: \(errno)")
            }
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n == 0 { break }
                guard n > 0 else { throw Failure(description: "recv: \(errno) after \(received.count) bytes") }
                received += chunk.prefix(n)
            }
            return try parse(received[...], count: requests.count, head: head)
        }
    }

    /// `count` responses from `bytes`; the last takes what is left when its length is not known
    /// or not reached (a cut body).
    static func parse(_ bytes: ArraySlice<UInt8>, count: Int, head: Bool) throws -> [Response] {
        var rest = bytes
        var responses: [Response] = []
        while responses.count < count {
            guard let end = rest.indices.first(where: { rest[$0...].starts(with: [13, 10, 13, 10]) }) else {
                throw Failure(description: "no complete head in \(String(decoding: rest, as: UTF8.self))")
            }
            let lines = String(decoding: rest[..<end], as: UTF8.self).components(separatedBy: "\r\n")
            rest = rest[(end + 4)...]
            let status = Int(lines[0].split(separator: " ")[1]) ?? 0
            let headers = lines.dropFirst().map { line -> (name: String, value: String) in
                let colon = line.firstIndex(of: ":")!
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            var response = Response(status: status, headers: headers, wireBody: [])
            let last = responses.count == count - 1
            let length: Int? =
                if head || status == 304 {
                    0
                } else if response.header("Transfer-Encoding") == "chunked" {
                    chunkedLength(rest)
                } else {
                    response.header("Content-Length").flatMap(Int.init)
                }
            let take = last ? rest.count : min(length ?? rest.count, rest.count)
            response.wireBody = Array(rest.prefix(take))
            rest = rest.dropFirst(take)
            responses.append(response)
        }
        return responses
    }

    /// The length on the wire of the chunked body at the start of `bytes`; `nil` when cut.
    static func chunkedLength(_ bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        while true {
            guard let lineEnd = bytes[index...].indices.first(where: { bytes[$0...].starts(with: [13, 10]) }),
                let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16)
            else { return nil }
            index = lineEnd + 2 + size + 2
            guard index <= bytes.endIndex else { return nil }
            if size == 0 { return index - bytes.startIndex }
        }
    }

    /// The bytes of a chunked body; `nil` when it is cut short.
    static func dechunk(_ bytes: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = (index..<bytes.count).first(where: { bytes[$0...].starts(with: [13, 10]) }),
                let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16),
                lineEnd + 2 + size + 2 <= bytes.count
            else { return nil }
            out += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            index = lineEnd + 2 + size + 2
            if size == 0 { return out }
        }
    }
}
