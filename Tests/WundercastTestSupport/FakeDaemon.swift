import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for `wundercastd` on a Unix socket: answers each request line with lines the
/// test chooses (or stays silent), and can push lines to every client later (a `watch`
/// stream). For `wundercastctl` tests that must not depend on the real daemon's state.
///
/// Connections are accepted and read by dedicated threads (blocking calls never run on a Swift
/// concurrency thread). Every request received is recorded in ``requests``, and the number of
/// connected clients in ``clients``: tests wait on them as events.
public final class FakeDaemon: @unchecked Sendable {
    /// What to do with one request line.
    public enum Reply: Sendable {
        /// Send these lines (a newline is added to each), keep the connection.
        case lines([String])
        /// Send nothing, keep the connection open (a stuck daemon).
        case silent
        /// Close the connection without answering.
        case close
    }

    public let path: String
    /// Request lines received so far, in order.
    public let requests = Observed<[String]>([])
    /// Clients connected now.
    public let clients = Observed(0)
    private let respond: @Sendable (String) -> Reply
    private let listenFD: Int32
    private let lock = NSLock()
    private var open: Set<Int32> = []
    private var stopped = false
    private let acceptDone = DispatchGroup()

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Listens on `path` (a file left there is replaced) and answers with `respond`.
    public init(path: String, respond: @escaping @Sendable (String) -> Reply) throws {
        self.path = path
        self.respond = respond
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "bind/listen \(path): \(reason)")
        }
        listenFD = fd
        acceptDone.enter()
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "FakeDaemon accept"
        thread.start()
    }

    deinit { stop() }

    /// Sends `line` (and a newline) to every connected client.
    public func push(_ line: String) {
        lock.withLock { for fd in open { Self.sendAll(fd, line + "\n") } }
    }

    /// Stops listening (the socket file is removed) and ends every connection (clients read
    /// EOF). Idempotent; returns once no new connection can be accepted.
    public func stop() {
        // Under the lock: a descriptor in `open` is closed only under it too, so none of
        // these can be a number another test reused meanwhile.
        let first: Bool = lock.withLock {
            if stopped { return false }
            stopped = true
            unlink(path)
            shutdown(listenFD, Int32(SHUT_RDWR))  // wakes the blocked accept
            for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
            return true
        }
        if first { acceptDone.wait() }
    }

    private func acceptLoop() {
        defer {
            close(listenFD)
            acceptDone.leave()
        }
        while true {
            // (Children started by Spawn close every descriptor above 2 anyway.)
            let client = accept(listenFD, nil, nil)
            if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
            if client < 0 {
                if lock.withLock({ stopped }) { return }
                continue
            }
            let accepted: Bool = lock.withLock {
                if stopped { return false }
                open.insert(client)
                return true
            }
            guard accepted else {
                close(client)
                return
            }
            clients.update { $0 += 1 }
            let thread = Thread { [self] in serve(client) }
            thread.name = "FakeDaemon client"
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            lock.withLock {
                open.remove(fd)
                close(fd)
            }
            clients.update { $0 -= 1 }
        }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let request = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                requests.update { $0.append(request) }
                switch respond(request) {
                case .lines(let lines): Self.sendAll(fd, lines.map { $0 + "\n" }.joined())
                case .silent: break
                case .close: return
                }
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    private static func sendAll(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }
}
