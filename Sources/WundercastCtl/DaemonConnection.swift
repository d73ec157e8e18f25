#if canImport(Glibc)
import Glibc
#endif
import WundercastSupport
import WundercastPOSIX

/// One connection to the daemon's socket. Every call waits at most until its deadline
/// (non-blocking socket and `poll`): a daemon that accepts and never answers, or a full
/// accept queue, cannot hang a status bar.
final class DaemonConnection {
    let fd: Int32
    let path: String
    /// The time limit as the messages say it (`2 s`).
    let limitText: String
    private var buffer: [UInt8] = []
    /// How much of `buffer` is known to hold no newline.
    private var scanned = 0

    /// The longest answer line read, in bytes (an `AROUND` object is a few kB).
    static let maxLineLength = 4 << 20

    /// Connects to `path` before `deadline`; `limit` is the time limit for messages.
    init(path: String, deadline: ContinuousClock.Instant, limit: Duration) throws(CtlError) {
        self.path = path
        self.limitText = TimeSpan.format(limit)
        guard UnixSocket.fits(path) else { throw .unreachable("socket path too long: \(path)") }
        let socketFD = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard socketFD >= 0 else { throw .unreachable("cannot make a socket: \(String(cString: strerror(errno)))") }
        fd = socketFD  // from here on, a throw closes it in deinit
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
                try wait(for: Int16(POLLOUT), until: deadline, "connecting")
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
                if failure == 0 { return }
                throw Self.connectError(failure, path)
            case EAGAIN:
                // The daemon's accept queue is full: it is stuck or overloaded. Try again
                // shortly, until the deadline.
                guard ContinuousClock.now < deadline else {
                    throw .noAnswer(
                        "no answer from wundercastd at \(path) within \(limitText) (its connection queue is full)")
                }
                _ = poll(nil, 0, 10)
            default:
                throw Self.connectError(code, path)
            }
        }
    }

    deinit { Glibc.close(fd) }

    static func connectError(_ code: Int32, _ path: String) -> CtlError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOENT, ECONNREFUSED:
            return .unreachable(
                "wundercastd is not running (no daemon at \(path): \(reason)); start it (systemctl start wundercast.socket, or wundercastd --config FILE), or check --socket / $WUNDERCAST_SOCKET"
            )
        case EACCES, EPERM:
            return .unreachable("no permission to use \(path): \(reason); join the 'wundercast' group")
        default:
            return .unreachable("cannot connect to \(path): \(reason)")
        }
    }

    /// Sends `line` and its newline before `deadline`.
    func send(_ line: String, deadline: ContinuousClock.Instant) throws(CtlError) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                offset += n
                continue
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN: try wait(for: Int16(POLLOUT), until: deadline, "sending the request")
            // The daemon refused and closed (too-many-clients): its reason may be waiting to be
            // read; the next read gives it, or says the connection closed without an answer.
            case EPIPE, ECONNRESET: return
            default: throw .unreachable("lost wundercastd at \(path) while sending: \(String(cString: strerror(code)))")
            }
        }
    }

    /// The next answer line (without its newline), read before `deadline` (`nil`: no limit).
    /// Throws ``CtlError/unreachable(_:)`` when the daemon closes the connection first.
    func readLine(deadline: ContinuousClock.Instant?) throws(CtlError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            // Each byte is searched once (`scanned`), with memchr: a megabyte line costs
            // one pass, not one per chunk.
            let found: Int? = buffer.withUnsafeBufferPointer { bytes in
                guard scanned < bytes.count, let base = bytes.baseAddress,
                    let hit = memchr(base + scanned, 0x0A, bytes.count - scanned)
                else { return nil }
                return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            }
            if let newline = found {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                scanned = 0
                return line
            }
            scanned = buffer.count
            guard buffer.count <= Self.maxLineLength else {
                throw .unreadable("an answer line from wundercastd is longer than \(Self.maxLineLength) bytes")
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                continue
            }
            if n == 0 {
                throw .unreachable("wundercastd at \(path) closed the connection without answering")
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN: try wait(for: Int16(POLLIN), until: deadline, "waiting for an answer")
            default:
                throw .unreachable("lost wundercastd at \(path): \(String(cString: strerror(code)))")
            }
        }
    }

    /// Waits until `events` are ready on the socket, or throws ``CtlError/noAnswer(_:)`` at
    /// `deadline` (`nil`: no limit).
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant?, _ what: String) throws(CtlError) {
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline - ContinuousClock.now
                guard left > .zero else {
                    throw .noAnswer(
                        "no answer from wundercastd at \(path) within \(limitText) (while \(what): it accepted the connection but is stuck or overloaded)"
                    )
                }
                let (seconds, attoseconds) = left.components
                timeout = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            }
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&descriptor, 1, timeout)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR {
                throw .unreachable("lost wundercastd at \(path): \(String(cString: strerror(errno)))")
            }
        }
    }
}
