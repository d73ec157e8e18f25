import Foundation
import WundercastPOSIX
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP/1.1 server in the test process that holds answers back and sees connections
/// end: `GET /hold/…` is answered only at ``release()``, any other path at once (`200`, body
/// `ok PATH`, the connection kept open). Each request's path is recorded as it arrives
/// (``arrived``), and each connection's end with what it last asked and whether that was answered
/// (``ended``): a client that gives up on a held request is seen closing it.
///
/// Served by an event loop of its own (non-blocking sockets), on 127.0.0.1 only.
final class HoldingHTTPServer: Sendable {
    /// How a connection ended (the peer closed it, or it failed).
    struct Ended: Sendable, Equatable {
        var path: String
        var answered: Bool
    }

    let port: Int
    var baseURL: String { "http://127.0.0.1:\(port)" }
    /// Paths of the requests received, in order.
    let arrived = Observed<[String]>([])
    /// The connections that ended, in order.
    let ended = Observed<[Ended]>([])

    private let loop: EventLoop
    private let state: LoopBound<State>

    private final class Connection {
        let fd: Int32
        var registration: EventLoop.Registration?
        var buffer: [UInt8] = []
        var path = ""
        var answered = true
        init(fd: Int32) { self.fd = fd }
    }

    private struct State {
        var listenFD: Int32 = -1
        var listening: EventLoop.Registration?
        var connections: [Int32: Connection] = [:]
    }

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    init() async throws {
        loop = try EventLoop(name: "hold-server")
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw StartError(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw StartError(description: "bind/listen: errno \(errno)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        state = LoopBound(State(listenFD: fd), loop: loop)
        let state = self.state
        let arrived = self.arrived
        let ended = self.ended
        let loop = self.loop
        let failure = await loop.perform { () -> String? in
            do {
                state.value.listening = try loop.register(fd, for: .readable) { _ in
                    Self.accept(state: state, loop: loop, arrived: arrived, ended: ended)
                }
                return nil
            } catch {
                return "\(error)"
            }
        }
        if let failure {
            stop()
            throw StartError(description: failure)
        }
    }

    /// Answers every held request (and those that come later stay held until the next call).
    func release() async {
        let state = self.state
        await loop.perform {
            for connection in state.value.connections.values where !connection.answered {
                Self.answer(connection)
            }
        }
    }

    /// Closes the listening socket and every connection, and ends the loop.
    func stop() {
        let state = self.state
        let loop = self.loop
        loop.post {
            if let listening = state.value.listening { loop.unregister(listening) }
            close(state.value.listenFD)
            for connection in state.value.connections.values {
                if let registration = connection.registration { loop.unregister(registration) }
                close(connection.fd)
            }
            state.value.connections.removeAll()
        }
        loop.stop()
    }

    private static func accept(
        state: LoopBound<State>, loop: EventLoop, arrived: Observed<[String]>, ended: Observed<[Ended]>
    ) {
        while case .done(let fd)? = try? UnixSocket.accept(state.value.listenFD) {
            let connection = Connection(fd: fd)
            state.value.connections[fd] = connection
            connection.registration = try? loop.register(fd, for: .readable) { _ in
                receive(connection, state: state, loop: loop, arrived: arrived, ended: ended)
            }
        }
    }

    private static func receive(
        _ connection: Connection, state: LoopBound<State>, loop: EventLoop, arrived: Observed<[String]>,
        ended: Observed<[Ended]>
    ) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(connection.fd, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard count > 0 else {
            if let registration = connection.registration { loop.unregister(registration) }
            close(connection.fd)
            state.value.connections[connection.fd] = nil
            ended.update { $0.append(Ended(path: connection.path, answered: connection.answered)) }
            return
        }
        connection.buffer += chunk[..<count]
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while let range = connection.buffer.firstRange(of: end) {
            let head = String(decoding: connection.buffer[..<range.lowerBound], as: UTF8.self)
            connection.buffer.removeSubrange(..<range.upperBound)
            let requestLine = head.split(separator: "\r\n").first.map(String.init) ?? ""
            let parts = requestLine.split(separator: " ")
            connection.path = parts.count > 1 ? String(parts[1]) : ""
            connection.answered = false
            arrived.update { $0.append(connection.path) }
            if !connection.path.hasPrefix("/hold/") { answer(connection) }
        }
    }

    private static func answer(_ connection: Connection) {
        let body = "ok \(connection.path)"
        let response =
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let bytes = Array(response.utf8)
        // A few hundred bytes into an empty socket buffer: one write takes them all.
        _ = bytes.withUnsafeBytes { Glibc.write(connection.fd, $0.baseAddress, $0.count) }
        connection.answered = true
    }
}
