#if canImport(Glibc)
import Glibc
#endif

/// TCP client sockets for an event loop: connected without blocking, read and written without
/// blocking, never raising SIGPIPE.
public enum TCPSocket {
    /// What ``connect(nonBlocking:)`` started.
    public enum Connect: Sendable, Equatable {
        /// Connected at once (loopback may do that). The descriptor.
        case connected(Int32)
        /// `EINPROGRESS`: wait until the descriptor is writable, then ask
        /// ``connectResult(_:to:)``. The descriptor.
        case inProgress(Int32)
    }

    /// Opens a non-blocking, close-on-exec TCP socket for `address` with `TCP_NODELAY` (short
    /// requests are not held back, as libgps's `netlib_connectsock` sets it) and starts
    /// connecting. Never blocks. The caller owns the descriptor (``Descriptor/close(_:)``).
    ///
    /// - Throws: ``Errno`` from `socket` (e.g. `EMFILE`, also when the descriptor would take one
    ///   of the ``DescriptorReserve``) or from `connect` when it fails at
    ///   once (e.g. `ECONNREFUSED` on loopback, `ENETUNREACH`); the descriptor is closed then.
    public static func connect(nonBlocking address: SocketAddress) throws(Errno) -> Connect {
        let fd = try DescriptorReserve.socket(
            family: address.family, type: Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), protocol: 0,
            subject: "\(address)")
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let result = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        if result == 0 { return .connected(fd) }
        let code = errno
        // A non-blocking connect interrupted by a signal goes on asynchronously, as one in progress.
        if code == EINPROGRESS || code == EINTR { return .inProgress(fd) }
        try? Descriptor.close(fd)
        throw Errno(call: "connect", subject: "\(address)", code: code)
    }

    /// Whether the connect that ``connect(nonBlocking:)`` started on `fd` succeeded, asked once
    /// `fd` is writable (or reported a hang-up): `SO_ERROR`.
    ///
    /// - Throws: ``Errno`` named `connect` with the connection's error (e.g. `ECONNREFUSED`,
    ///   `ETIMEDOUT`, `EHOSTUNREACH`), or from `getsockopt`.
    public static func connectResult(_ fd: Int32, to address: SocketAddress) throws(Errno) {
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try blockingSyscall("getsockopt", "\(address)") { getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) }
        if failure != 0 { throw Errno(call: "connect", subject: "\(address)", code: failure) }
    }

    /// Sends what it can of `bytes` without blocking (`MSG_DONTWAIT`) and without SIGPIPE
    /// when the peer has gone (`MSG_NOSIGNAL`: `EPIPE` is thrown instead). Returns the number
    /// of bytes sent, or ``IOResult/wouldBlock`` when the socket's buffer is full.
    ///
    /// - Throws: ``Errno`` from `send` (`EPIPE`, `ECONNRESET`, ...); `subject` names the socket.
    public static func send(
        _ fd: Int32, _ bytes: [UInt8], subject: @autoclosure () -> String
    ) throws(Errno)
        -> IOResult<Int>
    {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in
                try syscall("send", subject()) {
                    Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
                }
            }
        }
        return try result.get()
    }

    /// Receives into `buffer` without blocking (`MSG_DONTWAIT`): the number of bytes received
    /// (0: the peer closed the connection), or ``IOResult/wouldBlock`` when nothing is there.
    ///
    /// - Throws: ``Errno`` from `recv` (`ECONNRESET`, ...); `subject` names the socket.
    public static func receive(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, subject: @autoclosure () -> String
    ) throws(Errno) -> IOResult<Int> {
        try syscall("recv", subject()) { recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT)) }
    }
}
