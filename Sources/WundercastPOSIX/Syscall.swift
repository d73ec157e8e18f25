#if canImport(Glibc)
import Glibc
#endif

/// What a system call on a non-blocking descriptor did: it completed with a value, or it
/// would have blocked (`EAGAIN`/`EWOULDBLOCK`).
public enum IOResult<Value> {
    case done(Value)
    case wouldBlock
}

extension IOResult: Sendable where Value: Sendable {}
extension IOResult: Equatable where Value: Equatable {}

/// The one place that calls the C library's system calls: runs `body` (a call that returns
/// -1 and sets `errno` on failure, such as `read`, `accept`, `open`) again after `EINTR`,
/// reports `EAGAIN`/`EWOULDBLOCK` as ``IOResult/wouldBlock``, and throws ``Errno`` for any
/// other failure. In the style of swift-system's `valueOrErrno` and NIO's `syscall(blocking:)`.
///
/// - Parameters:
///   - call: the call's name for the error, e.g. `"recv"`.
///   - subject: what it works on for the error (evaluated only on failure), e.g. a path.
/// - Not for `close(2)`: see ``Descriptor/close(_:)``.
@inline(__always)
public func syscall<Value: FixedWidthInteger>(
    _ call: String, _ subject: @autoclosure () -> String, _ body: () -> Value
) throws(Errno) -> IOResult<Value> {
    while true {
        let result = body()
        guard result == -1 else { return .done(result) }
        let code = errno
        switch code {
        case EINTR: continue
        case EAGAIN, EWOULDBLOCK: return .wouldBlock
        default: throw Errno(call: call, subject: subject(), code: code)
        }
    }
}

/// ``syscall(_:_:_:)`` for a blocking call, where `EAGAIN` is an error like any other
/// (thrown as ``Errno`` with code `EAGAIN`). Returns the call's result.
@inline(__always)
public func blockingSyscall<Value: FixedWidthInteger>(
    _ call: String, _ subject: @autoclosure () -> String, _ body: () -> Value
) throws(Errno) -> Value {
    switch try syscall(call, subject(), body) {
    case .done(let value): return value
    case .wouldBlock: throw Errno(call: call, subject: subject(), code: EAGAIN)
    }
}

/// Descriptor operations that need more than ``syscall(_:_:_:)``.
public enum Descriptor {
    /// `close(2)`. Never retried: on Linux the descriptor is gone even when `close` reports
    /// `EINTR`, and a retry could close a descriptor another thread just opened. `EINTR`
    /// therefore counts as success; other errors (`EBADF`, `EIO`) are thrown.
    public static func close(_ fd: Int32) throws(Errno) {
        guard Glibc.close(fd) == -1 else { return }
        let code = errno
        if code == EINTR { return }
        throw Errno(call: "close", subject: "fd \(fd)", code: code)
    }

    /// Sets `O_NONBLOCK` on `fd`.
    public static func setNonBlocking(_ fd: Int32) throws(Errno) {
        let flags = try blockingSyscall("fcntl", "fd \(fd)") { fcntl(fd, F_GETFL) }
        _ = try blockingSyscall("fcntl", "fd \(fd)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Sets `FD_CLOEXEC` on `fd`.
    public static func setCloseOnExec(_ fd: Int32) throws(Errno) {
        _ = try blockingSyscall("fcntl", "fd \(fd)") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    /// Sets the send and receive time limits of the blocking socket `fd` (`SO_SNDTIMEO`,
    /// `SO_RCVTIMEO`), whole seconds: a call that waits longer fails with `EAGAIN`.
    public static func setTimeouts(_ fd: Int32, seconds: Int) throws(Errno) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            _ = try blockingSyscall("setsockopt", "fd \(fd)") {
                setsockopt(fd, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
            }
        }
    }

    /// Writes all of `bytes` to the blocking descriptor `fd` (`write(2)` until done; `EINTR`
    /// retried). `subject` names the descriptor in the error (e.g. `stderr`).
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], subject: String) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try blockingSyscall("write", subject) {
                bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            }
        }
    }
}
