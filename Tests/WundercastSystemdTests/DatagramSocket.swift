#if canImport(Glibc)
import Glibc
#endif

/// An `AF_UNIX` datagram socket bound at a path: the receiving end of `sd_notify`, or a
/// stand-in for journald's `/run/systemd/journal/socket`. Unlinks the path on `close()`.
final class DatagramSocket {
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var errno: Int32
        var description: String { "\(call): \(String(cString: strerror(errno)))" }
    }

    let path: String
    private(set) var fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", errno: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        precondition(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "socket path too long: \(path)")
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let error = errno
            Glibc.close(fd)
            throw Failure(call: "bind \(path)", errno: error)
        }
    }

    /// The next queued datagram, or `nil` when none is queued. A datagram sent on a local
    /// socket is queued before `sendmsg` returns, so no waiting is needed.
    func receive() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n >= 0 { return Array(buffer[0..<n]) }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// Every queued datagram.
    func receiveAll() -> [[UInt8]] {
        var result: [[UInt8]] = []
        while let datagram = receive() { result.append(datagram) }
        return result
    }

    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
        unlink(path)
    }

    deinit { close() }
}

/// A fresh, empty directory under `/tmp` (short enough for `sun_path`).
func temporaryDirectory() throws -> String {
    var template = Array("/tmp/wundercast-test-XXXXXX".utf8CString)
    guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw DatagramSocket.Failure(call: "mkdtemp", errno: errno)
    }
    return String(cString: result)
}
