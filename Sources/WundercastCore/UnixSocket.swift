#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which call, on what, and `errno`'s text.
public struct SystemCallError: Error, Sendable, CustomStringConvertible {
    public var call: String
    public var subject: String
    public var errno: Int32
    public var description: String { "\(call)(\(subject)): \(String(cString: strerror(errno)))" }
}

/// Listening Unix stream sockets.
public enum UnixSocket {
    /// Binds and listens on `path`. A socket file left by a dead daemon is replaced; a live
    /// one (something accepts connections there) is an error, as is a path over 107 bytes.
    /// Returns a non-blocking, close-on-exec descriptor.
    public static func listen(path: String, backlog: Int32 = 64) throws(SystemCallError) -> Int32 {
        guard fits(path) else { throw SystemCallError(call: "bind", subject: path, errno: ENAMETOOLONG) }
        if access(path, F_OK) == 0 {
            if let probe = try? connect(path: path) {
                close(probe)
                throw SystemCallError(
                    call: "bind", subject: path + " (another daemon is serving it)", errno: EADDRINUSE)
            }
            unlink(path)
        }
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError(call: "socket", subject: path, errno: errno) }
        var address = makeAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let e = errno
            close(fd)
            throw SystemCallError(call: "bind", subject: path, errno: e)
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let e = errno
            close(fd)
            throw SystemCallError(call: "listen", subject: path, errno: e)
        }
        return fd
    }

    /// Connects to the stream socket at `path` (blocking). Returns the descriptor.
    public static func connect(path: String) throws(SystemCallError) -> Int32 {
        guard fits(path) else { throw SystemCallError(call: "connect", subject: path, errno: ENAMETOOLONG) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError(call: "socket", subject: path, errno: errno) }
        var address = makeAddress(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let e = errno
            close(fd)
            throw SystemCallError(call: "connect", subject: path, errno: e)
        }
        return fd
    }

    /// Whether `path` fits `sun_path` with its terminating NUL (107 bytes at most on Linux).
    static func fits(_ path: String) -> Bool {
        path.utf8.count < MemoryLayout<sockaddr_un>.size - MemoryLayout<sa_family_t>.size
    }

    static func makeAddress(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// Sets `O_NONBLOCK` on `fd` (listening sockets and accepted clients of the server).
    public static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }
}
