#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking Unix stream socket whose every wait ends at a deadline (`poll`): the client
/// side of a short request and answer (wundercastctl), which a peer that accepts and never
/// answers, or a full accept queue, cannot hang.
///
/// Failures are ``Errno`` values with the call's `errno` (the caller words them);
/// ``Failure/deadline`` when the deadline passed first.
public final class DeadlineSocket {
    public enum Failure: Error, Sendable, Equatable {
        /// A call failed with this `errno`.
        case system(Errno)
        /// The deadline passed while waiting.
        case deadline
        /// The descriptor watched beside the socket (``receive(into:deadline:hangUpOf:)``) hung
        /// up: its reader is gone.
        case hangUp
    }

    public let fd: Int32

    /// Connects to `path` before `deadline`. A full accept queue (`EAGAIN`) is tried again
    /// every 10 ms until the deadline.
    public init(connectingTo path: String, deadline: ContinuousClock.Instant) throws(Failure) {
        let made = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard made >= 0 else { throw .system(Errno(call: "socket", subject: path, code: errno)) }
        fd = made  // from here on, a throw closes it in deinit
        var address = UnixSocket.makeAddress(path)
        while true {
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if result == 0 { return }
            let code = errno
            switch code {
            case EINPROGRESS, EINTR, EALREADY:
                // Goes on asynchronously: writable once it is done.
                try wait(for: Int16(POLLOUT), until: deadline)
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
                if failure == 0 { return }
                // The connect's own result, read with SO_ERROR.
                throw .system(Errno(call: "getsockopt", subject: path, code: failure))
            case EAGAIN:
                guard ContinuousClock.now < deadline else {
                    throw .system(Errno(call: "connect", subject: path, code: EAGAIN))
                }
                _ = poll(nil, 0, 10)
            default:
                throw .system(Errno(call: "connect", subject: path, code: code))
            }
        }
    }

    deinit { _ = close(fd) }

    /// Sends all of `bytes` before `deadline` (`MSG_NOSIGNAL`). A peer that closed (`EPIPE`,
    /// `ECONNRESET`) ends the sending without an error: its reason may wait to be read.
    public func sendAll(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                offset += n
                continue
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN: try wait(for: Int16(POLLOUT), until: deadline)
            case EPIPE, ECONNRESET: return
            default: throw .system(Errno(call: "send", subject: "fd \(fd)", code: code))
            }
        }
    }

    /// Receives what is there into `chunk`, waiting until `deadline` (`nil`: no limit) for
    /// something; returns the count, 0 at the end of the stream.
    public func receive(into chunk: inout [UInt8], deadline: ContinuousClock.Instant?) throws(Failure) -> Int {
        try receive(into: &chunk, deadline: deadline, output: nil)
    }

    /// As ``receive(into:deadline:)``, and while waiting also watches `output` (wundercastctl's
    /// stdout): when it reports an error or a hang-up (`POLLERR`, `POLLHUP`: the pipe's reader
    /// closed it, the terminal went away), throws ``Failure/hangUp`` — the reader is gone.
    public func receive(
        into chunk: inout [UInt8], deadline: ContinuousClock.Instant?, hangUpOf output: Int32
    ) throws(Failure) -> Int {
        try receive(into: &chunk, deadline: deadline, output: output)
    }

    private func receive(
        into chunk: inout [UInt8], deadline: ContinuousClock.Instant?, output: Int32?
    ) throws(Failure) -> Int {
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n >= 0 { return n }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN: try wait(for: Int16(POLLIN), until: deadline, hangUpOf: output)
            default: throw .system(Errno(call: "recv", subject: "fd \(fd)", code: code))
            }
        }
    }

    /// Waits until `events` are ready, or throws ``Failure/deadline`` (`nil`: no limit), or
    /// ``Failure/hangUp`` when `output` hangs up first.
    private func wait(
        for events: Int16, until deadline: ContinuousClock.Instant?, hangUpOf output: Int32? = nil
    ) throws(Failure) {
        while true {
            var timeout: Int32 = -1
            if let deadline {
                guard ContinuousClock.now < deadline else { throw .deadline }
                timeout = PollTimeout.milliseconds(until: deadline)
            }
            // Events 0 for the output: POLLERR and POLLHUP are reported whatever is asked.
            var descriptors = [pollfd(fd: fd, events: events, revents: 0)]
            if let output { descriptors.append(pollfd(fd: output, events: 0, revents: 0)) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready > 0 {
                if descriptors.count > 1, descriptors[1].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                    throw .hangUp
                }
                if descriptors[0].revents != 0 { return }
                continue
            }
            if ready < 0 && errno != EINTR { throw .system(Errno(call: "poll", subject: "fd \(fd)", code: errno)) }
        }
    }
}
