import Foundation
import Testing
import WundercastModel
import WundercastProtocol
import WundercastPipeline
import WundercastPOSIX
import WundercastServer
import WundercastTestSupport

/// A test client for the daemon's socket. Its reads block (bounded by `SO_RCVTIMEO`), so
/// ``readLine()`` does them on a dedicated thread, never on a Swift concurrency thread; a
/// thread of the test's own may call ``readLineBlocking()``. One reader at a time.
///
/// ``close()`` during a read shuts the connection down (the read ends at once) and leaves the
/// closing of the descriptor to the reader as it leaves: a reader that a cancelled wait left
/// behind never reads a descriptor number that another test took meanwhile.
final class LineClient: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []
    private let lock = NSLock()
    private var closed = false
    private var reading = false

    init(path: String) throws {
        fd = try UnixSocket.connect(path: path)
        receiveTimeout(seconds: 60)  // a broken server fails the test, never hangs it
    }

    /// Reads end after `seconds` without data from now on (instead of 60 s): for a read whose
    /// answer comes at once or, when the behaviour is broken, never.
    func receiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        guard !lock.withLock({ closed }) else { return }
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, or `nil` on EOF or timeout; read on a dedicated thread.
    func readLine() async -> String? {
        (try? await onDedicatedThread("LineClient.readLine") { self.readLineBlocking() }) ?? nil
    }

    /// The next line, or `nil` on EOF, timeout or ``close()``; blocks the calling thread.
    func readLineBlocking() -> String? {
        guard
            lock.withLock({ () -> Bool in
                reading = !closed
                return reading
            })
        else { return nil }
        defer {
            let closeNow = lock.withLock { () -> Bool in
                reading = false
                return closed
            }
            if closeNow { Glibc.close(fd) }
        }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let i = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<i], as: UTF8.self)
                buffer.removeSubrange(...i)
                return line
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Closes the connection once: tests run in parallel, and closing a descriptor number
    /// twice may close another test's descriptor that took the number meanwhile. While a read
    /// is under way the connection is shut down and the reader closes it.
    func close() {
        let closeNow = lock.withLock { () -> Bool? in
            guard !closed else { return nil }
            closed = true
            if reading { shutdown(fd, Int32(SHUT_RDWR)) }
            return !reading
        }
        if closeNow == true { Glibc.close(fd) }
    }
}

func jsonObject(_ line: String?) throws -> [String: Any] {
    let line = try #require(line)
    return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
}

@Suite final class SocketServerTests {
    let directory: URL
    let path: String
    let store = StateStore(provider: "open-meteo", authorization: .authorizedAlways)
    let watchers = Observed<[Int]>([])
    let nowRequests = Observed(0)
    var server: SocketServer!
    /// The server's jobs (lookups, decisions), as the daemon's socket service runs them.
    var jobs: Task<Void, Never>?

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-socket-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("s.sock").path
    }

    deinit {
        jobs?.cancel()
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func start(maxPendingBytes: Int = 1 << 20, sendTimeout: Duration = .seconds(60)) throws {
        let store = self.store
        let watchers = self.watchers
        let nowRequests = self.nowRequests
        let authorization = ObservableValue(AuthorizationStatus.authorizedAlways)
        server = try SocketServer(
            listenFD: try UnixSocket.listen(path: path),
            handlers: .init(
                currentState: { StateViews(store.current) },
                nowRequested: { _ in nowRequests.update { $0 += 1 } },
                authorize: { status in
                    if let status { authorization.send(status) }
                    return authorization.value
                },
                watchersChanged: { n in watchers.update { $0.append(n) } }),
            settings: .init(sendTimeout: sendTimeout, maxPendingBytes: maxPendingBytes))
        server.start()
        let server = self.server!
        jobs = Task { await server.runJobs() }
    }

    @Test func nowAnswersTheCurrentStateAtOnce() async throws {
        try start()
        let client = try LineClient(path: path)
        defer { client.close() }
        client.send("now\n")
        let object = try jsonObject(await client.readLine())
        #expect(object["class"] as? String == "WEATHER")
        #expect(object["status"] as? String == "noLocation")
        #expect(nowRequests.value == 1)
        // The connection stays usable for more requests.
        client.send("version\n")
        #expect(try jsonObject(await client.readLine())["class"] as? String == "VERSION")
    }

    /// A stopping server tells its watchers why the line ends, then closes it.
    @Test func stoppingTellsWatchersThenCloses() async throws {
        try start()
        let client = try LineClient(path: path)
        defer { client.close() }
        client.send("watch\n")
        #expect(try jsonObject(await client.readLine())["class"] as? String == "WEATHER")
        Spawn.withNoSpawnInFlight { server.stop() }
        let farewell = try jsonObject(await client.readLine())
        #expect(farewell["class"] as? String == "ERROR")
        #expect(farewell["code"] as? String == "shutting-down")
        #expect(await client.readLine() == nil)
    }

    @Test func badRequestsGetAnErrorObjectAndTheConnectionSurvives() async throws {
        try start()
        let client = try LineClient(path: path)
        defer { client.close() }
        client.send("gimme weather\n")
        let error = try jsonObject(await client.readLine())
        #expect(error["class"] as? String == "ERROR")
        #expect((error["message"] as? String)?.contains("'gimme'") == true)
        client.send("\u{FF}\u{FE}\n")  // not UTF-8
        #expect(try jsonObject(await client.readLine())["class"] as? String == "ERROR")
        client.send("authorize when-in-use\n")
        #expect(try jsonObject(await client.readLine())["config"] as? String == "when-in-use")
    }

    @Test func overlongRequestIsRefused() async throws {
        try start()
        let client = try LineClient(path: path)
        defer { client.close() }
        client.send(String(repeating: "x", count: 5000))
        let error = try jsonObject(await client.readLine())
        #expect((error["message"] as? String)?.contains("longer than 1024") == true)
        // Then the server lets go of the connection (no leaked descriptor). It forgets the
        // client before the descriptor closes (the sources' cancel handlers close it), so at EOF
        // the count is already down.
        #expect(await client.readLine() == nil)
        #expect(await server.clientCount == 0)
    }

    @Test func watchSendsCurrentStateThenEachChange() async throws {
        try start()
        let client = try LineClient(path: path)
        defer { client.close() }
        client.send("watch\n")
        #expect(try jsonObject(await client.readLine())["status"] as? String == "noLocation")
        store.beginStatus(.denied, gate: .init(code: "denied", message: "GPS use is denied"))
        server.broadcast(StateViews(store.current))
        let changed = try jsonObject(await client.readLine())
        #expect((changed["error"] as? [String: Any])?["code"] as? String == "denied")
        #expect(watchers.value == [1])
        client.close()
        let after = try? await watchers.wait(timeout: .seconds(10), "the watcher to leave") { $0.count >= 2 }
        #expect(after == [1, 0])
    }

    /// `echo now | socat …`, and `printf now | socat …`: the end of input ends the request.
    @Test(arguments: ["now\n", "now"]) func socatOneShotWorks(request: String) async throws {
        try start()
        let socat = try ChildProcess(
            ["/usr/bin/socat", "-", "UNIX-CONNECT:\(path)"], stdinPipe: true, separateStderr: true)
        socat.writeToStdin(Array(request.utf8))
        socat.closeStdin()
        try await socat.exited(timeout: .seconds(20))
        try await socat.output.waitForEnd("the end of socat's output")
        let data = socat.output.rawText
        let lines = data.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(try jsonObject(lines.first.map(String.init))["class"] as? String == "WEATHER")
    }

    /// A watcher that stops reading keeps only the newest state waiting (about two lines of
    /// memory, not a megabyte per client: 300 such readers grew the daemon to 440 MB), stays
    /// connected, and holds up nobody: a healthy watcher sees every batch's newest change.
    @Test func aWatcherThatDoesNotReadCostsTwoLinesAndOthersAreServed() async throws {
        // No send time-out here: on a loaded machine this test may outlast the default minute,
        // after which the stuck watcher would rightly be disconnected (tested on its own).
        try start(maxPendingBytes: 64 * 1024, sendTimeout: .seconds(3600))
        let stuck = try LineClient(path: path)  // never reads
        defer { stuck.close() }
        let healthy = try LineClient(path: path)
        defer { healthy.close() }
        stuck.send("watch\n")
        healthy.send("watch\n")
        #expect(await healthy.readLine() != nil)
        // A reader on its own thread drains the healthy client as fast as lines come.
        let lastChange = Observed(-1)
        let gotVersion = Observed(false)
        let reader = Thread { [healthy] in
            while let line = healthy.readLineBlocking() {
                if line.contains("\"VERSION\"") { break }
                if let range = line.range(of: "change "),
                    let n = Int(line[range.upperBound...].prefix { $0.isNumber })
                {
                    lastChange.update { $0 = n }
                }
            }
            gotVersion.update { $0 = true }
        }
        reader.start()
        var state = store.current
        var longest = 0
        for batch in 0..<30 {
            for i in (batch * 100)..<(batch * 100 + 100) {
                state.error = .init(code: "test", message: "change \(i) " + String(repeating: "·", count: 200))
                longest = max(longest, SocketProtocol.line(state).count)
                server.broadcast(StateViews(state))
            }
            // The healthy reader gets each batch's newest change (bounded wait).
            let newest = batch * 100 + 99
            _ = try? await lastChange.wait(timeout: .seconds(60), "change \(newest)") { $0 >= newest }
        }
        #expect(lastChange.value == 2999)
        #expect(await server.clientCount == 2, "the stuck watcher stays connected")
        #expect(
            await server.largestBacklog <= 2 * (longest + 64), "at most a partly sent line and the newest state wait")
        healthy.send("version\n")
        #expect((try? await gotVersion.wait(timeout: .seconds(20), "the healthy reader's VERSION") { $0 }) == true)
    }

    @Test func aLiveSocketIsNotStolenAndAStaleOneIsReplaced() async throws {
        try start()
        #expect(throws: Errno.self) { try UnixSocket.listen(path: self.path) }
        // No child of a parallel test may hold a copy of the listening socket as it closes.
        Spawn.withNoSpawnInFlight { server.stop() }
        server = nil
        // The file is left behind by a "dead daemon": a new one takes it over.
        let fd = try UnixSocket.listen(path: path)
        close(fd)
    }

    /// Only a stale socket of ours (or root's) is replaced: a regular file (even another
    /// user's), a directory, a symbolic link or a FIFO at the path stays as it was, and binding
    /// fails naming the path and what is there.
    @Test(arguments: ["regular file", "another user's file", "directory", "symbolic link", "FIFO"])
    func whatIsNotOurSocketIsLeftInPlace(_ kind: String) throws {
        let target = directory.appendingPathComponent("kept.txt").path
        try "keep me\n".write(toFile: target, atomically: false, encoding: .utf8)
        switch kind {
        case "regular file": try "keep me\n".write(toFile: path, atomically: false, encoding: .utf8)
        case "another user's file":
            try "keep me\n".write(toFile: path, atomically: false, encoding: .utf8)
            if geteuid() == 0 { #expect(chown(path, 65534, 65534) == 0) }
        case "directory": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case "symbolic link": #expect(symlink(target, path) == 0)
        default: #expect(mkfifo(path, 0o600) == 0)
        }
        var before = stat()
        #expect(lstat(path, &before) == 0)
        do {
            let fd = try UnixSocket.listen(path: path)
            close(fd)
            Issue.record("bound over a \(kind)")
        } catch {
            #expect(error.code == EEXIST)
            #expect(error.description.contains(path) && error.description.contains("not a socket"), "\(error)")
        }
        var after = stat()
        #expect(lstat(path, &after) == 0, "the \(kind) is still there")
        #expect(after.st_ino == before.st_ino && after.st_mode == before.st_mode)
        if kind.hasSuffix("file") || kind == "symbolic link" {
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
        }
    }

    /// A stale socket of another user is another user's service: left in place (as root, the
    /// test makes one by giving a socket file to `nobody`).
    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func anotherUsersStaleSocketIsLeftInPlace() throws {
        close(try UnixSocket.listen(path: path))
        #expect(chown(path, 65534, 65534) == 0)
        #expect(
            throws: Errno(
                call: "bind",
                subject: "\(path) (a socket of user 65534, not ours: left in place; remove it or choose another Path=)",
                code: EEXIST)
        ) {
            try UnixSocket.listen(path: self.path)
        }
        var status = stat()
        #expect(lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK && status.st_uid == 65534)
    }
}
