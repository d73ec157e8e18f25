#if canImport(Glibc)
import Glibc
#endif

/// `send(2)` and `recv(2)` on a connected stream socket, for the event loop's clients: never
/// `SIGPIPE` (`MSG_NOSIGNAL`), `EINTR` retried, `EAGAIN` as ``IOResult/wouldBlock``.
public enum StreamIO {
    /// Sends what it can of `bytes`; `dontWait`: on a blocking socket too (`MSG_DONTWAIT`).
    /// - Throws: ``Errno`` (`EPIPE`, `ECONNRESET`: the peer left).
    public static func send(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, dontWait: Bool = false
    ) throws(Errno)
        -> IOResult<Int>
    {
        let flags = Int32(MSG_NOSIGNAL) | (dontWait ? Int32(MSG_DONTWAIT) : 0)
        return try syscall("send", "fd \(fd)") { Glibc.send(fd, bytes.baseAddress, bytes.count, flags) }
    }

    /// Receives what is there into `buffer` (0: the peer ended its stream).
    /// - Throws: ``Errno`` (`ECONNRESET`).
    public static func receive(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, dontWait: Bool = false
    )
        throws(Errno) -> IOResult<Int>
    {
        let flags = dontWait ? Int32(MSG_DONTWAIT) : 0
        return try syscall("recv", "fd \(fd)") { recv(fd, buffer.baseAddress, buffer.count, flags) }
    }

    /// Whether the peer of `fd` is gone both ways (`POLLHUP` now), not only done sending.
    public static func isHungUp(_ fd: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: 0, revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLHUP) != 0
    }
}
