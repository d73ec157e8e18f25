#if canImport(Glibc)
import Glibc
#endif
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastCore
import WundercastPOSIX

/// Serves the line protocol (``SocketProtocol``) on a listening Unix stream socket.
///
/// All client I/O is non-blocking on one serial queue. A `watch` client that reads slowly
/// gets only the newest state: a change replaces any state still waiting for it, so a stuck
/// watcher costs at most two lines of memory. A client whose direct answers pile up beyond
/// `maxPendingBytes` is disconnected: a slow or dead reader never holds up the daemon or
/// other readers. A client that disconnects is simply dropped
/// (writes use `MSG_NOSIGNAL`; SIGPIPE is ignored as well).
public final class SocketServer: @unchecked Sendable {
    /// A connected client's credentials (`SO_PEERCRED`) and what they entitle it to.
    public struct Peer: Sendable, Equatable {
        public var uid: UInt32
        public var gid: UInt32
        public var pid: Int32
        /// `precise` for root, the daemon's user and members of `PreciseGroup=`.
        public var reader: ReaderClass
        public init(uid: UInt32, gid: UInt32, pid: Int32, reader: ReaderClass) {
            self.uid = uid
            self.gid = gid
            self.pid = pid
            self.reader = reader
        }
    }

    /// What the server asks of the daemon. Called on the server's queue; must not block
    /// (``lookup`` is async and runs off the queue).
    public struct Handlers: Sendable {
        /// The state to send now, per reader class (it will be stamped with `ageSeconds`).
        public var currentState: @Sendable () -> StateViews
        /// A `now` request arrived (when-in-use refresh hook).
        public var nowRequested: @Sendable () -> Void
        /// `authorize` with a status (decide) or `nil` (show); returns the status in force after it.
        /// Only called for a precise reader when deciding.
        public var authorize: @Sendable (AuthorizationStatus?) -> AuthorizationStatus
        /// The number of `watch` clients changed.
        public var watchersChanged: @Sendable (Int) -> Void
        /// `refresh` from a precise reader.
        public var refresh: @Sendable () -> Void
        /// `status`: the daemon fills all but `counters.clients` and `counters.watchers`.
        public var status: @Sendable () -> SocketProtocol.StatusResponse
        /// `weather …` and `around …`: the whole response line (`WEATHER`, `AROUND` or `ERROR`,
        /// newline included) for `peer`. May wait on the network; the server keeps serving.
        public var lookup: @Sendable (SocketProtocol.Request, Peer) async -> [UInt8]

        public init(
            currentState: @escaping @Sendable () -> StateViews, nowRequested: @escaping @Sendable () -> Void = {},
            authorize: @escaping @Sendable (AuthorizationStatus?) -> AuthorizationStatus,
            watchersChanged: @escaping @Sendable (Int) -> Void = { _ in },
            refresh: @escaping @Sendable () -> Void = {},
            status: @escaping @Sendable () -> SocketProtocol.StatusResponse = {
                .init(
                    uptimeSeconds: 0, gpsd: .init(server: "", connected: false), authorization: .notDetermined,
                    provider: "", state: .noLocation, counters: .init())
            },
            lookup: @escaping @Sendable (SocketProtocol.Request, Peer) async -> [UInt8] = { _, _ in
                SocketProtocol.line(
                    SocketProtocol.ErrorResponse(.unknownRequest, message: "lookups are not served here"))
            }
        ) {
            self.currentState = currentState
            self.nowRequested = nowRequested
            self.authorize = authorize
            self.watchersChanged = watchersChanged
            self.refresh = refresh
            self.status = status
            self.lookup = lookup
        }
    }

    let queue = DispatchQueue(label: "wundercast.socket")
    let listenFD: Int32
    let handlers: Handlers
    let logger: Logger
    let wallClock: @Sendable () -> Date
    let maxPendingBytes: Int
    private var acceptSource: DispatchSourceRead?
    private var stopped = false
    private let listenClosed = DispatchSemaphore(value: 0)
    private var clients: [ObjectIdentifier: Client] = [:]
    private var watcherCount = 0

    /// - Parameter listenFD: a listening stream socket (from ``UnixSocket/listen(path:backlog:)``
    ///   or socket activation); the server owns it from now on.
    public init(
        listenFD: Int32, handlers: Handlers, logger: Logger = .discard, maxPendingBytes: Int = 1 << 20,
        wallClock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.listenFD = listenFD
        self.handlers = handlers
        self.logger = logger
        self.maxPendingBytes = maxPendingBytes
        self.wallClock = wallClock
    }

    /// Starts accepting clients.
    public func start() {
        try? Descriptor.setNonBlocking(listenFD)
        let source = DispatchSource.makeReadSource(fileDescriptor: listenFD, queue: queue)
        source.setEventHandler { [weak self] in self?.acceptAll() }
        // The descriptor stays open until the source is done with it (Dispatch's rule).
        let fd = listenFD
        let closed = listenClosed
        source.setCancelHandler {
            try? Descriptor.close(fd)
            closed.signal()
        }
        source.resume()
        queue.sync { acceptSource = source }
    }

    /// Sends `state` to every `watch` client.
    public func broadcast(_ views: StateViews) {
        let state = views.precise  // TODO(issue 6, server): per reader class
        queue.async {
            let line = SocketProtocol.line(state.stamped(now: self.wallClock()))
            // A watcher that already has this state (it connected after the change) gets no repeat.
            for client in self.clients.values where client.watching && client.lastState != state {
                client.lastState = state
                client.sendLatest(line)
            }
        }
    }

    /// Stops accepting and disconnects every client. Returns once the listening descriptor is
    /// closed. Not to be called on the server's queue.
    public func stop() {
        let wasListening = queue.sync { () -> Bool in
            guard !stopped else { return false }
            stopped = true
            if acceptSuspended { acceptSource?.resume() }
            let listening = acceptSource != nil
            if !listening { try? Descriptor.close(listenFD) }  // never started: no source owns the descriptor
            acceptSource?.cancel()
            acceptSource = nil
            for client in clients.values { client.close() }
            clients.removeAll()
            return listening
        }
        if wasListening { _ = listenClosed.wait(timeout: .now() + 5) }
    }

    /// Number of connected clients (tests).
    public var clientCount: Int { queue.sync { clients.count } }

    /// The most output bytes waiting for any one client, its waiting state included (tests).
    public var largestBacklog: Int {
        queue.sync { clients.values.map { $0.pendingBytes + ($0.waitingState?.count ?? 0) }.max() ?? 0 }
    }

    private func acceptAll() {
        while true {
            let fd: Int32
            do {
                guard
                    case .done(let accepted) = try syscall(
                        "accept", "listening fd \(listenFD)", { accept(listenFD, nil, nil) })
                else { return }
                fd = accepted
            } catch {
                if error.code == EMFILE || error.code == ENFILE {
                    // The connection stays in the backlog, so the source would fire again at
                    // once: pause accepting for a moment instead of spinning.
                    pauseAccepting(error.reason)
                } else {
                    logger.warning("accept: \(error.reason)")
                }
                return
            }
            try? Descriptor.setNonBlocking(fd)
            try? Descriptor.setCloseOnExec(fd)
            let client = Client(fd: fd, server: self)
            clients[ObjectIdentifier(client)] = client
            client.start()
        }
    }

    private var acceptSuspended = false

    /// Suspends accepting for half a second (out of descriptors); one warning per pause.
    private func pauseAccepting(_ reason: String) {
        guard !acceptSuspended, let source = acceptSource else { return }
        acceptSuspended = true
        source.suspend()
        logger.warning("accept: \(reason); not accepting new clients for 0.5 s (\(clients.count) connected)")
        queue.asyncAfter(deadline: .now() + .milliseconds(500)) { [weak self] in
            guard let self, self.acceptSuspended, let source = self.acceptSource else { return }
            self.acceptSuspended = false
            source.resume()
        }
    }

    fileprivate func handle(line: String, from client: Client) {
        let request: SocketProtocol.Request
        do {
            request = try SocketProtocol.parse(line)
        } catch {
            client.send(SocketProtocol.line(SocketProtocol.ErrorResponse(error)))
            return
        }
        switch request {
        case .now:
            handlers.nowRequested()
            client.send(SocketProtocol.line(handlers.currentState().precise.stamped(now: wallClock())))
        case .watch:  // options: TODO(issue 6, server)
            if !client.watching {
                client.watching = true
                watcherCount += 1
                handlers.watchersChanged(watcherCount)
            }
            let state = handlers.currentState().precise
            client.lastState = state
            client.send(SocketProtocol.line(state.stamped(now: wallClock())))
        case .version:
            client.send(SocketProtocol.line(SocketProtocol.VersionResponse()))
        case .help:
            client.send(SocketProtocol.line(SocketProtocol.HelpResponse()))
        case .authorize(let status):
            let now = handlers.authorize(status)
            client.send(SocketProtocol.line(SocketProtocol.AuthorizationResponse(now)))
        case .weather, .around, .status, .refresh:  // TODO(issue 6, server): route to the daemon
            client.send(SocketProtocol.line(SocketProtocol.ErrorResponse(.unknownRequest, message: "not yet")))
        }
    }

    fileprivate func remove(_ client: Client) {
        guard clients.removeValue(forKey: ObjectIdentifier(client)) != nil else { return }
        if client.watching {
            watcherCount -= 1
            handlers.watchersChanged(watcherCount)
        }
    }

    /// One connection. Lives on the server's queue.
    fileprivate final class Client {
        let fd: Int32
        unowned let server: SocketServer
        var readSource: DispatchSourceRead?
        var writeSource: DispatchSourceWrite?
        var writeSourceResumed = false
        var input: [UInt8] = []
        var output: [UInt8] = []
        var outputOffset = 0
        var watching = false
        /// The last state sent to this watcher.
        var lastState: WeatherState?
        var peerClosedInput = false
        var closed = false

        init(fd: Int32, server: SocketServer) {
            self.fd = fd
            self.server = server
        }

        func start() {
            // The descriptor is closed once both sources are cancelled (Dispatch requires
            // that a source's descriptor stays open until its cancel handler ran).
            var sourcesLeft = 2
            let fd = self.fd
            let cancelled = {
                sourcesLeft -= 1; if sourcesLeft == 0 { try? Descriptor.close(fd) }
            }
            let read = DispatchSource.makeReadSource(fileDescriptor: fd, queue: server.queue)
            read.setCancelHandler(handler: cancelled)
            read.setEventHandler { [weak self] in self?.readAvailable() }
            let write = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: server.queue)
            write.setEventHandler { [weak self] in self?.flush() }
            write.setCancelHandler(handler: cancelled)
            readSource = read
            writeSource = write
            read.resume()
        }

        private func readAvailable() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !closed {
                let n: Int
                do {
                    guard
                        case .done(let received) = try syscall(
                            "recv", "client fd \(fd)",
                            { buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } })
                    else { return }
                    n = received
                } catch {
                    close()  // ECONNRESET: the client left.
                    return
                }
                if n > 0 {
                    input.append(contentsOf: buffer[0..<n])
                    processLines()
                } else if n == 0 {
                    // The end of input ends the last line too: `printf now | socat …` is answered.
                    if !input.isEmpty {
                        input.append(UInt8(ascii: "\n"))
                        processLines()
                        if closed { return }
                    }
                    peerClosedInput = true
                    readSource?.cancel()
                    readSource = nil
                    // Gone entirely (POLLHUP): leave now, so that a `watch` client that quit
                    // stops counting at once (when-in-use). Only half-closed (`echo now |
                    // socat`): answer what was asked first; a half-closed watcher stays
                    // until a write to it fails.
                    var descriptor = pollfd(fd: fd, events: 0, revents: 0)
                    let hungUp = poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLHUP) != 0
                    if hungUp || (!watching && pendingBytes == 0) { close() }
                    return
                }
            }
        }

        private func processLines() {
            while let newline = input.firstIndex(of: UInt8(ascii: "\n")) {
                let lineBytes = input[..<newline]
                input.removeSubrange(...newline)
                guard lineBytes.count <= SocketProtocol.maxRequestLength else {
                    reject("request longer than \(SocketProtocol.maxRequestLength) bytes")
                    return
                }
                guard let line = String(validating: lineBytes, as: UTF8.self) else {
                    send(
                        SocketProtocol.line(
                            SocketProtocol.ErrorResponse(.notUTF8, message: "request is not UTF-8 text")))
                    continue
                }
                server.handle(line: line, from: self)
                if closed { return }
            }
            if input.count > SocketProtocol.maxRequestLength {
                reject("request longer than \(SocketProtocol.maxRequestLength) bytes")
            }
        }

        /// Answers with an error and stops reading; the connection closes once the answer is out
        /// (``flush()`` closes a non-watcher whose input is over).
        private func reject(_ message: String) {
            input.removeAll()
            peerClosedInput = true
            readSource?.cancel()
            readSource = nil
            send(SocketProtocol.line(SocketProtocol.ErrorResponse(.tooLong, message: message)))
        }

        var pendingBytes: Int { output.count - outputOffset }
        /// The newest state for a watcher, waiting until what is in `output` is out.
        var waitingState: [UInt8]?

        /// Sends a state to a watcher: at once when nothing waits, else it replaces the state
        /// that waits (only the newest matters; a line partly sent is finished first).
        func sendLatest(_ bytes: [UInt8]) {
            guard !closed else { return }
            guard pendingBytes == 0 else {
                waitingState = bytes
                return
            }
            send(bytes)
        }

        func send(_ bytes: [UInt8]) {
            guard !closed else { return }
            if pendingBytes + bytes.count > server.maxPendingBytes {
                server.logger.warning("dropping a socket client that does not read (\(pendingBytes) bytes waiting)")
                close()
                return
            }
            output.append(contentsOf: bytes)
            flush()
        }

        func flush() {
            while !closed {
                if pendingBytes == 0 {
                    guard let next = waitingState else { break }
                    waitingState = nil
                    output.removeAll(keepingCapacity: true)
                    outputOffset = 0
                    output.append(contentsOf: next)
                }
                let result: IOResult<Int>
                do {
                    result = try syscall("send", "client fd \(fd)") {
                        output.withUnsafeBytes { raw in
                            Glibc.send(
                                fd, raw.baseAddress! + outputOffset, raw.count - outputOffset, Int32(MSG_NOSIGNAL))
                        }
                    }
                } catch {
                    close()  // EPIPE, ECONNRESET: the reader left.
                    return
                }
                switch result {
                case .done(let n):
                    outputOffset += n
                    // Drop what was sent, so a reader that is always a little behind does not
                    // make the buffer grow without end.
                    if outputOffset >= 64 * 1024 {
                        output.removeFirst(outputOffset)
                        outputOffset = 0
                    }
                case .wouldBlock:
                    if !writeSourceResumed {
                        writeSourceResumed = true
                        writeSource?.resume()
                    }
                    return
                }
            }
            output.removeAll(keepingCapacity: true)
            outputOffset = 0
            if writeSourceResumed {
                writeSourceResumed = false
                writeSource?.suspend()
            }
            if peerClosedInput && !watching { close() }
        }

        func close() {
            guard !closed else { return }
            closed = true
            readSource?.cancel()
            if let writeSource {
                if !writeSourceResumed { writeSource.resume() }
                writeSource.cancel()
            }
            readSource = nil
            writeSource = nil
            server.remove(self)
        }
    }
}
