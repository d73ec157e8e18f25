import WundercastProtocol
import WundercastPOSIX

/// One connection of a ``SocketServer``: its descriptor, its registration with the server's
/// ``EventLoop``, input and output. Lives on the server's thread and is touched only there:
/// not `Sendable`; a job's task or a timer carries it as a ``LoopBound`` (checked).
final class SocketClient {
    let fd: Int32
    let peer: SocketServer.Peer
    unowned let server: SocketServer
    private var registration: EventLoop.Registration?
    /// What the loop waits for on this descriptor now.
    private(set) var interest: EventLoop.Events = []
    /// A request line not complete yet.
    var input: [UInt8] = []
    private var output: [UInt8] = []
    private var outputOffset = 0
    /// The newest state for a watcher, waiting until what is in `output` is out.
    private(set) var waitingState: [UInt8]?
    /// The client sent `watch` (with these options).
    var watch: SocketProtocol.WatchOptions?
    /// What this watcher was sent last (``StateCache/Entry`` counters).
    var sentGeneration: UInt64 = 0
    var sentWeatherGeneration: UInt64 = 0
    /// `watch every`: no line before this time; a wake-up is scheduled for it.
    var nextLineAt: Duration?
    var pacingWakeScheduled = false
    /// Without a first request, the connection closes at this time (`IdleTimeout=`).
    var idleDeadline: Duration?
    /// Since when output waits without the client taking any of it (`SendTimeout=`).
    private(set) var stalledSince: Duration?
    /// Requests answered off the loop and not answered yet (``SocketServer/Job``).
    var jobsInFlight = 0
    /// A request whose answer later requests wait for is under way: input is not read, and
    /// lines already read wait in ``input`` (``holdInput()``).
    var holding = false
    /// The peer will send no more (EOF, or reading stopped after a refused line).
    var inputEnded = false
    /// Close once the output is out, whatever else (after an `ERROR` that ends the connection).
    private var ending = false
    private(set) var closed = false

    init(fd: Int32, peer: SocketServer.Peer, server: SocketServer) {
        self.fd = fd
        self.peer = peer
        self.server = server
        output.reserveCapacity(4096)
    }

    func start() {
        interest = .readable
        do {
            registration = try server.loop.register(fd, for: interest) { [weak self] events in
                self?.ready(events)
            }
        } catch {
            server.logger.warning("socket: cannot watch a client: \(error)")
            self.close()
        }
    }

    /// An event: read what came (a hang-up or error shows there too), send what waits.
    private func ready(_ events: EventLoop.Events) {
        // Gone both ways while a held request is under way: nobody is left to answer (and a
        // hang-up is reported on every turn while input is not read).
        if holding && !events.isDisjoint(with: .hangUp) {
            self.close()
            return
        }
        if !inputEnded && !events.isDisjoint(with: [.readable, .hangUp]) { readAvailable() }
        if !closed && !events.isDisjoint(with: [.writable, .hangUp]) && (pendingBytes > 0 || waitingState != nil) {
            flush()
        }
        if !closed && inputEnded && !events.isDisjoint(with: .hangUp) && interest.isEmpty { self.close() }
    }

    /// Tells the loop what to wait for: input until it ended, output while some waits.
    func wait(for wanted: EventLoop.Events) {
        guard wanted != interest, let registration else { return }
        interest = wanted
        server.loop.modify(registration, for: wanted)
    }

    var pendingBytes: Int { output.count - outputOffset }

    /// Sends `line` (an `ERROR`), stops reading and closes once it is out.
    func end(with line: [UInt8]) {
        guard !closed else { return }
        stopReading()
        ending = true
        self.send(line)
    }

    /// Appends a direct answer and sends what it can.
    func send(_ bytes: [UInt8]) {
        guard !closed else { return }
        guard admit(bytes.count) else { return }
        output.append(contentsOf: bytes)
        flush()
    }

    /// Appends the state `entry` stamped for now (no allocation) and sends what it can.
    func send(_ entry: EncodedState) {
        guard !closed, admit(0) else { return }
        entry.write(into: &output, now: server.wallClock(), uptime: server.uptime?())
        flush()
    }

    private func admit(_ count: Int) -> Bool {
        guard pendingBytes + count <= server.settings.maxPendingBytes else {
            server.dropped(self, reason: "\(pendingBytes) bytes of answers unread")
            return false
        }
        return true
    }

    /// Sends a state to a watcher: at once when nothing waits, else it replaces the state
    /// that waits (only the newest matters; a line partly sent is finished first).
    func sendLatest(_ bytes: [UInt8]) {
        guard !closed else { return }
        guard pendingBytes == 0 else {
            waitingState = bytes
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
                result = try output.withUnsafeBytes { raw throws(Errno) in
                    try StreamIO.send(fd, UnsafeRawBufferPointer(rebasing: raw[outputOffset...]))
                }
            } catch {
                self.close()  // EPIPE, ECONNRESET: the reader left.
                return
            }
            switch result {
            case .done(let n):
                outputOffset += n
                if stalledSince != nil { stalledSince = server.timer.now() }  // it reads: not stalled
                // Drop what was sent, so a reader that is always a little behind does not
                // make the buffer grow without end.
                if outputOffset >= 64 * 1024 {
                    output.removeFirst(outputOffset)
                    outputOffset = 0
                }
            case .wouldBlock:
                waitForWritable()
                return
            }
        }
        output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
        outputOffset = 0
        stalledSince = nil
        wait(for: interest.subtracting(.writable))
        closeIfDone()
    }

    private func waitForWritable() {
        if stalledSince == nil {
            let now = server.timer.now()
            stalledSince = now
            server.scheduleSweep(at: now + server.settings.sendTimeout)
        }
        wait(for: interest.union(.writable))
    }

    /// Closes a connection that has nothing left to do: its input ended and its answers are
    /// out (a watcher stays; a lookup under way is answered first).
    func closeIfDone() {
        guard !closed, pendingBytes == 0, waitingState == nil else { return }
        if ending || (inputEnded && watch == nil && jobsInFlight == 0) { self.close() }
    }

    func close() {
        guard !closed else { return }
        closed = true
        if let registration { server.loop.unregister(registration) }
        registration = nil
        try? Descriptor.close(fd)
        server.remove(self)
        server.logger.debug("socket: client fd \(fd) closed (\(server.clients.count) connected)")
    }
}
