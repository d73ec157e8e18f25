import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// TCP sockets on 127.0.0.1 for the test doubles (gpsfake's port, the fake gpsd, the fixture
/// HTTP server): never on another address.
public enum LoopbackTCP {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A socket bound to 127.0.0.1 on a free port (and listening, with `backlog`), and that port.
    /// The caller owns the descriptor.
    public static func bind(
        listening backlog: Int32? = nil, reuseAddress: Bool = false
    ) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        if reuseAddress {
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Glibc.bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
                    && (backlog.map { listen(fd, $0) == 0 } ?? true)
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "bind\(backlog == nil ? "" : " and listen on") 127.0.0.1:0: \(reason)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A socket connected to 127.0.0.1:`port` (a loopback connect completes or is refused at
    /// once), or `nil` with `errno` set. The caller owns the descriptor.
    public static func connect(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            let saved = errno
            close(fd)
            errno = saved
            return nil
        }
        return fd
    }
}
