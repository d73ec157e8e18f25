import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP/1.1 server in this process that serves the recorded weather-API responses
/// under `Tests/Fixtures` on 127.0.0.1: the routes, failure shapes and request log of
/// `Tests/Tools/fixture_http_server.py` (see ``FixtureResponder``), without a Python start-up.
///
/// `GET /v1/forecast` answers with Open-Meteo's recorded Bucharest response (metric, or °F/mph
/// when `temperature_unit=fahrenheit`; for N comma-separated coordinates, as Open-Meteo does, a
/// JSON array of N copies that the server builds from it), `GET /v1/search` Open-Meteo geocoding's recorded
/// "no match", `GET /v1/marine` the Marine API's recorded North Sea answer, `GET /weatherapi/locationforecast/2.0/compact` MET Norway's recorded New York
/// answer with its recorded `Date`, `Expires` and `Last-Modified` (a `*.wrapped.json` file is
/// served as its `data` with those headers), `GET /data/2.5/weather` and `GET /data/2.5/forecast`
/// OpenWeatherMap's recorded Zocca weather and Moravská Třebová forecast (from `root`: a test may
/// serve its own variants); ``FixtureServer/respond(status:body:retryAfter:delaySeconds:file:headers:bodyBytes:gzip:chunked:truncateAt:lastModified:)``
/// changes them all; `GET /redirect?to=/PATH` answers 302; other paths 404. Bodies are
/// gzip-compressed when the client accepts gzip. Every request is recorded (``requests()``).
///
/// One thread accepts, one thread serves each connection (keep-alive, as Python's
/// `ThreadingHTTPServer`); each waits in `poll` on its socket and on a pipe that ``stop()``
/// closes, so a stop (or `deinit`) ends them all, also in the middle of a delayed answer.
/// A test that needs the server in another process (another network namespace) uses
/// ``PythonFixtureHTTPServer``.
public final class FixtureHTTPServer: FixtureServer {
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    public let port: Int

    private let core: Core

    /// Starts serving the fixtures in `root` (asynchronous only to match ``PythonFixtureHTTPServer``'s
    /// start: the socket listens when this returns).
    public init(root: URL = Fixtures.directory) async throws {
        core = try Core(root: root)
        port = core.port
    }

    deinit { stop() }

    /// Every request received so far, oldest first (throws nothing; `throws` as the Python server's).
    public func requests() throws -> [RecordedRequest] { core.requests.value }

    /// Waits until at least `count` requests have arrived and returns them all; throws
    /// ``FixtureRequestsTimeout`` after `timeout` (a safety net), `CancellationError` when the
    /// task is cancelled. A request is recorded when it arrives, before any `delaySeconds`, so
    /// this also tells that a delayed request is in flight.
    @discardableResult
    public func waitForRequests(count: Int = 1, timeout: Duration = .seconds(10)) async throws -> [RecordedRequest] {
        do {
            return try await core.requests.wait(timeout: timeout, "\(count) requests") { $0.count >= count }
        } catch is DeadlineExceeded {
            throw FixtureRequestsTimeout(expected: count, received: core.requests.value.count)
        }
    }

    public func respond(_ control: FixtureControl) throws {
        core.control.withLock { $0 = control }
    }

    /// Back to the default answers, and forgets the recorded requests.
    public func reset() throws {
        core.control.withLock { $0 = FixtureControl() }
        core.requests.update { $0 = [] }
    }

    /// Stops the server at once: the port is closed when this returns, and every connection
    /// is closed by its thread as it wakes. Idempotent.
    public func stop() { core.stop() }

    /// ``stop()``, then waits until every thread of the server has ended (bounded: 10 s).
    public func stopAndWait() async {
        core.stop()
        _ = try? await core.threads.wait(timeout: .seconds(10), "the fixture HTTP server's threads to end") { $0 == 0 }
    }
}

extension FixtureHTTPServer {
    /// The sockets and threads; the public object is only its handle, so that `deinit` stops it.
    final class Core: Sendable {
        let port: Int
        let responder: FixtureResponder
        let control = Mutex(FixtureControl())
        let requests = Observed<[RecordedRequest]>([])
        /// Threads of this server still running (the acceptor and one per connection).
        let threads = Observed(0)
        private let listener: Int32
        /// ``stop()`` closes the write end: every `poll` on the read end wakes (EOF).
        private let wake: PipeDescriptors
        private let stopped = Mutex(false)

        init(root: URL) throws {
            responder = FixtureResponder(root: root)
            let (fd, port) = try LoopbackTCP.bind(listening: 128, reuseAddress: true)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            do {
                wake = try PipeDescriptors()
            } catch {
                close(fd)
                throw error
            }
            listener = fd
            self.port = port
            start("FixtureHTTPServer :\(port) accept") { core in core.acceptLoop() }
        }

        deinit {
            // Every thread holds the core while it runs: none is left now.
            close(wake.read)
        }

        func stop() {
            let first = stopped.withLock { stopped -> Bool in
                defer { stopped = true }
                return !stopped
            }
            guard first else { return }
            // The socket stops listening (connections are refused from now on), whoever holds
            // a copy of its descriptor (a child being spawned); the acceptor closes it.
            shutdown(listener, Int32(SHUT_RDWR))
            close(wake.write)
        }

        private func start(_ name: String, _ body: @escaping @Sendable (Core) -> Void) {
            threads.update { $0 += 1 }
            let thread = Thread { [self] in
                body(self)
                threads.update { $0 -= 1 }
            }
            thread.name = name
            thread.start()
        }

        /// Waits until `fd` is ready for `events` (or has an error, or its peer closed) or the
        /// server stops: `false` then.
        private func ready(_ fd: Int32, _ events: Int32) -> Bool {
            var descriptors = [
                pollfd(fd: fd, events: Int16(events), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            while poll(&descriptors, 2, -1) < 0 && errno == EINTR {}
            return descriptors[1].revents == 0
        }

        private func acceptLoop() {
            defer { close(listener) }
            while ready(listener, Int32(POLLIN)) {
                let client = accept(listener, nil, nil)
                guard client >= 0 else {
                    if errno == EINTR || errno == ECONNABORTED || errno == EAGAIN { continue }
                    return  // shut down (or out of descriptors: the test sees its requests fail)
                }
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)  // Spawn closes it in children anyway
                start("FixtureHTTPServer :\(port) connection") { core in core.serve(client) }
            }
        }

        /// Serves requests on `fd` until the client closes, asks to close, or the server stops.
        private func serve(_ fd: Int32) {
            defer { close(fd) }
            var buffer: [UInt8] = []
            while true {
                guard let (request, http10) = readRequest(fd, &buffer) else { return }
                let record = FixtureResponder.record(request, at: Date())
                guard ["GET", "HEAD"].contains(request.method) else {
                    _ = send(
                        fd,
                        FixtureResponder.Reply(
                            status: 501, headers: [("Content-Length", "0"), ("Connection", "close")], body: []
                        ).wire(head: true))
                    return
                }
                requests.update { $0.append(record) }
                let reply = responder.reply(to: request, control: control.withLock { $0 }, now: Date())
                if reply.delay > 0, !wait(seconds: reply.delay) { return }
                var wire = reply.wire(head: request.method == "HEAD")
                var closing = false
                if let cut = reply.truncateAt, request.method != "HEAD", cut >= 0, cut < wire.count - headerLength(wire)
                {
                    wire = Array(wire.prefix(headerLength(wire) + cut))
                    closing = true
                }
                guard send(fd, wire), !closing else { return }
                let connection = request.header("Connection")?.lowercased()
                if connection == "close" || (http10 && connection != "keep-alive") { return }
            }
        }

        /// Length of the status line and headers of `wire` (up to and with the empty line).
        private func headerLength(_ wire: [UInt8]) -> Int {
            var index = 3
            while index < wire.count {
                if wire[index - 3] == 13 && wire[index - 2] == 10 && wire[index - 1] == 13 && wire[index] == 10 {
                    return index + 1
                }
                index += 1
            }
            return wire.count
        }

        /// Waits `seconds` (the server's delayed answer), or less when the server stops: `false` then.
        private func wait(seconds: Double) -> Bool {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while true {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return true }
                let milliseconds = Int32(
                    clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
                var descriptor = pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
                let result = poll(&descriptor, 1, milliseconds)
                if result > 0 { return false }
            }
        }

        /// Reads one request (request line and headers; a body by `Content-Length` is skipped);
        /// `nil` when the connection ends, is malformed (answered 400) or the server stops.
        private func readRequest(_ fd: Int32, _ buffer: inout [UInt8]) -> (FixtureResponder.Request, Bool)? {
            var end: Int? = nil
            while true {
                if let found = Self.endOfHead(buffer) {
                    end = found
                    break
                }
                // As Python's server, the request line is judged once it is there: a TLS
                // handshake (it holds a 0x0A) is answered 400 at once, and the client sees no TLS.
                if let newline = buffer.firstIndex(of: 10), Self.requestLine(buffer[..<newline]) == nil {
                    _ = send(fd, badRequest)
                    return nil
                }
                guard buffer.count < 65536, let bytes = receive(fd) else {
                    if buffer.count >= 65536 { _ = send(fd, badRequest) }
                    return nil
                }
                buffer += bytes
            }
            guard let end else { return nil }
            let head = String(decoding: buffer[..<end], as: UTF8.self)
            buffer.removeFirst(end)
            // "\r\n" is one Character: split on either line end.
            let lines = head.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            guard let parts = lines.first.flatMap({ Self.requestLine(Array($0.utf8)[...]) }) else {
                _ = send(fd, badRequest)
                return nil
            }
            var headers: [(name: String, value: String)] = []
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                // As Python's `http.server`: blanks before the value go, those after it stay.
                let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
                headers.append((String(line[..<colon]), String(value)))
            }
            let request = FixtureResponder.Request(method: parts.method, target: parts.target, headers: headers)
            if let length = request.header("Content-Length").flatMap(Int.init), length > 0 {
                while buffer.count < length {
                    guard let bytes = receive(fd) else { return nil }
                    buffer += bytes
                }
                buffer.removeFirst(length)
            }
            return (request, parts.version == "HTTP/1.0")
        }

        /// Method, target and version of a request line (a trailing `\r` allowed); `nil` when it is none.
        private static func requestLine(
            _ bytes: ArraySlice<UInt8>
        ) -> (method: String, target: String, version: String)? {
            let text = String(decoding: bytes.last == 13 ? bytes.dropLast() : bytes, as: UTF8.self)
            let parts = text.split(separator: " ")
            guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return nil }
            return (String(parts[0]), String(parts[1]), String(parts[2]))
        }

        private var badRequest: [UInt8] {
            FixtureResponder.Reply(status: 400, headers: [("Content-Length", "0"), ("Connection", "close")], body: [])
                .wire(head: true)
        }

        /// Index just past the empty line that ends a request head (`\r\n\r\n` or `\n\n`).
        private static func endOfHead(_ bytes: [UInt8]) -> Int? {
            var index = 0
            while index < bytes.count {
                if bytes[index] == 10 {
                    if index + 1 < bytes.count && bytes[index + 1] == 10 { return index + 2 }
                    if index + 2 < bytes.count && bytes[index + 1] == 13 && bytes[index + 2] == 10 { return index + 3 }
                }
                index += 1
            }
            return nil
        }

        /// The next bytes from `fd`; `nil` at its end, on an error, or when the server stops.
        private func receive(_ fd: Int32) -> [UInt8]? {
            var chunk = [UInt8](repeating: 0, count: 16384)
            while ready(fd, Int32(POLLIN)) {
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n > 0 { return Array(chunk.prefix(n)) }
                if n == 0 { return nil }
                guard errno == EINTR || errno == EAGAIN else { return nil }
            }
            return nil
        }

        /// Sends all of `bytes`; `false` when the client went away (no SIGPIPE) or the server stops.
        private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                guard ready(fd, Int32(POLLOUT)) else { return false }
                let n = bytes[offset...].withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if n > 0 {
                    offset += n
                } else if n < 0 && (errno == EINTR || errno == EAGAIN) {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}
