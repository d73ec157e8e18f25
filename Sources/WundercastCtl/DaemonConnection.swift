#if canImport(Glibc)
import Glibc
#endif
import WundercastSupport
import WundercastPOSIX

/// One connection to the daemon's socket. Every call waits at most until its deadline
/// (non-blocking socket and `poll`): a daemon that accepts and never answers, or a full
/// accept queue, cannot hang a status bar.
final class DaemonConnection {
    let socket: DeadlineSocket
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
        let limitText = TimeSpan.format(limit)
        self.limitText = limitText
        guard UnixSocket.fits(path) else { throw .unreachable("socket path too long: \(path)") }
        do throws(DeadlineSocket.Failure) {
            socket = try DeadlineSocket(connectingTo: path, deadline: deadline)
        } catch {
            switch error {
            case .deadline, .hangUp:
                throw Self.stuck(path, limitText, "connecting")
            case .system(let failure) where failure.call == "socket":
                throw .unreachable("cannot make a socket: \(failure.reason)")
            case .system(let failure) where failure.call == "poll":
                throw .unreachable("lost wundercastd at \(path): \(failure.reason)")
            case .system(let failure) where failure.call == "connect" && failure.code == EAGAIN:
                // The daemon's accept queue stayed full until the deadline: stuck or overloaded.
                throw .noAnswer(
                    "no answer from wundercastd at \(path) within \(limitText) (its connection queue is full)")
            case .system(let failure):
                throw Self.connectError(failure.code, path)
            }
        }
    }

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

    /// The daemon accepted but did not go on within the limit.
    private static func stuck(_ path: String, _ limitText: String, _ what: String) -> CtlError {
        .noAnswer(
            "no answer from wundercastd at \(path) within \(limitText) (while \(what): it accepted the connection but is stuck or overloaded)"
        )
    }

    /// Sends `line` and its newline before `deadline`. The daemon that refused and closed
    /// (too-many-clients) may have its reason waiting: the next read gives it, or says the
    /// connection closed without an answer.
    func send(_ line: String, deadline: ContinuousClock.Instant) throws(CtlError) {
        do throws(DeadlineSocket.Failure) {
            try socket.sendAll(Array((line + "\n").utf8), deadline: deadline)
        } catch {
            switch error {
            case .deadline, .hangUp: throw Self.stuck(path, limitText, "sending the request")
            case .system(let failure) where failure.call == "send":
                throw .unreachable("lost wundercastd at \(path) while sending: \(failure.reason)")
            case .system(let failure): throw .unreachable("lost wundercastd at \(path): \(failure.reason)")
            }
        }
    }

    /// What ``readLine(wakeAt:hangUpOf:)`` found.
    enum Wait {
        case line([UInt8])
        /// `wakeAt` came first.
        case wake
        /// The output hung up: the reader (a status bar) is gone.
        case readerGone
    }

    /// The next answer line, with no time limit, but back at `wakeAt` (`nil`: not before a
    /// line) and as soon as `output` hangs up (`watch`: its reader may go while the daemon is
    /// silent for hours).
    func readLine(wakeAt: ContinuousClock.Instant?, hangUpOf output: Int32) throws(CtlError) -> Wait {
        do throws(CtlError) {
            return .line(try readLine(deadline: wakeAt, hangUpOf: output))
        } catch {
            switch error {
            case .noAnswer where wakeAt.map({ ContinuousClock.now >= $0 }) == true: return .wake
            case .readerGone: return .readerGone
            default: throw error
            }
        }
    }

    /// The next answer line (without its newline), read before `deadline` (`nil`: no limit).
    /// Throws ``CtlError/unreachable(_:)`` when the daemon closes the connection first.
    func readLine(deadline: ContinuousClock.Instant?, hangUpOf output: Int32? = nil) throws(CtlError) -> [UInt8] {
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
            let n: Int
            do throws(DeadlineSocket.Failure) {
                if let output {
                    n = try socket.receive(into: &chunk, deadline: deadline, hangUpOf: output)
                } else {
                    n = try socket.receive(into: &chunk, deadline: deadline)
                }
            } catch {
                switch error {
                case .deadline: throw Self.stuck(path, limitText, "waiting for an answer")
                case .hangUp: throw .readerGone
                case .system(let failure): throw .unreachable("lost wundercastd at \(path): \(failure.reason)")
                }
            }
            if n == 0 {
                throw .unreachable("wundercastd at \(path) closed the connection without answering")
            }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
